// The report's multi-rank parity sections and its provenance header on real logs: the
// collectives parity of multi_rank_schedule (rank 1's schedule of 0/0 lacks what its code calls,
// read off the logs), the PyTorch version read off a log's fx_graph_runnable, the command line
// and host as given, and hostile text escaped.
#include <catch2/catch.hpp>

#include "exporters/report_site.hpp"
#include "exporters/report_support.hpp"
#include "tlscope/exporters/report.hpp"
#include "tlscope/model/ingest.hpp"

using namespace tlscope::test;
namespace fs = std::filesystem;

namespace {

fs::path report_dir(const std::string& test) {
  return fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / ("report-parity-" + test);
}

tlscope::exporters::ReportResult report_of(const std::vector<std::string>& inputs,
                                           const fs::path& dir, const std::string& command,
                                           const std::string& host) {
  tlscope::exporters::ReportOptions o;
  o.command_line = command;
  o.host = host;
  return tlscope::test::ingest_and_report(inputs, dir, o);
}

const std::string kLogs = TLSCOPE_SHARED_LOGS;

}  // namespace

TEST_CASE("report of multi_rank_schedule: collectives parity and where it came from") {
  fs::path dir = report_dir("schedule");
  auto r = report_of({kLogs + "/multi_rank_schedule"}, dir, "tlscope report '<b>x</b>' -o out",
                     "host<script>");
  INFO(r.error);
  REQUIRE(r.ok);
  std::string coll = slurp(dir / "site" / "collectives.html");
  // Three ranks, two scheduled graphs each (0/0 and 1/0); only rank 1's 0/0 disagrees.
  CHECK(attr_of(coll, "collective-parity-summary", "data-graphs") == "6");
  CHECK(attr_of(coll, "collective-parity-summary", "data-mismatched") == "1");
  CHECK(count_of(coll, "data-agrees=\"0\"") == 1);
  CHECK(coll.find("data-rank=\"1\" data-compile=\"0/0\" data-agrees=\"0\"") != std::string::npos);
  CHECK(coll.find("data-op=\"reduce_scatter_tensor\" data-scheduled=\"0\" data-generated=\"1\"") !=
        std::string::npos);
  std::string ranks = slurp(dir / "site" / "ranks.html");
  CHECK(ranks.find("No graph logged inductor_runtime_and_tensor_meta") != std::string::npos);
  std::string index = slurp(dir / "site" / "index.html");
  // "# torch version: 2.9.0a0+git86df3ff" (fx_graph_runnable, rank 0 line 462).
  CHECK(index.find("<code>2.9.0a0+git86df3ff</code>") != std::string::npos);
  CHECK(index.find("tlscope report &#39;&lt;b&gt;x&lt;/b&gt;&#39; -o out") != std::string::npos);
  CHECK(index.find("host&lt;script&gt;") != std::string::npos);
  CHECK(index.find("<script>\"") == std::string::npos);
  CHECK(attr_of(index, "provenance-inputs", "data-count") == "3");
  // Rank 0's first record is at 0728 16:17:28.xxx; rank 1's file was logged at 21:43-21:44.
  CHECK(index.find("<td>07-28 16:17:") != std::string::npos);
  CHECK(index.find("<td>07-28 21:4") != std::string::npos);
  CHECK(index.find(">159557<") != std::string::npos);  // rank 0's file size in bytes
}

TEST_CASE("report of simple.log: its PyTorch version, no command line given") {
  fs::path dir = report_dir("simple");
  auto r = report_of({kLogs + "/simple.log"}, dir, "", "");
  REQUIRE(r.ok);
  std::string index = slurp(dir / "site" / "index.html");
  // simple.log line 358: "# torch version: 2.6.0a0+giteece9ec".
  CHECK(index.find("<code>2.6.0a0+giteece9ec</code>") != std::string::npos);
  CHECK(index.find("id=\"provenance-command\"><th>command line</th><td><span "
                   "class=\"muted\">not given") != std::string::npos);
  std::string coll = slurp(dir / "site" / "collectives.html");
  CHECK(coll.find("No graph logged an inductor_collective_schedule") != std::string::npos);
}
