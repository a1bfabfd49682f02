// `tlscope merge` from the command line (a sample job ingested rank by rank, then merged, equals
// one ingest of its directory; refusals exit 2 with a message naming the file), and `ingest
// --jobs N` writing the same rows as `--jobs 1`, on the real rank directories and a sample.
#include <catch2/catch.hpp>

#include "common/table_dump.hpp"
#include "e2e/everyday_support.hpp"

using namespace e2e;

namespace {

// The analysis tables are compared too: both databases are analysed by ingest/merge.
void check_same_tables(const std::string& a, const std::string& b,
                       const std::vector<std::string>& skip = {}) {
  auto x = tlscope::test::dump_tables(a, skip);
  auto y = tlscope::test::dump_tables(b, skip);
  REQUIRE(x.count("findings") == 1);
  INFO(tlscope::test::first_difference(x, y));
  CHECK(tlscope::test::first_difference(x, y).empty());
}

}  // namespace

TEST_CASE("merge: a sample job ingested rank by rank and merged equals one ingest", "[merge]") {
  fs::path dir = scratch("merge_sample");
  fs::path logs = dir / "logs";
  write_sample_logs(logs, "desync");
  std::vector<fs::path> ranks = files_in(logs, ".log");
  REQUIRE(ranks.size() == 4);
  std::string shards;
  for (size_t i = 0; i < ranks.size(); ++i) {
    std::string shard = "rank" + std::to_string(i) + ".db";
    RunResult r = tlscope_in(dir, "ingest --no-analyze " + q(ranks[i].string()) + " --db " + shard);
    REQUIRE(r.exit_code == 0);
    shards += " " + shard;
  }
  RunResult whole = tlscope_in(dir, "ingest " + q(logs.string()) + " --db whole.db");
  REQUIRE(whole.exit_code == 0);
  RunResult merged = tlscope_in(dir, "merge" + shards + " --db all.db");
  INFO(merged.err);
  REQUIRE(merged.exit_code == 0);
  CHECK(contains(merged.out, "4 file(s) merged from 4 database(s)"));
  CHECK(contains(merged.out, "analyzed"));
  check_same_tables((dir / "whole.db").string(), (dir / "all.db").string());

  // The same shard again: its file is a repeat, named, and nothing is added.
  RunResult again = tlscope_in(dir, "merge rank0.db --db all.db");
  CHECK(again.exit_code == 0);
  CHECK(contains(again.err, "not merged again"));
  // (meta's rows are rewritten by every write, as by an ingest into an existing database.)
  check_same_tables((dir / "whole.db").string(), (dir / "all.db").string(), {"meta"});

  tlscope::test::spit(dir / "notes.db", "plain text\n");
  RunResult bad = tlscope_in(dir, "merge rank0.db notes.db --db out.db");
  CHECK(bad.exit_code == 2);
  CHECK(contains(bad.err, "notes.db: not a tlscope database"));
  RunResult self = tlscope_in(dir, "merge rank0.db all.db --db all.db");
  CHECK(self.exit_code == 2);
  CHECK(contains(self.err, "the output database itself"));
  CHECK_FALSE(fs::exists(dir / "out.db"));
}

TEST_CASE("ingest --jobs 3 writes the rows --jobs 1 writes", "[jobs]") {
  fs::path dir = scratch("jobs_equal");
  write_sample_logs(dir / "ddp", "ddp");
  std::vector<std::pair<std::string, std::string>> inputs = {
      {"real", q(kLogs + "/multi_rank_logs") + " " + q(kLogs + "/multi_rank_schedule")},
      {"sample", q((dir / "ddp").string())}};
  for (const auto& [name, paths] : inputs) {
    INFO(name);
    REQUIRE(tlscope_in(dir, "ingest --jobs 1 " + paths + " --db " + name + "1.db").exit_code == 0);
    REQUIRE(tlscope_in(dir, "ingest --jobs 3 " + paths + " --db " + name + "3.db").exit_code == 0);
    check_same_tables((dir / (name + "1.db")).string(), (dir / (name + "3.db")).string());
  }
}
