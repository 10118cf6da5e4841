#include "server/storage.h"

#include "server/server.h"
#include "server/sha256.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace tabula::server {

namespace {

constexpr const char* kGamesTable = R"sql(
CREATE TABLE games (
  id         TEXT PRIMARY KEY,
  kind       TEXT NOT NULL,
  options    TEXT NOT NULL,
  seats      TEXT NOT NULL,
  start      TEXT,
  created_at TEXT NOT NULL,
  status     TEXT NOT NULL
))sql";

// A token is 128 bits from getrandom: nobody can guess one or precompute a table of them, so its plain
// SHA-256 is enough. Salts and slow hashes (bcrypt, Argon2) are for passwords people choose. A digest
// read from the file does not let anyone act for a seat; the token itself is only in the answer that
// issued it.
constexpr const char* kTokensTable = R"sql(
CREATE TABLE tokens (
  game_id    TEXT NOT NULL REFERENCES games(id),
  seat       INTEGER NOT NULL,
  token_hash TEXT NOT NULL,
  PRIMARY KEY (game_id, seat)
))sql";

constexpr const char* kActionsTable = R"sql(
CREATE TABLE actions (
  game_id TEXT NOT NULL REFERENCES games(id),
  seq     INTEGER NOT NULL,
  action  TEXT NOT NULL,
  PRIMARY KEY (game_id, seq)
))sql";

// The tables of a Tabula database (every schema version so far), sorted and comma-separated.
constexpr const char* kTabulaTables = "actions,games,tokens";

// The database and the side files SQLite keeps next to it in WAL mode.
std::vector<std::string> database_files(const std::string& path) { return {path, path + "-wal", path + "-shm"}; }

// Creates `path` empty and owner-only when nothing is there, and says whether it did; refuses what is
// there when it cannot be a database. The file is created here with open(2) (O_CREAT|O_EXCL, mode 0600)
// rather than by SQLite under a tightened umask: the umask is process-wide, so every file another
// thread created meanwhile would get it too. SQLite gives the -wal and -shm files it creates the main
// file's permissions, so they are 0600 as well.
bool create_database_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw StorageError("database " + path + " is a directory");
    if (!S_ISREG(st.st_mode)) throw StorageError("database " + path + " is not a regular file");
    // SQLite would take an empty file for a new database. A file that exists is used only if it is a
    // Tabula database, and one is never empty (setting WAL mode, the first thing done to a new one,
    // writes its first page): an empty file is a wrong name, a truncated copy or a `touch`, and serving
    // from it as a new database would hide every game.
    if (st.st_size == 0)
      throw StorageError("database " + path +
                         " is an empty file, not a Tabula database; remove it or name another file (the file was "
                         "left untouched)");
    return false;
  }
  if (errno != ENOENT) throw StorageError("cannot open database " + path + ": " + std::strerror(errno));
  // SQLite would replay a -wal left from a removed database into the new one; and a failed start removes
  // the side files of the database it created, which must then be its own.
  for (const std::string& side : {path + "-wal", path + "-shm"})
    if (::access(side.c_str(), F_OK) == 0)
      throw StorageError("database " + path + " does not exist but " + side +
                         " does (left from a removed database?); remove it or name another file");
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) throw StorageError("cannot create database " + path + ": " + std::strerror(errno));
  ::close(fd);
  return true;
}

// Every game and token digest is in these files: those that group or others may read (made before
// Tabula created them 0600, or copied under a lax umask) are made owner-only before anything is written
// to them. Reading an existing WAL database to check it has already made its -wal and -shm, with the
// database's mode; they are fixed here too, in the same one line on stderr.
void make_owner_only(const std::string& path) {
  std::string fixed;
  for (const std::string& file : database_files(path)) {
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0 || (st.st_mode & 077) == 0) continue;
    if (::chmod(file.c_str(), 0600) != 0)
      throw StorageError("database file " + file + " is readable by others and cannot be made private: " +
                         std::strerror(errno));
    char mode[16];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    fixed += (fixed.empty() ? "" : ", ") + file + " (was " + mode + ")";
  }
  if (!fixed.empty())
    std::fprintf(stderr, "storage: database files were readable by others and are now 0600: %s\n", fixed.c_str());
}

}  // namespace

