// Runs a piece of a test in a child process with a deadline, so a call that would block forever
// (opening a FIFO, reading /dev/zero) fails the test in seconds instead of hanging the suite.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <thread>

namespace tlscope::test {

enum class ChildEnd { kPassed, kFailed, kTimedOut };

// Forks; the child runs `body` and exits 0 when it returns true, 1 otherwise. The parent waits at
// most `seconds`, then kills the child.
inline ChildEnd run_with_deadline(const std::function<bool()>& body, double seconds) {
  pid_t pid = fork();
  if (pid == 0) _exit(body() ? 0 : 1);
  if (pid < 0) return ChildEnd::kFailed;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? ChildEnd::kPassed : ChildEnd::kFailed;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return ChildEnd::kTimedOut;
}

}  // namespace tlscope::test
