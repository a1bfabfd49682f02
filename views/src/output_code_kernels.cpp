// Kernel definitions of an output code (output_code_kernels.hpp): an assignment at column 0 whose
// value is an async_compile call. A kernel's own source (inside ''' quotes) is indented or C++,
// and a call of a kernel (`K.run(...)`) is no assignment, so neither counts.
#include "tlscope/views/output_code_kernels.hpp"

#include <cctype>

namespace tlscope::views {

std::vector<std::string> output_code_kernels(std::string_view code) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < code.size()) {
    size_t end = code.find('\n', pos);
    if (end == std::string_view::npos) end = code.size();
    const std::string_view line = code.substr(pos, end - pos);
    pos = end + 1;
    size_t i = 0;
    while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_'))
      ++i;
    if (i == 0 || std::isdigit(static_cast<unsigned char>(line[0]))) continue;
    if (line.substr(i).starts_with(" = async_compile.") &&
        line.find('(', i) != std::string_view::npos)
      out.emplace_back(line.substr(0, i));
  }
  return out;
}

}  // namespace tlscope::views
