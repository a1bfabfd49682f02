// Text of one run made comparable with another's: guard failures, graph break reasons and finding
// messages with the values that change from process to process (object ids, 0x addresses, pids,
// temp paths) and the compile ids that shift with them replaced by placeholders. Sizes, dtypes
// and expected/actual values stay: they are what changed when a guard changed.
#pragma once

#include <string>
#include <string_view>

namespace tlscope::views {

std::string comparable_text(std::string_view logged);

}  // namespace tlscope::views
