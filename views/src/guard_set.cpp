// A compile's guards as comparable lines (guard_set.hpp).
#include "tlscope/views/guard_set.hpp"

#include <algorithm>

#include "json_read.hpp"
#include "tlscope/views/run_text.hpp"

namespace tlscope::views {

namespace {

std::vector<std::string> from_json(std::string_view payload) {
  std::vector<std::string> out;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parse_json(payload, parser, doc) || !doc.is_array()) return out;
  for (simdjson::dom::element g : doc.get_array()) {
    std::string_view code;
    if (g.is_string())
      code = std::string_view(g);
    else if (g.is_object() && g["code"].get(code) != simdjson::SUCCESS)
      continue;
    if (!code.empty()) out.push_back(comparable_text(code));
  }
  return out;
}

// "| | +- TENSOR_MATCH: check_tensor(...)": each leaf's text after the tree drawing; the
// managers (`GuardManager: source=..., accessed_by=...`) are where a guard sits, not a guard.
std::vector<std::string> from_tree(std::string_view payload) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < payload.size()) {
    size_t end = payload.find('\n', pos);
    if (end == std::string_view::npos) end = payload.size();
    std::string_view line = payload.substr(pos, end - pos);
    pos = end + 1;
    const size_t leaf = line.find("+- ");
    if (leaf == std::string_view::npos) continue;
    line.remove_prefix(leaf + 3);
    if (line.find("GuardManager") != std::string_view::npos) continue;
    out.push_back(comparable_text(line));
  }
  return out;
}

}  // namespace

std::vector<std::string> guard_set(std::string_view kind, std::string_view payload) {
  std::vector<std::string> out = kind == "dynamo_guards" ? from_json(payload) : from_tree(payload);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace tlscope::views
