// The report server's request side on plain strings (cli/http_request.hpp): what it serves and
// every refusal, including the hostile targets a browser would never send.
#include <catch2/catch.hpp>

#include "http_request.hpp"

using namespace tlscope::cli::http;

namespace {

Request head(const std::string& request_line,
             const std::string& fields = "Host: 127.0.0.1:8000\r\n") {
  return parse_head(request_line + "\r\n" + fields + "\r\n");
}

}  // namespace

TEST_CASE("http: a head ends at the first blank line, with CRLF or bare LF line ends") {
  CHECK(head_end("GET / HTTP/1.1\r\nHost: x\r\n\r\nrest") == 27);
  CHECK(head_end("GET / HTTP/1.1\nHost: x\n\nrest") == 24);
  CHECK(head_end("GET / HTTP/1.1\r\nHost: x\r\n") == std::string_view::npos);
  CHECK(head_end("GET / HTTP/1.1\r\nHost: x\r\n\r") == std::string_view::npos);
  CHECK(head_end("") == std::string_view::npos);
}

TEST_CASE("http: GET and HEAD on the loopback are accepted") {
  Request get = head("GET /index.html HTTP/1.1");
  CHECK(get.status == Status::kOk);
  CHECK_FALSE(get.head_only);
  CHECK(get.target == "/index.html");
  Request h = head("HEAD /a/b.js?x=1 HTTP/1.1", "host: localhost:9000\r\nAccept: */*\r\n");
  CHECK(h.status == Status::kOk);
  CHECK(h.head_only);
  CHECK(h.target == "/a/b.js?x=1");
  CHECK(head("GET / HTTP/1.1", "Host: [::1]:1\r\n").status == Status::kOk);
  CHECK(head("GET / HTTP/1.1", "Host: LOCALHOST.\r\n").status == Status::kOk);
  // HTTP/1.0 has no Host field to require.
  CHECK(head("GET / HTTP/1.0", "").status == Status::kOk);
}

TEST_CASE("http: other methods are refused with 405") {
  for (const char* method : {"POST", "PUT", "DELETE", "OPTIONS", "TRACE", "CONNECT", "get"}) {
    INFO(method);
    CHECK(head(std::string(method) + " / HTTP/1.1").status == Status::kMethodNotAllowed);
  }
}

TEST_CASE("http: malformed request lines and fields are refused with 400") {
  CHECK(parse_head("\r\n").status == Status::kBadRequest);
  CHECK(head("GET  / HTTP/1.1").status == Status::kBadRequest);  // two spaces
  CHECK(head("GET / HTTP/1.1 ").status == Status::kBadRequest);  // a trailing space
  CHECK(head("GET /").status == Status::kBadRequest);            // HTTP/0.9 style
  CHECK(head("GET / HTTX/1.1").status == Status::kBadRequest);
  CHECK(head("G(T / HTTP/1.1").status == Status::kBadRequest);  // not a token
  CHECK(head(std::string("GET /a\x01 HTTP/1.1")).status == Status::kBadRequest);
  CHECK(head("GET / HTTP/1.1", "Host: 127.0.0.1\r\nNo colon here\r\n").status ==
        Status::kBadRequest);
  CHECK(head("GET / HTTP/1.1", "Host : 127.0.0.1\r\n").status == Status::kBadRequest);
  CHECK(head("GET / HTTP/1.1", "Host: 127.0.0.1\r\nX-A: 1\r\n  folded\r\n").status ==
        Status::kBadRequest);
}

TEST_CASE("http: HTTP/2 and later are refused with 505") {
  CHECK(head("GET / HTTP/2.0").status == Status::kVersionNotSupported);
  CHECK(head("GET / HTTP/3.0").status == Status::kVersionNotSupported);
}

