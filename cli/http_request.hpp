// The request side of `tlscope report --serve` (report_server.hpp), kept apart from the sockets
// so that every refusal can be unit-tested on plain strings: reading a request head, turning its
// target into the path segments of a file under the report folder, and the content type of a
// file name. Everything here is hostile input: a browser, curl, or any local process may send it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tlscope::cli::http {

// The statuses the server sends, with their reason phrases (one list, RFC 9110's wording).
#define TLSCOPE_HTTP_STATUSES(X)                              \
  X(kOk, 200, "OK")                                           \
  X(kMovedPermanently, 301, "Moved Permanently")              \
  X(kBadRequest, 400, "Bad Request")                          \
  X(kNotFound, 404, "Not Found")                              \
  X(kMethodNotAllowed, 405, "Method Not Allowed")             \
  X(kRequestTimeout, 408, "Request Timeout")                  \
  X(kHeadersTooLarge, 431, "Request Header Fields Too Large") \
  X(kVersionNotSupported, 505, "HTTP Version Not Supported")

enum class Status : int {
#define TLSCOPE_HTTP_STATUS_ENUM(name, code, reason) name = code,
  TLSCOPE_HTTP_STATUSES(TLSCOPE_HTTP_STATUS_ENUM)
#undef TLSCOPE_HTTP_STATUS_ENUM
};

const char* reason_phrase(Status status);

// A request head bigger than this is refused with 431: the report's URLs are short, and a bound
// keeps one client from making the server hold an unbounded buffer.
inline constexpr size_t kMaxHeadBytes = 8192;

// Where the head ends in `buffer` (the offset just past the blank line), or npos while it is
// incomplete. Bare "\n" line ends are accepted as well as "\r\n" (RFC 9112 section 2.2).
size_t head_end(std::string_view buffer);

struct Request {
  Status status = Status::kOk;  // kOk, or why the request is refused
  std::string detail;           // for the error page: what was wrong
  bool head_only = false;       // HEAD: headers without the body
  std::string target;           // the request target as sent (origin form)
};

// Parses a complete head (request line and header fields). Only GET and HEAD are served; an
// HTTP/1.1 request needs a Host field (RFC 9112 section 3.2), and the host must name this
// machine's loopback (127.0.0.1, localhost, [::1], any port): a web page whose own name was
// pointed at 127.0.0.1 (DNS rebinding) then cannot read the report through the visitor's browser.
Request parse_head(std::string_view head);

struct ResourcePath {
  Status status = Status::kOk;  // kOk or kBadRequest
  std::string detail;
  std::vector<std::string> segments;  // decoded, none empty, ".", ".." or holding '/' or NUL
  bool trailing_slash = false;        // the path ended in '/' (a folder: its index.html)
  std::string path;                   // the decoded path, for messages and redirects
};

// The file a target names under the report folder. The query and fragment are dropped, empty
// and "." segments skipped, each segment percent-decoded after the split (so %2F cannot join two
// segments). A ".." segment, raw or encoded, is refused rather than resolved: nothing the server
// sends lies above its root, and a client that sends ".." is not a browser following a link.
ResourcePath resource_path(std::string_view target);

// "text/html; charset=utf-8" and the like, by the name's extension; application/octet-stream for
// the rest.
const char* content_type(std::string_view file_name);

}  // namespace tlscope::cli::http
