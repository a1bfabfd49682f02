// The write side rage uses (model/redact_store.hpp): a redacted copy of a store, the bundle's file
// names, and the counts.
#include <catch2/catch.hpp>

#include "common/scratch_files.hpp"
#include "store_queries.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/model/redact_store.hpp"

using namespace tlscope;

namespace {

const std::string kLog = std::string(TLSCOPE_FIXTURES) + "/comp_failure.log";

// Replaces every "torch" with "TORCH": a stand-in redactor that changes many cells, and the same
// text in many rows (so a cell's result must not be confused with another's).
bool upcase_torch(std::string& text) {
  bool changed = false;
  for (size_t at = text.find("torch"); at != std::string::npos; at = text.find("torch", at + 5)) {
    text.replace(at, 5, "TORCH");
    changed = true;
  }
  return changed;
}

}  // namespace

TEST_CASE("redact_store_copy: every text cell through the redactor, the source untouched") {
  auto dir = test::fresh_scratch("model_scratch", "redact_store");
  std::string source = (dir / "source.db").string(), copy = (dir / "copy.db").string();
  model::ingest(source, {kLog});
  int64_t cells = 0, upper_before = 0;
  {
    model::Connection db(source, model::OpenMode::kReadOnly);
    cells = test::count(db, "SELECT count(*) FROM payloads WHERE instr(text, 'torch') > 0") +
            test::count(db, "SELECT count(*) FROM files WHERE instr(path, 'torch') > 0");
    REQUIRE(cells > 1);
    upper_before = test::count(db, "SELECT count(*) FROM payloads WHERE instr(text, 'TORCH') > 0");
  }
  uint64_t calls = 0;
  model::StoreRedaction r = model::redact_store_copy(source, copy, [&](std::string& text) {
    ++calls;
    return upcase_torch(text);
  });
  REQUIRE(r.ok);
  REQUIRE(r.file_paths.size() == 1);
  CHECK(r.file_paths[0].find("comp_failure.log") != std::string::npos);
  CHECK(r.cells_changed >= static_cast<uint64_t>(cells));
  CHECK(calls >= r.cells_changed);
  model::Connection c(copy, model::OpenMode::kReadOnly);
  CHECK(test::count(c, "SELECT count(*) FROM payloads WHERE instr(text, 'torch') > 0") == 0);
  CHECK(test::count(c, "SELECT count(*) FROM payloads WHERE instr(text, 'TORCH') > 0") > 0);
  model::Connection s(source, model::OpenMode::kReadOnly);
  CHECK(test::count(c, "SELECT count(*) FROM events") ==
        test::count(s, "SELECT count(*) FROM events"));
  // No page of the copy still holds a changed text (it was VACUUMed).
  REQUIRE(test::slurp(source).find("torch") != std::string::npos);
  CHECK(test::slurp(copy).find("torch") == std::string::npos);
  CHECK(test::count(s, "SELECT count(*) FROM payloads WHERE instr(text, 'TORCH') > 0") ==
        upper_before);

  // Not a tlscope database: refused, naming it.
  std::string other = (dir / "other.db").string();
  {
    model::Connection o(other);
    o.exec("CREATE TABLE t(x TEXT)");
  }
  model::StoreRedaction bad =
      model::redact_store_copy(other, (dir / "x.db").string(), upcase_torch);
  CHECK_FALSE(bad.ok);
  CHECK(bad.error == other + ": not a tlscope database (no events table)");
}

TEST_CASE("rename_store_files and count_store: the bundle's names and counts") {
  auto dir = test::fresh_scratch("model_scratch", "rename_store");
  std::string db_path = (dir / "s.db").string();
  std::string log = (dir / "staging" / "logs" / "bad.log").string();
  std::filesystem::create_directories(dir / "staging" / "logs");
  test::spit(log, "not a glog line\n");
  model::ingest(db_path, {log});
  std::string error;
  REQUIRE(model::rename_store_files(db_path, {{log, "logs/bad.log"}},
                                    (dir / "staging").string() + "/", error));
  model::Connection db(db_path, model::OpenMode::kReadOnly);
  CHECK(test::text(db, "SELECT path FROM files") == "logs/bad.log");
  CHECK(test::count(db, "SELECT count(*) FROM ingest_errors WHERE instr(reason, 'staging') > 0") ==
        0);
  model::StoreCounts counts;
  REQUIRE(model::count_store(db_path, counts, error));
  CHECK(counts.events == test::count(db, "SELECT count(*) FROM events"));
  CHECK(counts.ingest_errors == 1);
  CHECK_FALSE(model::count_store((dir / "missing.db").string(), counts, error));
  CHECK(error.find("missing.db") != std::string::npos);
}
