// Escaping and syntax highlighting, the two functions every log-derived string passes through.
#include <catch2/catch.hpp>

#include "tlscope/exporters/html.hpp"
#include "tlscope/views/code_tokens.hpp"

using namespace tlscope::exporters;

TEST_CASE("html_escape makes markup inert text") {
  CHECK(html_escape("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;");
  CHECK(html_escape("\"><img src=x onerror=alert(1)>") ==
        "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
  CHECK(html_escape("a & b 'c'") == "a &amp; b &#39;c&#39;");
  CHECK(html_escape("plain text") == "plain text");
  // Valid UTF-8 passes through; invalid bytes and NUL become U+FFFD.
  CHECK(html_escape("\xC3\xA9\xE2\x86\x92") == "\xC3\xA9\xE2\x86\x92");
  CHECK(html_escape(std::string("a\xFF"
                                "b",
                                3)) ==
        "a\xEF\xBF\xBD"
        "b");
  CHECK(html_escape(std::string("a\0b", 3)) ==
        "a\xEF\xBF\xBD"
        "b");
  CHECK(html_escape("\xC0\xBC") == "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong '<'
  CHECK(html_escape("\xE2\x86") == "\xEF\xBF\xBD\xEF\xBF\xBD");  // truncated sequence
}

TEST_CASE("json_string is valid JSON that cannot close a script element") {
  CHECK(json_string("</script><b>") == "\"\\u003c/script\\u003e\\u003cb\\u003e\"");
  CHECK(json_string("a\"b\\c\nd\te") == "\"a\\\"b\\\\c\\nd\\te\"");
  CHECK(json_string(std::string("\x01", 1)) == "\"\\u0001\"");
  CHECK(json_string("\xE2\x80\xA8") == "\"\\u2028\"");
  CHECK(json_string("\xFF") == "\"\\ufffd\"");
  CHECK(json_string("r\xC3\xA9") == "\"r\xC3\xA9\"");
}

TEST_CASE("url_escape keeps path characters and encodes the rest") {
  CHECK(url_escape("compile/f1_0-0.html") == "compile/f1_0-0.html");
  CHECK(url_escape("a b\"<") == "a%20b%22%3C");
}

TEST_CASE("highlight_code numbers lines and marks Python tokens") {
  std::string html =
      highlight_code("def f(x):\n    # note <b>\n    return 'a<b' + 12\n", CodeLanguage::kPython);
  // One line span per input line (the trailing newline gives an empty last line).
  size_t lines = 0;
  for (size_t pos = 0; (pos = html.find("<span class=\"l\">", pos)) != std::string::npos; ++pos)
    ++lines;
  CHECK(lines == 4);
  CHECK(html.find("<span class=\"k\">def</span> <span class=\"f\">f</span>(x):") !=
        std::string::npos);
  CHECK(html.find("<span class=\"c\"># note &lt;b&gt;</span>") != std::string::npos);
  CHECK(html.find("<span class=\"s\">&#39;a&lt;b&#39;</span>") != std::string::npos);
  CHECK(html.find("<span class=\"n\">12</span>") != std::string::npos);
  CHECK(html.find("<b>") == std::string::npos);
}

TEST_CASE("highlight_code carries multi-line strings and comments across lines") {
  std::string py = highlight_code("x = \"\"\"one\ntwo\"\"\" + y", CodeLanguage::kPython);
  CHECK(py.find("<span class=\"s\">&quot;&quot;&quot;one</span>") != std::string::npos);
  CHECK(py.find("<span class=\"s\">two&quot;&quot;&quot;</span> + y") != std::string::npos);
  std::string cpp = highlight_code("int a; /* start\nend */ return a; // done", CodeLanguage::kCpp);
  CHECK(cpp.find("<span class=\"k\">int</span> a; <span class=\"c\">/* start</span>") !=
        std::string::npos);
  CHECK(cpp.find("<span class=\"c\">end */</span> <span class=\"k\">return</span>") !=
        std::string::npos);
  CHECK(cpp.find("<span class=\"c\">// done</span>") != std::string::npos);
  // An unterminated string or escape at the end of a line never reads past the line.
  std::string odd = highlight_code("s = 'abc\\", CodeLanguage::kPython);
  CHECK(odd.find("<span class=\"s\">&#39;abc\\</span>") != std::string::npos);
}

TEST_CASE("highlight_code escapes runs of punctuation as it escaped each byte") {
  // Runs of ASCII bytes that start no token are escaped in one call (syntax_highlight.cpp).
  const std::string fffd = "\xEF\xBF\xBD";
  CHECK(highlight_code("x = (a<b) && y;  # ok", CodeLanguage::kPython) ==
        "<span class=\"l\">x = (a&lt;b) &amp;&amp; y;  <span class=\"c\"># ok</span></span>\n");
  // '/' may open a comment in C++: "/=" is not one, "//" is.
  CHECK(highlight_code("a[i]->b /= 2; // c", CodeLanguage::kCpp) ==
        "<span class=\"l\">a[i]-&gt;b /= <span class=\"n\">2</span>; <span class=\"c\">// "
        "c</span></span>\n");
  CHECK(highlight_code("if (x): \xFF!", CodeLanguage::kPlain) ==
        "<span class=\"l\">if (x): " + fffd + "!</span>\n");
}

TEST_CASE("highlight_code keeps UTF-8 outside strings and comments whole") {
  // Python 3 names may be non-ASCII: "é" (C3 A9) and "∑" (E2 88 91) pass through as themselves,
  // not as one U+FFFD per byte; a lone invalid byte among them is still replaced.
  const std::string fffd = "\xEF\xBF\xBD";
  CHECK(highlight_code("caf\xC3\xA9 = \xE2\x88\x91(x)", CodeLanguage::kPython) ==
        "<span class=\"l\">caf\xC3\xA9 = \xE2\x88\x91(x)</span>\n");
  CHECK(highlight_code("a \xC3\xA9\xFF b", CodeLanguage::kCpp) ==
        "<span class=\"l\">a \xC3\xA9" + fffd + " b</span>\n");
}

TEST_CASE("highlight_code marks a word as a keyword exactly when the viewer's tokens do") {
  // One keyword list (views::is_code_keyword) for the report and the viewer: before, the
  // report's own copy lacked int32_t, so the two front ends coloured AOTI wrappers differently.
  const std::string cpp = "int32_t n = 0; size_t k; foo x;";
  const std::string html = highlight_code(cpp, CodeLanguage::kCpp);
  for (const tlscope::views::CodeLine& line :
       tlscope::views::tokenize_code(cpp, CodeLanguage::kCpp))
    for (const tlscope::views::CodeToken& t : line.tokens) {
      const std::string word = cpp.substr(line.begin + t.begin, t.length);
      const bool keyword_span =
          html.find("<span class=\"k\">" + word + "</span>") != std::string::npos;
      CHECK(keyword_span == (t.kind == tlscope::views::CodeTokenKind::kKeyword));
    }
  CHECK(html.find("<span class=\"k\">int32_t</span>") != std::string::npos);
  CHECK_FALSE(tlscope::views::is_code_keyword("int32_t", CodeLanguage::kPython));
  CHECK_FALSE(tlscope::views::is_code_keyword("def", CodeLanguage::kPlain));
}
