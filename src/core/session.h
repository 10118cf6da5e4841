// A game being played: the rules object plus everything that happened to it. The engine protocol and the
// server both drive games through this class, so a move is checked, applied, logged and recorded the same
// way everywhere. Its action log is the game record: replaying it rebuilds the game exactly.
#pragma once

#include "core/game.h"

#include <memory>
#include <string>
#include <vector>

namespace tabula {

class Session {
 public:
  // A new game with its options (GameError on an unknown game or bad option).
  static Session create(std::string_view game, const json& options);
  // A game starting from a given state (notation.md's state schema).
  static Session from_state(std::string_view game, const json& state);
  // A game rebuilt from a record written by record().
  static Session from_record(const json& record);
  // A new game given as an object, for a game that is not in the catalogue (the game-independent rules'
  // tests). Its record does not replay: from_record knows only catalogued games.
  static Session adopt(std::unique_ptr<Game> game);

  Session(Session&&) = default;
  Session& operator=(Session&&) = default;
  Session clone() const;

  const Game& game() const { return *game_; }
  std::string_view kind() const { return game_->kind(); }
  int num_players() const { return game_->num_players(); }
  bool over() const { return game_->phase() == Phase::over; }
  // Whether the position as it stands hides anything from some viewer (Game::hidden_information(): Stratego
  // while on, FACET while on under fog, Truth in its setup phase only). While it does, record() is for no
  // viewer: it holds what the observations hide.
  bool hides_information() const { return game_->hidden_information(); }
  // Whether the game ended before play began: a resignation, another ending offer or an adjudication while
  // it was in its setup phase. Such a game reveals no setup, ever (shared rulings, common rules; our C1):
  // each seat keeps seeing only its own placement, spectators none, events stay as each viewer saw them,
  // and record() holds no setup. The last setup that lets play begin is not such an end even when the game
  // is decided at once by its rules: then every army is in and shown together.
  bool ended_before_play() const { return !sealed_.empty(); }

  // Each returns the events the action produced (full truth) and throws GameError, changing nothing,
  // when the action is refused. `player` is the acting seat.
  std::vector<Event> play(std::string_view move);
  std::vector<Event> play_as(Player player, std::string_view move);  // checks it is player's turn
  std::vector<Event> setup(Player player, const json& placement);
  // A named arrangement ("random" with `seed`, Truth's "suggested"); the log keeps the placement it made,
  // never the seed, so a secret seed stays secret.
  std::vector<Event> setup_arrangement(Player player, std::string_view name, uint64_t seed);
  std::vector<Event> offer(Player player, std::string_view what);
  std::vector<Event> adjudicate(const Result& result);
  // Takes back `player`'s last turn and every move made after it, so that `player` is to move again where
  // that turn began (its whole turn: both of a Truth turn's actions). Logged as {"type":"takeback",
  // "player":p,"to":n}: the line of play is cut back to its first n actions (later actions are dropped from
  // the line, kept in the log). Returns one {"type":"takeback","player":p,"moves":k} event; the events before
  // it become those of the shortened line, so a viewer reads the events again (events_version() changes).
  // 409 unless the game is in play and `player` has made a move. Who may take back is the caller's rule (the
  // server's: against the AI at will, between people by agreement).
  std::vector<Event> take_back(Player player);
  // Whether take_back(player) would take anything back now.
  bool can_take_back(Player player) const;
  // Whether the line of play holds a move (an analysis has something to read).
  bool has_moves() const;
  // How many take-backs the game has had, and a number that changes whenever earlier events were replaced
  // (a take-back), so that what was built from them (a viewer's list) is rebuilt.
  int takebacks() const { return takebacks_; }
  int events_version() const { return takebacks_; }
  // The number of actions of the line of play: actions() less the take-backs and what they dropped.
  size_t line_length() const { return line_.size(); }

  std::vector<std::string> legal() const { return legal_move_strings(*game_); }
  // The truth, for a local driver (the engine's `state`); never sent to a viewer by the server.
  json state() const { return game_->state_json(); }
  // What `viewer` (a player or kSpectator) may know: the game's observation, or, for a game that ended
  // before play began, what the viewer saw when it ended, with the result.
  json observation(Player viewer) const;
  // Viewer's view of events [from, end): hidden ones are left out. Once the game is over every event is
  // whole, except in a game that ended before play began.
  json events_for(Player viewer, size_t from = 0) const;
  json events_for(Player viewer, const std::vector<Event>& events) const;
  size_t event_count() const { return events_.size(); }
  const std::vector<Event>& events() const { return events_; }

  // The record: {"game","options","start","initial","actions":[…],"setups":{…},"moves":[…],"result",
  // "takebacks"}. `initial` is the state before the first action in full (a FACET random layout's terrain
  // included), for a reader without our random generator; a replay reads `start` and the options.
  // `actions` is the complete ordered log ({"type":"move","move":…}, {"type":"setup",…}, {"type":"offer",…},
  // {"type":"adjudicate",…}, {"type":"takeback",…}) and what a replay reads; `setups` (player -> placement)
  // and `moves` (the move strings) are the line of play's, derived from it, for reading; `takebacks` counts
  // the take-backs (a game played with take-backs says so). It is public whenever the position hides nothing
  // (!hides_information()): once the game is over, and in a game whose setups are public once play begins
  // (Truth) from then on, setups included. For a game that ended before play began it leaves out every setup
  // action, `setups` is {} and `start` null (a start given in setup phase may hold placements; the options
  // rebuild the rest), and it still replays to the same end.
  json record() const;
  // The complete log, setups included, whatever happened: what the server stores and replays on restart.
  // Never shown to a viewer (record() is the public form).
  const std::vector<json>& actions() const { return actions_; }
  // Re-applies one logged action (used when restoring a stored game).
  void apply_action(const json& action);
  // Forgets every action from the n-th on, as if they never happened: the game is rebuilt by replaying the
  // first n actions. It costs a replay, so it is for the rare path (a store that refused a write); the
  // common path never copies the session, whatever its length.
  void rollback_to(size_t n);

 private:
  Session(std::unique_ptr<Game> game, json options, json start);
  std::vector<Event> commit(json action, EventLog&& events);
  // Cuts the line of play back to its first n actions (take_back and its replay).
  std::vector<Event> cut_line(Player player, size_t n);
  // Each player's observation and, last, the spectators', while the game is in its setup phase (else
  // none): taken before an action that may end the game there.
  std::vector<json> setup_views() const;
  // Keeps `views` as the game's observations for good if the action just taken ended it in setup.
  void seal_if_ended(std::vector<json> views);

  std::unique_ptr<Game> game_;
  json options_;
  json start_;  // the given starting state, or null for a new game
  std::vector<json> actions_;
  std::vector<Event> events_;
  // The line of play: the actions that made the position, without take-backs and what they dropped. For
  // each, who was to move and the ply before it (a move's player and turn), to find where a turn began.
  struct LineEntry {
    size_t action;  // index into actions_
    Player mover;
    int ply;
    bool move;
  };
  std::vector<LineEntry> line_;
  int takebacks_ = 0;
  // Empty unless the game ended before play began: then the observations every viewer keeps (one per
  // player, the spectators' last), as they were in setup, with the result.
  std::vector<json> sealed_;
};

}  // namespace tabula
