// Compile id text in PyTorch's form, both directions, with the forms in torch-trace-format.md.
#include <catch2/catch.hpp>

#include "tlscope/parser/compile_id.hpp"

using namespace tlscope::parser;

TEST_CASE("compile_id_string prints PyTorch's CompileId / TraceId forms") {
  CompileContext c;
  CHECK(compile_id_string(c).empty());
  c.frame_id = 0;
  c.frame_compile_id = 1;
  c.attempt = 0;
  CHECK(compile_id_string(c) == "0/1");
  c.attempt = 1;
  CHECK(compile_id_string(c) == "0/1_1");
  CompileContext ca;
  ca.compiled_autograd_id = 0;
  CHECK(compile_id_string(ca) == "!0");
  ca.frame_id = 3;
  ca.frame_compile_id = 0;
  CHECK(compile_id_string(ca) == "!0/3/0");
}

TEST_CASE("parse_compile_id reads 0/1_1, !0/3/0, !0 and rejects None") {
  auto a = parse_compile_id("0/1_1");
  REQUIRE(a);
  CHECK_FALSE(a->compiled_autograd_id);
  CHECK(a->frame_id == 0);
  CHECK(a->frame_compile_id == 1);
  CHECK(a->attempt == 1);

  auto b = parse_compile_id("!0/3/0");
  REQUIRE(b);
  CHECK(b->compiled_autograd_id == 0);
  CHECK(b->frame_id == 3);
  CHECK(b->frame_compile_id == 0);
  CHECK_FALSE(b->attempt);

  auto c = parse_compile_id("!0");
  REQUIRE(c);
  CHECK(c->compiled_autograd_id == 0);
  CHECK_FALSE(c->frame_id);

  auto d = parse_compile_id("12/7");
  REQUIRE(d);
  CHECK(d->frame_id == 12);
  CHECK(d->frame_compile_id == 7);
  CHECK(compile_id_string(*d) == "12/7");

  // What PyTorch's CompileId.from_string rejects, and tlscope with it.
  for (const char* bad :
       {"None", "", "!1/2", "-/-", "-/1", "1/-", "!1/-/-", "0", "0/1/2", "a/b", "0/1_", "0/1_x"}) {
    INFO(bad);
    CHECK_FALSE(parse_compile_id(bad));
  }
}

TEST_CASE("parse_compile_id reads tlparse's bracketed display form") {
  auto a = parse_compile_id("[0/1_1]");
  REQUIRE(a);
  CHECK(compile_id_string(*a) == "0/1_1");
  auto b = parse_compile_id("[!0/3/0_2]");
  REQUIRE(b);
  CHECK(b->compiled_autograd_id == 0);
  CHECK(b->frame_id == 3);
  CHECK(b->attempt == 2);
  // A compiled-autograd graph outside any frame: tlparse prints its missing frame as "-/-".
  auto c = parse_compile_id("[!1/-/-]");
  REQUIRE(c);
  CHECK(compile_id_string(*c) == "!1");
  auto d = parse_compile_id("[!1/-/-_1]");
  REQUIRE(d);
  CHECK(compile_id_string(*d) == "!1_1");
  for (const char* bad : {"[]", "[-/-]", "[0/1", "0/1]", "[None]", "[!1/-/-/-/-]", "[!1/2]"}) {
    INFO(bad);
    CHECK_FALSE(parse_compile_id(bad));
  }
}
