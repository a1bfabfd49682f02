// Deduplicated findings: occurrences grouped by a key (a graph-break reason, a failed guard),
// counted per rank, and written as a paginated table whose rows expand to their occurrences.
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
  int64_t line = 0;     // line of the log event
  std::string detail;  // plain text shown with the occurrence (e.g. the full payload)
};

struct OccurrenceGroup {
  std::vector<std::string> columns_html;  // the group's cells, already escaped
  int64_t count = 0;
  std::set<int64_t> ranks;
  std::vector<Occurrence> occurrences;  // the first kMaxKept only
};

class OccurrenceGroups {
 public:
  static constexpr size_t kMaxKept = 100;

  // Adds an occurrence to the group `key`; `columns_html` is used when the group is new.
  void add(const std::string& key, const std::vector<std::string>& columns_html, Occurrence occ);
  int64_t total() const { return total_; }
  size_t size() const { return groups_.size(); }
  // Groups, most frequent first.
  std::vector<const OccurrenceGroup*> sorted() const;

 private:
  std::map<std::string, size_t> index_;
  std::vector<OccurrenceGroup> groups_;
  int64_t total_ = 0;
};

// A table of groups [begin, end) of `sorted`, with data-groups/data-occurrences totals.
std::string group_table_html(const OccurrenceGroups& groups,
                             const std::vector<const OccurrenceGroup*>& sorted, size_t begin,
                             size_t end, std::string_view table_id,
                             const std::vector<std::string>& headers);

// Writes base.html (and base_N.html) with one row per group. `table_id` names the table for tests;
// it carries data-groups and data-occurrences attributes with the totals.
void write_group_pages(ReportContext& ctx, const OccurrenceGroups& groups, std::string_view base,
                       std::string_view title, std::string_view page_id, std::string_view table_id,
                       const std::vector<std::string>& headers, const std::string& intro_html);

}  // namespace tlscope::exporters
