// `tlscope summary --format json`: one run's views::RunSummary as the documented object
// (docs/json.md); compare embeds the same object for each of its two runs.
#pragma once

#include <string>

#include "json_writer.hpp"
#include "tlscope/views/run_summary.hpp"

namespace tlscope::cli {

// Writes the summary object as the next value of `w`.
void write_summary_json(JsonWriter& w, const views::RunSummary& s);

std::string summary_json(const views::RunSummary& s);

}  // namespace tlscope::cli
