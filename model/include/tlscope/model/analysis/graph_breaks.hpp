// Graph breaks: one row per break from every source the logs use, and the deduplicated summary.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tlscope::model::analysis {

struct UserFrame {
  std::string file;
  int64_t line = 0;
  std::string name;
};

// What a dynamo_graph_break_reason payload says. Fields stay empty when the text lacks them.
struct GraphBreakText {
  std::string reason;
  std::optional<std::string> user_file;
  std::optional<int64_t> user_line;
  std::vector<UserFrame> user_stack;  // outermost first, as the traceback lists it
};

GraphBreakText parse_graph_break_text(std::string_view text);

// `torch_dynamo_resume_in_<fn>_at_<line>` -> (fn, line); nullopt for other names.
std::optional<std::pair<std::string, int64_t>> parse_resume_frame_name(std::string_view co_name);

}  // namespace tlscope::model::analysis
