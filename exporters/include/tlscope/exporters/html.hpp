// Text-to-HTML building blocks of the report: escaping for element text, attributes and embedded
// JSON, and syntax highlighting of generated code. Everything that comes from a log goes through
// one of these before it reaches a page.
#pragma once

#include <string>
#include <string_view>

#include "tlscope/views/compile_detail.hpp"

namespace tlscope::exporters {

// Escapes &, <, >, " and ' so the result is safe as element text and inside quoted attributes.
// Invalid UTF-8 bytes become U+FFFD so a hostile byte cannot change how the page decodes.
void append_html_escaped(std::string& out, std::string_view text);
std::string html_escape(std::string_view text);

// Escaped HTML for log text that may be very long (a generated name, a reason): up to
// `max_chars` code points as they are; past that a <details class="long-text"> whose summary
// shows the start and the length, and whose body holds the whole text.
std::string html_clipped(std::string_view text, size_t max_chars = 400);

// A JSON string literal (with quotes) that is also safe inside <script> and .js files: <, >, &,
// U+2028 and U+2029 are written as \uXXXX escapes.
void append_json_string(std::string& out, std::string_view text);
std::string json_string(std::string_view text);

// `v` as snprintf("%.3f") writes it, less trailing zeros and a trailing point ("60345", "12.5",
// "0" for -0.0001): the report's data files hold millions of microsecond times, and printf's
// float formatting was a tenth of the compile timeline's time.
void append_json_fixed3(std::string& out, double v);

// Escapes a file name for use in an href (percent-encodes everything outside [A-Za-z0-9._-/]).
std::string url_escape(std::string_view text);

// The payload's language as views/ classifies it, one enum for both front ends.
using CodeLanguage = views::PayloadLanguage;

// Escaped HTML for `code`: one <span class="l"> per line (line numbers come from CSS counters)
// with keywords, strings, comments and numbers wrapped in spans of classes k, s, c, n, f.
std::string highlight_code(std::string_view code, CodeLanguage language);

}  // namespace tlscope::exporters
