// Numbers of the report's JSON data files, written without printf's float formatting.
#include <charconv>
#include <cstdio>

#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

void append_json_fixed3(std::string& out, double v) {
  // The longest "%.3f" of a double: 309 integer digits, a sign, the point and three decimals.
  char buf[330];
  // to_chars with a precision rounds the exact binary value as printf does (ties to even), so
  // the digits are printf's; tests/exporters/json_number_test.cpp compares the two.
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 3);
  int n =
      ec == std::errc() ? static_cast<int>(end - buf) : std::snprintf(buf, sizeof buf, "%.3f", v);
  while (n > 0 && buf[n - 1] == '0') --n;
  if (n > 0 && buf[n - 1] == '.') --n;
  if (n == 2 && buf[0] == '-' && buf[1] == '0') n = 1, buf[0] = '0';  // "-0.000" is 0
  out.append(buf, static_cast<size_t>(n));
}

}  // namespace tlscope::exporters
