// Rank sets in words, short at any scale: "ranks 0-1, 3-1023 (1,023 of 1,024)". Every finding
// sentence (finding_words.hpp), the summary, the report and the viewer print rank sets through
// this one function, so a 1,024-rank job reads as a few ranges instead of a thousand numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tlscope::views {

// "12,345" (thousands separated by commas, as the counts of a rank set are printed).
std::string grouped_number(int64_t n);

// The ranks as runs: "0-1, 3, 5-1023". Unsorted input and duplicates are fine; empty gives "".
// More than `max_runs` runs print as the first max_runs - 1, "...", and the last (a lane label's
// short form; the count beside it still says how many).
std::string rank_runs(std::vector<int64_t> ranks, size_t max_runs = SIZE_MAX);

// "rank 2"; "ranks 0-1, 3-1023 (1,023 of 1,024)"; "ranks 0-3 (all 4)"; "no rank" when empty.
// `job_ranks` is how many ranks the job has; <= 0 when unknown, then the count reads "(3 ranks)".
// One rank is named without a count: it is never the interesting part of the sentence.
std::string rank_words(const std::vector<int64_t>& ranks, int64_t job_ranks = 0);

// "[0,2]" (the JSON integer arrays of findings.ranks and other_ranks) -> {0, 2}: the name the
// findings code reads them by; model::json_int_list does the reading.
std::vector<int64_t> ranks_from_json(std::string_view json);

}  // namespace tlscope::views
