// See output_paths.hpp.
#include "output_paths.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

namespace tlscope::cli {

std::optional<std::string> input_at_output(const std::string& output,
                                           const std::vector<std::string>& inputs) {
  struct stat out {};
  if (::stat(output.c_str(), &out) != 0) return std::nullopt;
  for (const std::string& in : inputs) {
    struct stat st {};
    if (::stat(in.c_str(), &st) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino)
      return in;
  }
  return std::nullopt;
}

bool refuse_output_over_input(const char* command, const std::string& output,
                              const std::vector<std::string>& inputs) {
  std::optional<std::string> input = input_at_output(output, inputs);
  if (!input) return false;
  std::fprintf(stderr,
               "tlscope %s: %s: is the input %s; writing there would replace what is read. "
               "Choose another output.\n",
               command, output.c_str(), input->c_str());
  return true;
}

FILE* status_stream_for(const std::string& output) {
  struct stat out {
  }, std_out{};
  if (::stat(output.c_str(), &out) == 0 && ::fstat(STDOUT_FILENO, &std_out) == 0 &&
      out.st_dev == std_out.st_dev && out.st_ino == std_out.st_ino)
    return stderr;
  return stdout;
}

}  // namespace tlscope::cli
