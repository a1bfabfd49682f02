// The command record of this run, and the tail of its stderr.
//
// Why stderr goes through a stdio cookie: tlscope writes every message with fprintf(stderr, ...)
// (and CLI11's through main), so replacing glibc's `stderr` stream (an ordinary variable, as the
// glibc manual documents) with one whose write function passes the bytes on to fd 2 unchanged and
// keeps the last few KB sees all of them, in order, unbuffered as before. File descriptor 2 itself
// is untouched: a terminal stays a terminal (isatty, progress bars, colours, job control), which
// teeing fd 2 through a pipe would break. Bytes written to fd 2 directly (a sanitizer report) are
// not in the tail; a crash leaves the record without an exit status, which says enough.
#include "invocation.hpp"

#include <limits.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "tlscope/command_log/command_log.hpp"

namespace tlscope::cli {
namespace {

constexpr size_t kTailBytes = 8192;
constexpr size_t kTailLines = 20;

struct Invocation {
  bool active = false;
  std::string dir;
  command_log::CommandRecord record;
  std::chrono::steady_clock::time_point started;
  std::string tail;  // the last bytes written to stderr
  FILE* real_stderr = nullptr;
};

Invocation& current() {
  static Invocation invocation;
  return invocation;
}

ssize_t tee_write(void* cookie, const char* data, size_t size) {
  auto* inv = static_cast<Invocation*>(cookie);
  size_t done = 0;
  while (done < size) {
    ssize_t n = write(STDERR_FILENO, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  inv->tail.append(data, size);
  if (inv->tail.size() > 2 * kTailBytes) inv->tail.erase(0, inv->tail.size() - kTailBytes);
  return static_cast<ssize_t>(size);  // a closed stderr must not make tlscope's writes fail
}

std::string last_lines(const std::string& text) {
  size_t start = text.size() > kTailBytes ? text.size() - kTailBytes : 0;
  size_t lines = 0;
  for (size_t i = text.size(); i > start; --i) {
    if (text[i - 1] == '\n' && i != text.size() && ++lines == kTailLines) {
      start = i;
      break;
    }
  }
  return text.substr(start);
}

void warn(const std::string& why) {
  std::fprintf(stderr,
               "tlscope: warning: this run is not recorded (%s); `tlscope rage --commands` will "
               "not list it\n",
               why.c_str());
}

std::string& command_line_text() {
  static std::string text;
  return text;
}

// POSIX shell single quotes: everything inside is literal, a ' is written '\''.
std::string shell_word(const std::string& arg) {
  if (!arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789-_./=:,+@%") == std::string::npos)
    return arg;
  std::string out = "'";
  for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::string invocation_command_line() {
  return command_line_text();
}

void begin_invocation(int argc, char** argv, const char* version) {
  Invocation& inv = current();
  inv.started = std::chrono::steady_clock::now();
  std::string& line = command_line_text();
  line.clear();
  for (int i = 0; i < argc; ++i) line += (i ? " " : "") + shell_word(argv[i]);
  const char* setting = std::getenv("TLSCOPE_COMMAND_LOG");
  if (setting && std::strcmp(setting, "off") == 0) return;
  command_log::CommandRecord& r = inv.record;
  command_log::stamp_new_record(r);
  r.version = version;
  for (int i = 0; i < argc; ++i) r.argv.emplace_back(argv[i]);
  char cwd[PATH_MAX];
  if (getcwd(cwd, sizeof cwd)) r.cwd = cwd;
  inv.dir = command_log::command_log_dir();
  if (std::string error = command_log::append_command_record(inv.dir, r); !error.empty()) {
    warn(error);
    return;
  }
  inv.active = true;
  cookie_io_functions_t io{};
  io.write = tee_write;
  if (FILE* tee = fopencookie(&inv, "w", io)) {
    setvbuf(tee, nullptr, _IONBF, 0);
    inv.real_stderr = stderr;
    stderr = tee;
  }
}

int end_invocation(int exit_code) {
  Invocation& inv = current();
  if (!inv.active) return exit_code;
  inv.active = false;
  if (inv.real_stderr) {
    FILE* tee = stderr;
    stderr = inv.real_stderr;
    std::fclose(tee);
  }
  command_log::CommandRecord& r = inv.record;
  r.exit_status = exit_code;
  r.duration_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - inv.started).count();
  r.stderr_tail = last_lines(inv.tail);
  if (std::string error = command_log::append_command_record(inv.dir, r); !error.empty())
    warn(error);
  return exit_code;
}

void note_inputs(const std::vector<std::string>& log_files) {
  current().record.inputs = log_files;
}

void note_database(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(path, ec);
  current().record.database = ec ? path : p.string();
}

void note_report(const std::string& dir) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(dir, ec);
  current().record.report = ec ? dir : p.string();
}

}  // namespace tlscope::cli
