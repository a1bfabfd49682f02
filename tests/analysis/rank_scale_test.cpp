// A desync among 1,024 ranks (the sample runtime's fibers, one log per rank): truth.json names
// rank 2, and ingest + analysis of the 1,024 logs finds that one desync, on rank 2, at the same
// group and sequence, with rank 2's all_gather against everyone else's all_reduce. Asserts on the
// findings table's ranks and the collectives rows, not on the wording (which names rank ranges).
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "analysis/analysis_harness.hpp"

using tlscope::test::AnalyzedDb;

namespace fs = std::filesystem;

TEST_CASE("ranks at scale: a desync on rank 2 of 1024 is found on rank 2 with its op") {
  const std::string sample = std::string(TLSCOPE_BINARY_DIR) + "/samples/runtime/tlscope-sample";
  REQUIRE(fs::exists(sample));
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "test-analysis" / "sample-desync-1024";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // One step keeps the run short (the compile and the first step's collectives cost the most per
  // rank); the fault falls on step min(steps - 1, 2) = 0, rank 2's first gradient bucket.
  std::string cmd = sample + " desync --ranks 1024 --steps 1 --out " + dir.string() + " > " +
                    (dir / "run.txt").string() + " 2>&1";
  INFO(cmd);
  REQUIRE(std::system(cmd.c_str()) == 0);

  size_t logs = 0;
  for (const auto& e : fs::directory_iterator(dir))
    logs += e.path().filename().string().rfind("dedicated_log_torch_trace_rank_", 0) == 0;
  CHECK(logs == 1024);

  simdjson::dom::parser parser;
  simdjson::dom::element truth;
  REQUIRE_FALSE(parser.load((dir / "truth.json").string()).get(truth));
  CHECK(int64_t(truth["ranks"].get_int64().value()) == 1024);
  simdjson::dom::array faults = truth["faults"].get_array().value();
  REQUIRE(faults.size() == 1);
  simdjson::dom::element fault = faults.at(0).value();
  CHECK(std::string_view(fault["kind"].get_string().value()) == "desync");
  simdjson::dom::array fault_ranks = fault["ranks"].get_array().value();
  REQUIRE(fault_ranks.size() == 1);
  CHECK(int64_t(fault_ranks.at(0).get_int64().value()) == 2);
  CHECK(fault["other_ranks"].get_array().value().size() == 1023);
  const std::string seq = std::to_string(int64_t(fault["seq"].get_int64().value()));
  const std::string pg(std::string_view(fault["pg_name"].get_string().value()));

  AnalyzedDb db("sample-desync-1024", {dir.string()});
  INFO(db.ingest_problems() << db.report().error);
  REQUIRE(db.report().ok);
  CHECK(db.scalar("SELECT count(DISTINCT rank) FROM collectives") == "1024");
  CHECK(db.rows("SELECT ranks || '|' || pg_name || '|' || seq FROM findings WHERE kind = "
                "'desync'") == std::vector<std::string>{"[2]|" + pg + "|" + seq});
  // The majority the finding sets rank 2 against is every other rank.
  CHECK(db.scalar("SELECT json_array_length(other_ranks) FROM findings WHERE kind = 'desync'") ==
        "1023");
  CHECK(db.rows("SELECT op || '|' || count(*) || '|' || min(rank) || '|' || max(rank) FROM "
                "collectives WHERE pg_name = '" +
                pg + "' AND seq = " + seq + " GROUP BY op ORDER BY op") ==
        std::vector<std::string>{"all_gather|1|2|2", "all_reduce|1023|0|1023"});
  // Nothing else went wrong: no other fault finding, no unreadable record.
  CHECK(db.scalar("SELECT count(*) FROM findings WHERE kind IN ('missing_collective', "
                  "'straggler', 'bad_record', 'compile_failure')") == "0");
}
