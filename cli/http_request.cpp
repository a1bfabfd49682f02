// Request heads and targets for the report server (http_request.hpp says what is refused and why).
#include "http_request.hpp"

#include <array>
#include <utility>

#include "tlscope/exporters/percent_encoding.hpp"

namespace tlscope::cli::http {
namespace {

struct ContentType {
  std::string_view extension;
  const char* type;
};

// The report writes HTML pages, scripts, styles and a few text and JSON files; SVG and the
// image types are there for what a user may put beside them.
constexpr std::array<ContentType, 11> kContentTypes{{
    {".html", "text/html; charset=utf-8"},
    {".htm", "text/html; charset=utf-8"},
    {".js", "text/javascript; charset=utf-8"},
    {".css", "text/css; charset=utf-8"},
    {".json", "application/json"},
    {".txt", "text/plain; charset=utf-8"},
    {".svg", "image/svg+xml"},
    {".png", "image/png"},
    {".ico", "image/x-icon"},
    {".db", "application/vnd.sqlite3"},
    {".gz", "application/gzip"},
}};

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

bool ends_with_ignoring_case(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         equals_ignoring_case(s.substr(s.size() - suffix.size()), suffix);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// RFC 9110 token characters (method names, field names).
bool is_token_char(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool is_token(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_token_char(c)) return false;
  return true;
}

// The lines of a head, without their "\r\n" or "\n" ends; the blank line that ends it excluded.
std::vector<std::string_view> head_lines(std::string_view head) {
  std::vector<std::string_view> lines;
  while (!head.empty()) {
    size_t nl = head.find('\n');
    std::string_view line = head.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) break;
    lines.push_back(line);
    if (nl == std::string_view::npos) break;
    head.remove_prefix(nl + 1);
  }
  return lines;
}

// The host part of a Host field: "[::1]:8000" -> "[::1]", "localhost:8000" -> "localhost".
std::string_view host_name(std::string_view host) {
  if (!host.empty() && host.front() == '[') {
    size_t close = host.find(']');
    return close == std::string_view::npos ? host : host.substr(0, close + 1);
  }
  return host.substr(0, host.find(':'));
}

bool is_loopback_name(std::string_view host) {
  std::string_view name = host_name(host);
  if (!name.empty() && name.back() == '.') name.remove_suffix(1);  // "localhost." is the same
  return name == "127.0.0.1" || equals_ignoring_case(name, "localhost") || name == "[::1]";
}

Request refuse(Status status, std::string detail) {
  Request r;
  r.status = status;
  r.detail = std::move(detail);
  return r;
}

// Percent-decodes one segment; false on a malformed escape.
bool percent_decode(std::string_view in, std::string& out) {
  out.clear();
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      out += in[i];
      continue;
    }
    if (i + 2 >= in.size()) return false;
    int hi = exporters::hex_digit_value(in[i + 1]), lo = exporters::hex_digit_value(in[i + 2]);
    if (hi < 0 || lo < 0) return false;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return true;
}

ResourcePath bad_path(std::string detail) {
  ResourcePath p;
  p.status = Status::kBadRequest;
  p.detail = std::move(detail);
  return p;
}

}  // namespace

const char* reason_phrase(Status status) {
  switch (status) {
#define TLSCOPE_HTTP_STATUS_REASON(name, code, reason) \
  case Status::name:                                   \
    return reason;
    TLSCOPE_HTTP_STATUSES(TLSCOPE_HTTP_STATUS_REASON)
#undef TLSCOPE_HTTP_STATUS_REASON
  }
  return "Unknown";
}

size_t head_end(std::string_view buffer) {
  for (size_t i = buffer.find('\n'); i != std::string_view::npos; i = buffer.find('\n', i + 1)) {
    if (i + 1 < buffer.size() && buffer[i + 1] == '\n') return i + 2;
    if (i + 2 < buffer.size() && buffer[i + 1] == '\r' && buffer[i + 2] == '\n') return i + 3;
  }
  return std::string_view::npos;
}