// A prepared statement, finalized on scope exit. Errors become StorageError.
class Storage::Statement {
 public:
  Statement(const Storage& s, const char* sql) : s_(s) {
    if (sqlite3_prepare_v2(s.db_, sql, -1, &stmt_, nullptr) != SQLITE_OK) s.raise("preparing a statement");
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, const std::string& text) {
    check(sqlite3_bind_text(stmt_, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT));
    return *this;
  }
  Statement& bind(int i, long long v) {
    check(sqlite3_bind_int64(stmt_, i, v));
    return *this;
  }
  Statement& bind_null(int i) {
    check(sqlite3_bind_null(stmt_, i));
    return *this;
  }
  // True while a row is available.
  bool step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    s_.raise("writing or reading the database");
  }
  void run() {
    while (step()) {
    }
    reset();
  }
  void reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  std::string text(int col) const {
    const unsigned char* p = sqlite3_column_text(stmt_, col);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(stmt_, col)))
             : std::string();
  }
  bool is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  long long integer(int col) const { return sqlite3_column_int64(stmt_, col); }

 private:
  void check(int rc) {
    if (rc != SQLITE_OK) s_.raise("binding a value");
  }
  const Storage& s_;
  sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE … COMMIT; rolls back unless committed.
class Storage::Transaction {
 public:
  explicit Transaction(const Storage& s) : s_(s) { s_.exec("BEGIN IMMEDIATE"); }
  ~Transaction() {
    if (!done_) sqlite3_exec(s_.db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  void commit() {
    s_.exec("COMMIT");
    done_ = true;
  }

 private:
  const Storage& s_;
  bool done_ = false;
};

void Storage::raise(const std::string& what) const {
  if (db_ && sqlite3_errcode(db_) == SQLITE_NOTADB)
    throw StorageError("database " + path_ + " is not an SQLite database (the file was left untouched)");
  std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
  throw StorageError("database " + path_ + ": " + what + ": " + msg);
}

void Storage::exec(const char* sql) const {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    sqlite3_free(err);
    std::string what(sql);
    raise(what.size() > 40 ? what.substr(0, 40) + "…" : what);
  }
}

Storage::Storage(const std::string& path) : path_(path) {
  const bool created = create_database_file(path);
  try {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK)
      throw StorageError("cannot open database " + path + ": " + (db_ ? sqlite3_errmsg(db_) : "out of memory"));
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, 5000);
    // Read-only checks first: nothing is written to a file that is not an intact Tabula database.
    {
      Statement check(*this, "PRAGMA quick_check");
      std::string problems;
      while (check.step()) {
        std::string row = check.text(0);
        if (row != "ok") problems += (problems.empty() ? "" : "; ") + row;
      }
      if (!problems.empty())
        throw StorageError("database " + path + " is corrupt (" + problems.substr(0, 300) + ")");
    }
    const int version = created ? 0 : schema_version();
    make_owner_only(path);

    exec("PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=FULL");
    // Deleted content is overwritten with zeros instead of staying in free pages: the migration from
    // version 1 relies on it to leave no clear token in the file. Debian builds SQLite with this on, but
    // SQLite's own default is off. The server deletes nothing otherwise.
    exec("PRAGMA secure_delete=ON");
    if (created)
      create_schema();
    else if (version == 1)
      migrate_from_v1();
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    // What this start created goes, so that the next one begins afresh rather than find an empty file.
    if (created)
      for (const std::string& file : database_files(path)) ::unlink(file.c_str());
    throw;
  }
}

