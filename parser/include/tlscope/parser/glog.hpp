// The glog prefix of a trace line, parsed by hand (no regex) with tlparse's tolerance.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "tlscope/parser/event.hpp"

namespace tlscope::parser {

struct GlogLine {
  GlogHeader header;         // pathname points into the line given to parse_glog_header
  size_t envelope_offset = 0;  // where the text after "] " starts in that line
};

// Matches tlparse's header regex
//   ([VIWEC])(\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2}).(\d{6}) (\d+)([^:]+):(\d+)\] (.)
// without anchoring: text before the level letter (such as "[rank0]:") is skipped. Unlike the
// regex group, `pathname` has the separating space removed. nullopt when no position matches.
std::optional<GlogLine> parse_glog_header(std::string_view line);

}  // namespace tlscope::parser
