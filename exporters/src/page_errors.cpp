// errors.html: the lines ingest could not read (file, line, kind, reason, raw excerpt).
#include "pages.hpp"
#include "tlscope/exporters/html.hpp"
#include "tlscope/views/ingest_errors.hpp"

namespace tlscope::exporters {

void write_errors_page(ReportContext& ctx) {
  size_t per_page = std::max<size_t>(ctx.options.rows_per_page, 1);
  auto first = views::load_ingest_errors(ctx.db, views::Page{0, 0});
  size_t total = noted(ctx, "ingest errors", first).total;
  size_t page_count = views::page_count(total, per_page);
  for (size_t page = 0; page < page_count; ++page) {
    auto loaded = views::load_ingest_errors(ctx.db, views::Page{page * per_page, per_page});
    std::string h = page_head("Ingest errors", "errors", 0);
    h += "<p>" + plural(static_cast<int64_t>(total), "input problem") +
         ". Each was recorded: an unreadable line was skipped, a payload whose MD5 did not match "
         "was kept and flagged (events.md5_ok = 0); the rest of the log was read.</p>\n";
    h += pager("errors", page, page_count);
    h += "<table id=\"ingest-errors\" data-count=\"" + std::to_string(total) +
         "\"><thead><tr><th>file</th><th class=\"num\">line</th><th class=\"num\">byte</th>"
         "<th>kind</th><th>reason</th><th>excerpt</th></tr></thead><tbody>\n";
    for (const views::IngestErrorRow& e : noted(ctx, "ingest errors", loaded).rows) {
      h += "<tr><td>";
      append_html_escaped(h, e.path.empty() ? "(no file)" : e.path);
      // An error not tied to a line (a file that could not be opened) shows line and byte 0.
      h += "</td><td class=\"num\">" + std::to_string(std::max<int64_t>(e.line, 0)) +
           "</td><td class=\"num\">" + std::to_string(std::max<int64_t>(e.byte_offset, 0)) +
           "</td><td>";
      append_html_escaped(h, e.kind);
      h += "</td><td>";
      append_html_escaped(h, views::ingest_error_what(e));
      h += "</td><td><code>";
      append_html_escaped(h, std::string_view(e.excerpt).substr(0, 300));
      h += "</code></td></tr>\n";
    }
    h += "</tbody></table>\n" + pager("errors", page, page_count) + page_tail(0);
    ctx.site.write(page_file("errors", page), h);
  }
}

}  // namespace tlscope::exporters
