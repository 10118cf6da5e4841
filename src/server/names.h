// The display names players give their seats: shown to every other player and spectator, so they must
// read as what they are (no invisible characters, no text direction tricks, no look-alike blanks).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tabula::server {

constexpr size_t kMaxNameCharacters = 40;

// The name without the plain spaces (U+0020) around it, or nullopt when nothing is left ("no name").
// GameError (bad_request) naming what is wrong when the name is not valid UTF-8, is longer than
// kMaxNameCharacters code points once trimmed, or holds a control character, a line or paragraph
// separator, an invisible or direction-changing character, a blank other than U+0020, a private-use
// character or a noncharacter.
std::optional<std::string> validate_display_name(std::string_view name);

}  // namespace tabula::server
