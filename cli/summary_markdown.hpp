// `tlscope summary --format markdown`: one run's views::RunSummary (the model --format json
// writes) as markdown tables for a bug report or a pull request (docs/json.md, "summary
// --format markdown"). The first line names the layout's version as an HTML comment, which a
// renderer hides.
#pragma once

#include <string>

#include "tlscope/views/run_summary.hpp"

namespace tlscope::cli {

inline constexpr const char* kSummaryMarkdownSchema = "tlscope.summary.md/1";

// `source` names the run (the database or the inputs) in the heading.
std::string summary_markdown(const views::RunSummary& s, const std::string& source);

}  // namespace tlscope::cli
