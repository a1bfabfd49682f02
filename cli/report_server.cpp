// The report server's sockets, threads and files (report_server.hpp); what a request may ask for
// is decided in http_request.cpp.
#include "report_server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <deque>
#include <filesystem>
#include <mutex>
#include <thread>
#include <vector>

#include "tlscope/exporters/percent_encoding.hpp"

#include "command.hpp"
#include "http_request.hpp"

namespace tlscope::cli {
namespace {

using Clock = std::chrono::steady_clock;
using http::Status;

// Connections accepted and not yet taken by a worker; beyond this the server stops accepting
// and the kernel's backlog holds the rest.
constexpr size_t kMaxPending = 64;
// After the answer, what the client still sends is read and dropped for this long, so that
// closing with unread input (which sends a reset) cannot cut the answer short at the client.
constexpr int kDrainMillis = 1000;
constexpr size_t kDrainBytes = 64 * 1024;

// The write end of the stop pipe, for the signal handler: a byte written there makes the read
// end readable for good, which every poll() below watches.
int g_stop_write_fd = -1;

extern "C" void on_stop_signal(int) {
  int saved = errno;
  char byte = 1;
  if (g_stop_write_fd >= 0) (void)!::write(g_stop_write_fd, &byte, 1);
  errno = saved;
}

// SIGINT and SIGTERM write to the stop pipe while serving, and SIGPIPE is ignored: sendfile()
// has no MSG_NOSIGNAL, and a client that closes in the middle of a file would otherwise end the
// server. The earlier handlers come back after.
class StopSignals {
 public:
  explicit StopSignals(int write_fd) {
    g_stop_write_fd = write_fd;
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, &old_int_);
    ::sigaction(SIGTERM, &action, &old_term_);
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ::sigaction(SIGPIPE, &ignore, &old_pipe_);
  }
  ~StopSignals() {
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
    ::sigaction(SIGPIPE, &old_pipe_, nullptr);
    g_stop_write_fd = -1;
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
  struct sigaction old_pipe_ {};
};

class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      if (fd_ >= 0) ::close(fd_);
      fd_ = o.fd_;
      o.fd_ = -1;
    }
    return *this;
  }
  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }

 private:
  int fd_;
};

enum class Wait { kReady, kStopped, kTimedOut, kFailed };

// Waits until `fd` has `events`, the server is stopping, or `deadline` passes.
Wait wait_for(int fd, short events, int stop_fd, Clock::time_point deadline) {
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return Wait::kTimedOut;
    pollfd fds[2] = {{fd, events, 0}, {stop_fd, POLLIN, 0}};
    int n = ::poll(fds, 2, static_cast<int>(std::min<int64_t>(left.count(), 1 << 30)));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Wait::kFailed;
    if (fds[1].revents) return Wait::kStopped;
    if (fds[0].revents & (events | POLLHUP | POLLERR | POLLNVAL)) return Wait::kReady;
  }
}

// Sends all of `data`; false when the client went away, stalled kSendIdleSeconds, or the server
// is stopping.
bool send_all(int fd, std::string_view data, int stop_fd) {
  while (!data.empty()) {
    ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n > 0) {
      data.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      auto deadline = Clock::now() + std::chrono::seconds(kSendIdleSeconds);
      if (wait_for(fd, POLLOUT, stop_fd, deadline) != Wait::kReady) return false;
      continue;
    }
    return false;
  }
  return true;
}

bool send_file(int fd, int file, off_t size, int stop_fd) {
  off_t offset = 0;
  while (offset < size) {
    ssize_t n = ::sendfile(fd, file, &offset, static_cast<size_t>(size - offset));
    if (n > 0) continue;
    if (n == 0) return false;  // the file shrank under us: the length sent is now wrong
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      auto deadline = Clock::now() + std::chrono::seconds(kSendIdleSeconds);
      if (wait_for(fd, POLLOUT, stop_fd, deadline) != Wait::kReady) return false;
      continue;
    }
    return false;
  }
  return true;
}

std::string http_date() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[64];
  std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S GMT", &utc);
  return text;
}

std::string response_head(Status status, const char* type, uint64_t length,
                          const std::string& extra = {}) {
  std::string head = "HTTP/1.1 " + std::to_string(static_cast<int>(status)) + " " +
                     http::reason_phrase(status) + "\r\n";
  head += "Date: " + http_date() + "\r\n";
  head += "Server: tlscope\r\n";
  head += std::string("Content-Type: ") + type + "\r\n";
  head += "Content-Length: " + std::to_string(length) + "\r\n";
  // The report is rewritten in place by `tlscope report`; a reload must show the new one.
  head += "Cache-Control: no-cache\r\n";
  head += "X-Content-Type-Options: nosniff\r\n";
  head += "Referrer-Policy: no-referrer\r\n";
  head += extra;
  head += "Connection: close\r\n\r\n";
  return head;
}

