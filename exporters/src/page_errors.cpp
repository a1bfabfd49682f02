// errors.html: the lines ingest could not read (file, line, kind, reason, raw excerpt).
#include "pages.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

void write_errors_page(ReportContext& ctx) {
  bool has = ctx.db.has_table("ingest_errors");
  int64_t total = has ? ctx.db.scalar("SELECT count(*) FROM ingest_errors") : 0;
  size_t per_page = std::max<size_t>(ctx.options.rows_per_page, 1);
  size_t page_count = std::max<size_t>(1, (static_cast<size_t>(total) + per_page - 1) / per_page);
  Statement s = ctx.db.prepare(
      has ? "SELECT coalesce(f.path, '(no file)'), e.line, e.byte_offset, e.kind, e.reason, "
            "coalesce(e.excerpt, '') FROM ingest_errors e LEFT JOIN files f ON f.id = e.file_id "
            "ORDER BY e.id"
          : "SELECT 1 WHERE 0");
  for (size_t page = 0; page < page_count; ++page) {
    std::string h = page_head("Ingest errors", "errors", 0);
    h += "<p>" + plural(total, "input problem") +
         ". Each was recorded: an unreadable line was skipped, a payload whose MD5 did not match "
         "was kept and flagged (events.md5_ok = 0); the rest of the log was read.</p>\n";
    h += pager("errors", page, page_count);
    h += "<table id=\"ingest-errors\" data-count=\"" + std::to_string(total) +
         "\"><thead><tr><th>file</th><th class=\"num\">line</th><th class=\"num\">byte</th>"
         "<th>kind</th><th>reason</th><th>excerpt</th></tr></thead><tbody>\n";
    for (size_t row = 0; row < per_page && s.step(); ++row) {
      h += "<tr><td>";
      append_html_escaped(h, s.text_view(0));
      h += "</td><td class=\"num\">" + std::to_string(s.int64(1)) + "</td><td class=\"num\">" +
           std::to_string(s.int64(2)) + "</td><td>";
      append_html_escaped(h, s.text_view(3));
      h += "</td><td>";
      append_html_escaped(h, s.text_view(4));
      h += "</td><td><code>";
      append_html_escaped(h, s.text_view(5).substr(0, 300));
      h += "</code></td></tr>\n";
    }
    h += "</tbody></table>\n" + pager("errors", page, page_count) + page_tail(0);
    ctx.site.write(page_file("errors", page), h);
  }
}

}  // namespace tlscope::exporters
