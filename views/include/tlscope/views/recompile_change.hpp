// The "what changed" words of a recompile, from the parsed guard failure (the recompiles table's
// guard_input, guard_property, guard_index, expected and actual). The report's recompiles page and
// the viewer's recompiles panel both show this text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tlscope::views {

struct GuardChange {
  std::string input;     // "x", "self.w"; "" when the guard text names none
  std::string property;  // size, stride, dtype, value, identity, ...; "" or "other" when unknown
  std::optional<int64_t> index;
  std::string expected;  // "" when the log does not give it
  std::string actual;    // "" when the log does not give it
};

// "x size[0]: 4 → 8" when the log gives both values. A failed guard such as `L['step'] == 0.0`
// names only the value the compile was specialised on; dynamo does not log the new one, so the
// text says so ("step value: was 0.0, new value not in the log") rather than end in an arrow.
// "" when neither value is known (the reason text is then the whole story).
std::string recompile_change(const GuardChange& c);

}  // namespace tlscope::views
