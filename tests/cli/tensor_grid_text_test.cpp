// Text rendering of TensorGrid and JSON tensor values. Character columns are worked out by hand:
// a content unit is (widest text + 1) characters, a gap unit 2, a vertical tick column
// (widest tick + 1); text is right-aligned in its unit, separators sit mid-gap.
#include <catch2/catch.hpp>

#include "tensor_grid_text.hpp"
#include "tlscope/views/tensor_values.hpp"

using namespace tlscope::views;
using tlscope::cli::render_tensor_grid_text;
using tlscope::cli::TensorTextOptions;

TEST_CASE("Text rendering of (2,2,3) aligns blocks, ticks and the level-1 separator") {
  // Units: x=-1 (2 chars), x=0..2 (3 chars: widest value "11"), x=3 gap (2), x=4..6 (3):
  // character starts -1:0, 0:2, 1:5, 2:8, 3:11, 4:13, 5:16, 6:19, end 22.
  // "d0=0" is centred over [2, 11): 2 + (9-4)/2 = col 4; "d0=1" over [13, 22): col 15.
  // Values end at cols 4, 7, 10 and 15, 18, 21; the separator at unit 3.5 = 11 + 1 = col 12.
  TensorGridInput in;
  in.shape = {2, 2, 3};
  in.flat_index_values = true;
  auto r = layout_tensor_grid(in);
  REQUIRE(r.grid);
  TensorTextOptions opts;
  opts.legend = false;
  const std::string expected =
      "    d0=0       d0=1\n"
      "    0  1  2    0  1  2\n"
      " 0  0  1  2 \u2502  6  7  8\n"
      " 1  3  4  5 \u2502  9 10 11\n";
  CHECK(render_tensor_grid_text(*r.grid, opts) == expected);
}

TEST_CASE("Text rendering crosses same-level separators and tags owners") {
  // (2,2,1,1): dims 1 (h) and 0 (v) are level 1; their lines cross at the gap corner.
  // Units x: -2, -1 tick columns, 0 cell, 1 gap, 2 cell.
  TensorGridInput in;
  in.shape = {2, 2, 1, 1};
  in.mesh = DeviceMesh{{2}, {{MeshPlacement::Kind::kShard, 1}}};
  auto r = layout_tensor_grid(in);
  REQUIRE(r.grid);
  std::string text = render_tensor_grid_text(*r.grid, {});
  CHECK(text.find("\u253c") != std::string::npos);  // ┼ where the two level-1 lines meet
  CHECK(text.find("r0 \u2502 r1") != std::string::npos);
  CHECK(text.find("owners (mesh of 2 ranks): r0 r1") != std::string::npos);
  CHECK(text.find("\x1b[") == std::string::npos);  // no colour unless asked
  TensorTextOptions color;
  color.color = true;
  // Black on the rank's colour (views::rank_color, nearest xterm colour): rank 0's (242, 192,
  // 192) is xterm 217 (255, 175, 175); rank 1's hue 67 gives (236, 242, 192), xterm 229.
  std::string colored = render_tensor_grid_text(*r.grid, color);
  CHECK(colored.find("\x1b[30;48;5;217mr") != std::string::npos);
  CHECK(colored.find("\x1b[30;48;5;229mr") != std::string::npos);
}

TEST_CASE("Text rendering marks skipped rows and columns") {
  TensorGridInput in;
  in.shape = {1000, 1000};
  in.flat_index_values = true;
  auto r = layout_tensor_grid(in);
  REQUIRE(r.grid);
  std::string text = render_tensor_grid_text(*r.grid, {});
  // 999*1000 + 999 = 999999 is the last element; row 997 starts at 997000.
  CHECK(text.find(" 999 999000 999001 999002      \u2026 999997 999998 999999\n") !=
        std::string::npos);
  CHECK(text.find("\u22f1") != std::string::npos);
  CHECK(text.find("summarised: 3 edge items") != std::string::npos);
}

TEST_CASE("Text rendering of a tensor with no rows still spaces its column labels") {
  TensorGridInput in;
  in.shape = {0, 1000000};
  in.flat_index_values = true;
  auto r = layout_tensor_grid(in);
  REQUIRE(r.grid);
  TensorTextOptions opts;
  opts.legend = false;
  // The labels were drawn into gap units, each over the last: "  0 19999999999".
  CHECK(render_tensor_grid_text(*r.grid, opts) ==
        "       0      1      2      \u2026 999997 999998 999999\n");
}

TEST_CASE("JSON tensor values take their shape from the nesting") {
  auto v = parse_tensor_values_json("[[1, 2.5, 3], [4, 5, -6]]", "v.json");
  REQUIRE(v.ok());
  CHECK(v->shape == std::vector<int64_t>{2, 3});
  CHECK(v->values == std::vector<double>{1, 2.5, 3, 4, 5, -6});
  auto scalar = parse_tensor_values_json("7", "s.json");
  REQUIRE(scalar.ok());
  CHECK(scalar->shape.empty());
  CHECK(scalar->values == std::vector<double>{7});
  auto flat = parse_tensor_values_json(R"({"shape": [2, 2], "values": [1, 2, 3, 4]})", "f");
  REQUIRE(flat.ok());
  CHECK(flat->shape == std::vector<int64_t>{2, 2});
}

TEST_CASE("JSON tensor values reject ragged, non-numeric and malformed input by name") {
  auto error_of = [](std::string_view json) {
    auto parsed = parse_tensor_values_json(json, "v.json");
    CHECK_FALSE(parsed.ok());
    return parsed.error;
  };
  CHECK(error_of("[[1, 2], [3]]") ==
        "v.json: ragged array: 1 items at depth 1 where 2 was expected");
  CHECK(error_of("[1, [2]]").find("ragged") != std::string::npos);
  CHECK(error_of("[1, \"a\"]").find("non-numeric") != std::string::npos);
  CHECK(error_of("[1, 2").rfind("v.json: ", 0) == 0);
  CHECK(error_of(R"({"shape": [3], "values": [1, 2]})").find("3 elements but 2 values") !=
        std::string::npos);
}
