// A game record as readable text, like PGN for chess, for every game (docs/records.md): a header of tag pairs
// (`[Game "facet"]`), a blank line, the numbered moves in notation.md's notation with the offers, resignations
// and adjudications as brace comments at the point they happened, and the result. It holds the start in full
// (every setup; FACET's terrain; a given starting state), so any implementation can replay it with the rules
// alone. It is written from a record (Session::record()) and read back into one that Session::from_record
// replays to the same game.
#pragma once

#include "core/game.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tabula {

class Session;

// What the server knows of a game and its record does not.
struct RecordTags {
  std::vector<std::string> players;  // a name per seat (`[Seat0 "Ana"]`); a missing or empty one is written "?"
  std::string date;                  // PGN's "YYYY.MM.DD" (? for an unknown digit); empty or other: "????.??.??"
  // Takebacks made in the game. record_text writes the number of takeback actions in the record when it has
  // any, else this (a record already cut to its net line); `[Takebacks "k"]` appears when it is above 0.
  int takebacks = 0;
  // A viewer (a seat or kSpectator): record_text writes what it may know (seat_record_text below) while the
  // record's game hides something from some viewer; else, and when unset, the whole record.
  std::optional<Player> view;
  friend bool operator==(const RecordTags&, const RecordTags&) = default;
};

// The record's text (tags.view: a viewer's; see seat_record_text). GameError(bad_request) when the record is
// malformed or does not replay.
std::string record_text(const json& record, const RecordTags& tags = {});

// The record a text holds, ready for Session::from_record, and its tags. GameError(bad_request) naming the line
// for anything malformed: an unknown tag or tag value, bad JSON, a setup or move the rules refuse (with the
// round and the game's reason), a result that is not the one the moves reach. A seat's view (`[View "n"]`) is
// refused: it leaves out what the seat does not know, so it cannot be replayed. Texts over kMaxRecordTextBytes
// or with more than kMaxRecordActions actions are refused before any replay.
struct TextRecord {
  json record;
  RecordTags tags;
};
inline constexpr size_t kMaxRecordTextBytes = 1u << 20;
inline constexpr size_t kMaxRecordActions = 100000;
TextRecord parse_record_text(std::string_view text);
json record_from_text(std::string_view text);

// What seat `seat` (or kSpectator) may know of the game as it stands: while the game hides something from some
// viewer (Session::hides_information()), a text with `[View "seat"]` (`[View "spectator"]`), the seat's own setup
// only, the moves as the seat saw them (an enemy move it did not see is `?`, a square it did not see `?`,
// following its event views) and the result `*`. Otherwise nothing is hidden and it is the whole record's text.
// GameError(bad_request) for a seat the game does not have.
//
// record_text(session.record()) holds everything, setups included: like record() itself it is for no viewer
// while the game hides something. A viewer gets seat_record_text, which is the whole text once nothing is hidden.
std::string seat_record_text(const Session& session, Player seat, const RecordTags& tags = {});

// The net line of an action log: every {"type":"takeback","to":n} cuts the line built so far back to its first
// n actions and is dropped. `takebacks`, when given, receives how many there were. GameError(bad_request) on a
// takeback past the line's end.
std::vector<json> net_actions(const json& actions, int* takebacks = nullptr);

}  // namespace tabula
