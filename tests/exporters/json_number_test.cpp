// append_json_fixed3 must write the digits snprintf("%.3f") writes (the report's data files were
// byte-identical before it replaced printf), trailing zeros dropped.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>

#include "tlscope/exporters/html.hpp"

using tlscope::exporters::append_json_fixed3;

namespace {

std::string fixed3(double v) {
  std::string s;
  append_json_fixed3(s, v);
  return s;
}

// The former formatter: printf, then the zeros trimmed.
std::string printf_fixed3(double v) {
  char buf[400];
  int n = std::snprintf(buf, sizeof buf, "%.3f", v);
  while (n > 0 && buf[n - 1] == '0') --n;
  if (n > 0 && buf[n - 1] == '.') --n;
  if (n == 2 && buf[0] == '-' && buf[1] == '0') n = 1, buf[0] = '0';
  return std::string(buf, static_cast<size_t>(n));
}

}  // namespace

TEST_CASE("append_json_fixed3 trims what %.3f writes") {
  CHECK(fixed3(60345) == "60345");
  CHECK(fixed3(12.5) == "12.5");
  CHECK(fixed3(0.0004) == "0");
  CHECK(fixed3(-0.0004) == "0");
  CHECK(fixed3(-0.0) == "0");
  CHECK(fixed3(-1.25) == "-1.25");
  CHECK(fixed3(100) == "100");  // zeros before the point stay
}

TEST_CASE("append_json_fixed3 rounds as printf does, ties to even") {
  // Exact binary ties at the fourth decimal: 1/16 = 0.0625, 3/16 = 0.1875.
  CHECK(fixed3(0.0625) == "0.062");
  CHECK(fixed3(0.1875) == "0.188");
  CHECK(fixed3(2.0625) == printf_fixed3(2.0625));
  for (int k = -4000; k <= 4000; ++k) {
    double v = k / 16.0 + k * 1024.0;
    INFO(v);
    REQUIRE(fixed3(v) == printf_fixed3(v));
  }
}

TEST_CASE("append_json_fixed3 equals printf on times, huge values and non-numbers") {
  std::mt19937_64 random(14);
  std::uniform_real_distribution<double> us(-1e3, 1e13);
  for (int i = 0; i < 50000; ++i) {
    double v = us(random);
    if (i % 3 == 0) v = std::round(v * 1000) / 1000;  // times logged to the nanosecond
    INFO(v);
    REQUIRE(fixed3(v) == printf_fixed3(v));
  }
  for (double v :
       {1e300, -1e300, std::numeric_limits<double>::max(),
        std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    INFO(v);
    CHECK(fixed3(v) == printf_fixed3(v));
  }
}