// An error page in plain text: it names the status and a fixed reason, never the request.
void send_error(int fd, Status status, const std::string& detail, bool head_only, int stop_fd,
                const std::string& extra = {}) {
  std::string body = std::to_string(static_cast<int>(status)) + " " + http::reason_phrase(status) +
                     (detail.empty() ? "" : ": " + detail) + "\n";
  std::string out = response_head(status, "text/plain; charset=utf-8", body.size(), extra);
  if (!head_only) out += body;
  send_all(fd, out, stop_fd);
}

// One path segment of a redirect: RFC 3986's unreserved bytes stay as they are.
std::string percent_encode(const std::string& segment) {
  return exporters::percent_encode(segment, "-._~");
}

struct Resource {
  Status status = Status::kNotFound;
  Fd file;
  off_t size = 0;
  std::string name;      // the file's own name, for its content type
  std::string location;  // for a redirect: the folder's URL with its '/'
};

// Opens one name in `dir` without following a link and without blocking on a FIFO.
Fd open_component(int dir, const std::string& name, struct stat& st) {
  Fd fd(::openat(dir, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (fd && ::fstat(fd.get(), &st) != 0) return Fd();
  return fd;
}

// The regular file `path` names under the folder `root`, component by component (see the header).
Resource open_beneath(int root, const http::ResourcePath& path) {
  Resource r;
  Fd dir(::fcntl(root, F_DUPFD_CLOEXEC, 0));
  if (!dir) return r;
  struct stat st {};
  for (size_t i = 0; i < path.segments.size(); ++i) {
    const std::string& name = path.segments[i];
    if (name.front() == '.') return r;  // the stamp and other dot files are not the report
    Fd next = open_component(dir.get(), name, st);
    if (!next) return r;
    bool last = i + 1 == path.segments.size();
    if (S_ISDIR(st.st_mode)) {
      dir = std::move(next);
      continue;
    }
    if (!last || !S_ISREG(st.st_mode) || path.trailing_slash) return r;
    r.status = Status::kOk;
    r.file = std::move(next);
    r.size = st.st_size;
    r.name = name;
    return r;
  }
  // A folder: its index.html, at a URL that ends in '/' so that the page's relative links
  // resolve inside it.
  if (!path.segments.empty() && !path.trailing_slash) {
    r.status = Status::kMovedPermanently;
    for (const std::string& s : path.segments) r.location += "/" + percent_encode(s);
    r.location += "/";
    return r;
  }
  Fd index = open_component(dir.get(), "index.html", st);
  if (!index || !S_ISREG(st.st_mode)) return r;
  r.status = Status::kOk;
  r.file = std::move(index);
  r.size = st.st_size;
  r.name = "index.html";
  return r;
}

// Reads what the client still sends, for a short while, after the answer (kDrainMillis).
void drain(int fd, int stop_fd) {
  ::shutdown(fd, SHUT_WR);
  auto deadline = Clock::now() + std::chrono::milliseconds(kDrainMillis);
  char buf[4096];
  size_t total = 0;
  while (total < kDrainBytes && wait_for(fd, POLLIN, stop_fd, deadline) == Wait::kReady) {
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return;
    total += static_cast<size_t>(n);
  }
}

void serve_connection(int fd, int root, int stop_fd) {
  std::string buffer;
  size_t end = std::string::npos;
  auto deadline = Clock::now() + std::chrono::seconds(kHeadSeconds);
  char chunk[2048];
  while ((end = http::head_end(buffer)) == std::string::npos) {
    if (buffer.size() >= http::kMaxHeadBytes) {
      send_error(fd, Status::kHeadersTooLarge,
                 "the request head is over " + std::to_string(http::kMaxHeadBytes) + " bytes",
                 false, stop_fd);
      return drain(fd, stop_fd);
    }
    Wait w = wait_for(fd, POLLIN, stop_fd, deadline);
    if (w == Wait::kTimedOut) {
      send_error(fd, Status::kRequestTimeout,
                 "no complete request within " + std::to_string(kHeadSeconds) + " s", false,
                 stop_fd);
      return drain(fd, stop_fd);
    }
    if (w != Wait::kReady) return;
    size_t room = std::min(sizeof chunk, http::kMaxHeadBytes - buffer.size());
    ssize_t n = ::recv(fd, chunk, room, 0);
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
    if (n <= 0) return;  // the client closed or reset before a whole request
    buffer.append(chunk, static_cast<size_t>(n));
  }
  http::Request request = http::parse_head(std::string_view(buffer).substr(0, end));
  if (request.status != Status::kOk) {
    std::string allow = request.status == Status::kMethodNotAllowed ? "Allow: GET, HEAD\r\n" : "";
    send_error(fd, request.status, request.detail, false, stop_fd, allow);
    return drain(fd, stop_fd);
  }
  http::ResourcePath path = http::resource_path(request.target);
  if (path.status != Status::kOk) {
    send_error(fd, path.status, path.detail, request.head_only, stop_fd);
    return drain(fd, stop_fd);
  }
  Resource resource = open_beneath(root, path);
  if (resource.status == Status::kMovedPermanently) {
    send_error(fd, resource.status, "", request.head_only, stop_fd,
               "Location: " + resource.location + "\r\n");
  } else if (resource.status != Status::kOk) {
    send_error(fd, resource.status, "no such file in the report", request.head_only, stop_fd);
  } else {
    std::string head = response_head(Status::kOk, http::content_type(resource.name),
                                     static_cast<uint64_t>(resource.size));
    if (send_all(fd, head, stop_fd) && !request.head_only)
      send_file(fd, resource.file.get(), resource.size, stop_fd);
  }
  drain(fd, stop_fd);
}

// Accepted connections waiting for a worker.
class ConnectionQueue {
 public:
  bool has_room() {
    std::lock_guard lock(mutex_);
    return pending_.size() < kMaxPending;
  }
  void push(Fd fd) {
    {
      std::lock_guard lock(mutex_);
      pending_.push_back(std::move(fd));
    }
    ready_.notify_one();
  }
  // A connection, or an empty Fd once stopping.
  Fd pop() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
    if (stopping_) return Fd();
    Fd fd = std::move(pending_.front());
    pending_.pop_front();
    return fd;
  }
  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      pending_.clear();
    }
    ready_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Fd> pending_;
  bool stopping_ = false;
};

