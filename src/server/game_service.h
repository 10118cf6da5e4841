// Everything the HTTP API does, without any HTTP: the live games (Session, seats, tokens, subscribers),
// their persistence and their AI seats. The HTTP layer (http_server.cpp) parses requests, calls one
// method, and turns its answer or exception into a response:
//   GameError   -> http_status(kind) with {"error": message}
//   StorageError -> 500 {"error": "storage error"}
// Single-threaded: every method, and every AI completion, runs on the server's I/O thread.
#pragma once

#include "ai/ai.h"
#include "core/error.h"
#include "core/session.h"
#include "server/ai_workers.h"
#include "server/storage.h"

#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <mutex>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tabula::server {

int http_status(ErrorKind kind);

// Compact JSON as the server sends it; text that is not valid UTF-8 is replaced rather than thrown on.
std::string serialise(const json& j);

// Comparison of two secrets whose time depends on their lengths only, never on their bytes.
bool constant_time_equal(std::string_view a, std::string_view b);

// The present moment as ISO 8601 UTC with milliseconds; one line on the server's log (stderr).
std::string now_iso8601();
void log_line(const std::string& text);

// GameError(bad_request) unless `seats` is `players`, the number of players of the game a kind's options made
// (Truth's options.players), and `players` is one of the kind's variants; the message names the options a
// game for `seats` players would need, when the kind has such a variant.
void check_seat_count(const GameKind& kind, int players, int seats);

class GameService {
 public:
  // Hands AI work to the workers in a lane (ai_workers.h); `done` must later run on the service's thread.
  using AiScheduler = std::function<void(AiWorkers::Lane lane, AiWorkers::Job job, AiWorkers::Done done)>;
  // Receives one WebSocket message, serialised (once for every subscriber who sees the same), for one
  // subscriber.
  using Push = std::function<void(const std::string& message)>;
  using Token = std::optional<std::string>;

  struct Config {
    int ai_ms = 0;              // 0: each level's default budget
    uint64_t ai_nodes = 0;      // 0: as above; otherwise every AI search's node budget (replayable, unlike ms)
    // 0: every random choice the server makes for a game (the AI's searches, its seats' and a "random"
    // arrangement) draws a secret seed from the cryptographic source. Otherwise, for tests only, each is
    // derived from this seed, the game's action count, the seat and what it is for, so that a test's games
    // replay move for move; a client who knows it can predict the AI, so a real server never sets it.
    uint64_t test_seed = 0;
    int ply_limit = 1000;       // games without a human seat are drawn after this many plies
    // AI seats whose search table is kept from one of their moves to the next (ai::Memory): the most
    // recently moved ones. A level-5 table is 16 MB, so the number is bounded, not one per game.
    size_t ai_memories = 8;
  };

  // Loads and replays every stored game. A stored game that no longer replays is reported on stderr
  // and left out (it stays in the database).
  GameService(Storage& storage, AiScheduler scheduler, Config config);
  GameService(Storage& storage, AiScheduler scheduler) : GameService(storage, std::move(scheduler), Config{}) {}

  // GET /api/games/kinds: [{"name","title","player_counts","options","ai_levels","levels","hidden_information",
  // "arrangements","variants"}]; `hidden_information`: whether a game of the kind can hide information
  // (GameKind::can_hide_information); `levels`: each level's name and description (ai::level_info);
  // `variants`: per player count its named setups and options.
  json kinds() const;
  // GET /api/games[?status=open|playing|over][&ids=a,b,c]: a list of summaries, newest first, at most 100.
  json list(const std::map<std::string, std::string>& query) const;
  // POST /api/games -> {"id","tokens","creator","seats"} (status 201). 400 unless there is one seat per player
  // of the game the options make (Truth's options.players). `creator` is the creator's own token: it acts for
  // no seat, and only it hands seats to the AI and back (hand_seat).
  json create(const json& body);
  // GET /api/games/{id}: {"id","game","options","seats","observation","legal","events","you","status",
  // "result","created","hidden"}; `hidden`: whether the position as it stands hides anything from some
  // viewer (Session::hides_information), as WebSocket updates say too.
  json get(std::string_view id, const Token& token) const;
  // The same, serialised (what the HTTP layer sends). It carries every event, so it grows with the game;
  // the events' part is kept serialised per viewer and extended as events come, so that asking for a long
  // game again costs a copy, not a rebuild of thousands of events.
  std::string get_text(std::string_view id, const Token& token) const;
  // POST /api/games/{id}/join -> {"token","seat"}
  json join(std::string_view id, const json& body);
  // POST /api/games/{id}/moves -> {"events","observation"}
  json move(std::string_view id, const Token& token, const json& body);
  // POST /api/games/{id}/setup -> {"events","observation"}
  json setup(std::string_view id, const Token& token, const json& body);
  // POST /api/games/{id}/offers -> {"events","observation"}
  json offer(std::string_view id, const Token& token, const json& body);
  // POST /api/games/{id}/seats/{n} with the creator's token: {"type":"ai","level":L} hands a person's seat
  // (or an open one) to the AI, {"type":"human"} gives it back as it was (the person's token acts again; an
  // open seat is open again). -> {"seats"}. 401 without the creator's token, 409 once the game is over or for a
  // seat made for the AI at creation, 400 for a bad body or seat.
  json hand_seat(std::string_view id, const Token& token, std::string_view seat, const json& body);
  // GET /api/games/{id}/record; 409 while the position hides anything (see Session::record()).
  json record(std::string_view id) const;

