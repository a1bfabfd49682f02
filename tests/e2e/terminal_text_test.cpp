// terminal_safe: control characters from a log shown escaped, valid UTF-8 kept (issue 12, 15).
#include <catch2/catch.hpp>

#include "terminal_text.hpp"

using tlscope::cli::terminal_safe;
using tlscope::cli::terminal_safe_lines;

TEST_CASE("terminal_safe escapes C0 controls, DEL and ESC sequences") {
  CHECK(terminal_safe("plain text: a/b.py:12") == "plain text: a/b.py:12");
  CHECK(terminal_safe("\x1b]0;owned\x07") == "\\x1b]0;owned\\x07");
  CHECK(terminal_safe("\x1b[2J\x1b[31mred") == "\\x1b[2J\\x1b[31mred");
  CHECK(terminal_safe(std::string("a\0b", 3)) == "a\\x00b");
  CHECK(terminal_safe("tab\there\r\nnext") == "tab\\there\\r\\nnext");
  CHECK(terminal_safe("del\x7f") == "del\\x7f");
}

TEST_CASE("terminal_safe keeps valid UTF-8 and escapes C1, bidi and invalid bytes") {
  CHECK(terminal_safe("caf\xc3\xa9 \xe2\x88\x91 \xf0\x9f\x94\xa5") ==
        "caf\xc3\xa9 \xe2\x88\x91 \xf0\x9f\x94\xa5");
  CHECK(terminal_safe("\xc2\x9b"
                      "2J") == "\\u009b2J");  // C1 CSI, well-formed UTF-8
  CHECK(terminal_safe("\x9b"
                      "2J") == "\\x9b2J");  // a lone CSI byte
  CHECK(terminal_safe("\xe2\x80\xae"
                      "evil") == "\\u202eevil");                       // right-to-left override
  CHECK(terminal_safe("\xc0\xaf") == "\\xc0\\xaf");                    // overlong '/'
  CHECK(terminal_safe("\xed\xa0\x80") == "\\xed\\xa0\\x80");           // a UTF-16 surrogate
  CHECK(terminal_safe("cut \xe2\x88") == "cut \\xe2\\x88");            // sequence cut short
  CHECK(terminal_safe("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
}

TEST_CASE("terminal_safe_lines keeps line breaks and escapes inside each line") {
  CHECK(terminal_safe_lines("one\x1b[2J\ntwo\n") == "one\\x1b[2J\ntwo\n");
  CHECK(terminal_safe_lines("") == "");
  CHECK(terminal_safe_lines("\n\n") == "\n\n");
}
