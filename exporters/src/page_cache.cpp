// cache.html: FX graph and AOTAutograd cache hits, misses and bypasses (analysis cache_events).
#include "occurrence_groups.hpp"
#include "pages.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

void write_cache_page(ReportContext& ctx) {
  OccurrenceGroups groups;
  int64_t hits = 0, misses = 0, bypasses = 0;
  Statement s = ctx.db.prepare(
      "SELECT c.file_id, c.rank, coalesce(c.compile_id, ''), coalesce(e.line, 0), "
      "coalesce(c.cache, ''), coalesce(c.result, '') FROM cache_events c "
      "LEFT JOIN events e ON e.id = c.event_id ORDER BY c.id");
  while (s.step()) {
    std::string cache = s.text(4), result = s.text(5);
    (result == "hit" ? hits : result == "miss" ? misses : bypasses)++;
    std::string cls = result == "hit" ? "good" : result == "miss" ? "warn" : "muted";
    groups.add(
        cache + "\x1f" + result,
        {html_escape(cache), "<span class=\"" + cls + "\">" + html_escape(result) + "</span>"},
        {s.int64(0), s.opt_int64(1), s.text(2), s.int64(3), ""});
  }
  std::string cards = "<div class=\"cards\" id=\"cache-totals\" data-hits=\"" +
                      std::to_string(hits) + "\" data-misses=\"" + std::to_string(misses) +
                      "\" data-bypasses=\"" + std::to_string(bypasses) +
                      "\"><div class=\"card\"><b class=\"good\">" + std::to_string(hits) +
                      "</b>hits</div><div class=\"card\"><b class=\"warn\">" +
                      std::to_string(misses) + "</b>misses</div><div class=\"card\"><b>" +
                      std::to_string(bypasses) + "</b>bypasses</div></div>\n";
  write_group_pages(ctx, groups, "cache", "Cache hits and misses", "cache", "cache",
                    {"cache", "outcome"}, cards);
}

}  // namespace tlscope::exporters
