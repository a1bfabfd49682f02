// Rank sets and counts in words for the front ends ("ranks 0-1, 3-1023 (1,023 of 1,024)"): the one
// wording every finding, summary, report and viewer uses (model/analysis/rank_set.hpp), named
// here so that exporters/ and gui/ include no model header.
#pragma once

#include "tlscope/model/analysis/rank_set.hpp"

namespace tlscope::views {

using model::analysis::grouped_number;
using model::analysis::rank_runs;
using model::analysis::rank_words;
using model::analysis::ranks_from_json;

}  // namespace tlscope::views
