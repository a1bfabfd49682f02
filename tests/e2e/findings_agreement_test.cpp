// Agreement: every front end lists the same findings (kinds, order, counts, messages and each
// line's hint: what it means and what to try) as the one findings view model, views::load_findings.
// Each front end is one row of kFrontEnds: a way to read back what it showed. The viewer's findings
// panel joins as one more row.
#include <catch2/catch.hpp>

#include <functional>

#include "e2e_support.hpp"
#include "tlscope/views/findings.hpp"

namespace {

// One kind's group as a front end showed it.
struct ShownGroup {
  std::string title;
  int64_t count = 0;
  std::vector<std::string> messages;
  std::vector<std::string> hints;  // one per message
  bool operator==(const ShownGroup&) const = default;
};
using Shown = std::vector<ShownGroup>;

std::ostream& operator<<(std::ostream& os, const ShownGroup& g) {
  os << g.title << " (" << g.count << "):";
  for (size_t i = 0; i < g.messages.size(); ++i) {
    os << "\n  " << g.messages[i];
    if (i < g.hints.size()) os << "\n    -> " << g.hints[i];
  }
  return os;
}

std::string html_unescape(std::string s) {
  static const std::pair<const char*, const char*> kEntities[] = {
      {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&amp;", "&"}};
  for (auto [entity, ch] : kEntities) {
    for (size_t at = s.find(entity); at != std::string::npos; at = s.find(entity, at + 1))
      s.replace(at, std::string_view(entity).size(), ch);
  }
  return s;
}

std::string between(const std::string& s, size_t& at, const std::string& open,
                    const std::string& close) {
  size_t b = s.find(open, at);
  if (b == std::string::npos) return at = std::string::npos, "";
  b += open.size();
  size_t e = s.find(close, b);
  at = e;
  return s.substr(b, e - b);
}

// index.html: <h3 class="finding-kind" ...><a ...>TITLE</a>: N</h3> then one <li> per message,
// its hint in a <span class="hint"> (the last, muted one links to the rest).
Shown shown_by_report(const e2e::fs::path& db, const e2e::fs::path& dir) {
  auto r = e2e::run_tlscope(
      dir, "report " + e2e::q(db.string()) + " -o " + e2e::q((dir / "site").string()));
  REQUIRE(r.exit_code == 0);
  std::string html = e2e::slurp(dir / "site" / "index.html");
  Shown shown;
  size_t at = 0;
  while ((at = html.find("<h3 class=\"finding-kind\"", at)) != std::string::npos) {
    ShownGroup g;
    at = html.find("<a href=", at);
    g.title = html_unescape(between(html, at, "\">", "</a>: "));
    g.count = std::stoll(between(html, at, ": ", "</h3>"));
    size_t end = html.find("</ul>", at);
    for (size_t li = html.find("<li class=\"", at); li < end; li = html.find("<li class=\"", li)) {
      std::string item = between(html, li, "\">", "</li>");
      if (item.rfind("<a href=", 0) == 0) continue;
      const std::string open = "<span class=\"hint\">";
      size_t hint = item.find(open);
      REQUIRE(hint != std::string::npos);
      g.messages.push_back(html_unescape(item.substr(0, hint)));
      std::string h = item.substr(hint + open.size());
      REQUIRE(h.ends_with("</span>"));
      g.hints.push_back(html_unescape(h.substr(0, h.size() - 7)));
    }
    shown.push_back(std::move(g));
    at = end;
  }
  return shown;
}

// `tlscope summary`: "TITLE (N):" then one "  message" line each and its "    -> hint" line,
// after the "Findings" header; a message with line breaks continues on unindented lines. (Once
// summary's show() escapes line breaks through terminal_safe, this reader undoes that escape
// instead.)
Shown shown_by_summary(const e2e::fs::path& db, const e2e::fs::path& dir) {
  auto r = e2e::run_tlscope(dir, "summary " + e2e::q(db.string()));
  REQUIRE(r.exit_code == 0);
  std::istringstream in(r.out.substr(r.out.find("\nFindings\n")));
  Shown shown;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    size_t open = line.rfind(" (");
    if (line.rfind("    -> ", 0) == 0) {
      if (!shown.empty()) shown.back().hints.push_back(line.substr(7));
    } else if (line.rfind("  ", 0) == 0) {
      if (!shown.empty()) shown.back().messages.push_back(line.substr(2));
    } else if (line == "Ranks late again and again:") {
      break;
    } else if (line.ends_with("):") && open != std::string::npos && open > 0 &&
               std::isdigit(static_cast<unsigned char>(line[open + 2]))) {
      shown.push_back({line.substr(0, open), std::stoll(line.substr(open + 2)), {}, {}});
    } else if (!shown.empty() && !shown.back().messages.empty()) {
      shown.back().messages.back() += "\n" + line;
    }
  }
  return shown;
}

struct FrontEnd {
  const char* name;
  size_t rows_per_kind;  // how many messages of each kind it lists
  std::function<Shown(const e2e::fs::path& db, const e2e::fs::path& dir)> shown;
};

const FrontEnd kFrontEnds[] = {
    {"report index.html", 5, shown_by_report},
    {"tlscope summary", SIZE_MAX, shown_by_summary},
};

Shown expected(const std::string& db_path, size_t rows_per_kind) {
  tlscope::views::Database db(db_path);
  auto findings = tlscope::views::load_findings(db, rows_per_kind);
  INFO(findings.error);
  REQUIRE(findings.ok());
  Shown out;
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

// Ingests `logs` and checks every front end against the view model; returns the database.
std::string check_agreement(const std::string& name, const std::string& logs) {
  auto dir = e2e::scratch("agreement_" + name);
  auto db = dir / "run.db";
  REQUIRE(
      e2e::run_tlscope(dir, "ingest " + e2e::q(logs) + " --db " + e2e::q(db.string())).exit_code ==
      0);
  REQUIRE_FALSE(expected(db.string(), SIZE_MAX).empty());
  for (const FrontEnd& front : kFrontEnds) {
    INFO(name << ": " << front.name);
    CHECK(front.shown(db, dir) == expected(db.string(), front.rows_per_kind));
  }
  return db.string();
}

}  // namespace

TEST_CASE("findings agree between the report, the summary and the view model: desync scenario") {
  auto dir = e2e::scratch("agreement_desync_logs");
  std::string sample = std::string(TLSCOPE_BINARY_DIR) + "/samples/runtime/tlscope-sample";
  REQUIRE(std::system((e2e::q(sample) + " desync --steps 3 --out " +
                       e2e::q((dir / "logs").string()) + " >/dev/null 2>&1")
                          .c_str()) == 0);
  std::string db = check_agreement("desync", (dir / "logs").string());
  // The scenario's one injected fault is there to agree on.
  CHECK(expected(db, 1).at(0).title == "Collective desyncs");
}

TEST_CASE("findings agree between the report, the summary and the view model: multi_rank_logs") {
  check_agreement("multi_rank_logs", e2e::kLogs + "/multi_rank_logs");
}
