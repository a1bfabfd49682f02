// export.html: what torch.export could not trace exactly or assumed (data-dependent expressions,
// fake kernels, guards), each with its user line, the expression, where its symbols came from
// and the expression's provenance; then the symbols export created and the exported programs.
// Written for every report; a log without export records gets a page that says so.
#include <optional>

#include "pages.hpp"
#include "shapes_html.hpp"
#include "tlscope/exporters/html.hpp"
#include "tlscope/views/compile_detail.hpp"
#include "tlscope/views/export_report.hpp"

namespace tlscope::exporters {

namespace {

constexpr size_t kMaxInlineProgram = 256 << 10;

std::string provenance_html(const std::vector<views::ProvenanceStep>& steps) {
  std::string h = "<ol class=\"provenance\">\n";
  for (const views::ProvenanceStep& s : steps) {
    h += "<li style=\"margin-left:" + std::to_string(s.depth * 1.5) + "em\" data-depth=\"" +
         std::to_string(s.depth) + "\">";
    if (!s.method.empty()) {
      h += "<code>" + html_clipped(s.result, 200) + "</code> = <b>" + html_escape(s.method) +
           "</b>(";
      for (size_t i = 0; i < s.arguments.size(); ++i)
        h +=
            (i ? ", " : "") + std::string("<code>") + html_clipped(s.arguments[i], 120) + "</code>";
      h += ") <span class=\"muted\">at " + html_escape(s.at.where()) + "</span>";
      if (!s.at.code.empty()) h += " <code>" + html_clipped(s.at.code, 200) + "</code>";
    } else {
      h += "<span class=\"symbol-origin\">" + html_clipped(s.origin, 300) + "</span>";
    }
    h += "</li>\n";
  }
  return h + "</ol>\n";
}

std::string issue_html(const views::ExportIssue& i) {
  std::string h = "<div class=\"export-issue\" data-kind=\"" + html_escape(i.kind) +
                  "\" data-event=\"" + std::to_string(i.event_id) + "\"><h3>" +
                  html_escape(i.title()) + "</h3>\n<table class=\"kv\">";
  auto row = [&](std::string_view k, const std::string& v_html) {
    if (!v_html.empty()) h += "<tr><th>" + std::string(k) + "</th><td>" + v_html + "</td></tr>";
  };
  row("user frame", user_frame_html(i.at));
  if (!i.expr.empty()) row("expression", "<code>" + html_clipped(i.expr, 400) + "</code>");
  if (!i.result.empty()) row("evaluated to", html_escape(i.result));
  if (!i.op.empty()) row("operator", "<code>" + html_escape(i.op) + "</code>");
  if (!i.reason.empty()) row("reason", html_clipped(i.reason, 400));
  std::string symbols;
  for (const views::SymbolOrigin& o : i.symbols)
    symbols += "<li>" + html_clipped(o.words(), 400) + "</li>";
  if (!symbols.empty()) row("symbols", "<ul class=\"symbol-origins\">" + symbols + "</ul>");
  std::string locals;
  for (const auto& [name, value] : i.locals)
    locals += "<li><code>" + html_escape(name) + "</code> = " + html_clipped(value, 200) + "</li>";
  if (!locals.empty()) row("locals", "<ul>" + locals + "</ul>");
  h += "</table>\n";
  if (!i.provenance.empty())
    h += "<details open><summary>Provenance of the expression</summary>" +
         provenance_html(i.provenance) + "</details>\n";
  return h + "</div>\n";
}

}  // namespace

void write_export_page(ReportContext& ctx) {
  auto loaded = views::load_export_report(ctx.db);
  const views::ExportReport& r = noted(ctx, "export", loaded);
  std::string h = page_head("torch.export", "export", 0);
  if (r.empty()) {
    h += "<p id=\"export-none\">The logs hold no torch.export records (exported_program, "
         "guard_added, propagate_real_tensors_provenance, fake-kernel records, symbols created "
         "outside a compile).</p>\n";
    ctx.site.write("export.html", h + page_tail(0));
    return;
  }
  h += "<p id=\"export-summary\">" +
       plural(static_cast<int64_t>(r.programs.size()), "exported program") + ", " +
       plural(static_cast<int64_t>(r.issues.size()), "issue") +
       " (what export could not "
       "trace exactly), " +
       plural(static_cast<int64_t>(r.assumptions.size()), "guard") + " it added, " +
       plural(static_cast<int64_t>(r.symbols.size()), "symbol") + " it created.</p>\n";
  if (!r.issues.empty()) {
    h +=
        "<h2>Issues (" + std::to_string(r.issues.size()) + ")</h2>\n<section id=\"export-issues\">";
    for (const views::ExportIssue& i : r.issues) h += issue_html(i);
    h += "</section>\n";
  }
  if (!r.specializations.empty())
    h += "<h2>Specializations (" + std::to_string(r.specializations.size()) + ")</h2>\n" +
         specializations_html(r.specializations);
  if (!r.assumptions.empty()) {
    h += "<h2>Guards added (" + std::to_string(r.assumptions.size()) +
         ")</h2>\n<section id=\"export-guards\">";
    for (const views::ExportIssue& i : r.assumptions) h += issue_html(i);
    h += "</section>\n";
  }
  if (!r.symbols.empty())
    h += "<h2>Symbols (" + std::to_string(r.symbols.size()) + ")</h2>\n" +
         shape_symbols_html(r.symbols);
  // One reader for every program: constructing one reads the whole log's tensors and cache
  // events, and doing that per program made this page quadratic (3.9 s on the 1 GB log).
  std::optional<views::CompileDetailReader> reader;
  if (!r.programs.empty()) reader.emplace(ctx.db);
  for (const views::ExportedProgramEntry& p : r.programs) {
    h += "<h2>Exported program <span class=\"muted\">";
    append_html_escaped(h, p.file);
    h += ":" + std::to_string(p.line) + "</span></h2>\n";
    if (p.payload_id < 0) {
      h += "<p class=\"muted\">(no payload)</p>\n";
      continue;
    }
    // A large program is written out from SQLite's copy of the text, never copied whole.
    views::Result<bool> read = reader->with_payload_text(p.payload_id, [&](std::string_view text) {
      if (text.size() > kMaxInlineProgram) {
        std::string rel = "payloads/" + std::to_string(p.payload_id) + ".txt";
        ctx.site.write(rel, text);
        h += "<p><a href=\"" + rel + "\">the program as text</a> (" + std::to_string(p.size) +
             " bytes)</p>\n";
      } else {
        h += "<pre class=\"code exported-program\">" + highlight_code(text, CodeLanguage::kPython) +
             "</pre>\n";
      }
    });
    if (!read.value) h += "<p class=\"bad\">" + html_escape(read.error) + "</p>\n";
  }
  ctx.site.write("export.html", h + page_tail(0));
}

}  // namespace tlscope::exporters
