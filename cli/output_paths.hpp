// Refusing an output that is one of the inputs: `rage in.log -o in.log` or `export chrome-trace
// s.db -o s.db` would replace the only copy of what they read. Paths are compared by filesystem
// identity (device and inode), so `./s.db`, a symlink to it or a hard link are the same file.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace tlscope::cli {

// The first of `inputs` that is the same file or folder as `output`; nullopt when none is (an
// output that does not exist yet is none of them).
std::optional<std::string> input_at_output(const std::string& output,
                                           const std::vector<std::string>& inputs);

// When `output` is one of `inputs`, prints "tlscope COMMAND: OUTPUT: is the input INPUT; ..." on
// stderr and returns true (the caller exits with kUsageOrIo).
bool refuse_output_over_input(const char* command, const std::string& output,
                              const std::vector<std::string>& inputs);

// Where a command's closing "wrote ..." line goes: stderr when `output` is the file standard output
// writes to (`-o /dev/stdout > trace.json`), where the line would overwrite the data's first
// bytes; else stdout.
FILE* status_stream_for(const std::string& output);

}  // namespace tlscope::cli
