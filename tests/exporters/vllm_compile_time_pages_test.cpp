// compile_time.html and vllm.html written for real logs: simple.log's split and icicles (boxes
// with their phase names), vllm_post_grad_diff.log's passes in order with their diffs and the
// pattern dump, escaped; a log without vLLM records says so on vllm.html.
#include <catch2/catch.hpp>

#include "exporters/report_support.hpp"

namespace {

std::filesystem::path site_of(const std::string& name, const std::string& log) {
  std::filesystem::path root = tlscope::test::fresh_scratch("exporters-tests", name);
  tlscope::test::spit(root / "in.log",
                      tlscope::test::slurp(std::string(TLSCOPE_SHARED_LOGS) + "/" + log));
  std::string db = (root / "in.db").string();
  tlscope::model::ingest(db, {(root / "in.log").string()});
  tlscope::exporters::ReportOptions options;
  options.db_path = db;
  options.out_dir = (root / "site").string();
  tlscope::exporters::ReportResult r = tlscope::exporters::write_report(options);
  INFO(r.error);
  REQUIRE(r.ok);
  return root / "site";
}

}  // namespace

TEST_CASE("compile_time.html of simple.log: the split and the phase icicles") {
  const std::filesystem::path site = site_of("compile_time_simple", "simple.log");
  const std::string html = tlscope::test::slurp(site / "compile_time.html");
  CHECK(html.find("<b>1.66 s</b>compile time (1 compile)") != std::string::npos);
  CHECK(html.find("<b>1.31 s</b>backend (AOT, Inductor)") != std::string::npos);
  CHECK(html.find("id=\"icicle-run\"") != std::string::npos);
  CHECK(html.find("id=\"icicle-0\"") != std::string::npos);
  // Every phase of the run's tree is a box; the root spans the whole width.
  CHECK(tlscope::test::count_of(html, "class=\"ph d") == 2 * 21);
  CHECK(html.find("style=\"left:0.0000%;width:100.0000%;top:0px\" title=\"dynamo: 1.66 s") !=
        std::string::npos);
  // An HTML name is escaped (compile_fx.<locals>.fw_compiler_base).
  CHECK(html.find("compile_fx.&lt;locals&gt;.fw_compiler_base") != std::string::npos);
  CHECK(html.find("compile_fx.<locals>") == std::string::npos);
  CHECK(tlscope::test::broken_links(site).empty());
  const std::string vllm = tlscope::test::slurp(site / "vllm.html");
  CHECK(vllm.find("This log has no vLLM records.") != std::string::npos);
  // No vLLM records: the navigation does not list the page (the rest of it stays).
  const std::string index = tlscope::test::slurp(site / "index.html");
  CHECK(index.find("vllm.html") == std::string::npos);
  CHECK(index.find("<a href=\"compile_time.html\">Compile time</a>") != std::string::npos);
  CHECK(index.find("<a href=\"export.html\">Export</a></nav>") != std::string::npos);
}

TEST_CASE("vllm.html of vllm_post_grad_diff.log: passes in order, their diffs, the patterns") {
  const std::filesystem::path site = site_of("vllm_post_grad", "vllm_post_grad_diff.log");
  const std::string html = tlscope::test::slurp(site / "vllm.html");
  const size_t fusion = html.find("<li><b>FusionPass</b>");
  const size_t reshape = html.find("<li><b>ReshapePass</b>");
  REQUIRE(fusion != std::string::npos);
  REQUIRE(reshape != std::string::npos);
  CHECK(fusion < reshape);
  CHECK(html.find("<span class=\"del\">-     a = torch.sin(x)</span>", fusion) < reshape);
  CHECK(html.find("<span class=\"add\">+     fused_sincos = torch.ops.fused_sincos(x)</span>",
                  fusion) < reshape);
  CHECK(html.find("<span class=\"add\">+     y = fused_sincos.reshape(-1)</span>", reshape) !=
        std::string::npos);
  CHECK(html.find("patterns (vllm_patterns.FusionPass)") != std::string::npos);
  CHECK(html.find("<a href=\"vllm.html\" class=\"active\">vLLM</a></nav>") != std::string::npos);
  CHECK(tlscope::test::slurp(site / "index.html").find("<a href=\"vllm.html\">vLLM</a>") !=
        std::string::npos);
  CHECK(html.find("    cos = CallFunction(torch.cos, x)") != std::string::npos);
  CHECK(tlscope::test::broken_links(site).empty());
}
