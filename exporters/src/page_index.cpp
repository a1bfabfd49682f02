// index.html: the summary. Headline counts, the findings in words, and the input files.
#include "pages.hpp"
#include "provenance_html.hpp"
#include "shapes_html.hpp"
#include "tlscope/exporters/html.hpp"
#include "tlscope/views/findings.hpp"
#include "tlscope/views/provenance.hpp"
#include "tlscope/views/run_environment.hpp"
#include "tlscope/views/summary.hpp"
#include "tlscope/views/unknown_records.hpp"

namespace tlscope::exporters {

namespace {

// Findings shown per kind; the kind's page has all of them.
constexpr size_t kExamples = 5;
constexpr size_t kMaxFileRows = 2000;

std::string card(std::string_view id, int64_t value, std::string_view label,
                 std::string_view href) {
  return "<div class=\"card\" id=\"card-" + std::string(id) + "\" data-value=\"" +
         std::to_string(value) + "\"><a href=\"" + std::string(href) + "\"><b>" +
         std::to_string(value) + "</b>" + std::string(label) + "</a></div>";
}

// The analysis findings in words, grouped by kind, most serious first; a few lines each, costliest
// first, each with what it means and what to try beneath it.
std::string findings_html(const views::Findings& findings) {
  std::string h = "<div id=\"findings\" data-count=\"" + std::to_string(findings.total) + "\">\n";
  for (const views::FindingGroup& g : findings.groups) {
    std::string href = std::string(g.kind->page) + ".html";
    h += "<h3 class=\"finding-kind\" data-kind=\"" + std::string(g.kind->kind) +
         "\" data-count=\"" + std::to_string(g.count) + "\"><a href=\"" + href + "\">" +
         std::string(g.kind->title) + "</a>: " + std::to_string(g.count) +
         "</h3>\n<ul class=\"findings\">\n";
    for (const views::FindingRow& f : g.rows) {
      h += "<li class=\"" + std::string(f.severity == "error" ? "bad" : "") + "\">";
      append_html_escaped(h, f.message);
      h += "<span class=\"hint\">";
      append_html_escaped(h, f.hint.line());
      h += "</span></li>\n";
    }
    if (g.count > static_cast<int64_t>(g.rows.size()))
      h += "<li class=\"muted\"><a href=\"" + href + "\">and " +
           std::to_string(g.count - static_cast<int64_t>(g.rows.size())) + " more</a></li>\n";
    h += "</ul>\n";
  }
  if (findings.groups.empty())
    h += "<p>No graph breaks, recompiles, failures, divergence or collective problems.</p>\n";
  return h + "</div>\n";
}

// Records of kinds tlscope does not know, with their metadata and payload (the first
// kUnknownRecordBytes of each): what a newer PyTorch logs is seen here rather than nowhere.
std::string unknown_records_html(const views::Paged<views::UnknownRecord>& records) {
  if (records.total == 0) return {};
  std::string h = "<h2 id=\"unknown-records\">Records of kinds tlscope does not know (" +
                  std::to_string(records.total) +
                  ")</h2>\n<table id=\"unknown-records-table\" data-count=\"" +
                  std::to_string(records.total) +
                  "\"><thead><tr><th>input</th><th>line</th><th>rank</th><th>kind</th>"
                  "<th>compile</th><th>metadata</th><th>payload</th></tr></thead><tbody>\n";
  for (const views::UnknownRecord& r : records.rows) {
    h += "<tr><td>";
    append_html_escaped(h, r.path);
    h += "</td><td class=\"num\">" + std::to_string(r.line) + "</td><td>" +
         (r.rank < 0 ? std::string("-") : std::to_string(r.rank)) + "</td><td>";
    append_html_escaped(h, r.kind);
    h += "</td><td>";
    append_html_escaped(h, r.compile_id);
    h += "</td><td><pre>";
    append_html_escaped(h, r.metadata);
    h += "</pre></td><td><pre>";
    append_html_escaped(h, r.payload);
    h += "</pre>";
    if (r.payload_size > static_cast<int64_t>(r.payload.size()))
      h += "<span class=\"muted\">(" + std::to_string(r.payload_size) + " bytes in all)</span>";
    h += "</td></tr>\n";
  }
  h += "</tbody></table>\n";
  if (records.total > records.rows.size())
    h += "<p class=\"muted\">and " + std::to_string(records.total - records.rows.size()) +
         " more (tlscope query DB \"SELECT * FROM events WHERE kind = ...\")</p>\n";
  return h;
}

// The run's configuration (run_config), by scope; values where the inputs disagree are listed.
std::string run_config_html(const views::RunEnvironment& env) {
  if (env.config_values.empty()) return {};
  std::string h = "<h2 id=\"run-config\">Configuration</h2>\n<details><summary>" +
                  std::to_string(env.config_values.size()) +
                  " values the logs carry (dynamo, inductor, compile)</summary>\n"
                  "<table id=\"run-config-table\" data-count=\"" +
                  std::to_string(env.config_values.size()) +
                  "\"><thead><tr><th>scope</th><th>key</th><th>value</th><th>other inputs</th>"
                  "</tr></thead><tbody>\n";
  for (const views::ConfigValue& v : env.config_values) {
    h += "<tr><td>";
    append_html_escaped(h, v.scope);
    h += "</td><td>";
    append_html_escaped(h, v.key);
    h += "</td><td><code>";
    append_html_escaped(h, v.value);
    h += "</code></td><td>";
    for (size_t i = 0; i < v.other_values.size(); ++i) {
      if (i) h += "<br>";
      h += "<span class=\"warn\">";
      append_html_escaped(h, v.other_values[i]);
      h += "</span>";
    }
    h += "</td></tr>\n";
  }
  return h + "</tbody></table></details>\n";
}

}  // namespace

// The Inductor provenance pages, when the log holds the mapping artifacts (AOT graphs have no
// compile page, so this is their only way in).
static std::string provenance_html(ReportContext& ctx) {
  const auto& loaded = ctx.shared.provenance_graphs;
  const std::vector<views::ProvenanceGraphRow>& graphs = noted(ctx, "provenance graphs", loaded);
  if (graphs.empty()) return {};
  std::string h = "<h2 id=\"provenance\">Inductor provenance</h2>\n<ul id=\"provenance-list\">";
  for (const views::ProvenanceGraphRow& g : graphs) {
    h += "<li><a href=\"" + provenance_page(g.id) + "\">";
    append_html_escaped(h, g.label());
    h += "</a> <span class=\"muted\">" + rank_label(views::rank_opt(g.rank)) + " &middot; " +
         plural(g.kernels, "kernel") + ", " + plural(g.post_nodes, "post-grad node") + "</span>";
    if (g.errors > 0)
      h += " <span class=\"bad\">" + plural(g.errors, "unreadable record") + "</span>";
    h += "</li>\n";
  }
  return h + "</ul>\n";
}

IndexViews load_index_views(const Database& db) {
  return {views::load_summary(db), views::load_findings(db, kExamples)};
}

void write_index_page(ReportContext& ctx) {
  write_index_page(ctx, load_index_views(ctx.db));
}

void write_index_page(ReportContext& ctx, const IndexViews& loaded) {
  const views::Summary& s = noted(ctx, "summary", loaded.summary);
  const views::Findings& findings = noted(ctx, "findings", loaded.findings);
  std::string h = page_head("tlscope report", "index", 0);
  h += "<div class=\"cards\">";
  h += card("files", static_cast<int64_t>(s.files.size()), "log files", "#files");
  h += card("events", s.events, "log events", "#files");
  h += card("compiles", s.compiles, "compiles", "compiles.html");
  h += card("failed", s.failed_compiles, "failed compiles", "failures.html");
  h += card("ranks", s.rank_count, "ranks", "ranks.html");
  h += card("errors", s.errors, "ingest errors", "errors.html");
  h += "</div>\n<h2>Findings</h2>\n";
  h += findings_html(findings);
  h += "<ul class=\"findings\">\n";
  if (s.errors > 0)
    h += "<li class=\"warn\"><a href=\"errors.html\">" + plural(s.errors, "input problem") +
         "</a> were recorded: unreadable lines were skipped, payloads with a bad MD5 were kept "
         "and flagged.</li>\n";
  for (const std::string& w : ctx.warnings) {
    h += "<li class=\"warn\">Report note: ";
    append_html_escaped(h, w);
    h += "</li>\n";
  }
  h += "</ul>\n";
  h += provenance_html(ctx);
  h += unattached_links_html(views::load_unattached_links(ctx.db).value);
  if (ctx.db.has_table("files")) {
    h += "<h2 id=\"files\">Input files</h2>\n<table id=\"files-table\"><thead><tr><th>file</th>"
         "<th>rank</th><th class=\"num\">lines</th><th class=\"num\">events</th>"
         "<th class=\"num\">errors</th><th class=\"num\">bytes</th></tr></thead><tbody>\n";
    for (size_t i = 0; i < s.files.size() && i < kMaxFileRows; ++i) {
      const views::FileRow& f = s.files[i];
      h += "<tr><td>";
      append_html_escaped(h, f.path);
      h += "</td><td>" + (f.rank < 0 ? std::string("-") : std::to_string(f.rank)) + "</td>";
      for (int64_t n : {f.lines, f.events, f.errors, f.bytes})
        h += "<td class=\"num\">" + std::to_string(n) + "</td>";
      h += "</tr>\n";
    }
    h += "</tbody></table>\n";
  }
  constexpr size_t kUnknownRows = 50;
  auto unknown = views::load_unknown_records(ctx.db, views::Page{0, kUnknownRows});
  h += unknown_records_html(noted(ctx, "records of unknown kinds", unknown));
  auto environment = views::load_run_environment(ctx.db);
  h += run_config_html(noted(ctx, "run configuration", environment));
  auto provenance =
      views::load_report_provenance(ctx.db, ctx.options.command_line, ctx.options.host);
  h += report_provenance_html(noted(ctx, "report provenance", provenance));
  h += page_tail(0);
  ctx.site.write("index.html", h);
}

}  // namespace tlscope::exporters