Request parse_head(std::string_view head) {
  std::vector<std::string_view> lines = head_lines(head);
  if (lines.empty()) return refuse(Status::kBadRequest, "empty request");
  // request-line = method SP request-target SP HTTP-version, single spaces (RFC 9112 3).
  std::string_view line = lines[0];
  size_t sp1 = line.find(' ');
  size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != std::string_view::npos)
    return refuse(Status::kBadRequest, "the request line is not METHOD TARGET VERSION");
  std::string_view method = line.substr(0, sp1);
  std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  std::string_view version = line.substr(sp2 + 1);
  if (!is_token(method)) return refuse(Status::kBadRequest, "the method is not a token");
  if (target.empty()) return refuse(Status::kBadRequest, "no request target");
  for (char c : target)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f)
      return refuse(Status::kBadRequest, "a control character in the request target");
  if (version.size() != 8 || version.substr(0, 5) != "HTTP/" || version[6] != '.' ||
      version[5] < '0' || version[5] > '9' || version[7] < '0' || version[7] > '9')
    return refuse(Status::kBadRequest, "the version is not HTTP/x.y");
  if (version[5] != '1') return refuse(Status::kVersionNotSupported, "only HTTP/1.x is served");
  bool http11 = version[7] != '0';

  int hosts = 0;
  std::string_view host;
  for (size_t i = 1; i < lines.size(); ++i) {
    std::string_view field = lines[i];
    // Obsolete line folding is refused (RFC 9112 5.2), as is a field without a colon or with
    // white space before it (RFC 9112 5.1: a request smuggling vector).
    if (field.front() == ' ' || field.front() == '\t')
      return refuse(Status::kBadRequest, "a folded header line");
    size_t colon = field.find(':');
    if (colon == std::string_view::npos || !is_token(field.substr(0, colon)))
      return refuse(Status::kBadRequest, "a header line is not NAME: VALUE");
    if (equals_ignoring_case(field.substr(0, colon), "host")) {
      ++hosts;
      host = trim(field.substr(colon + 1));
    }
  }
  if (hosts > 1) return refuse(Status::kBadRequest, "more than one Host field");
  if (http11 && hosts == 0) return refuse(Status::kBadRequest, "an HTTP/1.1 request without Host");
  if (hosts == 1 && !is_loopback_name(host))
    return refuse(Status::kBadRequest,
                  "the Host field does not name 127.0.0.1 or localhost (the report is served on "
                  "the loopback only)");
  if (method != "GET" && method != "HEAD")
    return refuse(Status::kMethodNotAllowed, "only GET and HEAD are served");

  Request r;
  r.head_only = method == "HEAD";
  r.target = std::string(target);
  return r;
}

ResourcePath resource_path(std::string_view target) {
  // The absolute form (RFC 9112 3.2.2) names the same path after the authority.
  if (ends_with_ignoring_case(target.substr(0, 7), "http://")) {
    size_t slash = target.find('/', 7);
    target = slash == std::string_view::npos ? std::string_view("/") : target.substr(slash);
  }
  if (target.empty() || target.front() != '/')
    return bad_path("the request target is not a path that starts with /");
  target = target.substr(0, target.find_first_of("?#"));

  ResourcePath p;
  p.trailing_slash = target.back() == '/';
  std::string segment;
  while (!target.empty()) {
    target.remove_prefix(1);  // the '/'
    size_t next = target.find('/');
    std::string_view raw = target.substr(0, next);
    target = next == std::string_view::npos ? std::string_view() : target.substr(next);
    if (!percent_decode(raw, segment)) return bad_path("a malformed %-escape in the path");
    if (segment.find('\0') != std::string::npos) return bad_path("a NUL byte in the path");
    if (segment.find('/') != std::string::npos) return bad_path("an encoded / in a path segment");
    if (segment == "..") return bad_path("a .. segment in the path");
    if (segment.empty() || segment == ".") continue;
    p.segments.push_back(segment);
  }
  // Built by appends: GCC 12 warns (-Wrestrict, a false positive) on assigning "/" here.
  p.path.clear();
  p.path.push_back('/');
  for (size_t i = 0; i < p.segments.size(); ++i) {
    if (i) p.path += '/';
    p.path += p.segments[i];
  }
  if (p.trailing_slash && !p.segments.empty()) p.path += '/';
  return p;
}

const char* content_type(std::string_view file_name) {
  for (const ContentType& t : kContentTypes)
    if (ends_with_ignoring_case(file_name, t.extension)) return t.type;
  return "application/octet-stream";
}

}  // namespace tlscope::cli::http
