// The server's durable store: one SQLite file (WAL, synchronous=FULL, owner-only) holding every game,
// the SHA-256 digests of its seats' tokens (never a token itself) and its action log. A game is rebuilt
// at start by replaying its actions through Session, so the store never holds derived state. Every
// write is one transaction; a method returns only once the transaction is committed to disk, and throws
// StorageError (changing nothing) when it cannot be.
// Not thread-safe: the server uses one Storage from its I/O thread only.
#pragma once

#include "core/json.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace tabula::server {

// The database cannot be opened (corrupt, not SQLite, empty, not Tabula's, newer schema) or a write failed.
class StorageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct StoredGame {
  std::string id;
  std::string kind;
  json options = json::object();  // the options Session::create is given on replay
  json seats = json::array();     // [{"type","name","level"}], never tokens
  json start;                     // the starting state for Session::from_state, or null
  std::string created_at;         // ISO 8601 UTC
  std::string status;             // "open" | "playing" | "over"
  std::vector<std::pair<int, std::string>> token_hashes;  // (seat, sha256_hex(token))
  std::string creator_hash;       // sha256_hex of the creator's token (empty for games made before it existed)
  std::vector<json> actions;      // Session::actions(), in order
};

class Storage {
 public:
  // 1: tokens as issued; 2: their SHA-256 digests (tokens.token_hash) and the application_id.
  static constexpr int kSchemaVersion = 2;
  // PRAGMA application_id of a Tabula database ("Tabu"), so that it and other programs can tell.
  static constexpr int32_t kApplicationId = 0x54616275;
  // The tokens table keeps the creator's token digest under this seat number: no seat has it, so a version
  // of the server that knows nothing of creators reads the table as before and ignores the row.
  static constexpr int kCreatorSeat = -1;

  // Creates the file (mode 0600) when nothing exists at `path`, else opens it. An existing file that is
  // not an intact Tabula database (an empty file included) is refused with a StorageError saying why,
  // and is left exactly as it was. A version-1 database is migrated; a database, -wal or -shm file
  // readable by group or others is made owner-only (with a line on stderr).
  explicit Storage(const std::string& path);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  const std::string& path() const { return path_; }

  // A new game with its tokens and any actions it already has, in one transaction.
  void insert_game(const StoredGame& game);
  // Appends actions first_seq, first_seq+1, … and sets the game's status, in one transaction.
  void append_actions(const std::string& id, size_t first_seq, const std::vector<json>& actions,
                      const std::string& status);
  // A seat was joined: the new seats list, the digest of the seat's token and the status, in one
  // transaction.
  void join_seat(const std::string& id, const json& seats, int seat, const std::string& token_hash,
                 const std::string& status);
  // The seats changed (one handed to the AI or back): the new seats list and the status, in one transaction.
  void set_seats(const std::string& id, const json& seats, const std::string& status);
  // Every game, oldest first, with its token digests and actions.
  std::vector<StoredGame> load_all() const;

 private:
  class Statement;
  class Transaction;
  // The schema version of an existing file; StorageError when it is not a Tabula database.
  int schema_version() const;
  void create_schema();
  void stamp_schema_version();
  void migrate_from_v1();
  void exec(const char* sql) const;
  [[noreturn]] void raise(const std::string& what) const;

  std::string path_;
  sqlite3* db_ = nullptr;
};

}  // namespace tabula::server
