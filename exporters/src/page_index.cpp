// index.html: the summary. Headline counts, the findings in words, and the input files.
#include "pages.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

std::string card(std::string_view id, int64_t value, std::string_view label, std::string_view href) {
  return "<div class=\"card\" id=\"card-" + std::string(id) + "\" data-value=\"" +
         std::to_string(value) + "\"><a href=\"" + std::string(href) + "\"><b>" +
         std::to_string(value) + "</b>" + std::string(label) + "</a></div>";
}

struct KindPage {
  std::string_view kind, title, href;
};

constexpr KindPage kKinds[] = {
    {"compile_failure", "Compile failures", "failures.html"},
    {"desync", "Collective desyncs", "collectives.html"},
    {"missing_collective", "Missing collectives (hangs)", "collectives.html"},
    {"straggler", "Stragglers", "collectives.html"},
    {"rank_divergence", "Rank divergence", "ranks.html"},
    {"recompile_storm", "Recompile storms", "recompiles.html"},
    {"cache_limit", "Cache size limit hits", "recompiles.html"},
    {"recompile", "Recompiles", "recompiles.html"},
    {"graph_break", "Graph breaks", "graph_breaks.html"},
    {"bad_record", "Unreadable collective records", "collectives.html"},
};

// The analysis findings in words, grouped by kind, most serious first; a few examples each.
std::string findings_html(const Database& db) {
  constexpr int kExamples = 5;
  std::string h = "<div id=\"findings\" data-count=\"" +
                  std::to_string(db.scalar("SELECT count(*) FROM findings")) + "\">\n";
  Statement s = db.prepare(
      "SELECT severity, message FROM findings WHERE kind = ? ORDER BY id LIMIT " +
      std::to_string(kExamples));
  bool any = false;
  for (const KindPage& k : kKinds) {
    Statement count = db.prepare("SELECT count(*) FROM findings WHERE kind = ?");
    count.bind(1, k.kind);
    int64_t n = count.step() ? count.int64(0) : 0;
    if (n == 0) continue;
    any = true;
    h += "<h3 class=\"finding-kind\" data-kind=\"" + std::string(k.kind) + "\" data-count=\"" +
         std::to_string(n) + "\"><a href=\"" + std::string(k.href) + "\">" +
         std::string(k.title) + "</a>: " + std::to_string(n) + "</h3>\n<ul class=\"findings\">\n";
    s.reset();
    s.bind(1, k.kind);
    while (s.step()) {
      std::string_view severity = s.text_view(0);
      h += "<li class=\"" + std::string(severity == "error" ? "bad" : "") + "\">";
      append_html_escaped(h, s.text_view(1));
      h += "</li>\n";
    }
    if (n > kExamples)
      h += "<li class=\"muted\"><a href=\"" + std::string(k.href) + "\">and " +
           std::to_string(n - kExamples) + " more</a></li>\n";
    h += "</ul>\n";
  }
  if (!any) h += "<p>No graph breaks, recompiles, failures, divergence or collective problems.</p>\n";
  return h + "</div>\n";
}

}  // namespace

void write_index_page(ReportContext& ctx, const std::vector<CompileInfo>& compiles) {
  const Database& db = ctx.db;
  int64_t failed = 0;
  for (const CompileInfo& c : compiles) failed += !c.fail_type.empty();
  bool has_errors = db.has_table("ingest_errors");
  int64_t errors = has_errors ? db.scalar("SELECT count(*) FROM ingest_errors") : 0;
  std::string h = page_head("tlscope report", "index", 0);
  h += "<div class=\"cards\">";
  h += card("files", db.has_table("files") ? db.scalar("SELECT count(*) FROM files") : 0,
            "log files", "#files");
  h += card("events", db.scalar("SELECT count(*) FROM events"), "log events", "#files");
  h += card("compiles", static_cast<int64_t>(compiles.size()), "compiles", "compiles.html");
  h += card("failed", failed, "failed compiles", "failures.html");
  h += card("ranks", db.scalar("SELECT count(DISTINCT rank) FROM events"), "ranks", "ranks.html");
  h += card("errors", errors, "ingest errors", "errors.html");
  h += "</div>\n<h2>Findings</h2>\n";
  h += findings_html(db);
  h += "<ul class=\"findings\">\n";
  if (errors > 0)
    h += "<li class=\"warn\"><a href=\"errors.html\">" + plural(errors, "input problem") +
         "</a> were recorded: unreadable lines were skipped, payloads with a bad MD5 were kept "
         "and flagged.</li>\n";
  for (const std::string& w : ctx.warnings) {
    h += "<li class=\"warn\">Report note: ";
    append_html_escaped(h, w);
    h += "</li>\n";
  }
  h += "</ul>\n";
  if (db.has_table("files")) {
    h += "<h2 id=\"files\">Input files</h2>\n<table id=\"files-table\"><thead><tr><th>file</th>"
         "<th>rank</th><th class=\"num\">lines</th><th class=\"num\">events</th>"
         "<th class=\"num\">errors</th><th class=\"num\">bytes</th></tr></thead><tbody>\n";
    Statement s = db.prepare(
        "SELECT path, rank, lines, events, errors, bytes FROM files ORDER BY id LIMIT 2000");
    while (s.step()) {
      h += "<tr><td>";
      append_html_escaped(h, s.text_view(0));
      h += "</td><td>" + (s.is_null(1) ? std::string("-") : std::to_string(s.int64(1))) + "</td>";
      for (int col = 2; col <= 5; ++col) h += "<td class=\"num\">" + std::to_string(s.int64(col)) + "</td>";
      h += "</tr>\n";
    }
    h += "</tbody></table>\n";
  }
  h += page_tail(0);
  ctx.site.write("index.html", h);
}

}  // namespace tlscope::exporters
