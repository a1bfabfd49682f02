// The provenance pages of the real JIT and AOT logs: written whenever the artifacts are there,
// linked from index.html and the compile page, and in headless Chromium a click on a kernel's
// call line (or its button) highlights the nodes it maps to in both graphs (lines as read off the
// JIT log: relu, sigmoid and mul on post-grad lines 8, 11, 14; x_1, x_2, d on pre-grad 14, 17, 20).
#include <catch2/catch.hpp>

#include "exporters/browser.hpp"
#include "exporters/report_site.hpp"
#include "exporters/report_support.hpp"
#include "tlscope/exporters/report.hpp"
#include "tlscope/model/ingest.hpp"

using namespace tlscope::test;
namespace fs = std::filesystem;

namespace {

fs::path report_of(const std::string& log, const std::string& name) {
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / ("provenance-" + name);
  auto r = tlscope::test::ingest_and_report({std::string(TLSCOPE_SHARED_LOGS) + "/" + log}, dir);
  INFO(r.error);
  REQUIRE(r.ok);
  return dir;
}

// Loads `page` (relative to root) in an iframe, runs `steps` (JS statements with `d` the page's
// document, each pushing to `out`) after it is ready, and returns what they recorded.
std::string drive_page(const fs::path& root, const std::string& page, const std::string& steps) {
  std::ofstream(root / "drive.js") << R"JS(
var f = document.createElement("iframe");
f.width = 1280; f.height = 900;
f.onload = function () { setTimeout(function () {
  var out = [];
  try {
    var d = f.contentDocument;
    function click(sel) {
      var e = d.querySelector(sel);
      if (!e) { out.push("missing " + sel); return; }
      e.dispatchEvent(new MouseEvent("click", {bubbles: true}));
    }
    function state() {
      var p = d.getElementById("provenance");
      var lit = [0, 1, 2].map(function (i) {
        return Array.prototype.map.call(d.querySelectorAll("#pane-" + i + " .pl.hl"),
            function (e) { return e.id; }).join(" ");
      });
      out.push(p.getAttribute("data-selected") + "|" + p.getAttribute("data-highlighted") + "|" +
               lit[0] + "|" + lit[1] + "|" + d.getElementById("prov-name").textContent + "|" +
               d.querySelectorAll(".tlscope-js-error").length);
    }
)JS" << steps << R"JS(
  } catch (e) { out.push("exception " + e); }
  document.getElementById("out").textContent = out.join("\n");
}, 50); };
f.src = ")JS" << page << R"JS(";
document.body.appendChild(f);
)JS";
  std::ofstream(root / "drive.html")
      << "<!DOCTYPE html><html><body><pre id=\"out\"></pre><script src=\"drive.js\"></script>"
         "</body></html>\n";
  fs::path out = root / "drive.dom";
  std::string cmd =
      chromium_command(root / "drive-profile") +
      " --allow-file-access-from-files --virtual-time-budget=20000 --dump-dom file://" +
      (root / "drive.html").string() + " > " + out.string() + " 2>/dev/null";
  std::system(cmd.c_str());
  std::filesystem::remove_all(root / "drive-profile");
  std::string dom = slurp(out);
  size_t a = dom.find("<pre id=\"out\">"), b = dom.find("</pre>");
  return a == std::string::npos || b == std::string::npos ? dom : dom.substr(a + 14, b - a - 14);
}

}  // namespace

TEST_CASE("provenance page of the JIT log: three panes, linked from index and compile page") {
  fs::path dir = report_of("inductor_provenance_jit_log.txt", "jit");
  fs::path site = dir / "site";
  REQUIRE(fs::exists(site / "provenance" / "provenance_1.html"));
  std::string page = slurp(site / "provenance" / "provenance_1.html");
  CHECK(count_of(page, "class=\"prov-pane\"") == 3);
  CHECK(page.find("before_pre_grad_graph") != std::string::npos);
  CHECK(page.find("inductor_output_code") != std::string::npos);
  // Items: 6 pre-grad nodes, 11 post-grad nodes, 3 kernels (one button each).
  CHECK(attr_of(page, "provenance", "data-items") == "20");
  CHECK(count_of(page, "<button class=\"prov-item\"") == 3);
  // The call line carries its kernel; the graph text is escaped (the annotations' quotes).
  CHECK(page.find("id=\"l2-137\" data-items=") != std::string::npos);
  CHECK(page.find("&quot;f32[8, 16][16, 1]cpu&quot;") != std::string::npos);
  CHECK(page.find("src=\"../assets/provenance.js\"") != std::string::npos);
  std::string index = slurp(site / "index.html");
  CHECK(index.find("href=\"provenance/provenance_1.html\"") != std::string::npos);
  bool linked = false;
  for (const auto& p : html_files(site / "compile"))
    linked |= slurp(p).find("href=\"../provenance/provenance_1.html\"") != std::string::npos;
  CHECK(linked);
  CHECK(broken_links(site).empty());
}

