// A desync among 1,024 ranks (the sample runtime's fibers, one log per rank): truth.json names
// rank 2, and ingest + analysis of the 1,024 logs finds that one desync, on rank 2, at the same
// group and sequence, with rank 2's all_gather against everyone else's all_reduce. Asserts on the
// findings table's ranks and the collectives rows, not on the wording (which names rank ranges).
//
// Under the sanitizers (the test command's build) it runs 256 ranks: 1,024 took 70-78 s there,
// and what more ranks prove is that no step holds a file per rank open at once. That is checked
// at any count by running the sample and the ingest with the open-file limit at a quarter of the
// rank count (64 here, 256 at 1,024), far below the default 1,024 that 1,024 logs would hit.
#include <simdjson.h>
#include <sys/resource.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "analysis/analysis_harness.hpp"

using tlscope::test::AnalyzedDb;

namespace fs = std::filesystem;

namespace {

#if defined(TLSCOPE_SANITIZED)
constexpr int kRanks = 256;
#else
constexpr int kRanks = 1024;
#endif

// The soft open-file limit, lowered for the scope (children inherit it).
class OpenFileLimit {
 public:
  explicit OpenFileLimit(rlim_t limit) {
    ::getrlimit(RLIMIT_NOFILE, &old_);
    rlimit lowered = old_;
    lowered.rlim_cur = std::min<rlim_t>(limit, old_.rlim_cur);
    ok_ = ::setrlimit(RLIMIT_NOFILE, &lowered) == 0;
  }
  ~OpenFileLimit() { ::setrlimit(RLIMIT_NOFILE, &old_); }
  bool ok() const { return ok_; }

 private:
  rlimit old_{};
  bool ok_ = false;
};

}  // namespace

TEST_CASE("ranks at scale: a desync on rank 2 of 1024 (256 under ASan) is found on rank 2") {
  const std::string ranks = std::to_string(kRanks);
  const std::string sample = std::string(TLSCOPE_BINARY_DIR) + "/samples/runtime/tlscope-sample";
  REQUIRE(fs::exists(sample));
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "test-analysis" / ("sample-desync-" + ranks);
  fs::remove_all(dir);
  fs::create_directories(dir);
  OpenFileLimit limit(kRanks / 4);
  REQUIRE(limit.ok());
  // One step keeps the run short (the compile and the first step's collectives cost the most per
  // rank); the fault falls on step min(steps - 1, 2) = 0, rank 2's first gradient bucket.
  std::string cmd = sample + " desync --ranks " + ranks + " --steps 1 --out " + dir.string() +
                    " > " + (dir / "run.txt").string() + " 2>&1";
  INFO(cmd);
  REQUIRE(std::system(cmd.c_str()) == 0);

  size_t logs = 0;
  for (const auto& e : fs::directory_iterator(dir))
    logs += e.path().filename().string().rfind("dedicated_log_torch_trace_rank_", 0) == 0;
  CHECK(logs == size_t(kRanks));

  simdjson::dom::parser parser;
  simdjson::dom::element truth;
  REQUIRE_FALSE(parser.load((dir / "truth.json").string()).get(truth));
  CHECK(int64_t(truth["ranks"].get_int64().value()) == kRanks);
  simdjson::dom::array faults = truth["faults"].get_array().value();
  REQUIRE(faults.size() == 1);
  simdjson::dom::element fault = faults.at(0).value();
  CHECK(std::string_view(fault["kind"].get_string().value()) == "desync");
  simdjson::dom::array fault_ranks = fault["ranks"].get_array().value();
  REQUIRE(fault_ranks.size() == 1);
  CHECK(int64_t(fault_ranks.at(0).get_int64().value()) == 2);
  CHECK(fault["other_ranks"].get_array().value().size() == size_t(kRanks - 1));
  const std::string seq = std::to_string(int64_t(fault["seq"].get_int64().value()));
  const std::string pg(std::string_view(fault["pg_name"].get_string().value()));

  AnalyzedDb db("sample-desync-" + ranks, {dir.string()});
  INFO(db.ingest_problems() << db.report().error);
  REQUIRE(db.report().ok);
  CHECK(db.scalar("SELECT count(DISTINCT rank) FROM collectives") == ranks);
  CHECK(db.rows("SELECT ranks || '|' || pg_name || '|' || seq FROM findings WHERE kind = "
                "'desync'") == std::vector<std::string>{"[2]|" + pg + "|" + seq});
  // The majority the finding sets rank 2 against is every other rank.
  CHECK(db.scalar("SELECT json_array_length(other_ranks) FROM findings WHERE kind = 'desync'") ==
        std::to_string(kRanks - 1));
  CHECK(db.rows("SELECT op || '|' || count(*) || '|' || min(rank) || '|' || max(rank) FROM "
                "collectives WHERE pg_name = '" +
                pg + "' AND seq = " + seq + " GROUP BY op ORDER BY op") ==
        std::vector<std::string>{"all_gather|1|2|2", "all_reduce|" + std::to_string(kRanks - 1) +
                                                         "|0|" + std::to_string(kRanks - 1)});
  // Nothing else went wrong: no other fault finding, no unreadable record.
  CHECK(db.scalar("SELECT count(*) FROM findings WHERE kind IN ('missing_collective', "
                  "'straggler', 'bad_record', 'compile_failure')") == "0");
}