// A listening socket on 127.0.0.1:port; on failure `error` says why and `error_number` is errno.
Fd listen_on(int port, int& bound_port, std::string& error, int& error_number) {
  Fd sock(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  error_number = errno;
  if (!sock) {
    error = std::string("cannot create a socket: ") + std::strerror(error_number);
    return Fd();
  }
  // Lets a restarted server bind while the last one's connections linger in TIME_WAIT; on Linux
  // it never lets two servers listen on one port.
  int one = 1;
  ::setsockopt(sock.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (::bind(sock.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(sock.get(), 64) != 0) {
    error_number = errno;
    error =
        "cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + std::strerror(error_number);
    return Fd();
  }
  socklen_t len = sizeof addr;
  ::getsockname(sock.get(), reinterpret_cast<sockaddr*>(&addr), &len);
  bound_port = ntohs(addr.sin_port);
  return sock;
}

}  // namespace

int serve_folder(const ServeOptions& o) {
  namespace fs = std::filesystem;
  Fd root(::open(o.folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!root) {
    std::fprintf(stderr, "tlscope %s: %s: cannot serve it: %s\n", o.command, o.folder.c_str(),
                 std::strerror(errno));
    return kUsageOrIo;
  }
  if (o.port < 0 || o.port > 65535) {
    std::fprintf(stderr, "tlscope %s: --port %d: not a port (0-65535; 0 picks a free one)\n",
                 o.command, o.port);
    return kUsageOrIo;
  }
  int port = 0, error_number = 0;
  std::string error;
  Fd sock = listen_on(o.port, port, error, error_number);
  if (!sock && !o.port_given && error_number == EADDRINUSE) {
    std::fprintf(stderr, "tlscope %s: note: port %d is busy; serving on a free port instead\n",
                 o.command, o.port);
    sock = listen_on(0, port, error, error_number);
  }
  if (!sock) {
    std::fprintf(stderr, "tlscope %s: %s\n", o.command, error.c_str());
    return kUsageOrIo;
  }
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    std::fprintf(stderr, "tlscope %s: cannot create a pipe: %s\n", o.command, std::strerror(errno));
    return kUsageOrIo;
  }
  Fd stop_read(pipe_fds[0]), stop_write(pipe_fds[1]);
  StopSignals signals(stop_write.get());

  ConnectionQueue queue;
  std::vector<std::thread> workers;
  for (int i = 0; i < kWorkers; ++i) {
    workers.emplace_back([&] {
      while (Fd fd = queue.pop()) serve_connection(fd.get(), root.get(), stop_read.get());
    });
  }

  std::error_code ec;
  std::string url = "http://127.0.0.1:" + std::to_string(port) + "/";
  std::printf("serving %s at %s (Ctrl-C stops)\n",
              fs::absolute(o.folder, ec).lexically_normal().c_str(), url.c_str());
  std::fflush(stdout);
  if (o.on_listening) o.on_listening(url);

  for (;;) {
    bool room = queue.has_room();
    // With no room the listening socket is left alone (the backlog holds new clients) and the
    // loop looks again after a worker has had time to take one.
    pollfd fds[2] = {{stop_read.get(), POLLIN, 0},
                     {sock.get(), static_cast<short>(room ? POLLIN : 0), 0}};
    int n = ::poll(fds, 2, room ? -1 : 50);
    if (n < 0 && errno != EINTR) break;
    if (fds[0].revents) break;
    if (!(fds[1].revents & POLLIN)) continue;
    Fd client(::accept4(sock.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
    if (client) {
      queue.push(std::move(client));
    } else if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
      // Out of descriptors or memory: the socket stays readable, so wait instead of spinning.
      pollfd stop{stop_read.get(), POLLIN, 0};
      ::poll(&stop, 1, 100);
    }
  }
  queue.stop();
  for (std::thread& t : workers) t.join();
  std::printf("stopped serving %s\n", url.c_str());
  return kOk;
}

}  // namespace tlscope::cli
