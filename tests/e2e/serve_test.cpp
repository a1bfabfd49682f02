// `tlscope report --serve` as a user and as an attacker reach it: curl and headless Chromium
// fetch the report over http://127.0.0.1, raw sockets send what no browser would (.., a symlink
// out of the folder, a foreign Host, an endless head, a client that sends nothing), and Ctrl-C
// stops it with exit 0.
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <regex>
#include <thread>

#include "e2e/e2e_support.hpp"

using namespace e2e;
using Clock = std::chrono::steady_clock;

extern char** environ;

namespace {

// Seconds a step may take under AddressSanitizer on a loaded 2-core machine.
constexpr int kPatience = 60;

// A running `tlscope report LOG -o DIR --serve ARGS...`, output to files in `dir`.
class Server {
 public:
  Server(const fs::path& dir, const std::vector<std::string>& extra = {"--port", "0"})
      : dir_(dir), out_(dir / "serve_stdout.txt"), err_(dir / "serve_stderr.txt") {
    report_ = dir / "report";
    std::vector<std::string> args = {
        kTlscope,         "report", kLogs + "/simple.log", "--db", (dir / "run.db").string(), "-o",
        report_.string(), "--serve"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    REQUIRE(posix_spawn(&pid_, kTlscope.c_str(), &actions, nullptr, argv.data(), environ) == 0);
    posix_spawn_file_actions_destroy(&actions);
  }
  ~Server() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }

  // The port from the "serving DIR at http://127.0.0.1:PORT/" line; 0 if the server exited or
  // printed nothing in time.
  int port() {
    static const std::regex url(R"(at http://127\.0\.0\.1:([0-9]+)/ )");
    auto deadline = Clock::now() + std::chrono::seconds(kPatience);
    while (Clock::now() < deadline) {
      std::smatch m;
      std::string out = slurp(out_);
      if (std::regex_search(out, m, url)) return std::stoi(m[1]);
      if (exited()) return 0;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return 0;
  }
  // Sends `signal` and waits for the exit: its code, -1 on a timeout or a death by signal.
  int stop(int signal, double seconds = kPatience) {
    ::kill(pid_, signal);
    return wait_exit(seconds);
  }
  int wait_exit(double seconds) {
    auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    while (Clock::now() < deadline) {
      if (exited()) return WIFEXITED(status_) ? WEXITSTATUS(status_) : -1;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return -1;
  }
  const fs::path& report() const { return report_; }
  std::string out() const { return slurp(out_); }
  std::string err() const { return slurp(err_); }

 private:
  bool exited() {
    if (pid_ <= 0) return true;
    if (::waitpid(pid_, &status_, WNOHANG) != pid_) return false;
    pid_ = -1;
    return true;
  }
  fs::path dir_, out_, err_, report_;
  pid_t pid_ = -1;
  int status_ = 0;
};

int connect_to(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  timeval tv{kPatience, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

std::string read_all(int fd) {
  std::string text;
  char buf[8192];
  ssize_t n;
  while ((n = ::recv(fd, buf, sizeof buf, 0)) > 0) text.append(buf, static_cast<size_t>(n));
  return text;
}

// Sends `request` as it is on a new connection and returns everything the server sends back.
std::string http_exchange(int port, const std::string& request) {
  int fd = connect_to(port);
  if (fd < 0) return {};
  ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string response = read_all(fd);
  ::close(fd);
  return response;
}

std::string get(int port, const std::string& target, const std::string& method = "GET") {
  return http_exchange(port, method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" +
                                 std::to_string(port) + "\r\n\r\n");
}

int status_of(const std::string& response) {
  if (response.rfind("HTTP/1.1 ", 0) != 0 || response.size() < 12) return -1;
  return std::stoi(response.substr(9, 3));
}

std::string body_of(const std::string& response) {
  size_t end = response.find("\r\n\r\n");
  return end == std::string::npos ? std::string() : response.substr(end + 4);
}

std::string field(const std::string& response, const std::string& name) {
  std::string head = response.substr(0, response.find("\r\n\r\n"));
  size_t at = head.find("\r\n" + name + ": ");
  if (at == std::string::npos) return {};
  at += name.size() + 4;
  return head.substr(at, head.find("\r\n", at) - at);
}

struct Curl {
  int code = -1;
  std::string body, type;
};

// curl, a real client: the status, the body and the Content-Type it saw.
Curl curl(const fs::path& dir, const std::string& url, const std::string& options = "") {
  fs::path body = dir / "curl_body", meta = dir / "curl_meta";
  std::string cmd = "curl -s --max-time " + std::to_string(kPatience) + " " + options + " -o " +
                    q(body.string()) + " -w '%{http_code} %{content_type}' " + q(url) + " > " +
                    q(meta.string());
  std::system(cmd.c_str());
  Curl c;
  std::string m = slurp(meta);
  if (m.size() >= 3) c.code = std::atoi(m.substr(0, 3).c_str());
  if (m.size() > 4) c.type = m.substr(4);
  c.body = slurp(body);
  fs::remove(body);
  return c;
}

bool have_curl() {
  return std::system("command -v curl >/dev/null 2>&1") == 0;
}

}  // namespace

TEST_CASE("serve: curl gets index.html, a page, a script and a style, byte for byte") {
  if (!have_curl()) {
    WARN("TLSCOPE-SKIP: curl is not installed (scripts/setup.sh installs it)");
    return;
  }
  fs::path dir = scratch("serve_curl");
  Server server(dir);
  int port = server.port();
  REQUIRE(port > 0);
  std::string base = "http://127.0.0.1:" + std::to_string(port) + "/";
  CHECK(server.out().find("serving " + fs::absolute(server.report()).string() + " at " + base) !=
        std::string::npos);

  Curl index = curl(dir, base);
  CHECK(index.code == 200);
  CHECK(index.type == "text/html; charset=utf-8");
  CHECK(index.body == slurp(server.report() / "index.html"));
  CHECK(index.body.find("<title>tlscope report") != std::string::npos);
  struct Expect {
    const char* path;
    const char* type;
  };
  for (Expect e : {Expect{"compiles.html", "text/html; charset=utf-8"},
                   Expect{"assets/report.js", "text/javascript; charset=utf-8"},
                   Expect{"assets/report.css", "text/css; charset=utf-8"}}) {
    INFO(e.path);
    REQUIRE(fs::is_regular_file(server.report() / e.path));
    Curl page = curl(dir, base + e.path);
    CHECK(page.code == 200);
    CHECK(page.type == e.type);
    CHECK(page.body == slurp(server.report() / e.path));
  }
  // A folder without its '/' is sent to it, so that the relative links of its index resolve.
  fs::create_directories(server.report() / "sub");
  std::ofstream(server.report() / "sub" / "index.html") << "<p>sub</p>";
  Curl redirect = curl(dir, base + "sub", "-L");
  CHECK(redirect.code == 200);
  CHECK(redirect.body == "<p>sub</p>");
  CHECK(status_of(get(port, "/sub")) == 301);
  CHECK(field(get(port, "/sub"), "Location") == "/sub/");
  CHECK(curl(dir, base + "no_such_page.html").code == 404);
  CHECK(server.stop(SIGINT) == 0);
}

TEST_CASE("serve: HEAD, 404, 405, 400 for .. and a foreign Host, 431 for an endless head") {
  fs::path dir = scratch("serve_refusals");
  Server server(dir);
  int port = server.port();
  REQUIRE(port > 0);
  std::string index = slurp(server.report() / "index.html");

  std::string head = get(port, "/index.html", "HEAD");
  CHECK(status_of(head) == 200);
  CHECK(field(head, "Content-Length") == std::to_string(index.size()));
  CHECK(body_of(head).empty());
  CHECK(field(head, "Connection") == "close");
  CHECK(field(head, "X-Content-Type-Options") == "nosniff");

  CHECK(status_of(get(port, "/missing.html")) == 404);
  CHECK(status_of(get(port, "/index.html/")) == 404);  // a file is not a folder
  std::string post = get(port, "/index.html", "POST");
  CHECK(status_of(post) == 405);
  CHECK(field(post, "Allow") == "GET, HEAD");
  for (const char* target : {"/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
                             "/assets/../../x", "/a%2f..%2f..%2fetc"}) {
    INFO(target);
    std::string r = get(port, target);
    CHECK(status_of(r) == 400);
    CHECK(r.find("root:") == std::string::npos);
  }
  CHECK(status_of(http_exchange(port, "GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n")) == 400);
  CHECK(status_of(http_exchange(port, "GET / HTTP/1.1\r\n\r\n")) == 400);
  CHECK(status_of(http_exchange(port, "GET / HTTP/2.0\r\nHost: localhost\r\n\r\n")) == 505);
  CHECK(status_of(http_exchange(port, "garbage\r\n\r\n")) == 400);
  // A head that never ends is cut at 8 KiB, not buffered without end.
  std::string endless = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + std::string(20000, 'a');
  CHECK(status_of(http_exchange(port, endless)) == 431);
  // The server still answers after all of that.
  CHECK(body_of(get(port, "/")) == index);
  CHECK(server.stop(SIGTERM) == 0);
}

TEST_CASE("serve: symbolic links and dot files are never served, even when they point inside") {
  fs::path dir = scratch("serve_links");
  std::ofstream(dir / "secret.txt") << "SECRET-OUTSIDE-THE-REPORT";
  Server server(dir);
  int port = server.port();
  REQUIRE(port > 0);
  fs::path report = server.report();
  fs::create_symlink(dir / "secret.txt", report / "secret.txt");
  fs::create_directory_symlink(dir, report / "up");
  fs::create_directory_symlink("/etc", report / "etc");
  fs::create_symlink("index.html", report / "alias.html");  // inside, but a link all the same
  REQUIRE(fs::exists(report / "up" / "secret.txt"));
  for (const char* target : {"/secret.txt", "/up/secret.txt", "/up/", "/etc/passwd", "/alias.html",
                             "/.tlscope-report", "/up/report/index.html"}) {
    INFO(target);
    std::string r = get(port, target);
    CHECK(status_of(r) == 404);
    CHECK(r.find("SECRET") == std::string::npos);
    CHECK(r.find("root:") == std::string::npos);
  }
  // A FIFO in the folder is not a file to serve, and opening it does not block the server.
  REQUIRE(::mkfifo((report / "pipe.html").c_str(), 0644) == 0);
  CHECK(status_of(get(port, "/pipe.html")) == 404);
  CHECK(status_of(get(port, "/index.html")) == 200);
  CHECK(server.stop(SIGINT) == 0);
}

TEST_CASE(
    "serve: a silent client waits for the timeout alone, many clients, one after another and at "
    "once") {
  fs::path dir = scratch("serve_clients");
  Server server(dir);
  int port = server.port();
  REQUIRE(port > 0);
  std::string index = slurp(server.report() / "index.html");
  std::string page = slurp(server.report() / "compiles.html");

  // Three connections that send nothing: the other workers answer at once.
  std::vector<int> silent;
  for (int i = 0; i < 3; ++i) silent.push_back(connect_to(port));
  auto start = Clock::now();
  CHECK(body_of(get(port, "/")) == index);
  CHECK(Clock::now() - start < std::chrono::seconds(5));
  // Each silent one is told 408 after the server's 10 s and closed, not held for ever.
  std::string timed_out = read_all(silent[0]);
  CHECK(status_of(timed_out) == 408);
  CHECK(Clock::now() - start >= std::chrono::seconds(9));
  for (int fd : silent) ::close(fd);

  for (int i = 0; i < 100; ++i) {
    std::string r = get(port, i % 2 ? "/index.html" : "/compiles.html");
    REQUIRE(status_of(r) == 200);
    REQUIRE(body_of(r) == (i % 2 ? index : page));
  }
  std::atomic<int> good{0};
  std::vector<std::thread> clients;
  for (int t = 0; t < 16; ++t) {
    clients.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i) {
        std::string r = get(port, (t + i) % 2 ? "/index.html" : "/compiles.html");
        if (status_of(r) == 200 && body_of(r) == ((t + i) % 2 ? index : page)) ++good;
      }
    });
  }
  for (auto& c : clients) c.join();
  CHECK(good == 160);
  CHECK(server.stop(SIGINT) == 0);
}

TEST_CASE("serve: clients that leave in the middle of a large file do not stop the server") {
  fs::path dir = scratch("serve_leavers");
  Server server(dir);
  int port = server.port();
  REQUIRE(port > 0);
  // 8 MB: more than the socket buffers hold, so the server is still sending when the client
  // closes (a reset: the server's next send fails, ECONNRESET or EPIPE, and the server ignores
  // SIGPIPE while it serves).
  std::string big(8 << 20, 'x');
  std::ofstream(server.report() / "big.txt", std::ios::binary) << big;
  for (int i = 0; i < 5; ++i) {
    int fd = connect_to(port);
    REQUIRE(fd >= 0);
    std::string request = "GET /big.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    char first[4096];
    CHECK(::recv(fd, first, sizeof first, 0) > 0);
    linger reset{1, 0};  // close with a reset, as a browser tab that is closed
    ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    ::close(fd);
  }
  std::string whole = get(port, "/big.txt");
  CHECK(status_of(whole) == 200);
  CHECK(body_of(whole) == big);
  CHECK(server.stop(SIGINT) == 0);
}

TEST_CASE("serve: Ctrl-C stops it at once, even with a client connected, and it says so") {
  fs::path dir = scratch("serve_stop");
  Server server(dir);
  int port = server.port();
  REQUIRE(port > 0);
  int idle = connect_to(port);  // a worker is waiting on it
  REQUIRE(idle >= 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto start = Clock::now();
  CHECK(server.stop(SIGINT) == 0);
  CHECK(Clock::now() - start < std::chrono::seconds(5));  // not the 10 s head timeout
  ::close(idle);
  CHECK(server.out().find("stopped serving http://127.0.0.1:" + std::to_string(port) + "/") !=
        std::string::npos);
  CHECK(connect_to(port) < 0);  // nothing listens any more
}

TEST_CASE("serve: a port in use is refused by name and replaced by default") {
  fs::path dir = scratch("serve_ports");
  // Hold a port: asking for it by name fails with exit 2 and a message naming it.
  int held = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(held, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(::listen(held, 1) == 0);
  socklen_t len = sizeof addr;
  ::getsockname(held, reinterpret_cast<sockaddr*>(&addr), &len);
  int held_port = ntohs(addr.sin_port);
  {
    Server busy(dir, {"--port", std::to_string(held_port)});
    CHECK(busy.wait_exit(kPatience) == 2);
    CHECK(busy.err().find("cannot listen on 127.0.0.1:" + std::to_string(held_port)) !=
          std::string::npos);
  }
  ::close(held);
  // The default, 8000: when it is busy (held here, or by anything else) a free port serves.
  int eight = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  addr.sin_port = htons(8000);
  bool held_8000 = ::bind(eight, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
                   ::listen(eight, 1) == 0;
  {
    Server fallback(dir, {});
    int port = fallback.port();
    REQUIRE(port > 0);
    CHECK(port != 8000);
    if (held_8000) CHECK(fallback.err().find("port 8000 is busy") != std::string::npos);
    CHECK(status_of(get(port, "/")) == 200);
    CHECK(fallback.stop(SIGINT) == 0);
  }
  ::close(eight);
  // --port without --serve, and a port out of range, are usage errors.
  RunResult r = run_tlscope(dir, "report " + q(kLogs + "/simple.log") + " -o " +
                                     q((dir / "r2").string()) + " --port 8001");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--serve") != std::string::npos);
  r = run_tlscope(dir, "report " + q(kLogs + "/simple.log") + " -o " + q((dir / "r3").string()) +
                           " --serve --port 70000");
  CHECK(r.exit_code == 2);
}

TEST_CASE("serve: --open opens the served URL, not the file") {
  fs::path dir = scratch("serve_open");
  fs::path opener = dir / "opener.sh", opened = dir / "opened.txt";
  std::ofstream(opener) << "#!/bin/sh\necho \"$1\" > '" << opened.string() << "'\n";
  fs::permissions(opener, fs::perms::owner_all);
  ::setenv("TLSCOPE_OPEN_COMMAND", opener.c_str(), 1);
  Server server(dir, {"--port", "0", "--open"});
  ::unsetenv("TLSCOPE_OPEN_COMMAND");
  int port = server.port();
  REQUIRE(port > 0);
  auto deadline = Clock::now() + std::chrono::seconds(kPatience);
  while (!fs::exists(opened) && Clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(slurp(opened) == "http://127.0.0.1:" + std::to_string(port) + "/\n");
  CHECK(server.stop(SIGINT) == 0);
}

TEST_CASE("serve: headless Chromium loads a served page over http and its scripts run") {
  const char* chromium = nullptr;
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (fs::exists(p)) chromium = p;
  if (!chromium) {
    WARN("TLSCOPE-SKIP: Chromium is not installed (scripts/setup.sh installs it)");
    return;
  }
  fs::path dir = scratch("serve_chromium");
  Server server(dir);
  int port = server.port();
  REQUIRE(port > 0);
  fs::path dom = dir / "dom.html", profile = dir / "profile";
  // HOME and XDG_CONFIG_HOME in the profile: Chromium writes crash state there whatever
  // --user-data-dir says (/tmp/.config with HOME unset, as part of the suite runs).
  std::string cmd =
      "timeout 120 env HOME=" + q(profile.string()) +
      " XDG_CONFIG_HOME=" + q((profile / "config").string()) +
      " XDG_CACHE_HOME=" + q(std::string(TLSCOPE_BINARY_DIR) + "/test-home/chromium-cache") + " " +
      chromium +
      " --headless --no-sandbox --disable-gpu --no-first-run "
      "--disable-background-networking --disable-component-update --disable-sync "
      "--user-data-dir=" +
      q(profile.string()) + " --virtual-time-budget=10000 --dump-dom " +
      q("http://127.0.0.1:" + std::to_string(port) + "/compiles.html") + " > " + q(dom.string()) +
      " 2>/dev/null";
  std::system(cmd.c_str());
  std::string page = slurp(dom);
  INFO(page.substr(0, 2000));
  // report.js marks the body once it ran: the script came over http with a type the browser
  // accepts under nosniff and the page's Content-Security-Policy.
  CHECK(page.find("data-page=\"compiles\"") != std::string::npos);
  CHECK(page.find("data-ready=\"1\"") != std::string::npos);
  CHECK(page.find("tlscope-js-error") == std::string::npos);
  CHECK(server.stop(SIGINT) == 0);
}
