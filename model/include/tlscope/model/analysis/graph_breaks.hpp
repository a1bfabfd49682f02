// Graph breaks: one row per break from every source the logs use, and the deduplicated summary.
#pragma once

#include <sqlite3.h>

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

struct GraphBreak {
  int64_t id = 0;
  std::optional<int64_t> rank;
  std::string compile_id;
  int64_t attempt = 0;
  std::string frame;
  std::string reason;
  std::optional<std::string> user_file;
  std::optional<int64_t> user_line;
  std::string user_stack_json;
  std::string source;  // artifact | restart_reason | resume_frame
  std::optional<std::string> resume_compile_id;
};

struct GraphBreakSummaryRow {
  std::string reason;
  std::optional<std::string> user_file;
  std::optional<int64_t> user_line;
  int64_t count = 0;
  std::vector<std::string> compile_ids;
  std::vector<int64_t> ranks;
};

std::vector<GraphBreak> load_graph_breaks(sqlite3* db);
std::vector<GraphBreakSummaryRow> load_graph_break_summary(sqlite3* db);

}  // namespace tlscope::model::analysis
