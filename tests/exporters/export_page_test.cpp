// export.html and the compile pages' symbolic-shape and runtime sections, on the real export.log
// (facts read off its lines), a torch.compile log without export records, and the sample
// runtime's shape-specialization scenario (against its truth.json).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>

#include "exporters/report_site.hpp"
#include "exporters/report_support.hpp"
#include "tlscope/exporters/report.hpp"
#include "tlscope/model/ingest.hpp"

using namespace tlscope::test;
namespace fs = std::filesystem;

namespace {

fs::path site_of(const std::vector<std::string>& inputs, const std::string& name) {
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / ("export-page-" + name);
  auto r = tlscope::test::ingest_and_report(inputs, dir);
  INFO(r.error);
  REQUIRE(r.ok);
  return dir / "site";
}

// The compile page whose title names `compile_id`.
std::string compile_page(const fs::path& site, const std::string& compile_id) {
  for (const auto& f : fs::directory_iterator(site / "compile")) {
    std::string html = slurp(f.path());
    if (html.find("<title>Compile [" + compile_id + "]") != std::string::npos) return html;
  }
  return "";
}

}  // namespace

TEST_CASE("export.html of export.log: the issue, its provenance, the guards and the program") {
  fs::path site = site_of({std::string(TLSCOPE_SHARED_LOGS) + "/export.log"}, "real");
  std::string h = slurp(site / "export.html");
  // Line 48: one propagate_real_tensors_provenance; lines 37-59: seven guard_added.
  CHECK(count_of(h, "class=\"export-issue\" data-kind=\"data_dependent\"") == 1);
  CHECK(count_of(h, "class=\"export-issue\" data-kind=\"guard_added\"") == 7);
  // The provenance runs from eq (depth 0) to the unbacked symbol (depth 8) of line 28.
  CHECK(count_of(h, "data-depth=\"") == 9);
  CHECK(h.find("data-depth=\"8\"><span class=\"symbol-origin\">unbacked symbol u0 created at "
               "/data/users/angelayi/pytorch/test/export/test_draft_export.py:269 (a = "
               "x.item())") != std::string::npos);
  // Log text is escaped: line 38's guard compares with '<'.
  CHECK(h.find("(((-u0)//3)) + 5 &lt; 2*s0") != std::string::npos);
  CHECK(h.find("(((-u0)//3)) + 5 < 2*s0") == std::string::npos);
  // Line 60's exported_program payload is shown.
  CHECK(count_of(h, "class=\"code exported-program\"") == 1);
  CHECK(h.find("ExportedProgram") != std::string::npos);
  // The navigation links the page from every other page.
  CHECK(slurp(site / "index.html").find("href=\"export.html\"") != std::string::npos);
}

TEST_CASE("export.html of a torch.compile log says there is nothing exported") {
  fs::path site = site_of({std::string(TLSCOPE_SHARED_LOGS) + "/simple.log"}, "simple");
  std::string h = slurp(site / "export.html");
  CHECK(h.find("id=\"export-none\"") != std::string::npos);
  CHECK(count_of(h, "class=\"export-issue\"") == 0);
}

