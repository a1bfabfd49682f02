// The report's form of views' occurrence groups: a paginated table whose rows expand to their
// first occurrences; a group with more gets paginated pages of its own holding all of them.
#pragma once

#include <string>
#include <string_view>

#include "site.hpp"
#include "tlscope/views/occurrences.hpp"

namespace tlscope::exporters {

// Occurrences listed inside a group's row; a group with more links its own pages.
inline constexpr size_t kInlineOccurrences = 10;

// Writes base.html (and base_N.html) with one row per group, rows_per_page rows a page, and
// base_g<index>.html (and _N) with all occurrences of each group that has more than
// kInlineOccurrences. `table_id` names the table for tests; it carries data-groups and
// data-occurrences totals.
void write_group_pages(ReportContext& ctx, const views::OccurrenceGroups& groups,
                       std::string_view base, std::string_view title, std::string_view page_id,
                       std::string_view table_id, const std::string& intro_html);

}  // namespace tlscope::exporters
