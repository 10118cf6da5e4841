// The SQLite store: schema, round trips, atomic appends, and refusing (without touching) files that are
// not intact Tabula databases.
#include "server/server.h"
#include "server/storage.h"
#include "sqlite_exec.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace fs = std::filesystem;
using tabula::json;
using tabula::server::Storage;
using tabula::server::StorageError;
using tabula::server::StoredGame;

namespace {

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "tabula-storage-XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  fs::path operator/(const std::string& name) const { return path_ / name; }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_bytes(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// Runs one statement on its own connection and returns the first column of the first row.
std::string query(const fs::path& db, const std::string& sql) {
  sqlite3* h = nullptr;
  EXPECT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  std::string out;
  if (sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
    const unsigned char* t = sqlite3_column_text(st, 0);
    out = t ? reinterpret_cast<const char*>(t) : "";
  }
  sqlite3_finalize(st);
  sqlite3_close(h);
  return out;
}

using tabula::server::test_support::sqlite_exec;

StoredGame sample(const std::string& id) {
  StoredGame g;
  g.id = id;
  g.kind = "tigadi";
  g.options = json::object();
  g.seats = json::parse(R"([{"type":"human","name":"Ana","level":null},{"type":"ai","name":null,"level":2}])");
  g.created_at = "2025-01-01T00:00:00.000Z";
  g.status = "playing";
  g.tokens = {{0, "00112233445566778899aabbccddeeff"}};
  g.actions = {json{{"type", "move"}, {"move", "d1"}}};
  return g;
}

std::string expect_refused(const fs::path& path) {
  try {
    Storage s(path.string());
  } catch (const StorageError& e) {
    return e.what();
  }
  ADD_FAILURE() << "the database " << path << " was accepted";
  return "";
}

}  // namespace

TEST(Storage, CreatesSchemaInWalModeWithVersion) {
  TempDir dir;
  fs::path db = dir / "t.db";
  { Storage s(db.string()); }
  EXPECT_EQ(query(db, "PRAGMA user_version"), std::to_string(Storage::kSchemaVersion));
  EXPECT_EQ(query(db, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(query(db, "SELECT count(*) FROM sqlite_master WHERE type='table' AND name IN ('games','tokens','actions')"),
            "3");
  // Opening it again keeps what is there.
  { Storage s(db.string()); }
  EXPECT_EQ(query(db, "PRAGMA user_version"), std::to_string(Storage::kSchemaVersion));
}

TEST(Storage, RoundTripsGamesTokensAndActions) {
  TempDir dir;
  fs::path db = dir / "t.db";
  {
    Storage s(db.string());
    StoredGame a = sample("aaaa");
    StoredGame b = sample("bbbb");
    b.start = json{{"game", "tigadi"}, {"ply", 0}};
    b.actions.clear();
    s.insert_game(a);
    s.insert_game(b);
    s.append_actions("aaaa", 1, {json{{"type", "move"}, {"move", "d7"}}, json{{"type", "move"}, {"move", "g7"}}},
                     "playing");
    s.join_seat("bbbb", json::parse(R"([{"type":"human"},{"type":"human","name":"Bo"}])"), 1, "tok-b1", "over");
  }
  Storage s(db.string());
  auto games = s.load_all();
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].id, "aaaa");  // oldest first
  EXPECT_EQ(games[0].kind, "tigadi");
  EXPECT_EQ(games[0].seats, sample("aaaa").seats);
  EXPECT_TRUE(games[0].start.is_null());
  ASSERT_EQ(games[0].actions.size(), 3u);
  EXPECT_EQ(games[0].actions[0]["move"], "d1");
  EXPECT_EQ(games[0].actions[2]["move"], "g7");
  ASSERT_EQ(games[0].tokens.size(), 1u);
  EXPECT_EQ(games[0].tokens[0].second, "00112233445566778899aabbccddeeff");
  EXPECT_EQ(games[1].start["ply"], 0);
  EXPECT_EQ(games[1].status, "over");
  EXPECT_EQ(games[1].seats[1]["name"], "Bo");
  ASSERT_EQ(games[1].tokens.size(), 2u);
  EXPECT_EQ(games[1].tokens[1], (std::pair<int, std::string>{1, "tok-b1"}));
}

