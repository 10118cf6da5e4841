#include "server/storage.h"

#include "server/server.h"

#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace tabula::server {

namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE games (
  id         TEXT PRIMARY KEY,
  kind       TEXT NOT NULL,
  options    TEXT NOT NULL,
  seats      TEXT NOT NULL,
  start      TEXT,
  created_at TEXT NOT NULL,
  status     TEXT NOT NULL
);
CREATE TABLE tokens (
  game_id TEXT NOT NULL REFERENCES games(id),
  seat    INTEGER NOT NULL,
  token   TEXT NOT NULL,
  PRIMARY KEY (game_id, seat)
);
CREATE TABLE actions (
  game_id TEXT NOT NULL REFERENCES games(id),
  seq     INTEGER NOT NULL,
  action  TEXT NOT NULL,
  PRIMARY KEY (game_id, seq)
);
)sql";

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
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw StorageError("database " + path + " is a directory");
  int rc = sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                           nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw StorageError("cannot open database " + path + ": " + msg);
  }
  try {
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
    long long version = 0;
    {
      Statement v(*this, "PRAGMA user_version");
      if (v.step()) version = v.integer(0);
    }
    long long tables = 0;
    {
      Statement t(*this, "SELECT count(*) FROM sqlite_master");
      if (t.step()) tables = t.integer(0);
    }
    if (version > kSchemaVersion)
      throw StorageError("database " + path + " has schema version " + std::to_string(version) +
                         ", newer than this Tabula's " + std::to_string(kSchemaVersion));
    if (version == 0 && tables > 0)
      throw StorageError("database " + path + " is an SQLite file but not a Tabula database");

    exec("PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=FULL");
    if (version == 0) {
      Transaction tx(*this);
      exec(kSchema);
      exec(("PRAGMA user_version=" + std::to_string(kSchemaVersion)).c_str());
      tx.commit();
    }
  } catch (const StorageError& e) {
    std::string msg = e.what();
    sqlite3_close(db_);
    db_ = nullptr;
    throw StorageError(msg);
  }
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
  Statement tok(*this, "INSERT INTO tokens (game_id, seat, token) VALUES (?,?,?)");
  for (const auto& [seat, token] : g.tokens) {
    tok.bind(1, g.id).bind(2, static_cast<long long>(seat)).bind(3, token);
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

void Storage::join_seat(const std::string& id, const json& seats, int seat, const std::string& token,
                        const std::string& status) {
  Transaction tx(*this);
  Statement up(*this, "UPDATE games SET seats = ?, status = ? WHERE id = ?");
  up.bind(1, seats.dump()).bind(2, status).bind(3, id);
  up.run();
  if (sqlite3_changes(db_) != 1) throw StorageError("database " + path_ + ": game " + id + " is not stored");
  Statement tok(*this, "INSERT INTO tokens (game_id, seat, token) VALUES (?,?,?)");
  tok.bind(1, id).bind(2, static_cast<long long>(seat)).bind(3, token);
  tok.run();
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
  Statement tok(*this, "SELECT seat, token FROM tokens WHERE game_id = ? ORDER BY seat");
  Statement act(*this, "SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq");
  for (StoredGame& g : out) {
    tok.bind(1, g.id);
    while (tok.step()) g.tokens.emplace_back(static_cast<int>(tok.integer(0)), tok.text(1));
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
