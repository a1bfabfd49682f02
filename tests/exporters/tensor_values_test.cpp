// Logged tensor values in the report: the mesh-2d scenario logs each rank's local shard of w1, w2,
// x and o_partial (tensor_values) with its DTensor placement (dtensor_placement). In headless
// Chromium every drawn cell must show the value of the global tensor rebuilt here from the raw
// artifacts, and carry the colour and r-tag of exactly the mesh ranks whose block holds it.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <set>

#include "exporters/browser.hpp"
#include "exporters/report_support.hpp"
#include "tlscope/exporters/report.hpp"
#include "tlscope/model/ingest.hpp"

using namespace tlscope::test;
namespace fs = std::filesystem;

namespace {

// Rows of `sql` over an SQLite database (`path`, or ":memory:" with ?1 bound to `bind`), columns
// joined by '|'.
std::vector<std::vector<std::string>> query(const std::string& path, const std::string& sql,
                                            const std::string& bind = "") {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* s = nullptr;
  std::vector<std::vector<std::string>> out;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK) {
    if (!bind.empty()) sqlite3_bind_text(s, 1, bind.c_str(), -1, SQLITE_TRANSIENT);
    while (sqlite3_step(s) == SQLITE_ROW) {
      std::vector<std::string> row;
      for (int c = 0; c < sqlite3_column_count(s); ++c) {
        const unsigned char* t = sqlite3_column_text(s, c);
        row.push_back(t ? reinterpret_cast<const char*>(t) : "");
      }
      out.push_back(row);
    }
  }
  sqlite3_finalize(s);
  sqlite3_close(db);
  return out;
}

std::vector<int64_t> ints(const std::string& json) {
  std::vector<int64_t> v;
  for (const auto& r : query(":memory:", "SELECT value FROM json_each(?1)", json))
    v.push_back(std::stoll(r[0]));
  return v;
}

// The global tensor and its owners, rebuilt from the logged shards: Shard(d) on mesh dim m puts
// the rank's block at coords[m] * local[d] along d (the scenario's sizes divide evenly);
// replicas are taken from coordinate 0 of every Replicate() mesh dim, Partial() addends summed.
struct Expected {
  std::vector<int64_t> shape;
  std::map<std::vector<int64_t>, double> value;
  std::map<std::vector<int64_t>, std::set<int64_t>> owners;
};

std::map<std::string, Expected> expected_from_db(const std::string& db) {
  std::map<std::string, Expected> out;
  // Each rank logs a placement right before the values of the same tensor (docs/runtime.md).
  auto rows = query(db,
                    "SELECT f.rank, json_extract(pp.text, '$.tensor'), pp.text, pv.text FROM "
                    "artifacts p JOIN payloads pp ON pp.id = p.payload_id JOIN artifacts v ON "
                    "v.file_id = p.file_id AND v.name = 'tensor_values' JOIN payloads pv ON "
                    "pv.id = v.payload_id JOIN files f ON f.id = p.file_id WHERE p.name = "
                    "'dtensor_placement' AND json_extract(pv.text, '$.name') = "
                    "json_extract(pp.text, '$.tensor')");
  for (const auto& r : rows) {
    Expected& e = out[r[1]];
    const std::string& placement = r[2];
    std::vector<int64_t> coords =
        ints(query(":memory:", "SELECT json_extract(?1, '$.rank_coords')", placement)[0][0]);
    std::vector<int64_t> global =
        ints(query(":memory:", "SELECT json_extract(?1, '$.global_shape')", placement)[0][0]);
    std::vector<int64_t> local =
        ints(query(":memory:", "SELECT json_extract(?1, '$.local_shape')", placement)[0][0]);
    auto kinds = query(":memory:", "SELECT value FROM json_each(json_extract(?1, '$.placements'))",
                       placement);
    e.shape = global;
    std::vector<int64_t> lo(global.size(), 0);
    bool replica_zero = true;
    for (size_t m = 0; m < kinds.size(); ++m) {
      const std::string& k = kinds[m][0];
      if (k.rfind("Shard(", 0) == 0)
        lo[std::stoi(k.substr(6))] = coords[m] * local[std::stoi(k.substr(6))];
      if (k == "Replicate()" && coords[m] != 0) replica_zero = false;
    }
    auto values =
        query(":memory:", "SELECT value FROM json_each(json_extract(?1, '$.values'))", r[3]);
    REQUIRE(values.size() == static_cast<size_t>(local[0] * local[1]));
    for (int64_t i = 0; i < local[0]; ++i) {
      for (int64_t j = 0; j < local[1]; ++j) {
        std::vector<int64_t> g{lo[0] + i, lo[1] + j};
        e.owners[g].insert(std::stoll(r[0]));
        if (replica_zero) e.value[g] += std::stod(values[static_cast<size_t>(i * local[1] + j)][0]);
      }
    }
  }
  return out;
}

