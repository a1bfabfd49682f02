// The timeline and find-zone panels in a real window (Xvfb + Mesa), checked through --dump-ui on
// sample scenarios and a real multi-rank log, plus the agreement test: the compile-phase lanes
// and zone counts in the report's data file equal the viewer's (both from views' one model).
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "common/many_rank_logs.hpp"
#include "gui/gui_support.hpp"
#include "gui/ingested_db.hpp"
#include "tlscope/exporters/report.hpp"
#include "tlscope/gui/viewer.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"

// (Mesa's leaks under ASan are silenced once for this binary, in viewer_test.cpp.)

namespace fs = std::filesystem;

namespace {

struct Item {
  std::string kind, text;
};

fs::path artifacts() {
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "gui-timeline";
  fs::create_directories(dir);
  return dir;
}

using gui_test::have_display;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Ingests and analyses `inputs` into artifacts()/name.db, as `tlscope ingest` does.
std::string ingested(const std::string& name, const std::vector<std::string>& inputs) {
  return gui_test::ingested_db((artifacts() / (name + ".db")).string(), inputs);
}

// `tag` keeps the files of test cases that ctest runs in parallel apart.
std::string scenario_db(const std::string& scenario, const std::string& tag) {
  const fs::path logs = artifacts() / ("logs-" + tag + "-" + scenario);
  fs::remove_all(logs);
  const std::string cmd =
      (fs::path(TLSCOPE_BINARY_DIR) / "samples/runtime/tlscope-sample").string() + " " + scenario +
      " --out " + logs.string() + " > /dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  return ingested(tag + "-" + scenario, {logs.string()});
}

// The first column of the first row of `sql` on `db`, as text ("" when there is none).
std::string first_row(const std::string& db, const std::string& sql) {
  sqlite3* raw = nullptr;
  std::string out;
  if (sqlite3_open(db.c_str(), &raw) == SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(raw, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
      out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
  }
  sqlite3_close(raw);
  return out;
}

// The dump's items, read with the viewer tests' simdjson reader.
std::vector<Item> parse_dump(const std::string& path) {
  const gui_test::Dump d = gui_test::read_dump(path);
  INFO(d.error);
  REQUIRE(d.ok);
  std::vector<Item> items;
  for (const auto& i : d.items) items.push_back({i.kind, i.text});
  return items;
}

// Runs the viewer on `db` with the panel and selection; with `screenshot`, saves one beside the
// dump (a test artifact to look at).
std::vector<Item> dump_of(const std::string& db, const std::string& panel,
                          const std::string& select, const std::string& name,
                          bool screenshot = false) {
  tlscope::gui::ViewerOptions o;
  o.test = true;  // no remembered layout or recent files
  o.inputs = {db};
  o.panel = panel;
  o.select = select;
  o.frames = 4;
  o.dump_ui_path = (artifacts() / (name + ".json")).string();
  auto r = tlscope::gui::run_viewer(o);
  INFO(r.error);
  REQUIRE(r.ok);
  if (!screenshot) return parse_dump((artifacts() / (name + ".json")).string());
  o.dump_ui_path.clear();
  o.screenshot_path = (artifacts() / (name + ".png")).string();
  auto shot = tlscope::gui::run_viewer(o);
  INFO(shot.error);
  REQUIRE(shot.ok);
  return parse_dump((artifacts() / (name + ".json")).string());
}

std::vector<std::string> texts(const std::vector<Item>& items, const std::string& kind) {
  std::vector<std::string> out;
  for (const auto& i : items)
    if (i.kind == kind) out.push_back(i.text);
  return out;
}

bool any_starts(const std::vector<std::string>& v, const std::string& prefix) {
  for (const auto& s : v)
    if (s.rfind(prefix, 0) == 0) return true;
  return false;
}

// Lane label -> zones, from the report's data/compile_timeline.js.
std::map<std::string, size_t> report_phase_lanes(const std::string& db, const std::string& name) {
  tlscope::exporters::ReportOptions o;
  o.db_path = db;
  o.out_dir = (artifacts() / ("report-" + name)).string();
  fs::remove_all(o.out_dir);
  auto r = tlscope::exporters::write_report(o);
  INFO(r.error);
  REQUIRE(r.ok);
  const std::string js = slurp(fs::path(o.out_dir) / "data" / "compile_timeline.js");
  std::smatch m;
  REQUIRE(std::regex_search(js, m, std::regex(R"re("lanes": \[(.*)\],)re")));
  std::vector<std::string> lanes;
  const std::string list = m[1];
  const std::regex quoted(R"re("([^"]*)")re");
  for (auto it = std::sregex_iterator(list.begin(), list.end(), quoted);
       it != std::sregex_iterator(); ++it)
    lanes.push_back((*it)[1]);
  std::map<std::string, size_t> zones;
  for (const auto& l : lanes) zones[l] = 0;
  // Bars are one per line, "[lane,depth,...": counted by hand (std::regex is slow on big files).
  const size_t bars = js.find("\"bars\": [\n"), links = js.find("\"links\":");
  REQUIRE(bars != std::string::npos);
  std::istringstream in(js.substr(bars, links - bars));
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line))
    if (line.size() > 1 && line[0] == '[') ++zones[lanes.at(std::stoul(line.substr(1)))];
  return zones;
}

// Lane label -> zones, from the viewer's dump (shown and folded lanes), collective lanes aside.
std::map<std::string, size_t> viewer_phase_lanes(const std::vector<Item>& items) {
  std::map<std::string, size_t> zones;
  static const std::regex lane(R"re((.*): ([0-9]+) zones( \(collapsed\))?)re");
  for (const auto& i : items) {
    std::smatch m;
    if ((i.kind != "lane" && i.kind != "lane-folded") || !std::regex_match(i.text, m, lane))
      continue;
    const std::string label = m[1];
    if (label.size() >= 11 && label.compare(label.size() - 11, 11, "collectives") == 0) continue;
    zones[label] = std::stoul(m[2]);
  }
  return zones;
}

}  // namespace

TEST_CASE("timeline: finding 1 of desync puts the view on that collective, marked on rank 2") {
  if (!have_display()) return;
  const std::string db = scenario_db("desync", "finding");
  auto items = dump_of(db, "timeline", "finding:1", "desync-finding-1", true);
  const auto markers = texts(items, "marker");
  CHECK(any_starts(markers, "desync on rank 2 at "));
  // The marker carries the finding's words: rank 2 and the op it issued.
  CHECK(std::any_of(markers.begin(), markers.end(), [](const std::string& m) {
    return m.find("rank 2 issued all_gather") != std::string::npos;
  }));
  // Rank 2 is an outlier with lanes of its own; the alike ranks fold into one group.
  CHECK(any_starts(texts(items, "lane"), "rank 2 \xC2\xB7 collectives: "));
  CHECK(any_starts(texts(items, "group"), "ranks 0-1, 3 (3) \xC2\xB7 "));
  // The collective is selected: its flow lines are drawn and the details name it.
  CHECK(any_starts(texts(items, "link"), "all_gather #"));
  const auto details = texts(items, "details");
  CHECK(any_starts(details, "desync on rank 2"));
  CHECK(any_starts(details, "all_gather #"));
  CHECK(any_starts(details, "rank 0: all_reduce"));
  CHECK_FALSE(texts(items, "ruler").empty());

  // The findings panel's click-through selects the collective: the ranks involved are marked
  // and named in the details as well.
  const std::string key =
      first_row(db, "SELECT pg_name || ':' || seq FROM findings WHERE kind = 'desync'");
  auto through = dump_of(db, "timeline", "collective:" + key, "desync-collective");
  CHECK(any_starts(texts(through, "details"), "desync on rank 2"));
  CHECK(any_starts(texts(through, "link"),
                   "all_gather #" + key.substr(key.find(':') + 1) + " of group "));
}

TEST_CASE("timeline: a 1024-rank desync draws rank 2 on its own lane beside the folded rest") {
  if (!have_display()) return;
  const fs::path logs = artifacts() / "logs-1024-desync";
  tlscope::test::write_many_rank_desync_logs(logs, 1024, 8, 2, 5);
  const std::string db = ingested("1024-desync", {logs.string()});
  auto items = dump_of(db, "timeline", "finding:1", "desync-1024", true);
  // Two lanes drawn: the folded group (its first rank's lane under the group's label) and
  // rank 2, with the desync marker on it.
  const auto lanes = texts(items, "lane");
  CHECK(lanes.size() == 2);
  CHECK(any_starts(lanes, "rank 0 \xC2\xB7 collectives: 8 zones"));
  CHECK(any_starts(lanes, "rank 2 \xC2\xB7 collectives: 8 zones"));
  CHECK(texts(items, "group") ==
        std::vector<std::string>{"ranks 0-1, 3-1023 (1,023) \xC2\xB7 collectives"});
  CHECK(texts(items, "lane-folded").size() == 1022);
  CHECK(any_starts(texts(items, "marker"), "desync on rank 2 at "));
}

TEST_CASE(
    "timeline: hang marks the missing rank, and collective and zone selections find their items") {
  if (!have_display()) return;
  const std::string db = scenario_db("hang", "marker");
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &raw) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(
      raw, "SELECT ranks, pg_name, seq FROM findings WHERE kind = 'missing_collective' ORDER BY id",
      -1, &st, nullptr);
  REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  const std::string ranks = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
  const std::string key = std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, 1))) +
                          ":" + std::to_string(sqlite3_column_int64(st, 2));
  sqlite3_finalize(st);
  sqlite3_close(raw);
  std::smatch m;
  REQUIRE(std::regex_search(ranks, m, std::regex("[0-9]+")));
  auto items = dump_of(db, "timeline", "collective:" + key, "hang-collective", true);
  CHECK(any_starts(texts(items, "marker"), "missing (hang) on rank " + m.str() + " at "));
  // The details list the collective on every rank that issued it: the missing one did not.
  const auto details = texts(items, "details");
  CHECK(any_starts(details, "rank 0: "));
  CHECK_FALSE(any_starts(details, "rank " + m.str() + ": "));

  // Collective 1 of group 0 is a broadcast on every rank: selected by its zone name.
  auto zone = dump_of(db, "timeline", "zone:broadcast #1", "hang-zone");
  CHECK(any_starts(texts(zone, "details"), "broadcast #1"));
  CHECK(any_starts(texts(zone, "details"), "rank 0: broadcast"));
  // A name no zone has is refused with a message, not ignored.
  tlscope::gui::ViewerOptions o;
  o.test = true;  // no remembered layout or recent files
  o.inputs = {db};
  o.panel = "timeline";
  o.select = "zone:no such zone";
  o.dump_ui_path = (artifacts() / "hang-no-zone.json").string();
  auto r = tlscope::gui::run_viewer(o);
  CHECK_FALSE(r.ok);
  CHECK(r.error.find("no zone named no such zone") != std::string::npos);
}

