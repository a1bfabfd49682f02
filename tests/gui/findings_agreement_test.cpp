// Agreement: the viewer's findings panel lists the same findings (kinds in order, counts, every
// message) as the one findings view model, views::load_findings, which the report's index and
// `tlscope summary` are checked against in tests/e2e/findings_agreement_test.cpp. Read back from
// the panel's UI dump: "TITLE  (N)" group headers, then "K. message   [RANKS]" rows, each followed
// by its "hint" text (what it means and what to try).
#include <catch2/catch.hpp>

#include "gui_support.hpp"
#include "tlscope/views/findings.hpp"

namespace {

struct ShownGroup {
  std::string title;
  int64_t count = 0;
  std::vector<std::string> messages;
  std::vector<std::string> hints;  // one per message
  bool operator==(const ShownGroup& o) const {
    return title == o.title && count == o.count && messages == o.messages && hints == o.hints;
  }
};

std::ostream& operator<<(std::ostream& os, const ShownGroup& g) {
  os << g.title << " (" << g.count << "):";
  for (size_t i = 0; i < g.messages.size(); ++i) {
    os << "\n  " << g.messages[i];
    if (i < g.hints.size()) os << "\n    -> " << g.hints[i];
  }
  return os;
}

std::vector<ShownGroup> shown_by_viewer(const gui_test::Dump& d) {
  std::vector<ShownGroup> shown;
  for (const auto& item : d.items) {
    if (item.kind == "group") {
      const size_t open = item.text.rfind("  (");
      REQUIRE(open != std::string::npos);
      shown.push_back({item.text.substr(0, open), std::stoll(item.text.substr(open + 3)), {}, {}});
    } else if (item.kind == "finding") {
      REQUIRE_FALSE(shown.empty());
      std::string text = item.text.substr(item.text.find(". ") + 2);  // "K. "
      const size_t ranks = text.rfind("   [rank");
      if (ranks != std::string::npos && text.back() == ']') text.resize(ranks);
      shown.back().messages.push_back(text);
    } else if (item.kind == "hint") {
      REQUIRE_FALSE(shown.empty());
      shown.back().hints.push_back(item.text);
    }
  }
  return shown;
}

std::vector<ShownGroup> expected(const std::string& db_path) {
  tlscope::views::Database db(db_path);
  auto findings = tlscope::views::load_findings(db);
  INFO(findings.error);
  REQUIRE(findings.ok());
  std::vector<ShownGroup> out;
  for (const auto& g : findings->groups) {
    ShownGroup s{std::string(g.kind->title), g.count, {}, {}};
    for (const auto& row : g.rows) {
      s.messages.push_back(row.message);
      s.hints.push_back(row.hint.line());
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::string cached_db(const gui_test::fs::path& dir) {
  for (const auto& e : gui_test::fs::directory_iterator(dir / "cache" / "tlscope"))
    if (e.path().extension() == ".db") return e.path().string();
  return {};
}

void check_agreement(const std::string& name, const std::string& logs) {
  auto dir = gui_test::scratch("agreement_" + name);
  // Tall enough that every finding row is drawn (the panel draws only what is visible).
  tlscope::gui::ViewerOptions opts;
  opts.test = true;  // no remembered layout or recent files
  opts.inputs = {logs};
  opts.panel = "findings";
  opts.height = 2000;
  opts.dump_ui_path = (dir / "findings.json").string();
  auto r = tlscope::gui::run_viewer(opts);
  INFO(r.error);
  REQUIRE(r.ok);
  gui_test::Dump d = gui_test::read_dump(opts.dump_ui_path);
  REQUIRE(d.ok);
  const auto want = expected(cached_db(dir));
  REQUIRE_FALSE(want.empty());
  CHECK(shown_by_viewer(d) == want);
}

}  // namespace

TEST_CASE("the viewer's findings agree with the view model: desync scenario") {
  if (!gui_test::have_display()) return;
  auto dir = gui_test::scratch("agreement_desync_logs");
  auto logs = gui_test::sample_logs(dir, "desync");
  REQUIRE_FALSE(logs.empty());
  check_agreement("desync", logs);
}

TEST_CASE("the viewer's findings agree with the view model: multi_rank_logs") {
  if (!gui_test::have_display()) return;
  check_agreement("multi_rank_logs", gui_test::kLogs + "/multi_rank_logs");
}
