// The one percent-encoding of the front ends (report hrefs, the report server's redirects, the
// bundle redaction's %XX decoding).
#include "tlscope/exporters/percent_encoding.hpp"

#include <catch2/catch.hpp>
#include <string>

using tlscope::exporters::hex_digit_value;
using tlscope::exporters::percent_encode;

TEST_CASE("percent_encode keeps letters, digits and the named bytes, encodes the rest") {
  CHECK(percent_encode("a/b c.html", "._-/") == "a/b%20c.html");
  CHECK(percent_encode("a/b c.html", "-._~") == "a%2Fb%20c.html");
  CHECK(percent_encode("~x", "._-/") == "%7Ex");
  CHECK(percent_encode("~x", "-._~") == "~x");
  // Bytes above ASCII and NUL are always encoded, in upper-case hex.
  CHECK(percent_encode(std::string("\xC3\xA9\0", 3), "") == "%C3%A9%00");
  CHECK(percent_encode("<script>", "") == "%3Cscript%3E");
}

TEST_CASE("hex_digit_value reads either case and refuses the rest") {
  CHECK(hex_digit_value('0') == 0);
  CHECK(hex_digit_value('9') == 9);
  CHECK(hex_digit_value('a') == 10);
  CHECK(hex_digit_value('F') == 15);
  CHECK(hex_digit_value('g') == -1);
  CHECK(hex_digit_value('%') == -1);
}