TEST_CASE("find zone: statistics and a histogram whose bars add up to the count") {
  if (!have_display()) return;
  const std::string db = scenario_db("straggler", "find-zone");
  auto items = dump_of(db, "find-zone", "zone:all_reduce", "straggler-find-zone", true);
  const auto stats = texts(items, "stat");
  REQUIRE_FALSE(stats.empty());
  std::smatch m;
  REQUIRE(std::regex_search(stats[0], m,
                            std::regex("^all ranks: ([0-9]+) zones, total .* median .* max ")));
  size_t in_bars = 0;
  for (const auto& b : texts(items, "bar")) in_bars += std::stoul(b.substr(b.rfind(": ") + 2));
  CHECK(in_bars == std::stoul(m[1]));
  CHECK(std::stoul(m[1]) > 0);
  CHECK_FALSE(texts(items, "row").empty());
}

TEST_CASE("agreement: the report's compile-phase lanes and zone counts equal the viewer's") {
  if (!have_display()) return;
  struct Case {
    std::string name, db;
  } cases[] = {{"desync", scenario_db("desync", "agreement")},
               {"multi_rank_logs", ingested("multi_rank_logs", {std::string(TLSCOPE_SHARED_LOGS) +
                                                                "/multi_rank_logs"})}};
  for (const auto& c : cases) {
    INFO(c.name);
    const auto report = report_phase_lanes(c.db, c.name);
    const auto viewer = viewer_phase_lanes(dump_of(c.db, "timeline", "", "agreement-" + c.name));
    REQUIRE_FALSE(report.empty());
    CHECK(report == viewer);
  }
  // The real log's files come from three runs, each on its own axis: no lane mixes them.
  const auto real = report_phase_lanes(cases[1].db, "multi_rank_logs");
  CHECK(real.count("run 1 \xC2\xB7 rank 0 \xC2\xB7 pid 0 tid 0") == 1);
  CHECK(real.count("run 3 \xC2\xB7 rank 3 \xC2\xB7 pid 0 tid 0") == 1);
}