int Storage::schema_version() const {
  auto pragma = [&](const char* sql) {
    Statement st(*this, sql);
    return st.step() ? st.integer(0) : 0;
  };
  const long long application_id = pragma("PRAGMA application_id");
  const long long version = pragma("PRAGMA user_version");
  std::string tables;
  {
    Statement st(*this,
                 "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
                 "ORDER BY name");
    while (st.step()) tables += (tables.empty() ? "" : ",") + st.text(0);
  }
  if (application_id != 0 && application_id != kApplicationId) {
    char id[16];
    std::snprintf(id, sizeof id, "0x%08x", static_cast<unsigned>(application_id));
    throw StorageError("database " + path_ + " is another program's SQLite file (application_id " + id +
                       "), not a Tabula database");
  }
  // Version 1 files have no application_id: their tables say whose they are. A newer Tabula's tables may
  // differ, but its application_id is ours.
  if ((application_id == kApplicationId || tables == kTabulaTables) && version > kSchemaVersion)
    throw StorageError("database " + path_ + " has schema version " + std::to_string(version) +
                       ", newer than this Tabula's " + std::to_string(kSchemaVersion));
  if (tables != kTabulaTables || version < 1 || version > kSchemaVersion)
    throw StorageError("database " + path_ + " is an SQLite file but not a Tabula database");
  return static_cast<int>(version);
}

void Storage::create_schema() {
  Transaction tx(*this);
  exec(kGamesTable);
  exec(kTokensTable);
  exec(kActionsTable);
  stamp_schema_version();
  tx.commit();
}

void Storage::stamp_schema_version() {
  exec(("PRAGMA user_version=" + std::to_string(kSchemaVersion)).c_str());
  exec(("PRAGMA application_id=" + std::to_string(kApplicationId)).c_str());
}

// Version 1 kept each token as issued; version 2 keeps its digest, and the tokens players hold keep
// working because a presented token is hashed before it is compared. The digests go into a new table
// and the old one is dropped, so that (with secure_delete) every page that held a token is zeroed. An
// update in place would not do: where version 1 ran without secure_delete, the table's page splits left
// copies of tokens in the pages' unused space, which an update does not touch. The WAL, which may still
// hold pages with tokens (from this migration, or from before it when the last server was killed), is
// then copied into the file and emptied.
void Storage::migrate_from_v1() {
  {
    Transaction tx(*this);
    exec("ALTER TABLE tokens RENAME TO tokens_v1");
    exec(kTokensTable);
    {
      Statement read(*this, "SELECT game_id, seat, token FROM tokens_v1");
      Statement write(*this, "INSERT INTO tokens (game_id, seat, token_hash) VALUES (?,?,?)");
      while (read.step()) {
        write.bind(1, read.text(0)).bind(2, read.integer(1)).bind(3, sha256_hex(read.text(2)));
        write.run();
      }
    }
    exec("DROP TABLE tokens_v1");
    stamp_schema_version();
    tx.commit();
  }
  Statement checkpoint(*this, "PRAGMA wal_checkpoint(TRUNCATE)");
  if (checkpoint.step() && checkpoint.integer(0) != 0)
    std::fprintf(stderr,
                 "storage: %s-wal could not be emptied after the migration (another program has the database "
                 "open); it is removed when the last connection closes\n",
                 path_.c_str());
}

Storage::~Storage() {
  if (db_) sqlite3_close(db_);
}

void Storage::insert_game(const StoredGame& g) {
  Transaction tx(*this);
  Statement ins(*this,
                "INSERT INTO games (id, kind, options, seats, start, created_at, status) VALUES (?,?,?,?,?,?,?)");
  ins.bind(1, g.id).bind(2, g.kind).bind(3, g.options.dump()).bind(4, g.seats.dump());
  if (g.start.is_null())
    ins.bind_null(5);
  else
    ins.bind(5, g.start.dump());
  ins.bind(6, g.created_at).bind(7, g.status);
  ins.run();
  Statement tok(*this, "INSERT INTO tokens (game_id, seat, token_hash) VALUES (?,?,?)");
  for (const auto& [seat, token_hash] : g.token_hashes) {
    tok.bind(1, g.id).bind(2, static_cast<long long>(seat)).bind(3, token_hash);
    tok.run();
  }
  if (!g.creator_hash.empty()) {
    tok.bind(1, g.id).bind(2, static_cast<long long>(kCreatorSeat)).bind(3, g.creator_hash);
    tok.run();
  }
  Statement act(*this, "INSERT INTO actions (game_id, seq, action) VALUES (?,?,?)");
  for (size_t i = 0; i < g.actions.size(); ++i) {
    act.bind(1, g.id).bind(2, static_cast<long long>(i)).bind(3, g.actions[i].dump());
    act.run();
  }
  tx.commit();
}

