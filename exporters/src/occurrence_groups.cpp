// Grouping and paginated rendering of repeated findings.
#include "occurrence_groups.hpp"

#include <algorithm>

#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

void OccurrenceGroups::add(const std::string& key, const std::vector<std::string>& columns_html,
                           Occurrence occ) {
  auto [it, inserted] = index_.try_emplace(key, groups_.size());
  if (inserted) groups_.push_back({columns_html, 0, {}, {}});
  OccurrenceGroup& g = groups_[it->second];
  ++g.count;
  ++total_;
  if (occ.rank) g.ranks.insert(*occ.rank);
  if (g.occurrences.size() < kMaxKept) g.occurrences.push_back(std::move(occ));
}

std::vector<const OccurrenceGroup*> OccurrenceGroups::sorted() const {
  std::vector<const OccurrenceGroup*> out;
  for (const OccurrenceGroup& g : groups_) out.push_back(&g);
  std::stable_sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->count > b->count; });
  return out;
}

namespace {

std::string ranks_text(const std::set<int64_t>& ranks) {
  if (ranks.empty()) return "-";
  std::string s;
  int shown = 0;
  for (int64_t r : ranks) {
    if (shown++ == 16) return s + ", &hellip; (" + std::to_string(ranks.size()) + ")";
    if (!s.empty()) s += ", ";
    s += std::to_string(r);
  }
  return s;
}

std::string occurrences_html(const OccurrenceGroup& g) {
  std::string h = "<details class=\"occurrences\"><summary>" + plural(g.count, "occurrence") +
                  "</summary><ul>";
  for (const Occurrence& o : g.occurrences) {
    h += "<li>" + compile_link(o.file_id, o.rank, o.compile_id, 0);
    if (o.line > 0) h += " <span class=\"muted\">log line " + std::to_string(o.line) + "</span>";
    if (!o.detail.empty()) {
      h += "<pre>";
      append_html_escaped(h, o.detail);
      h += "</pre>";
    }
    h += "</li>";
  }
  if (g.count > static_cast<int64_t>(g.occurrences.size()))
    h += "<li class=\"muted\">and " + std::to_string(g.count - g.occurrences.size()) +
         " more (see tlscope query)</li>";
  return h + "</ul></details>";
}

}  // namespace

std::string group_table_html(const OccurrenceGroups& groups,
                             const std::vector<const OccurrenceGroup*>& sorted, size_t begin,
                             size_t end, std::string_view table_id,
                             const std::vector<std::string>& headers) {
  std::string h = "<table id=\"" + std::string(table_id) + "\" data-groups=\"" +
                  std::to_string(groups.size()) + "\" data-occurrences=\"" +
                  std::to_string(groups.total()) +
                  "\"><thead><tr><th class=\"num\">count</th><th>ranks</th>";
  for (const std::string& head : headers) h += "<th>" + head + "</th>";
  h += "<th>occurrences</th></tr></thead><tbody>\n";
  for (size_t i = begin; i < end && i < sorted.size(); ++i) {
    const OccurrenceGroup& g = *sorted[i];
    h += "<tr class=\"group\" data-count=\"" + std::to_string(g.count) + "\"><td class=\"num\">" +
         std::to_string(g.count) + "</td><td>" + ranks_text(g.ranks) + "</td>";
    for (const std::string& cell : g.columns_html) h += "<td>" + cell + "</td>";
    h += "<td>" + occurrences_html(g) + "</td></tr>\n";
  }
  return h + "</tbody></table>\n";
}

void write_group_pages(ReportContext& ctx, const OccurrenceGroups& groups, std::string_view base,
                       std::string_view title, std::string_view page_id, std::string_view table_id,
                       const std::vector<std::string>& headers, const std::string& intro_html) {
  std::vector<const OccurrenceGroup*> sorted = groups.sorted();
  size_t per_page = std::max<size_t>(ctx.options.rows_per_page, 1);
  size_t page_count = std::max<size_t>(1, (sorted.size() + per_page - 1) / per_page);
  for (size_t page = 0; page < page_count; ++page) {
    std::string h = page_head(title, page_id, 0) + intro_html;
    h += pager(base, page, page_count);
    if (!sorted.empty()) {
      h += "<input class=\"filter\" data-table=\"" + std::string(table_id) +
           "\" placeholder=\"filter this page\">\n";
    }
    size_t end = std::min(sorted.size(), (page + 1) * per_page);
    h += group_table_html(groups, sorted, page * per_page, end, table_id, headers);
    h += pager(base, page, page_count) + page_tail(0);
    ctx.site.write(page_file(base, page), h);
  }
}

}  // namespace tlscope::exporters