// Per page: every #tensor-grid cell (index, text, data-v, owners, computed background) and every
// shard box (owners, tag text, tag background), as JSON written by a harness page.
std::string dom_of(const fs::path& root, const std::vector<std::string>& pages) {
  std::string list;
  for (const std::string& p : pages) list += (list.empty() ? "\"" : ",\"") + p + "\"";
  std::ofstream(root / "values-harness.js") << "var PAGES = [" << list << "];\n"
                                            << R"JS(
var out = [];
function next(i) {
  if (i >= PAGES.length) { document.getElementById("out").textContent = JSON.stringify(out); return; }
  var f = document.createElement("iframe");
  f.width = 1280; f.height = 900;
  f.onload = function () {
    var d = f.contentDocument, r = { page: PAGES[i], cells: [], shards: [] };
    r.ready = d.body.getAttribute("data-ready");
    r.errors = d.querySelectorAll(".tlscope-js-error").length;
    d.querySelectorAll("#tensor-grid .cell").forEach(function (c) {
      r.cells.push({ i: c.getAttribute("data-idx"), t: c.textContent, v: c.getAttribute("data-v"),
                     o: c.getAttribute("data-owners"),
                     c: f.contentWindow.getComputedStyle(c).backgroundColor });
    });
    d.querySelectorAll("#tensor-grid .shard").forEach(function (s) {
      var tag = s.querySelector(".shard-tag");
      r.shards.push({ o: s.getAttribute("data-owners"), t: tag.textContent,
                      c: f.contentWindow.getComputedStyle(tag).backgroundColor });
    });
    out.push(r); f.remove(); next(i + 1);
  };
  f.src = PAGES[i];
  document.body.appendChild(f);
}
next(0);
)JS";
  std::ofstream(root / "values-harness.html")
      << "<!DOCTYPE html><html><body><pre id=\"out\"></pre><script src=\"values-harness.js\">"
         "</script></body></html>\n";
  std::string cmd =
      chromium_command(root / "values-profile") +
      " --allow-file-access-from-files --virtual-time-budget=30000 --dump-dom file://" +
      (root / "values-harness.html").string() + " > " + (root / "values.dom").string() +
      " 2>/dev/null";
  std::system(cmd.c_str());
  fs::remove_all(root / "values-profile");
  std::string dom = slurp(root / "values.dom");
  size_t a = dom.find("<pre id=\"out\">"), b = dom.find("</pre>");
  if (a == std::string::npos || b == std::string::npos) return "";
  std::string json = dom.substr(a + 14, b - a - 14);
  for (auto [from, to] :
       {std::pair{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}}) {
    for (size_t p = 0; (p = json.find(from, p)) != std::string::npos; p += 1)
      json.replace(p, std::string(from).size(), to);
  }
  return json;
}

std::set<int64_t> owner_set(const std::string& text) {
  std::set<int64_t> s;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t comma = text.find(',', pos);
    s.insert(std::stoll(text.substr(pos, comma - pos)));
    pos = comma == std::string::npos ? text.size() : comma + 1;
  }
  return s;
}

}  // namespace

