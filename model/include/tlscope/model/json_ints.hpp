// JSON integer arrays as the analysis writes them into its tables ("[0,2]", "[-1, 3]"): rank
// sets, sizes, offsets. One reader for model/ and views/; signed, so a -1 comes back as -1.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace tlscope::model {

// "[0, -2, 3]" -> {0, -2, 3}. Reads every integer in the text in order and skips whatever else
// is there (brackets, commas, spaces, quotes): a '-' counts as a sign only right before a digit.
// Not a JSON validator: "[1.5]" reads as {1, 5}; the tables this reads hold integer arrays only.
std::vector<int64_t> json_int_list(std::string_view json);

}  // namespace tlscope::model
