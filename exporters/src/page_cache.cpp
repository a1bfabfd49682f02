// cache.html: FX graph, AOTAutograd and other cache hits, misses and bypasses per artifact name.
#include "occurrence_groups.hpp"
#include "pages.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

void write_cache_page(ReportContext& ctx) {
  OccurrenceGroups groups;
  int64_t hits = 0, misses = 0, bypasses = 0;
  if (ctx.db.has_table("artifacts")) {
    Statement s = ctx.db.prepare(
        "SELECT e.rank, e.compile_id, coalesce(f.path, ''), e.line, a.name "
        "FROM artifacts a JOIN events e ON e.id = a.event_id LEFT JOIN files f ON f.id = e.file_id "
        "WHERE a.name LIKE '%cache_hit%' OR a.name LIKE '%cache_miss%' "
        "OR a.name LIKE '%cache_bypass%' ORDER BY e.id");
    while (s.step()) {
      std::string name = s.text(4);
      std::string outcome = name.find("cache_hit") != std::string::npos    ? "hit"
                            : name.find("cache_miss") != std::string::npos ? "miss"
                                                                           : "bypass";
      (outcome == "hit" ? hits : outcome == "miss" ? misses : bypasses)++;
      std::string cls = outcome == "hit" ? "good" : outcome == "miss" ? "warn" : "muted";
      groups.add(name, {html_escape(name), "<span class=\"" + cls + "\">" + outcome + "</span>"},
                 {s.opt_int64(0), s.text(1), s.text(2), s.int64(3), ""});
    }
  }
  std::string h = page_head("Cache hits and misses", "cache", 0);
  h += "<div class=\"cards\" id=\"cache-totals\" data-hits=\"" + std::to_string(hits) +
       "\" data-misses=\"" + std::to_string(misses) + "\" data-bypasses=\"" +
       std::to_string(bypasses) + "\"><div class=\"card\"><b class=\"good\">" +
       std::to_string(hits) + "</b>hits</div><div class=\"card\"><b class=\"warn\">" +
       std::to_string(misses) + "</b>misses</div><div class=\"card\"><b>" +
       std::to_string(bypasses) + "</b>bypasses</div></div>\n";
  h += group_table_html(groups, groups.sorted(), 0, groups.size(), "cache", {"cache", "outcome"});
  h += page_tail(0);
  ctx.site.write("cache.html", h);
  if (hits + misses + bypasses > 0)
    ctx.findings.push_back("<a href=\"cache.html\">Caches</a>: " + plural(hits, "hit") + ", " +
                           plural(misses, "miss") + ", " + plural(bypasses, "bypass") + ".");
}

}  // namespace tlscope::exporters
