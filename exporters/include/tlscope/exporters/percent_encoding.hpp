// Percent-encoding (RFC 3986) for the front ends: the report's hrefs, the report server's
// redirects and the bug bundle's redaction all spelled it, and its hex digits, out again.
#pragma once

#include <string>
#include <string_view>

namespace tlscope::exporters {

// `text` with every byte percent-encoded (%XX, upper-case hex) except ASCII letters, digits and
// the bytes of `keep` (e.g. "._-/" for a relative href, "-._~" for one path segment).
std::string percent_encode(std::string_view text, std::string_view keep);

// The value of one hex digit (either case), or -1 when `c` is none.
int hex_digit_value(char c);

}  // namespace tlscope::exporters