void Storage::append_actions(const std::string& id, size_t first_seq, const std::vector<json>& actions,
                             const std::string& status) {
  Transaction tx(*this);
  Statement act(*this, "INSERT INTO actions (game_id, seq, action) VALUES (?,?,?)");
  for (size_t i = 0; i < actions.size(); ++i) {
    act.bind(1, id).bind(2, static_cast<long long>(first_seq + i)).bind(3, actions[i].dump());
    act.run();
  }
  Statement st(*this, "UPDATE games SET status = ? WHERE id = ?");
  st.bind(1, status).bind(2, id);
  st.run();
  if (sqlite3_changes(db_) != 1) throw StorageError("database " + path_ + ": game " + id + " is not stored");
  tx.commit();
}

void Storage::join_seat(const std::string& id, const json& seats, int seat, const std::string& token_hash,
                        const std::string& status) {
  Transaction tx(*this);
  Statement up(*this, "UPDATE games SET seats = ?, status = ? WHERE id = ?");
  up.bind(1, seats.dump()).bind(2, status).bind(3, id);
  up.run();
  if (sqlite3_changes(db_) != 1) throw StorageError("database " + path_ + ": game " + id + " is not stored");
  Statement tok(*this, "INSERT INTO tokens (game_id, seat, token_hash) VALUES (?,?,?)");
  tok.bind(1, id).bind(2, static_cast<long long>(seat)).bind(3, token_hash);
  tok.run();
  tx.commit();
}

void Storage::set_seats(const std::string& id, const json& seats, const std::string& status) {
  Transaction tx(*this);
  Statement up(*this, "UPDATE games SET seats = ?, status = ? WHERE id = ?");
  up.bind(1, seats.dump()).bind(2, status).bind(3, id);
  up.run();
  if (sqlite3_changes(db_) != 1) throw StorageError("database " + path_ + ": game " + id + " is not stored");
  tx.commit();
}

std::vector<StoredGame> Storage::load_all() const {
  std::vector<StoredGame> out;
  auto parse = [&](const std::string& text, const std::string& id, const char* what) {
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) throw StorageError("database " + path_ + ": game " + id + " has unreadable " + what);
    return j;
  };
  Statement games(*this, "SELECT id, kind, options, seats, start, created_at, status FROM games ORDER BY rowid");
  while (games.step()) {
    StoredGame g;
    g.id = games.text(0);
    g.kind = games.text(1);
    g.options = parse(games.text(2), g.id, "options");
    g.seats = parse(games.text(3), g.id, "seats");
    g.start = games.is_null(4) ? json(nullptr) : parse(games.text(4), g.id, "start state");
    g.created_at = games.text(5);
    g.status = games.text(6);
    out.push_back(std::move(g));
  }
  Statement tok(*this, "SELECT seat, token_hash FROM tokens WHERE game_id = ? ORDER BY seat");
  Statement act(*this, "SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq");
  for (StoredGame& g : out) {
    tok.bind(1, g.id);
    while (tok.step()) {
      if (tok.integer(0) == kCreatorSeat) g.creator_hash = tok.text(1);
      else g.token_hashes.emplace_back(static_cast<int>(tok.integer(0)), tok.text(1));
    }
    tok.reset();
    act.bind(1, g.id);
    long long expect = 0;
    while (act.step()) {
      if (act.integer(0) != expect++)
        throw StorageError("database " + path_ + ": game " + g.id + " has a gap in its actions");
      g.actions.push_back(parse(act.text(1), g.id, "actions"));
    }
    act.reset();
  }
  return out;
}

std::string default_db_path() {
  namespace fs = std::filesystem;
  fs::path dir;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) {
    dir = fs::path(xdg) / "tabula";
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    dir = fs::path(home) / ".local" / "share" / "tabula";
  } else {
    dir = fs::path(".");
  }
  std::error_code ec;
  fs::create_directories(dir, ec);  // a failure shows up when the database is opened
  return (dir / "tabula.db").string();
}

}  // namespace tabula::server
