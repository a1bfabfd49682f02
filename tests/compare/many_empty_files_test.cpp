// `tlscope summary DIR` over many empty rank files (issue 27 item 14): a few lines, not two per
// file, and --files still lists each. bench/many_files.sh times 100,000 of them.
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "e2e/e2e_support.hpp"

TEST_CASE("summary: 2000 empty rank files read as one line, --files lists each") {
  auto dir = e2e::scratch("many_empty_files");
  e2e::fs::create_directories(dir / "logs");
  for (int r = 0; r < 2000; ++r)
    std::ofstream(dir / "logs" /
                  ("dedicated_log_torch_trace_rank_" + std::to_string(r) + "_x.log"));
  const std::string db = e2e::q((dir / "run.db").string());
  auto r = e2e::run_tlscope(dir, "summary " + e2e::q((dir / "logs").string()) + " --db " + db);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("  2,000 empty files (0 bytes; one ingest error each, \"input is empty\"): "
                   "ranks 0-1999 (all 2,000)") != std::string::npos);
  CHECK(r.out.find("  2,000 empty files: 0 + 0 + 0 + 0 = 0  ok") != std::string::npos);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') < 60);
  auto all = e2e::run_tlscope(dir, "summary --files " + db);
  REQUIRE(all.exit_code == 0);
  CHECK(std::count(all.out.begin(), all.out.end(), '\n') >
        4000);  // a file line and an accounting line each
  CHECK(all.out.find("empty files") == std::string::npos);
}
