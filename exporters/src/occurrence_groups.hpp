// Deduplicated findings: occurrences grouped by a key (a graph-break reason, a failed guard),
// counted per rank, and written as a paginated table whose rows expand to their first
// occurrences; a group with more gets paginated pages of its own holding all of them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "site.hpp"

namespace tlscope::exporters {

struct Occurrence {
  int64_t file_id = 0;
  std::optional<int64_t> rank;
  std::string compile_id;
  int64_t line = 0;    // line of the log event
  std::string detail;  // plain text shown with the occurrence (e.g. the full payload)
};

struct OccurrenceGroup {
  std::vector<std::string> columns_html;  // the group's cells, already escaped
  int64_t count = 0;
  std::set<int64_t> ranks;
  std::vector<Occurrence> occurrences;  // all of them, in log order
  size_t index = 0;                     // position in sorted(): names its occurrence pages
};

class OccurrenceGroups {
 public:
  // Occurrences listed inside a group's row; a group with more links its own pages.
  static constexpr size_t kInline = 10;

  // Adds an occurrence to the group `key`; `columns_html` is used when the group is new.
  void add(const std::string& key, const std::vector<std::string>& columns_html, Occurrence occ);
  int64_t total() const { return total_; }
  size_t size() const { return groups_.size(); }
  // Groups, most frequent first (sets each group's index).
  std::vector<const OccurrenceGroup*> sorted();

 private:
  std::map<std::string, size_t> index_;
  std::vector<OccurrenceGroup> groups_;
  int64_t total_ = 0;
};

// Writes base.html (and base_N.html) with one row per group, rows_per_page rows a page, and
// base_g<index>.html (and _N) with all occurrences of each group that has more than kInline.
// `table_id` names the table for tests; it carries data-groups and data-occurrences totals.
void write_group_pages(ReportContext& ctx, OccurrenceGroups& groups, std::string_view base,
                       std::string_view title, std::string_view page_id, std::string_view table_id,
                       const std::vector<std::string>& headers, const std::string& intro_html);

}  // namespace tlscope::exporters
