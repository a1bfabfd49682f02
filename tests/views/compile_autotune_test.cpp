// CompileRuntimeReader's autotune fields equal what parsing every compile-time metrics record
// gives (the query it ran before it learnt to skip records whose autotune fields are all null):
// on records written to trip a text search (null and non-null fields side by side, other case, a
// \u escape in a name, the word inside a string value, nested objects, no space before null, a
// space before a comma).
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/scratch_files.hpp"
#include "common/sql_rows.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/views/compile_runtime.hpp"

using namespace tlscope;

namespace {

// One compilation_metrics envelope of frame 0, compile `n`.
std::string metrics_line(int n, const std::string& fields) {
  return "V0516 11:47:27.93" + std::to_string(n) +
         "000 1397 torch/_dynamo/utils.py:1] {\"compilation_metrics\": {\"compile_id\": \"0/" +
         std::to_string(n) + "\", " + fields +
         "}, \"frame_id\": 0, \"frame_compile_id\": " + std::to_string(n) + ", \"attempt\": 0}\n";
}

}  // namespace

TEST_CASE("CompileRuntimeReader: autotune fields as a full parse of every metrics record") {
  std::filesystem::path dir = test::fresh_scratch("views_scratch", "compile_autotune");
  std::filesystem::path log = dir / "metrics.log";
  test::spit(
      log, metrics_line(0,
                        "\"compile_time_autotune_time_us\": null, "
                        "\"runtime_triton_autotune_time_us\": null") +
               metrics_line(1, "\"a_autotune_us\": null, \"compile_time_autotune_time_us\": 240") +
               metrics_line(2, "\"AUTOTUNE_MS\": 7") + metrics_line(3, "\"\\u0061utotune_us\": 9") +
               metrics_line(4, "\"fail_reason\": \"autotune\\\": 3\", \"autotune_x\":null") +
               metrics_line(5, "\"autotune_cfg\": {\"autotune_inner\": null}, \"b\": 1") +
               metrics_line(6, "\"autotune_a\": null , \"autotune_b\": 3"));
  std::string db_path = (dir / "run.db").string();
  model::ingest(db_path, {log.string()});

  // The reference: every record parsed, as the reader's query did before it skipped any.
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open_v2(db_path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  std::vector<std::string> expected =
      test::sql_rows(raw,
                     "SELECT m.file_id, coalesce(m.compile_id, ''), j.key, CAST(j.value AS TEXT) "
                     "FROM compilation_metrics m, json_each(CASE WHEN json_valid(m.json) AND "
                     "json_type(m.json) = 'object' THEN m.json ELSE '{}' END) j "
                     "WHERE m.kind NOT LIKE '%metrics_runtime' AND j.key LIKE '%autotune%' AND "
                     "j.type <> 'null' ORDER BY m.event_id, j.id");
  sqlite3_close(raw);
  // 0/1's value, 0/2's upper-case name, 0/3's escaped name, 0/5's object, 0/6's second field.
  REQUIRE(expected.size() == 5);

  views::Database db(db_path);
  REQUIRE(db.ok());
  views::CompileRuntimeReader reader(db);
  std::vector<std::string> got;
  for (int n = 0; n <= 6; ++n) {
    auto rt = reader.read(1, "0/" + std::to_string(n));
    INFO(rt.error);
    REQUIRE(rt.ok());
    for (const views::NamedValue& v : rt->autotune)
      got.push_back("1|0/" + std::to_string(n) + "|" + v.name + "|" + v.value);
  }
  CHECK(got == expected);
}
