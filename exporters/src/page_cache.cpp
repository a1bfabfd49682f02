// cache.html: FX graph and AOTAutograd cache hits, misses and bypasses, then the PGO profiles
// and Dynamo cache records.
#include "occurrence_groups.hpp"
#include "pages.hpp"
#include "torch_records_html.hpp"

namespace tlscope::exporters {

void write_cache_page(ReportContext& ctx) {
  auto loaded = views::load_occurrence_groups(ctx.db, views::OccurrenceList::kCache);
  auto loaded_totals = views::load_cache_totals(ctx.db);
  const views::OccurrenceGroups& groups = noted(ctx, "cache", loaded);
  const views::CacheTotals& t = noted(ctx, "cache", loaded_totals);
  std::string cards =
      "<div class=\"cards\" id=\"cache-totals\" data-hits=\"" + std::to_string(t.hits) +
      "\" data-misses=\"" + std::to_string(t.misses) + "\" data-bypasses=\"" +
      std::to_string(t.bypasses) + "\"><div class=\"card\"><b class=\"good\">" +
      std::to_string(t.hits) + "</b>hits</div><div class=\"card\"><b class=\"warn\">" +
      std::to_string(t.misses) + "</b>misses</div><div class=\"card\"><b>" +
      std::to_string(t.bypasses) + "</b>bypasses</div></div>\n" + dynamo_profiles_html(ctx);
  write_group_pages(ctx, groups, "cache", "Cache hits and misses", "cache", "cache", cards);
}

}  // namespace tlscope::exporters
