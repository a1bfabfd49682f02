// See probe_command.hpp. posix_spawnp reports a missing program as ENOENT itself, so "not found"
// is never guessed from empty output; the deadline is kept with poll() on the output pipe.
#include "probe_command.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>

extern char** environ;

namespace tlscope::exporters::rage {

ProbeResult run_probe(const std::vector<std::string>& argv, double timeout_seconds) {
  ProbeResult result;
  if (argv.empty()) return result;
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return result;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (rc != 0) {
    ::close(pipe_fds[0]);
    result.status = rc == ENOENT ? ProbeResult::Status::kNotFound : ProbeResult::Status::kFailed;
    result.exit_code = 127;
    return result;
  }

  using Clock = std::chrono::steady_clock;
  auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(timeout_seconds));
  auto ms_left = [&] {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    return static_cast<int>(std::max<int64_t>(0, left.count()));
  };
  bool timed_out = false;
  char buf[4096];
  while (true) {
    struct pollfd p = {pipe_fds[0], POLLIN, 0};
    int ready = poll(&p, 1, ms_left());
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      timed_out = true;
      break;
    }
    ssize_t n = ::read(pipe_fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // EOF: the program closed its output
    if (result.output.size() < 64 * 1024) result.output.append(buf, static_cast<size_t>(n));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  // Output closed is not the same as exited: wait for the exit up to the same deadline.
  while (!timed_out) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) break;
    if (ms_left() == 0) {
      timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (timed_out) {
    kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    result.status = ProbeResult::Status::kTimedOut;
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    result.status = ProbeResult::Status::kOk;
  } else {
    result.status = ProbeResult::Status::kFailed;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  while (!result.output.empty() && (result.output.back() == '\n' || result.output.back() == ' ' ||
                                    result.output.back() == '\r'))
    result.output.pop_back();
  return result;
}

}  // namespace tlscope::exporters::rage
