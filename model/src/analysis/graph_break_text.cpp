// Reading the free text PyTorch writes about graph breaks: the dynamo_graph_break_reason payload
// and the names dynamo gives resume functions.
#include <charconv>

#include "tlscope/model/analysis/graph_breaks.hpp"

namespace tlscope::model::analysis {

namespace {

std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::optional<int64_t> to_int(std::string_view s) {
  int64_t v = 0;
  s = trim_blanks(s);
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

// `  File "/x/y.py", line 12, in fn` (Python traceback form).
std::optional<UserFrame> parse_traceback_line(std::string_view line) {
  line = trim_blanks(line);
  if (!line.starts_with("File \"")) return std::nullopt;
  size_t close = line.find("\", line ", 6);
  if (close == std::string_view::npos) return std::nullopt;
  UserFrame frame;
  frame.file = std::string(line.substr(6, close - 6));
  std::string_view rest = line.substr(close + 8);
  size_t comma = rest.find(", in ");
  auto number = to_int(rest.substr(0, comma));
  if (!number) return std::nullopt;
  frame.line = *number;
  if (comma != std::string_view::npos)
    frame.name = std::string(trim_blanks(rest.substr(comma + 5)));
  return frame;
}

}  // namespace

GraphBreakText parse_graph_break_text(std::string_view text) {
  GraphBreakText out;
  std::string_view first_line;
  bool first = true;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    std::string_view t = trim_blanks(line);
    if (first && !t.empty()) {
      first_line = t;
      first = false;
    }
    if (size_t at = t.find("in user code at "); at != std::string_view::npos && !out.user_file) {
      std::string_view loc = trim_blanks(t.substr(at + 16));
      size_t colon = loc.rfind(':');
      if (colon != std::string_view::npos) {
        if (auto n = to_int(loc.substr(colon + 1))) {
          out.user_file = std::string(loc.substr(0, colon));
          out.user_line = *n;
        }
      }
    } else if (t.starts_with("Graph Break Reason:") && out.reason.empty()) {
      out.reason = std::string(trim_blanks(t.substr(19)));
    } else if (t.starts_with("Reason:") && out.reason.empty()) {
      out.reason = std::string(trim_blanks(t.substr(7)));
    } else if (auto frame = parse_traceback_line(t)) {
      out.user_stack.push_back(std::move(*frame));
    }
    pos = end + 1;
  }
  if (out.reason.empty()) {
    std::string_view r = first_line;
    if (r.starts_with("Graph break:")) r = trim_blanks(r.substr(12));
    out.reason = std::string(r);
  }
  if (!out.user_file && !out.user_stack.empty()) {
    out.user_file = out.user_stack.back().file;
    out.user_line = out.user_stack.back().line;
  }
  return out;
}

std::optional<std::pair<std::string, int64_t>> parse_resume_frame_name(std::string_view name) {
  constexpr std::string_view prefix = "torch_dynamo_resume_in_";
  if (!name.starts_with(prefix)) return std::nullopt;
  std::string_view rest = name.substr(prefix.size());
  size_t at = rest.rfind("_at_");
  if (at == std::string_view::npos || at == 0) return std::nullopt;
  auto line = to_int(rest.substr(at + 4));
  if (!line) return std::nullopt;
  return std::make_pair(std::string(rest.substr(0, at)), *line);
}

}  // namespace tlscope::model::analysis