TEST_CASE("compile pages of the shape-specialization sample: specialization, runtime, links") {
  fs::path binary = fs::path(TLSCOPE_BINARY_DIR) / "samples" / "runtime" / "tlscope-sample";
  REQUIRE(fs::exists(binary));
  fs::path logs = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "export-page-sample-logs";
  fs::remove_all(logs);
  std::string cmd =
      binary.string() + " shape-specialization --out " + logs.string() + " > /dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::string truth = slurp(logs / "truth.json");
  fs::path site = site_of({logs.string()}, "sample");
  // truth.json: compile 0/1 specialized s0 to 6, 0/2 to 8; 0/0 was static.
  REQUIRE(truth.find("\"compile_id\": \"0/1\", \"frame\": \"batch_mean\", \"symbol\": \"s0\", "
                     "\"source\": \"L['x'].size()[0]\", \"value\": 6") != std::string::npos);
  std::string c1 = compile_page(site, "0/1");
  REQUIRE_FALSE(c1.empty());
  CHECK(c1.find("<section id=\"compile-shapes\">") != std::string::npos);
  CHECK(c1.find("data-symbol=\"s0\" data-value=\"6\"") != std::string::npos);
  CHECK(c1.find("was specialized to 6 at ") != std::string::npos);
  CHECK(c1.find("Eq(s0, 6)") != std::string::npos);
  // Runtime: truth.json's runtime_triton_autotune_time_us of 0/1, and its link.
  std::string runtime_key =
      "{\"rank\": 0, \"compile_id\": \"0/1\", "
      "\"runtime_triton_autotune_time_us\": ";
  size_t at = truth.find(runtime_key);
  REQUIRE(at != std::string::npos);
  std::string us = truth.substr(at + runtime_key.size(),
                                truth.find(',', at + runtime_key.size()) - at - runtime_key.size());
  CHECK(c1.find("<th>runtime_triton_autotune_time_us</th><td>" + us + "</td>") !=
        std::string::npos);
  CHECK(c1.find("<code class=\"link-url\">https://autotune.invalid/report/0/1</code>") !=
        std::string::npos);
  CHECK(c1.find("class=\"autotune-kernels\" data-count=\"") != std::string::npos);
  std::string c0 = compile_page(site, "0/0");
  REQUIRE_FALSE(c0.empty());
  CHECK(c0.find("id=\"compile-shapes\"") == std::string::npos);
  CHECK(c0.find("id=\"compile-runtime\"") != std::string::npos);
}

TEST_CASE("index.html lists link records logged outside any compile, escaped") {
  // links.log's one link (line 20) belongs to compile 0/0: it is on that compile's page only. A
  // link with no compile id goes to index.html, its hostile name and URL as text.
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "export-page-links-input";
  fs::create_directories(dir);
  fs::path log = dir / "unattached_link.log";
  {
    std::ofstream out(log);
    out << "V0516 11:47:27.930000 139733182882816 torch/_dynamo/x.py:1] {\"link\": {\"name\": "
           "\"<b>dash</b>\", \"url\": \"javascript:alert(1)\"}}\n";
  }
  fs::path site = site_of({log.string()}, "unattached-link");
  std::string index = slurp(site / "index.html");
  CHECK(index.find("Links logged outside any compile (1)") != std::string::npos);
  CHECK(
      index.find("&lt;b&gt;dash&lt;/b&gt;: <code class=\"link-url\">javascript:alert(1)</code>") !=
      std::string::npos);
  CHECK(index.find("href=\"javascript") == std::string::npos);

  fs::path real = site_of({std::string(TLSCOPE_SHARED_LOGS) + "/links.log"}, "links-real");
  CHECK(slurp(real / "index.html").find("Links logged outside any compile") == std::string::npos);
  CHECK(compile_page(real, "0/0").find("manifold_url") != std::string::npos);
}

TEST_CASE("export.html names missing and mismatched fake kernels with their op and reason") {
  // Draft export logs these when a custom op has no fake (meta) kernel, or one whose output
  // disagrees with the real kernel's.
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "export-page-fake-input";
  fs::create_directories(dir);
  fs::path log = dir / "fake_kernels.log";
  {
    std::ofstream out(log);
    out << "V0516 11:47:27.930000 1 torch/_export/x.py:1] {\"missing_fake_kernel\": {\"op\": "
           "\"mylib.foo.default\"}}\n"
           "V0516 11:47:27.931000 1 torch/_export/x.py:2] {\"mismatched_fake_kernel\": {\"op\": "
           "\"mylib.bar.default\", \"reason\": \"Shapes <4> and <8> differ\"}}\n";
  }
  fs::path site = site_of({log.string()}, "fake-kernels");
  std::string h = slurp(site / "export.html");
  CHECK(count_of(h, "data-kind=\"missing_fake_kernel\"") == 1);
  CHECK(count_of(h, "data-kind=\"mismatched_fake_kernel\"") == 1);
  CHECK(h.find("mylib.foo.default") != std::string::npos);
  CHECK(h.find("mylib.bar.default") != std::string::npos);
  CHECK(h.find("Shapes &lt;4&gt; and &lt;8&gt; differ") != std::string::npos);
}
