// Records and paths that once reached undefined behaviour or blocked in the store (issue 12):
// `str` entries that are not [filename, index], and database paths that are not regular files.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "common/scratch_files.hpp"
#include "common/watchdog.hpp"
#include "model/store_queries.hpp"
#include "tlscope/model/ingest.hpp"

using namespace tlscope;
using model::Connection;
using test::count;
using test::text;

namespace {

std::string header(const std::string& envelope) {
  return "V0101 00:00:00.000000 1 torch/x.py:1] " + envelope + "\n";
}

}  // namespace

TEST_CASE("str entries that are not [filename, index] are error rows, never a crash") {
  // `{"str": []}` dereferenced the end of an On-Demand array (UBSan: simdjson "unreachable").
  auto dir = test::fresh_scratch("model_scratch", "str_shapes");
  std::string log = (dir / "str.log").string();
  const char* bad[] = {R"({"str": []})",         R"({"str": ["a"]})",     R"({"str": [1, 2]})",
                       R"({"str": ["a", "b"]})", R"({"str": {"a": 1}})",  R"({"str": "x"})",
                       R"({"str": [[], 0]})",    R"({"str": ["a", 1.5]})"};
  std::string text_of_log = header(R"({"str": ["/x/good.py", 0]})");
  for (const char* envelope : bad) text_of_log += header(envelope);
  text_of_log += header(R"({"str": ["/x/also_good.py", 1, "extra"]})");
  test::spit(log, text_of_log);
  std::string db_path = (dir / "str.db").string();
  model::ingest(db_path, {log});

  Connection db(db_path, model::OpenMode::kReadOnly);
  const int64_t n_bad = static_cast<int64_t>(std::size(bad));
  CHECK(count(db, "SELECT count(*) FROM events WHERE kind = 'str'") == n_bad + 2);
  CHECK(count(db, "SELECT count(*) FROM strings") == 2);
  CHECK(text(db, "SELECT filename FROM strings WHERE idx = 0") == "/x/good.py");
  CHECK(count(db, "SELECT count(*) FROM ingest_errors") == n_bad);
  // Each row names the file and line of its record, as columns; the reason says only what.
  for (int64_t i = 0; i < n_bad; ++i) {
    INFO(bad[i]);
    CHECK(count(db,
                "SELECT count(*) FROM ingest_errors e JOIN files f ON f.id = e.file_id WHERE "
                "e.line = " + std::to_string(i + 2) + " AND f.path = '" + log +
                    "' AND instr(e.reason, 'str record kept') = 1") == 1);
  }
}

TEST_CASE("a database path that is a FIFO or a device is refused at once, not opened") {
  auto dir = test::fresh_scratch("model_scratch", "db_fifo");
  std::string fifo = (dir / "fifo.db").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  for (auto mode :
       {model::OpenMode::kReadOnly, model::OpenMode::kReadWrite, model::OpenMode::kCreate}) {
    // Opening a FIFO for reading waits for a writer: without the check this child never ends.
    auto end = test::run_with_deadline(
        [&] {
          try {
            Connection db(fifo, mode);
          } catch (const model::SqliteError& e) {
            std::string what = e.what();
            return what.find(fifo + ":") == 0 && what.find("a FIFO") != std::string::npos;
          }
          return false;
        },
        10);
    CHECK(end == test::ChildEnd::kPassed);
  }
  CHECK_THROWS_WITH(Connection("/dev/zero", model::OpenMode::kReadOnly),
                    Catch::Contains("/dev/zero") && Catch::Contains("a character device"));
  CHECK_THROWS_WITH(Connection(dir.string(), model::OpenMode::kReadOnly),
                    Catch::Contains("a directory"));
  CHECK(model::non_regular_database_reason((dir / "missing.db").string()).empty());
  CHECK(model::non_regular_database_reason(":memory:").empty());
}