  // Around the board (game_assist.cpp; docs/server.md). Every game view and update carries, for its viewer:
  //   "takebacks": n, "takeback_request": {"seat","accepted":[seats]} or null,
  //   "hint": {"move", "pending"} or null (the viewer's own seat only), "rematch": {"asked":[seats],"id"} or
  //   null, "analysis": {"status","done","total"} or null, "danger": [marks] (Game::danger_for), and
  //   "assist": what the viewer may ask now {"takeback","takeback_request","hint","rematch","analysis"}.
  // POST /api/games/{id}/takeback {"what":"request"|"accept"|"decline"}. Against the AI (every other seat the
  // AI's) a request takes back at once: the seat's last turn and the replies after it. Between people a
  // request stands until every other person's seat accepts (then it is taken back), one declines, or anything
  // is played; only while the game hides nothing. 409 otherwise.
  json takeback(std::string_view id, const Token& token, const json& body);
  // POST /api/games/{id}/hint: the AI's suggested move for the caller's seat, on its turn, in a game whose
  // other seats are all the AI's. Searched on the workers from the seat's own view (sampled worlds where the
  // game hides anything); answers {"hint":{"move":null,"pending":true}} and the move comes in an update (and
  // in GET) once found, or {"hint":{"move":…,"pending":false}} when already known for this position.
  json hint(std::string_view id, const Token& token, const json& body);
  // POST /api/games/{id}/rematch: once the game is over, a person's seat asks for a rematch; when every
  // person's seat has asked (at once in a game against the AI), a new game with the same options is made with
  // the seats turned by one (two players swap sides), every person keeping their token, every AI its level.
  // -> {"rematch":{"asked","id"}}; `id` is the new game's once made.
  json rematch(std::string_view id, const Token& token, const json& body);
  // POST /api/games/{id}/analysis starts the analysis of a finished game (anyone may); GET reads it:
  // {"status":"none"|"running"|"done","done","total","positions":[{"index","mover","played","best","score",
  // "loss"}]}: for every position of the line of play before a move, the AI's evaluation for the mover
  // (hundredths of a piece), its best move and how much the played move lost by the AI's reckoning.
  json start_analysis(std::string_view id);
  json analysis(std::string_view id) const;
  // GET /api/games/{id}/record.txt: the game's text record (docs/records.md), with the seats' names and the
  // date. While the game hides anything, the caller's view of it (a seat's own setup, the moves as it saw
  // them; a spectator's without a token), never another seat's secrets.
  std::string record_text(std::string_view id, const Token& token) const;
  // POST /api/records {"text": "…"}: a text record read, replayed and kept as a game of its own, to replay
  // and analyse (its seats are the record's names; nobody holds a token, so nobody plays on). -> {"id"}, 201.
  // 400 naming the line for anything the record does not replay.
  json import_record(const json& body);

  // WebSocket: the seat a token acts for (kSpectator without a token); GameError 404/401 otherwise.
  Player authenticate(std::string_view id, const Token& token) const;
  // Sends `push` an update with every event at once, then one after every change. Returns its id.
  uint64_t subscribe(std::string_view id, Player viewer, Push push);
  void unsubscribe(std::string_view id, uint64_t subscription);

  // For tests and logs.
  size_t game_count() const { return games_.size(); }
  bool ai_pending(std::string_view id) const;
  size_t ai_memories_kept() const { return ai_memories_.size(); }

 private:
  struct Seat {
    std::string type;  // "human" | "ai" | "open"
    std::optional<std::string> name;
    std::optional<int> level;
    std::string token_hash;  // sha256_hex of the seat's token (humans only); the token itself is not kept
    // A seat the creator handed to the AI: what it was ("human" or "open"), to give it back; empty otherwise.
    // While handed, its type is "ai" and its person's token shows the seat but cannot act for it.
    std::string handed_from;
    // A person's seat of a game imported from a record (import_record): nobody holds a token for it.
    bool imported = false;
  };
  struct Live {
    std::string id;
    std::string created_at;
    uint64_t order = 0;  // creation order, for "newest first"
    std::vector<Seat> seats;
    std::string creator_hash;  // sha256_hex of the creator's token; empty for games made before it existed
    Session session;
    json public_options;  // the options as a spectator sees them
    std::map<uint64_t, std::pair<Player, Push>> subscribers;
    std::optional<size_t> ai_move_version;   // the version an AI move search was submitted for
    std::optional<size_t> ai_offer_version;  // the version an AI offer answer was submitted for
    // An offer the AI seats must answer that came while an answer was being computed: at most one answer
    // per game is in flight, however fast offers come (the next is scheduled when it returns).
    std::optional<std::pair<Player, std::string>> ai_offer_waiting;
    // Each viewer's events so far, serialised as a JSON array (see get_text).
    struct EventsText {
      size_t count = 0;   // events of the session covered
      bool over = false;  // whether the game was over (every event then reads differently)
      int version = 0;    // Session::events_version() covered (a take-back replaces earlier events)
      std::string text = "[]";
    };
    mutable std::map<Player, EventsText> events_text;
    // Around the board (game_assist.cpp). None of it is stored: a restart forgets a standing take-back
    // request, a hint, the rematch link and an analysis (each is asked for again).
    struct TakebackRequest {
      Player seat = 0;
      size_t version = 0;  // the actions when asked: anything played since declines it
      std::vector<Player> accepted;
    };
    std::optional<TakebackRequest> takeback_request;
    struct Hint {
      Player seat = 0;
      size_t version = 0;
      std::string move;  // empty while searched
    };
    std::optional<Hint> hint;
    std::vector<Player> rematch_asked;
    std::string rematch_id;
    struct Analysis {
      std::vector<std::shared_ptr<const Game>> positions;  // before each move of the line
      std::vector<std::string> played;
      std::vector<json> results;  // one per analysed position, in order
      bool running = false;
    };
    std::shared_ptr<Analysis> analysis;
  };

