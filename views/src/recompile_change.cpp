// The "what changed" text of a recompile: one function, so the report and the viewer agree.
#include "tlscope/views/recompile_change.hpp"

namespace tlscope::views {

std::string recompile_change(const GuardChange& c) {
  if (c.expected.empty() && c.actual.empty()) return "";
  // Appended piece by piece: `"literal" + std::string` trips GCC 12's -Wrestrict.
  std::string head = c.input;
  if (!c.property.empty() && c.property != "other") {
    if (!head.empty()) head.append(" ");
    head.append(c.property);
  }
  if (c.index) head.append("[").append(std::to_string(*c.index)).append("]");
  std::string out = head;
  if (!out.empty()) out.append(": ");
  if (c.actual.empty())
    return out.append("was ").append(c.expected).append(", new value not in the log");
  if (c.expected.empty())
    return out.append("now ").append(c.actual).append(", old value not in the log");
  return out.append(c.expected).append(" \xE2\x86\x92 ").append(c.actual);
}

}  // namespace tlscope::views
