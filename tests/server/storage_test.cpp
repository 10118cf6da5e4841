// The SQLite store: schema, round trips, atomic appends, and refusing (without touching) files that are
// not intact Tabula databases.
#include "server/server.h"
#include "server/sha256.h"
#include "server/storage.h"
#include "sqlite_exec.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using tabula::json;
using tabula::server::Storage;
using tabula::server::StorageError;
using tabula::server::StoredGame;
using tabula::server::sha256_hex;

namespace {

void write_bytes(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

using tabula::server::test_support::file_bytes;
using tabula::server::test_support::TempDir;
using tabula::server::test_support::kVersion1Schema;
using tabula::server::test_support::sqlite_exec;
using tabula::server::test_support::sqlite_query;

StoredGame sample(const std::string& id) {
  StoredGame g;
  g.id = id;
  g.kind = "tigadi";
  g.options = json::object();
  g.seats = json::parse(R"([{"type":"human","name":"Ana","level":null},{"type":"ai","name":null,"level":2}])");
  g.created_at = "2025-01-01T00:00:00.000Z";
  g.status = "playing";
  g.token_hashes = {{0, std::string(64, 'a')}};
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

// Refused with a message naming the file and holding `reason`, and left as it was: bytes, modification
// time and permissions (it is not made owner-only either), with no side files made beside it.
void expect_refused_untouched(const fs::path& path, const std::string& reason) {
  fs::last_write_time(path, fs::last_write_time(path) - std::chrono::hours(1));  // so that a write would show
  fs::permissions(path, fs::perms(0644));
  const std::string bytes = file_bytes(path);
  const fs::file_time_type mtime = fs::last_write_time(path);
  const std::string msg = expect_refused(path);
  EXPECT_NE(msg.find(reason), std::string::npos) << msg;
  EXPECT_NE(msg.find(path.string()), std::string::npos) << msg;
  EXPECT_TRUE(file_bytes(path) == bytes) << path << " was changed";
  EXPECT_EQ(fs::last_write_time(path), mtime) << path;
  EXPECT_EQ(fs::status(path).permissions(), fs::perms(0644)) << path;
  EXPECT_FALSE(fs::exists(path.string() + "-wal")) << path;
  EXPECT_FALSE(fs::exists(path.string() + "-shm")) << path;
}

unsigned mode_of(const fs::path& p) {
  struct stat st {};
  EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
  return st.st_mode & 07777;
}

// The usual umask for the scope, under which a file made without an explicit mode is 0644.
class LaxUmask {
 public:
  LaxUmask() : old_(::umask(022)) {}
  ~LaxUmask() { ::umask(old_); }
  LaxUmask(const LaxUmask&) = delete;
  LaxUmask& operator=(const LaxUmask&) = delete;

 private:
  mode_t old_;
};

}  // namespace

TEST(Storage, CreatesSchemaInWalModeWithVersion) {
  TempDir dir;
  fs::path db = dir / "t.db";
  { Storage s(db.string()); }
  EXPECT_EQ(sqlite_query(db, "PRAGMA user_version"), std::to_string(Storage::kSchemaVersion));
  EXPECT_EQ(sqlite_query(db, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(sqlite_query(db, "SELECT group_concat(name) FROM (SELECT name FROM sqlite_master WHERE type='table' "
                            "ORDER BY name)"),
            "actions,games,tokens");
  EXPECT_EQ(sqlite_query(db, "SELECT group_concat(name) FROM pragma_table_info('tokens')"), "game_id,seat,token_hash");
  EXPECT_EQ(sqlite_query(db, "PRAGMA application_id"), std::to_string(Storage::kApplicationId));
  // Opening it again keeps what is there.
  { Storage s(db.string()); }
  EXPECT_EQ(sqlite_query(db, "PRAGMA user_version"), std::to_string(Storage::kSchemaVersion));
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
    s.join_seat("bbbb", json::parse(R"([{"type":"human"},{"type":"human","name":"Bo"}])"), 1, std::string(64, 'b'),
                "over");
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
  ASSERT_EQ(games[0].token_hashes.size(), 1u);
  EXPECT_EQ(games[0].token_hashes[0].second, std::string(64, 'a'));
  EXPECT_EQ(games[1].start["ply"], 0);
  EXPECT_EQ(games[1].status, "over");
  EXPECT_EQ(games[1].seats[1]["name"], "Bo");
  ASSERT_EQ(games[1].token_hashes.size(), 2u);
  EXPECT_EQ(games[1].token_hashes[1], (std::pair<int, std::string>{1, std::string(64, 'b')}));
}

TEST(Storage, AnAppendAtATakenSeqFails) {
  TempDir dir;
  fs::path db = dir / "t.db";
  Storage s(db.string());
  s.insert_game(sample("g"));  // seq 0
  EXPECT_THROW(s.append_actions("g", 0, {json{{"type", "move"}, {"move", "a1"}}}, "over"), StorageError);
  EXPECT_EQ(sqlite_query(db, "SELECT status FROM games WHERE id='g'"), "playing");
  EXPECT_NO_THROW(s.append_actions("g", 1, {json{{"type", "move"}, {"move", "a1"}}}, "playing"));
  EXPECT_EQ(sqlite_query(db, "SELECT action FROM actions WHERE game_id='g' AND seq=1"), R"({"move":"a1","type":"move"})");
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
  EXPECT_EQ(sqlite_query(db, "SELECT count(*) FROM actions WHERE game_id='g'"), "2");  // seq 0 and the planted seq 2
  EXPECT_EQ(sqlite_query(db, "SELECT status FROM games WHERE id='g'"), "playing");
  EXPECT_THROW(s.append_actions("nope", 0, {}, "over"), StorageError);  // unknown game
}

// GameService's tests migrate a small version-1 database and play on with its tokens; this one checks
// the scrubbing where it is hardest. The file is written as SQLite does by default (secure_delete off;
// Debian's build has it on), so that the tokens table's page splits leave stale copies of tokens in the
// pages' unused space, where an update of each row in place would not reach them.
TEST(Storage, MigratingVersion1LeavesNoClearTokenInTheFiles) {
  TempDir dir;
  fs::path db = dir / "v1.db";
  std::vector<std::string> tokens;
  std::string sql = std::string("PRAGMA secure_delete=OFF; PRAGMA journal_mode=WAL; BEGIN;") + kVersion1Schema +
                    "PRAGMA user_version = 1;";
  for (int i = 0; i < 100; ++i) {
    tokens.push_back(sha256_hex("token " + std::to_string(i)).substr(0, 32));
    sql += "INSERT INTO tokens VALUES ('g" + std::to_string(i) + "', 0, '" + tokens.back() + "');";
  }
  sqlite_exec(db, sql + "COMMIT;");
  ASSERT_NE(file_bytes(db).find(tokens[50]), std::string::npos);

  Storage s(db.string());
  EXPECT_EQ(sqlite_query(db, "SELECT token_hash FROM tokens WHERE game_id = 'g50'"), sha256_hex(tokens[50]));
  EXPECT_EQ(sqlite_query(db, "SELECT count(*) FROM tokens WHERE length(token_hash) = 64"), "100");
  const std::string on_disk = file_bytes(db) + file_bytes(db.string() + "-wal");
  for (const std::string& token : tokens) EXPECT_EQ(on_disk.find(token), std::string::npos) << token;
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
  EXPECT_EQ(file_bytes(db), garbage);
  EXPECT_FALSE(fs::exists(db.string() + "-wal"));

  fs::path text = dir / "text.db";
  write_bytes(text, "hello, this is not a database at all\n");
  expect_refused(text);
  EXPECT_EQ(file_bytes(text), "hello, this is not a database at all\n");
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
  std::string bytes = file_bytes(db);
  ASSERT_GT(bytes.size(), 4u * 4096u);
  for (size_t i = 4096 + 100; i < 3 * 4096; ++i) bytes[i] = static_cast<char>(0xA5 ^ (i & 0xff));  // smash pages 2-3
  write_bytes(db, bytes);
  std::string msg = expect_refused(db);
  EXPECT_FALSE(msg.empty());
  EXPECT_EQ(file_bytes(db), bytes);
}

TEST(Storage, RefusesAnEmptyFileUntouched) {
  TempDir dir;
  fs::path db = dir / "t.db";
  write_bytes(db, "");
  expect_refused_untouched(db, "is an empty file, not a Tabula database; remove it or name another file");
  EXPECT_EQ(fs::file_size(db), 0u);

  fs::path fifo = dir / "fifo.db";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(expect_refused(fifo).find("not a regular file"), std::string::npos);
}

TEST(Storage, RefusesForeignSqliteFilesUntouched) {
  TempDir dir;
  auto foreign = [&](const std::string& name, const std::string& sql) {
    fs::path p = dir / name;
    sqlite_exec(p, sql);
    EXPECT_GT(fs::file_size(p), 0u) << name;
    return p;
  };
  expect_refused_untouched(foreign("other.db", "CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('keep me')"),
                           "is an SQLite file but not a Tabula database");
  // A version, but not Tabula's tables: none, one of them, all of them and one more.
  expect_refused_untouched(foreign("versioned.db", "PRAGMA user_version = 1"), "not a Tabula database");
  expect_refused_untouched(foreign("games-only.db", "CREATE TABLE games (id TEXT); PRAGMA user_version = 1"),
                           "not a Tabula database");
  expect_refused_untouched(
      foreign("extra.db", std::string(kVersion1Schema) + "CREATE TABLE extra (x TEXT); PRAGMA user_version = 1"),
      "not a Tabula database");
  // Another program's version 3 is not a newer Tabula.
  expect_refused_untouched(foreign("v3.db", "CREATE TABLE notes (x TEXT); PRAGMA user_version = 3"),
                           "not a Tabula database");
  // An SQLite database with nothing in it is still not one Tabula made.
  expect_refused_untouched(foreign("blank.db", "CREATE TABLE t (x); DROP TABLE t"), "not a Tabula database");
  // Another program's application_id (here GeoPackage's "GPKG"), even with Tabula's tables.
  expect_refused_untouched(foreign("gpkg.db", "PRAGMA application_id = 1196444487; CREATE TABLE gpkg_contents (x)"),
                           "another program's SQLite file (application_id 0x47504b47), not a Tabula database");
  fs::path marked = dir / "marked.db";
  { Storage s(marked.string()); }
  sqlite_exec(marked, "PRAGMA application_id = 305419896");
  expect_refused_untouched(marked, "(application_id 0x12345678)");
}

TEST(Storage, RefusesNewerSchemasDirectoriesAndMissingFolders) {
  TempDir dir;
  fs::path newer = dir / "newer.db";
  { Storage s(newer.string()); }
  sqlite_exec(newer, "PRAGMA user_version = 99");
  expect_refused_untouched(newer, "has schema version 99, newer than this Tabula's 2");

  EXPECT_NE(expect_refused(dir.path()).find("directory"), std::string::npos);
  EXPECT_NE(expect_refused(dir / "missing-folder" / "t.db").find("cannot create database"), std::string::npos);
}

TEST(Storage, ANewDatabaseIsNotMadeOverTheWalOfARemovedOne) {
  TempDir dir;
  fs::path db = dir / "t.db";
  write_bytes(db.string() + "-wal", "frames of another database");
  std::string msg = expect_refused(db);
  EXPECT_NE(msg.find("does not exist but " + db.string() + "-wal does"), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(db));
  EXPECT_EQ(file_bytes(db.string() + "-wal"), "frames of another database");
}

TEST(Storage, AFailedCreationLeavesNothingBehind) {
  TempDir dir;
  fs::path db = dir / "t.db";
  // Files may not grow past 1 KiB: the database is created, but its first page cannot be written.
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  rlimit small = old;
  small.rlim_cur = 1024;
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);  // a failed write, not a killed process
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string msg = expect_refused(db);
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_NE(msg.find(db.string()), std::string::npos) << msg;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) EXPECT_FALSE(fs::exists(db.string() + suffix)) << suffix;
  { Storage s(db.string()); }  // so the next start begins afresh
  EXPECT_EQ(sqlite_query(db, "PRAGMA user_version"), std::to_string(Storage::kSchemaVersion));
}

TEST(Storage, NewFilesAreOwnerOnly) {
  TempDir dir;
  LaxUmask lax;
  fs::path db = dir / "t.db";
  Storage s(db.string());
  for (const char* suffix : {"", "-wal", "-shm"}) EXPECT_EQ(mode_of(db.string() + suffix), 0600u) << suffix;
  s.insert_game(sample("g"));
  s.append_actions("g", 1, {json{{"type", "move"}, {"move", "a1"}}}, "playing");
  for (const char* suffix : {"", "-wal", "-shm"}) EXPECT_EQ(mode_of(db.string() + suffix), 0600u) << suffix;
  write_bytes(dir / "plain", "x");
  EXPECT_EQ(mode_of(dir / "plain"), 0644u);  // what a file made without care gets here
}

TEST(Storage, AnExistingFileReadableByOthersIsMadeOwnerOnly) {
  TempDir dir;
  LaxUmask lax;
  fs::path db = dir / "t.db";
  {
    Storage s(db.string());
    s.insert_game(sample("g"));
  }
  ASSERT_FALSE(fs::exists(db.string() + "-wal"));  // removed at the last close
  fs::permissions(db, fs::perms(0644));
  testing::internal::CaptureStderr();
  {
    Storage s(db.string());
    std::string err = testing::internal::GetCapturedStderr();
    // One line; it may list the -wal and -shm that checking the database made with its old mode.
    const std::string line = "storage: database files were readable by others and are now 0600: " + db.string() +
                             " (was 0644)";
    EXPECT_EQ(err.substr(0, line.size()), line) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    for (const char* suffix : {"", "-wal", "-shm"}) EXPECT_EQ(mode_of(db.string() + suffix), 0600u) << suffix;

    // Side files that are already there are made owner-only too (a second connection finds them). The
    // -wal holds a write: SQLite itself gives an empty one the database's mode when it opens it.
    s.insert_game(sample("h"));
    fs::permissions(db, fs::perms(0640));
    fs::permissions(db.string() + "-wal", fs::perms(0604));
    fs::permissions(db.string() + "-shm", fs::perms(0666));
    testing::internal::CaptureStderr();
    Storage second(db.string());
    err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(err, "storage: database files were readable by others and are now 0600: " + db.string() +
                       " (was 0640), " + db.string() + "-wal (was 0604), " + db.string() + "-shm (was 0666)\n");
    for (const char* suffix : {"", "-wal", "-shm"}) EXPECT_EQ(mode_of(db.string() + suffix), 0600u) << suffix;
    EXPECT_EQ(second.load_all().size(), 2u);  // the same database
  }
  testing::internal::CaptureStderr();
  { Storage s(db.string()); }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");  // private files are left alone, silently
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
