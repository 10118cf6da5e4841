#include "server/names.h"

#include "core/error.h"

#include <cstdio>

namespace tabula::server {

namespace {

struct Range {
  char32_t first;
  char32_t last;
};

// C0 controls, DEL and C1 controls (NEL U+0085 included); the line and paragraph separators.
constexpr Range kControls[] = {{0x0000, 0x001F}, {0x007F, 0x009F}, {0x2028, 0x2029}};

// Characters that change the direction of the text around them or show nothing at all: Unicode's
// Default_Ignorable_Code_Point set without the variation selectors (which only pick a glyph's style, as
// in a red heart emoji) and without the Hangul fillers (refused as blanks below).
constexpr Range kInvisible[] = {
    {0x00AD, 0x00AD},    // soft hyphen
    {0x034F, 0x034F},    // combining grapheme joiner
    {0x061C, 0x061C},    // Arabic letter mark
    {0x17B4, 0x17B5},    // Khmer inherent vowels
    {0x180E, 0x180E},    // Mongolian vowel separator
    {0x200B, 0x200F},    // zero-width space, non-joiner, joiner; left-to-right and right-to-left marks
    {0x202A, 0x202E},    // bidi embeddings and overrides
    {0x2060, 0x206F},    // word joiner, invisible operators, bidi isolates, deprecated format characters
    {0xFEFF, 0xFEFF},    // zero-width no-break space (byte order mark)
    {0xFFF0, 0xFFFB},    // reserved ignorables, interlinear annotation marks
    {0x1BCA0, 0x1BCA3},  // shorthand format controls
    {0x1D173, 0x1D17A},  // musical symbol format controls
    {0xE0000, 0xE00FF},  // tags, and reserved ignorables up to the variation selectors
    {0xE01F0, 0xE0FFF},  // reserved ignorables after the variation selectors
};

// Every White_Space character other than U+0020 that is not already a control, and the Hangul fillers,
// which print as nothing: a name made of them looks blank or like someone else's.
constexpr Range kBlanks[] = {
    {0x00A0, 0x00A0}, {0x115F, 0x1160}, {0x1680, 0x1680}, {0x2000, 0x200A}, {0x202F, 0x202F},
    {0x205F, 0x205F}, {0x3000, 0x3000}, {0x3164, 0x3164}, {0xFFA0, 0xFFA0},
};

// The private-use area of the BMP and planes 15 and 16: no agreed glyphs, so no telling what others see.
constexpr Range kPrivateUse[] = {{0xE000, 0xF8FF}, {0xF0000, 0x10FFFF}};

template <size_t N>
bool in(const Range (&ranges)[N], char32_t cp) {
  for (const Range& r : ranges)
    if (cp >= r.first && cp <= r.last) return true;
  return false;
}

bool is_noncharacter(char32_t cp) { return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE; }

// What a name may not contain that `cp` is, or nullptr when `cp` is fine. Noncharacters come before
// private use because planes 15 and 16 end in two of them.
const char* refusal(char32_t cp) {
  if (in(kControls, cp)) return "control characters or line breaks";
  if (in(kInvisible, cp)) return "invisible or direction-changing characters";
  if (in(kBlanks, cp)) return "blank characters other than the plain space";
  if (is_noncharacter(cp)) return "noncharacters";
  if (in(kPrivateUse, cp)) return "private-use characters";
  return nullptr;
}

// One code point from `s` at `i` (advancing `i`), or nullopt when the bytes there are not well-formed
// UTF-8 as Unicode's table 3-7 defines it: the second byte's narrower ranges after E0, ED, F0 and F4 rule
// out overlong forms, surrogates (U+D800-DFFF) and code points beyond U+10FFFF; C0, C1 and F5-FF never
// start a sequence.
std::optional<char32_t> decode_utf8(std::string_view s, size_t& i) {
  const auto lead = static_cast<unsigned char>(s[i]);
  if (lead < 0x80) {
    ++i;
    return lead;
  }
  size_t length = 0;
  char32_t cp = 0;
  unsigned char low = 0x80, high = 0xBF;  // the allowed range of the next byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    cp = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    cp = lead & 0x0F;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    cp = lead & 0x07;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return std::nullopt;
  }
  if (s.size() - i < length) return std::nullopt;
  for (size_t k = 1; k < length; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if (b < low || b > high) return std::nullopt;
    low = 0x80;
    high = 0xBF;
    cp = (cp << 6) | (b & 0x3F);
  }
  i += length;
  return cp;
}

}  // namespace

std::optional<std::string> validate_display_name(std::string_view name) {
  size_t characters = 0;
  for (size_t i = 0; i < name.size();) {
    std::optional<char32_t> cp = decode_utf8(name, i);
    if (!cp) fail(ErrorKind::bad_request, "a name must be valid UTF-8");
    if (const char* what = refusal(*cp)) {
      char code[16];
      std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(*cp));
      fail(ErrorKind::bad_request, std::string("a name may not contain ") + what + " (" + code + ")");
    }
    ++characters;
  }
  // Only U+0020 is trimmed: every other blank was refused above. It is one byte and one character.
  const size_t begin = name.find_first_not_of(' ');
  if (begin == std::string_view::npos) return std::nullopt;
  const size_t end = name.find_last_not_of(' ') + 1;
  characters -= name.size() - (end - begin);
  if (characters > kMaxNameCharacters)
    fail(ErrorKind::bad_request, "a name is at most " + std::to_string(kMaxNameCharacters) + " characters");
  return std::string(name.substr(begin, end - begin));
}

}  // namespace tabula::server
