// The JSON writer of --format json: any bytes from a log come out as valid JSON strings.
#include <catch2/catch.hpp>
#include <string>

#include "json_writer.hpp"

using tlscope::cli::append_json_string;
using tlscope::cli::JsonWriter;

namespace {
std::string js(std::string_view bytes) {
  std::string out;
  append_json_string(out, bytes);
  return out;
}
}  // namespace

TEST_CASE("json strings: quotes, backslashes and control characters are escaped") {
  CHECK(js("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(js("line\nnext\ttab") == "\"line\\nnext\\ttab\"");
  CHECK(js(std::string("nul\0bell\a", 9)) == "\"nul\\u0000bell\\u0007\"");
  CHECK(js("\x1b[31mred") == "\"\\u001b[31mred\"");
  CHECK(js("</script>") == "\"\\u003c/script\\u003e\"");
}

TEST_CASE("json strings: valid UTF-8 is kept, invalid bytes become U+FFFD") {
  CHECK(js("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") ==
        "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
  CHECK(js("a\xff"
           "b") == "\"a\\ufffdb\"");                                    // never a UTF-8 byte
  CHECK(js("\xc3") == "\"\\ufffd\"");                                   // cut sequence at the end
  CHECK(js("\xc0\xaf") == "\"\\ufffd\\ufffd\"");                        // overlong '/'
  CHECK(js("\xed\xa0\x80") == "\"\\ufffd\\ufffd\\ufffd\"");             // a surrogate
  CHECK(js("\xf4\x90\x80\x80") == "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");  // past U+10FFFF
  CHECK(js("\x80x") == "\"\\ufffdx\"");                                 // stray continuation byte
}

TEST_CASE("json writer: nesting, commas, null and numbers") {
  JsonWriter w;
  w.begin_object().member("n", int64_t{3}).key("none").null();
  w.member_ints("ranks", {0, 2}).member_strings("empty", {});
  w.member("ok", true).member("half", 0.5).member("inf", 1.0 / 0.0);
  w.end_object();
  const std::string out = w.finish();
  CHECK(out ==
        "{\n  \"n\": 3,\n  \"none\": null,\n  \"ranks\": [\n    0,\n    2\n  ],\n  \"empty\": [],\n"
        "  \"ok\": true,\n  \"half\": 0.5,\n  \"inf\": null\n}\n");
}