TEST(Storage, AnAppendAtATakenSeqFails) {
  TempDir dir;
  fs::path db = dir / "t.db";
  Storage s(db.string());
  s.insert_game(sample("g"));  // seq 0
  EXPECT_THROW(s.append_actions("g", 0, {json{{"type", "move"}, {"move", "a1"}}}, "over"), StorageError);
  EXPECT_EQ(query(db, "SELECT status FROM games WHERE id='g'"), "playing");
  EXPECT_NO_THROW(s.append_actions("g", 1, {json{{"type", "move"}, {"move", "a1"}}}, "playing"));
  EXPECT_EQ(query(db, "SELECT action FROM actions WHERE game_id='g' AND seq=1"), R"({"move":"a1","type":"move"})");
}

TEST(Storage, AnAppendThatClashesRollsBackEveryRow) {
  TempDir dir;
  fs::path db = dir / "t.db";
  Storage s(db.string());
  s.insert_game(sample("g"));  // seq 0
  sqlite_exec(db, "INSERT INTO actions (game_id, seq, action) VALUES ('g', 2, '{}')");
  EXPECT_THROW(s.append_actions("g", 1, {json{{"type", "move"}, {"move", "a1"}}, json{{"type", "move"}, {"move", "a4"}}},
                                "over"),
               StorageError);
  EXPECT_EQ(query(db, "SELECT count(*) FROM actions WHERE game_id='g'"), "2");  // seq 0 and the planted seq 2
  EXPECT_EQ(query(db, "SELECT status FROM games WHERE id='g'"), "playing");
  EXPECT_THROW(s.append_actions("nope", 0, {}, "over"), StorageError);  // unknown game
}

TEST(Storage, RefusesGarbageAndLeavesItUntouched) {
  TempDir dir;
  fs::path db = dir / "garbage.db";
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage += static_cast<char>((i * 7919 + 13) & 0xff);
  write_bytes(db, garbage);
  std::string msg = expect_refused(db);
  EXPECT_NE(msg.find("not an SQLite database"), std::string::npos) << msg;
  EXPECT_NE(msg.find(db.string()), std::string::npos) << msg;
  EXPECT_EQ(read_bytes(db), garbage);
  EXPECT_FALSE(fs::exists(db.string() + "-wal"));

  fs::path text = dir / "text.db";
  write_bytes(text, "hello, this is not a database at all\n");
  expect_refused(text);
  EXPECT_EQ(read_bytes(text), "hello, this is not a database at all\n");
}

TEST(Storage, RefusesACorruptDatabase) {
  TempDir dir;
  fs::path db = dir / "t.db";
  {
    Storage s(db.string());
    for (int i = 0; i < 200; ++i) {
      StoredGame g = sample("game-" + std::to_string(i));
      g.seats = json(std::string(300, 'x'));  // fill some pages
      s.insert_game(g);
    }
  }
  sqlite_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)");
  std::string bytes = read_bytes(db);
  ASSERT_GT(bytes.size(), 4u * 4096u);
  for (size_t i = 4096 + 100; i < 3 * 4096; ++i) bytes[i] = static_cast<char>(0xA5 ^ (i & 0xff));  // smash pages 2-3
  write_bytes(db, bytes);
  std::string msg = expect_refused(db);
  EXPECT_FALSE(msg.empty());
  EXPECT_EQ(read_bytes(db), bytes);
}

TEST(Storage, RefusesOtherDatabasesAndNewerSchemas) {
  TempDir dir;
  fs::path other = dir / "other.db";
  sqlite_exec(other, "CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('keep me')");
  std::string before = read_bytes(other);
  EXPECT_NE(expect_refused(other).find("not a Tabula database"), std::string::npos);
  EXPECT_EQ(read_bytes(other), before);

  fs::path newer = dir / "newer.db";
  { Storage s(newer.string()); }
  sqlite_exec(newer, "PRAGMA user_version = 99");
  EXPECT_NE(expect_refused(newer).find("newer"), std::string::npos);

  EXPECT_NE(expect_refused(dir.path()).find("directory"), std::string::npos);
  expect_refused(dir / "missing-folder" / "t.db");
}

TEST(Storage, DefaultPathFollowsXdgDataHome) {
  TempDir dir;
  const char* old = std::getenv("XDG_DATA_HOME");
  std::string saved = old ? old : "";
  setenv("XDG_DATA_HOME", (dir / "data").c_str(), 1);
  std::string p = tabula::server::default_db_path();
  if (old)
    setenv("XDG_DATA_HOME", saved.c_str(), 1);
  else
    unsetenv("XDG_DATA_HOME");
  EXPECT_EQ(fs::path(p), dir / "data" / "tabula" / "tabula.db");
  EXPECT_TRUE(fs::is_directory(dir / "data" / "tabula"));
}