TEST_CASE("provenance page highlights in headless Chromium: kernel call line and button") {
  REQUIRE(chromium_path() != nullptr);
  fs::path dir = report_of("inductor_provenance_jit_log.txt", "jit-browser");
  std::string out = drive_page(dir, "site/provenance/provenance_1.html",
                               "state(); click('#l2-137'); state(); "
                               "click('button.prov-item:nth-child(3)'); state();");
  INFO(out);
  std::vector<std::string> lines;
  for (size_t at = 0; at <= out.size();) {
    size_t nl = out.find('\n', at);
    lines.push_back(out.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "null|null|||Nothing selected|0");
  // cpp_fused_mul_relu_sigmoid_0: 3 pre-grad lines, 3 post-grad lines, 37 definition lines + call.
  CHECK(lines[1] ==
        "cpp_fused_mul_relu_sigmoid_0|3,3,38|l0-13 l0-16 l0-19|l1-7 l1-10 l1-13|"
        "kernel cpp_fused_mul_relu_sigmoid_0|0");
  // Buttons are in item order (kernel keys sorted): the third is extern_kernels.addmm, which
  // computes addmm, addmm_1 and mul (from x, y and d) and is called on lines 132 and 142.
  CHECK(lines[2] ==
        "extern_kernels.addmm|3,3,2|l0-10 l0-19 l0-22|l1-4 l1-13 l1-16|"
        "kernel extern_kernels.addmm|0");
}

TEST_CASE("provenance page of the AOT log is reached from index.html (no compile id)") {
  fs::path dir = report_of("inductor_provenance_aot_log.txt", "aot");
  fs::path site = dir / "site";
  std::string index = slurp(site / "index.html");
  CHECK(index.find("href=\"provenance/provenance_1.html\">AOT graph 1</a>") != std::string::npos);
  std::string page = slurp(site / "provenance" / "provenance_1.html");
  CHECK(page.find("AOT Inductor graph") != std::string::npos);
  CHECK(page.find("inductor_aot_kernel_code") != std::string::npos);
  CHECK(broken_links(site).empty());
}

TEST_CASE("provenance page of hostile names: log text is escaped, never markup") {
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "provenance-hostile";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string evil = "<script>document.title='PWNED'</script>\\\"&";
  const std::string payload = "{\"preToPost\": {\"" + evil + "\": [\"" + evil + "x\"]}, " +
                              "\"cppCodeToPost\": {\"cpp_" + evil + "\": [\"" + evil + "x\"]}}";
  std::string log =
      "V0521 11:47:55.846000 1 x.py:1] {\"artifact\": {\"name\": "
      "\"inductor_provenance_tracking_node_mappings\", \"encoding\": \"json\"}, \"frame_id\": 0, "
      "\"frame_compile_id\": 0, \"attempt\": 0, \"has_payload\": \"0\"}\n\t" +
      payload + "\n";
  spit(dir / "hostile.log", log);
  tlscope::model::ingest((dir / "tlscope.db").string(), {(dir / "hostile.log").string()});
  tlscope::exporters::ReportOptions o;
  o.db_path = (dir / "tlscope.db").string();
  o.out_dir = (dir / "site").string();
  REQUIRE(tlscope::exporters::write_report(o).ok);
  std::string page = slurp(dir / "site" / "provenance" / "provenance_1.html");
  CHECK(page.find("<script>document") == std::string::npos);
  CHECK(page.find("&lt;script&gt;document.title=") != std::string::npos);
  // Three items (a pre-grad node, a post-grad node, a kernel) and the missing panes are stated.
  CHECK(attr_of(page, "provenance", "data-items") == "3");
  CHECK(page.find("no generated code logged") != std::string::npos);
  // In a browser the page runs its script and none of the log's.
  REQUIRE(chromium_path() != nullptr);
  PageCheck check = check_pages(dir, {"site/provenance/provenance_1.html"}, "harness");
  INFO(check.json);
  REQUIRE(page_count(check.json) == 1);
  CHECK(pages_where_not(check.json, "ready", "\"1\"").empty());
  CHECK(pages_where_not(check.json, "errors", "0").empty());
  CHECK(pages_where_not(check.json, "pwned", "0").empty());
  CHECK(pages_where_not(check.json, "inline", "0").empty());
}