  // The preamble of every seat action: the game, the seat the token acts for, a JSON-object body.
  struct SeatAction {
    Live& game;
    Player seat;
  };
  SeatAction seat_action(std::string_view id, const Token& token, const json& body);

  // Stores a new game and takes it live (its AI seats act at once). StorageError: nothing was made.
  Live& register_game(Session session, std::vector<Seat> seats, std::string creator_hash);
  Live& find(std::string_view id);
  const Live& find(std::string_view id) const;
  Player seat_of(const Live& g, const Token& token) const;  // kSpectator when no token; 401 on a bad one
  Player require_seat(const Live& g, const Token& token) const;  // 401 without a valid token

  static std::string status_of(const Live& g);
  static json seats_json(const Live& g);
  static json stored_seats(const std::vector<Seat>& seats);  // as the database keeps them (no tokens)
  json legal_for(const Live& g, Player viewer) const;
  // The around-the-board fields of a view or update for `viewer` (see takeback()).
  json assist_json(const Live& g, Player viewer) const;
  // Whether every seat but `seat` is played by the AI for good (a handed seat is still a person's).
  static bool alone_with_ai(const Live& g, Player seat);
  static const Live::TakebackRequest* standing_request(const Live& g);
  void take_back(Live& g, Player seat);
  void schedule_analysis_step(Live& g);
  json update_message(const Live& g, Player viewer, const json& events) const;
  // An update (or a GET answer, `doc`) with a serialised events array put in.
  static std::string with_events(const json& doc, const std::string& events);
  const std::string& events_text(const Live& g, Player viewer) const;
  json game_view(const Live& g, Player viewer) const;  // GET's document without its events
  json summary(const Live& g) const;
  json action_answer(const Live& g, Player seat, const std::vector<Event>& events) const;

  // Applies `change` to the session, stores the new actions, and on success tells subscribers and the
  // AI; on a storage failure restores the session as it was and rethrows.
  std::vector<Event> commit(Live& g, const std::function<std::vector<Event>(Session&)>& change);
  void notify(Live& g, const std::vector<Event>& events);
  // Whatever the AI seats and the ply limit need now.
  void advance(Live& g);
  void ai_setups(Live& g);
  void schedule_ai_move(Live& g);
  void schedule_ai_offer_answers(Live& g, Player offerer, const std::string& what);
  static bool has_human(const Live& g);
  // What a seed is drawn for: with Config::test_seed, each use has its own sequence.
  enum class SeedUse : uint64_t { ai_move = 1, ai_arrangement, offer_answer, hint, random_arrangement };
  // A seed for one random choice in game `g` for `seat`: secret (secure_random_u64) unless Config::test_seed.
  uint64_t seed_for(const Live& g, Player seat, SeedUse use) const;
  // The AI's limits for `seat` at `level` in `g`: the level's budget, or Config's ai_ms / ai_nodes.
  ai::Limits limits_for(const Live& g, int level, Player seat, SeedUse use) const;

  // An AI seat's search table between its moves. The searches of one seat run one after another, but a
  // search overtaken (a take-back) may still run when the next starts: the later one then searches without
  // the table rather than share it between threads.
  struct AiMemory {
    std::mutex in_use;
    ai::Memory memory;
  };
  // The seat's memory, made the most recent; the least recent beyond config_.ai_memories is dropped (a
  // search using it keeps it alive until it ends).
  std::shared_ptr<AiMemory> ai_memory(const std::string& game, Player seat);
  std::list<std::pair<std::string, std::shared_ptr<AiMemory>>> ai_memories_;  // "game/seat", most recent first

  Storage& storage_;
  AiScheduler scheduler_;
  Config config_;
  std::map<std::string, Live, std::less<>> games_;
  uint64_t next_order_ = 0;
  uint64_t next_subscription_ = 1;
};

}  // namespace tabula::server