TEST_CASE("http: Host is required on HTTP/1.1, once, and must name the loopback") {
  CHECK(head("GET / HTTP/1.1", "").status == Status::kBadRequest);
  CHECK(head("GET / HTTP/1.1", "Host: 127.0.0.1\r\nHost: 127.0.0.1\r\n").status ==
        Status::kBadRequest);
  // A page of evil.example whose name now resolves to 127.0.0.1 (DNS rebinding).
  Request rebound = head("GET / HTTP/1.1", "Host: evil.example:8000\r\n");
  CHECK(rebound.status == Status::kBadRequest);
  CHECK(rebound.detail.find("Host") != std::string::npos);
  CHECK(head("GET / HTTP/1.1", "Host: 127.0.0.1.evil.example\r\n").status == Status::kBadRequest);
  CHECK(head("GET / HTTP/1.1", "Host: localhost.evil.example\r\n").status == Status::kBadRequest);
  CHECK(head("GET / HTTP/1.0", "Host: 10.0.0.1\r\n").status == Status::kBadRequest);
}

TEST_CASE("http: a target becomes decoded path segments, query and empty segments dropped") {
  ResourcePath p = resource_path("/data/compile%20timeline.js?v=2#top");
  REQUIRE(p.status == Status::kOk);
  CHECK(p.segments == std::vector<std::string>{"data", "compile timeline.js"});
  CHECK_FALSE(p.trailing_slash);
  CHECK(p.path == "/data/compile timeline.js");

  ResourcePath root = resource_path("/");
  REQUIRE(root.status == Status::kOk);
  CHECK(root.segments.empty());
  CHECK(root.trailing_slash);

  ResourcePath dots = resource_path("//a/./b//c/");
  REQUIRE(dots.status == Status::kOk);
  CHECK(dots.segments == std::vector<std::string>{"a", "b", "c"});
  CHECK(dots.trailing_slash);
  CHECK(dots.path == "/a/b/c/");

  ResourcePath absolute = resource_path("http://127.0.0.1:8000/index.html");
  REQUIRE(absolute.status == Status::kOk);
  CHECK(absolute.segments == std::vector<std::string>{"index.html"});
}

TEST_CASE("http: .. is refused however it is spelt, as are NUL, %2F and bad escapes") {
  for (const char* target : {"/..", "/../etc/passwd", "/a/../../b", "/a/..", "/%2e%2e/x", "/%2E%2E",
                             "/.%2e/x", "/a/%2e./b", "/a%2f..%2fb", "/a%2Fb", "/a%00.html", "/%",
                             "/%4", "/%zz", "index.html", "*", ""}) {
    INFO(target);
    ResourcePath p = resource_path(target);
    CHECK(p.status == Status::kBadRequest);
    CHECK(p.segments.empty());
  }
  // A name that merely holds two dots is a name.
  ResourcePath names = resource_path("/a..b/..c/d..");
  REQUIRE(names.status == Status::kOk);
  CHECK(names.segments == std::vector<std::string>{"a..b", "..c", "d.."});
}

TEST_CASE("http: content types by extension, octet-stream for the rest") {
  CHECK(std::string(content_type("index.html")) == "text/html; charset=utf-8");
  CHECK(std::string(content_type("REPORT.HTML")) == "text/html; charset=utf-8");
  CHECK(std::string(content_type("timeline.js")) == "text/javascript; charset=utf-8");
  CHECK(std::string(content_type("report.css")) == "text/css; charset=utf-8");
  CHECK(std::string(content_type("x.json")) == "application/json");
  CHECK(std::string(content_type("notes.txt")) == "text/plain; charset=utf-8");
  CHECK(std::string(content_type("graph.svg")) == "image/svg+xml");
  CHECK(std::string(content_type("archive.tar")) == "application/octet-stream");
  CHECK(std::string(content_type("html")) == "application/octet-stream");
  CHECK(std::string(content_type("")) == "application/octet-stream");
}

TEST_CASE("http: every status has its reason phrase") {
  CHECK(std::string(reason_phrase(Status::kOk)) == "OK");
  CHECK(std::string(reason_phrase(Status::kNotFound)) == "Not Found");
  CHECK(std::string(reason_phrase(Status::kMethodNotAllowed)) == "Method Not Allowed");
  CHECK(std::string(reason_phrase(Status::kHeadersTooLarge)) == "Request Header Fields Too Large");
}
