// The guards of a compile as a set of comparable lines: from `dynamo_guards` (a JSON list of
// {"code": ...}) or, when a log has only the C++ guard tree, `dynamo_cpp_guards_str`'s leaf
// lines. Each guard goes through comparable_text (run_text.hpp), so object ids (ID_MATCH's
// `___check_obj_id(L['self'], 1402...)`), 0x addresses, pids and temp paths do not make two
// runs' guards differ, while sizes, dtypes and constants do.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tlscope::views {

// `kind` is the record's kind (dynamo_guards or dynamo_cpp_guards_str). Sorted, without
// duplicates; empty for a payload it cannot read.
std::vector<std::string> guard_set(std::string_view kind, std::string_view payload);

}  // namespace tlscope::views
