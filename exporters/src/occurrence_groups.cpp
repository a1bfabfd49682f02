// Paginated rendering of repeated findings.
#include "occurrence_groups.hpp"

#include <algorithm>

#include "tlscope/exporters/html.hpp"
#include "tlscope/views/compile_row.hpp"
#include "tlscope/views/rank_words.hpp"

namespace tlscope::exporters {

namespace {

// Runs with a count ("0-1, 3-1023 (1,023)"), as findings word rank sets: short at any scale.
std::string ranks_text(const std::set<int64_t>& ranks) {
  if (ranks.empty()) return "-";
  std::string s = views::rank_runs({ranks.begin(), ranks.end()});
  if (ranks.size() > 1) s += " (" + views::grouped_number(static_cast<int64_t>(ranks.size())) + ")";
  return s;
}

using views::Cell;
using views::CellTone;
using views::Occurrence;
using views::OccurrenceGroup;
using views::OccurrenceGroups;

std::string cell_html(const Cell& c) {
  switch (c.tone) {
    case CellTone::kPlain:
      return html_escape(c.text);
    case CellTone::kPreformatted:
      return "<pre>" + html_escape(c.text) + "</pre>";
    case CellTone::kGood:
      return "<span class=\"good\">" + html_escape(c.text) + "</span>";
    case CellTone::kWarn:
      return "<span class=\"warn\">" + html_escape(c.text) + "</span>";
    case CellTone::kMuted:
      return "<span class=\"muted\">" + html_escape(c.text) + "</span>";
  }
  return html_escape(c.text);
}

std::string occurrence_html(const Occurrence& o) {
  std::string h =
      "<li class=\"occ\">" + compile_link(o.file_id, views::rank_opt(o.rank), o.compile_id, 0);
  if (o.line > 0) h += " <span class=\"muted\">log line " + std::to_string(o.line) + "</span>";
  if (!o.detail.empty()) {
    h += "<pre>";
    append_html_escaped(h, o.detail);
    h += "</pre>";
  }
  return h + "</li>";
}

std::string group_pages_base(std::string_view base, const OccurrenceGroup& g) {
  return std::string(base) + "_g" + std::to_string(g.index + 1);
}

std::string occurrences_html(const OccurrenceGroup& g, std::string_view base) {
  std::string h =
      "<details class=\"occurrences\"><summary>" + plural(g.count, "occurrence") + "</summary><ul>";
  for (size_t i = 0; i < g.occurrences.size() && i < kInlineOccurrences; ++i)
    h += occurrence_html(g.occurrences[i]);
  h += "</ul></details>";
  if (g.occurrences.size() > kInlineOccurrences)
    h += "<a class=\"all-occurrences\" href=\"" + page_file(group_pages_base(base, g), 0) +
         "\">all " + std::to_string(g.count) + " occurrences</a>";
  return h;
}

std::string group_table_html(const OccurrenceGroups& groups, size_t begin, size_t end,
                             std::string_view table_id, std::string_view base) {
  std::string h = "<table id=\"" + std::string(table_id) + "\" data-groups=\"" +
                  std::to_string(groups.group_count) + "\" data-occurrences=\"" +
                  std::to_string(groups.occurrence_count) +
                  "\"><thead><tr><th class=\"num\">count</th><th>ranks</th>";
  for (const std::string& head : groups.headers) h += "<th>" + html_escape(head) + "</th>";
  h += "<th>occurrences</th></tr></thead><tbody>\n";
  for (size_t i = begin; i < end && i < groups.groups.size(); ++i) {
    const OccurrenceGroup& g = groups.groups[i];
    h += "<tr class=\"group\" data-count=\"" + std::to_string(g.count) + "\"><td class=\"num\">" +
         std::to_string(g.count) + "</td><td>" + ranks_text(g.ranks) + "</td>";
    for (const Cell& cell : g.cells) h += "<td>" + cell_html(cell) + "</td>";
    h += "<td>" + occurrences_html(g, base) + "</td></tr>\n";
  }
  return h + "</tbody></table>\n";
}

// All occurrences of one group, rows_per_page to a page.
void write_occurrence_pages(ReportContext& ctx, const OccurrenceGroup& g, std::string_view base,
                            std::string_view title, std::string_view page_id,
                            const std::vector<std::string>& headers) {
  std::string gbase = group_pages_base(base, g);
  size_t per_page = std::max<size_t>(ctx.options.rows_per_page, 1);
  size_t page_count = (g.occurrences.size() + per_page - 1) / per_page;
  std::string about = "<table class=\"kv\">";
  for (size_t c = 0; c < g.cells.size() && c < headers.size(); ++c)
    about +=
        "<tr><th>" + html_escape(headers[c]) + "</th><td>" + cell_html(g.cells[c]) + "</td></tr>";
  about += "<tr><th>ranks</th><td>" + ranks_text(g.ranks) + "</td></tr></table>\n";
  for (size_t page = 0; page < page_count; ++page) {
    std::string h =
        page_head(std::string(title) + ": " + plural(g.count, "occurrence"), page_id, 0);
    h += "<p><a href=\"" + page_file(base, g.index / per_page) +
         "\">&larr; back to the list</a></p>\n";
    h += about + pager(gbase, page, page_count);
    size_t end = std::min(g.occurrences.size(), (page + 1) * per_page);
    h += "<ul id=\"occurrences\" data-total=\"" + std::to_string(g.count) + "\">";
    for (size_t i = page * per_page; i < end; ++i) h += occurrence_html(g.occurrences[i]);
    h += "</ul>\n" + pager(gbase, page, page_count) + page_tail(0);
    ctx.site.write(page_file(gbase, page), h);
  }
}

}  // namespace

void write_group_pages(ReportContext& ctx, const views::OccurrenceGroups& groups,
                       std::string_view base, std::string_view title, std::string_view page_id,
                       std::string_view table_id, const std::string& intro_html) {
  size_t per_page = std::max<size_t>(ctx.options.rows_per_page, 1);
  size_t page_count = views::page_count(groups.groups.size(), per_page);
  for (size_t page = 0; page < page_count; ++page) {
    std::string h = page_head(title, page_id, 0) + intro_html;
    h += pager(base, page, page_count);
    if (!groups.groups.empty()) {
      h += "<input class=\"filter\" data-table=\"" + std::string(table_id) +
           "\" placeholder=\"filter this page\">\n";
    }
    size_t end = std::min(groups.groups.size(), (page + 1) * per_page);
    h += group_table_html(groups, page * per_page, end, table_id, base);
    h += pager(base, page, page_count) + page_tail(0);
    ctx.site.write(page_file(base, page), h);
  }
  for (const OccurrenceGroup& g : groups.groups)
    if (g.occurrences.size() > kInlineOccurrences)
      write_occurrence_pages(ctx, g, base, title, page_id, groups.headers);
}

}  // namespace tlscope::exporters
