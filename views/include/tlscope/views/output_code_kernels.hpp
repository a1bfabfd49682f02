// The kernels an Inductor output code (`inductor_output_code`) defines: each
// `NAME = async_compile.KIND(` line (triton, cpp_pybinding, cuda, ...), by name in order.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tlscope::views {

std::vector<std::string> output_code_kernels(std::string_view code);

}  // namespace tlscope::views
