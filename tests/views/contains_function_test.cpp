// tlscope_contains(X, Y), the views connection's fast instr(X, Y) > 0 (views/src/database.cpp),
// which the comparison's cache read uses on each compile's metrics record: it must answer as
// instr does for every kind of value, so the comparison's results cannot change with it.
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tlscope/views/database.hpp"

using namespace tlscope;

TEST_CASE("tlscope_contains answers as instr(X, Y) > 0 for text, blobs, numbers, NULL") {
  const auto dir = std::filesystem::temp_directory_path() / "tlscope_contains_function_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "empty.db").string();
  std::filesystem::remove(path);
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &raw) == SQLITE_OK);
  REQUIRE(sqlite3_exec(raw, "CREATE TABLE t(x)", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(raw);

  views::Database db(path);
  REQUIRE(db.ok());
  // Haystack, needle: matches at the start, the end, nowhere; the literal the comparison
  // searches for; multi-byte UTF-8 (a needle starting on a continuation byte matches only at
  // byte 0, where instr starts); blobs, numbers and NULL on either side; empty values.
  const char* cases =
      "VALUES ('abc', 'a'), ('abc', 'c'), ('abc', 'd'), ('abc', 'abcd'), ('', 'a'), ('a', ''), "
      "('', ''), ('{\"inductor_fx_remote_cache_hit_count\": 2}', 'inductor_fx_remote_cache_'), "
      "('{\"inductor_fx_remote_cache\": 2}', 'inductor_fx_remote_cache_'), "
      "('h' || char(233) || 'llo', char(233)), ('h' || char(233) || 'llo', 'llo'), "
      "(char(233) || 'x', unhex_placeholder), "
      "(x'414243', x'42'), (x'414243', 'B'), ('ABC', x'42'), (x'41a942', x'a9'), "
      "(x'a941', x'a9'), (x'', x'00'), (x'', 'A'), ('A', x''), (x'', x''), (x'0041', 'A'), (12345, "
      "34), (12345, '45'), (1.5, '.5'), "
      "(NULL, 'a'), ('a', NULL), (NULL, NULL)";
  // A needle that is a lone continuation byte, as text (0xa9 of 'é' = c3 a9).
  std::string sql =
      std::string("WITH c(x, y) AS (") + cases +
      ") SELECT count(*), count(*) FILTER (WHERE (instr(x, y) > 0) IS (tlscope_contains(x, y) = 1)"
      " OR (instr(x, y) IS NULL AND tlscope_contains(x, y) IS NULL)), "
      "count(*) FILTER (WHERE tlscope_contains(x, y) = 1), "
      "group_concat(CASE WHEN (instr(x, y) > 0) IS NOT (tlscope_contains(x, y) = 1) AND NOT "
      "(instr(x, y) IS NULL AND tlscope_contains(x, y) IS NULL) THEN quote(x) || ' ' || quote(y) "
      "END, '; ') FROM c";
  const std::string needle = "CAST(x'a9' AS TEXT)";
  sql.replace(sql.find("unhex_placeholder"), 17, needle);
  views::Statement st = db.prepare(sql);
  REQUIRE(st.step());
  INFO("differing cases: " << st.text(3));
  CHECK(st.int64(0) == 28);
  CHECK(st.int64(1) == st.int64(0));
  // Not a function that says no to everything: these match.
  CHECK(st.int64(2) >= 12);
  std::filesystem::remove_all(dir);
}