TEST_CASE("mesh-2d tensor values are drawn with their numbers and shard owners") {
  REQUIRE(chromium_path() != nullptr);
  fs::path root = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "report-tensor-values";
  fs::remove_all(root);
  fs::create_directories(root);
  std::string sample = (fs::path(TLSCOPE_BINARY_DIR) / "samples/runtime/tlscope-sample").string();
  REQUIRE(std::system(
              (sample + " mesh-2d --seed 3 --out " + (root / "logs").string() + " > /dev/null 2>&1")
                  .c_str()) == 0);
  std::string db = (root / "tlscope.db").string();
  tlscope::model::ingest(db, {(root / "logs").string()});
  tlscope::exporters::ReportOptions o;
  o.db_path = db;
  o.out_dir = (root / "site").string();
  auto result = tlscope::exporters::write_report(o);
  INFO(result.error);
  REQUIRE(result.ok);

  std::map<std::string, Expected> expected = expected_from_db(db);
  // The scenario's four tensors (docs/runtime.md): w1 Shard(1) and w2 Shard(0) over tp, x
  // Shard(0) over dp, o_partial Shard(0) over dp and Partial over tp.
  REQUIRE(expected.size() == 4);
  CHECK(expected["w1"].shape == std::vector<int64_t>{16, 32});
  CHECK(expected["o_partial"].shape == std::vector<int64_t>{16, 4});

  // The index lists one snapshot per tensor, linked to its page.
  std::string index = slurp(root / "site" / "tensor_values.html");
  CHECK(attr_of(index, "tensor-values", "data-count") == "4");
  std::map<std::string, std::string> page_of;
  for (const auto& [name, e] : expected) {
    std::string needle = "\">" + name + "</a>";
    size_t at = index.find(needle);
    REQUIRE(at != std::string::npos);
    size_t href = index.rfind("href=\"", at) + 6;
    page_of[name] = "site/" + index.substr(href, index.find('"', href) - href);
  }
  // tensors.html links the values index, and a compile whose inputs include w1 links its page.
  CHECK(slurp(root / "site" / "tensors.html").find("href=\"tensor_values.html\"") !=
        std::string::npos);
  size_t compile_links = 0;
  for (const auto& p : fs::directory_iterator(root / "site" / "compile"))
    compile_links += count_of(slurp(p.path()), "href=\"../" + page_of["w1"].substr(5) + "\"");
  CHECK(compile_links >= 4);  // the compiled step on each of the 4 ranks takes w1

  std::vector<std::string> pages;
  for (const auto& [name, page] : page_of) pages.push_back(page);
  std::string json = dom_of(root, pages);
  REQUIRE(!json.empty());
  for (const auto& [name, e] : expected) {
    INFO(name);
    std::string page_json =
        query(":memory:",
              "SELECT value FROM json_each(?1) WHERE json_extract(value, '$.page') = '" +
                  page_of[name] + "'",
              json)[0][0];
    CHECK(query(":memory:", "SELECT json_extract(?1, '$.ready'), json_extract(?1, '$.errors')",
                page_json)[0] == std::vector<std::string>{"1", "0"});
    auto cells = query(":memory:",
                       "SELECT json_extract(value, '$.i'), json_extract(value, '$.t'), "
                       "json_extract(value, '$.v'), json_extract(value, '$.o'), "
                       "json_extract(value, '$.c') FROM json_each(?1, '$.cells')",
                       page_json);
    // Not summarised (at most 512 elements): one cell per element.
    CHECK(cells.size() == e.value.size());
    std::map<std::set<int64_t>, std::set<std::string>> colours_of_owners;
    size_t bad_values = 0, bad_owners = 0;
    for (const auto& c : cells) {
      std::vector<int64_t> idx = ints("[" + c[0] + "]");
      REQUIRE(e.value.count(idx));
      double want = e.value.at(idx);
      // The cell shows 4 significant digits; data-v keeps the full value.
      if (std::fabs(std::stod(c[1]) - want) > 1e-3 * std::fabs(want) + 1e-9) ++bad_values;
      if (std::fabs(std::stod(c[2]) - want) > 1e-9 * std::fabs(want) + 1e-12) ++bad_values;
      if (owner_set(c[3]) != e.owners.at(idx)) ++bad_owners;
      colours_of_owners[owner_set(c[3])].insert(c[4]);
    }
    CHECK(bad_values == 0);
    CHECK(bad_owners == 0);
    // One colour per owner set, and different sets get different colours.
    std::set<std::string> all;
    for (const auto& [owners, colours] : colours_of_owners) {
      CHECK(colours.size() == 1);
      all.insert(*colours.begin());
    }
    CHECK(all.size() == colours_of_owners.size());
    CHECK(colours_of_owners.size() == 2);  // every tensor is split in two along one mesh dim
    // One tagged box per owner set, its tag naming the ranks in the cells' colour.
    auto shards = query(":memory:",
                        "SELECT json_extract(value, '$.o'), json_extract(value, '$.t'), "
                        "json_extract(value, '$.c') FROM json_each(?1, '$.shards')",
                        page_json);
    CHECK(shards.size() == colours_of_owners.size());
    for (const auto& s : shards) {
      CHECK(s[1] == "r" + s[0]);
      REQUIRE(colours_of_owners.count(owner_set(s[0])));
      CHECK(*colours_of_owners[owner_set(s[0])].begin() == s[2]);
    }
  }

  fs::path shots = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "report-fixture-screenshots";
  fs::create_directories(shots);
  fs::remove(shots / "tensor_values_w1.png");
  screenshots({{root / page_of["w1"], shots / "tensor_values_w1.png"}}, root);
  REQUIRE(fs::exists(shots / "tensor_values_w1.png"));
  CHECK(fs::file_size(shots / "tensor_values_w1.png") > 10000);
}
