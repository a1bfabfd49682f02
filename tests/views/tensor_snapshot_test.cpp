// Logged tensor values assembled into global tensors: Shard/Replicate/Partial placements on a
// 2x2 mesh, replicas that disagree, missing ranks, and unreadable records.
#include <catch2/catch.hpp>

#include <cmath>

#include "tlscope/views/tensor_snapshot.hpp"

using namespace tlscope::views;

namespace {

RankValues rank_values(int64_t rank, const std::string& values_json,
                       const std::string& placement_json = "") {
  std::string source = std::to_string(rank);
  source.insert(0, 1, 'r');
  RankValues rv;
  rv.rank = rank;
  auto v = parse_logged_values(values_json, source);
  INFO(v.error);
  REQUIRE(v.ok());
  rv.values = *v;
  if (!placement_json.empty()) {
    auto p = parse_logged_placement(placement_json, source);
    INFO(p.error);
    REQUIRE(p.ok());
    rv.placement = *p;
  }
  return rv;
}

// A dtensor_placement payload as the sample runtime writes it (docs/runtime.md).
std::string placement(const std::string& placements, const std::string& global,
                      const std::string& local, int dp, int tp) {
  return "{\"tensor\": \"w\", \"mesh_shape\": [2, 2], \"mesh_dim_names\": [\"dp\", \"tp\"], "
         "\"placements\": " +
         placements + ", \"global_shape\": " + global + ", \"local_shape\": " + local +
         ", \"rank_coords\": [" + std::to_string(dp) + ", " + std::to_string(tp) + "]}";
}

}  // namespace

TEST_CASE("Replicate() x Shard(1): each tp rank's columns land in their place") {
  // Global [2, 4]: row-major 0..7. tp 0 holds columns 0-1, tp 1 columns 2-3; dp replicates.
  std::vector<RankValues> ranks;
  for (int r = 0; r < 4; ++r) {
    int tp = r % 2;
    std::string v = tp == 0 ? "[0, 1, 4, 5]" : "[2, 3, 6, 7]";
    ranks.push_back(
        rank_values(r,
                    "{\"name\": \"w\", \"shape\": [2, 2], \"dtype\": \"float32\", "
                    "\"values\": " +
                        v + "}",
                    placement("[\"Replicate()\", \"Shard(1)\"]", "[2, 4]", "[2, 2]", r / 2, tp)));
  }
  TensorSnapshot s = assemble_snapshot(ranks, 1);
  INFO((s.problems.empty() ? "" : s.problems.front()));
  CHECK(s.problems.empty());
  CHECK(s.shape == std::vector<int64_t>{2, 4});
  CHECK(s.values == std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7});
  REQUIRE(s.mesh);
  CHECK_FALSE(s.partial);
  REQUIRE(s.blocks.size() == 4);
  // Mesh rank 3 = (dp 1, tp 1): rows 0-1, columns 2-3.
  CHECK(s.blocks[3].mesh_coords == std::vector<int64_t>{1, 1});
  CHECK(s.blocks[3].lo == std::vector<int64_t>{0, 2});
  CHECK(s.blocks[3].hi == std::vector<int64_t>{2, 4});
  CHECK(s.blocks[3].rank == 3);
}

TEST_CASE("Shard(0) x Partial(sum): the tp addends are summed per dp row block") {
  // Global [2, 2]; dp 0 holds row 0, dp 1 row 1; tp ranks hold addends.
  std::vector<RankValues> ranks;
  const double addend[4][2] = {{1, 2}, {10, 20}, {3, 4}, {30, 40}};
  for (int r = 0; r < 4; ++r) {
    char v[128];
    std::snprintf(v, sizeof v, "[%g, %g]", addend[r][0], addend[r][1]);
    ranks.push_back(rank_values(
        r,
        std::string("{\"name\": \"o\", \"shape\": [1, 2], \"dtype\": "
                    "\"float32\", \"values\": ") +
            v + "}",
        placement("[\"Shard(0)\", \"Partial(sum)\"]", "[2, 2]", "[1, 2]", r / 2, r % 2)));
  }
  TensorSnapshot s = assemble_snapshot(ranks, 1);
  CHECK(s.problems.empty());
  CHECK(s.partial);
  CHECK(s.values == std::vector<double>{11, 22, 33, 44});
}

TEST_CASE("replicas that disagree and ranks that never logged are reported") {
  std::vector<RankValues> ranks;
  // Shard(0) over dp, replicated over tp; rank 1 (dp 0, tp 1) disagrees with rank 0; ranks 2
  // and 3 (dp 1) never logged, so row 1 is missing.
  ranks.push_back(
      rank_values(0, "{\"name\": \"x\", \"shape\": [1, 2], \"values\": [1, 2]}",
                  placement("[\"Shard(0)\", \"Replicate()\"]", "[2, 2]", "[1, 2]", 0, 0)));
  ranks.push_back(
      rank_values(1, "{\"name\": \"x\", \"shape\": [1, 2], \"values\": [1, 5]}",
                  placement("[\"Shard(0)\", \"Replicate()\"]", "[2, 2]", "[1, 2]", 0, 1)));
  TensorSnapshot s = assemble_snapshot(ranks, 2);
  CHECK(s.occurrence == 2);
  CHECK(s.values[0] == 1);
  CHECK(s.values[1] == 2);
  CHECK(std::isnan(s.values[2]));
  CHECK(s.missing == 2);
  REQUIRE(s.problems.size() == 2);
  CHECK(s.problems[0] ==
        "rank 1 and rank 0 hold different values for the same replicated "
        "elements (1 differ)");
  CHECK(s.problems[1].find("2 of 4 elements") != std::string::npos);
  CHECK(s.blocks[2].rank == -1);  // mesh rank 2 was never logged
}

TEST_CASE("a rank whose block does not fit its placement is skipped with a message") {
  std::vector<RankValues> ranks;
  ranks.push_back(
      rank_values(0, "{\"name\": \"x\", \"shape\": [2, 2], \"values\": [1, 2, 3, 4]}",
                  placement("[\"Shard(0)\", \"Replicate()\"]", "[2, 2]", "[1, 2]", 0, 0)));
  TensorSnapshot s = assemble_snapshot(ranks, 1);
  REQUIRE(!s.problems.empty());
  CHECK(s.problems[0] == "rank 0 logged shape [2, 2] but its shard is [1, 2]");
}

TEST_CASE("unsharded values logged by several ranks: differing ranks are named") {
  std::vector<RankValues> ranks;
  for (int r = 0; r < 3; ++r) {
    ranks.push_back(rank_values(r, std::string("{\"name\": \"b\", \"shape\": [3], \"values\": ") +
                                       (r == 2 ? "[1, 2, 4]" : "[1, 2, 3]") + "}"));
  }
  TensorSnapshot s = assemble_snapshot(ranks, 1);
  CHECK_FALSE(s.mesh);
  CHECK(s.values == std::vector<double>{1, 2, 3});
  CHECK(s.differing_ranks == std::vector<int64_t>{2});
}

TEST_CASE("unreadable tensor_values and dtensor_placement records name their source") {
  auto short_values = parse_logged_values("{\"shape\": [2, 2], \"values\": [1, 2, 3]}", "a.log:7");
  CHECK_FALSE(short_values.ok());
  CHECK(short_values.error ==
        "a.log:7: tensor_values: shape [2, 2] has 4 elements but 3 values were logged");
  auto truncated = parse_logged_values("[1, 2", "a.log:8");
  CHECK_FALSE(truncated.ok());
  CHECK(truncated.error.rfind("a.log:8: tensor_values: ", 0) == 0);
  auto text_value = parse_logged_values("{\"shape\": [2], \"values\": [1, \"x\"]}", "a.log:9");
  CHECK_FALSE(text_value.ok());
  CHECK(text_value.error == "a.log:9: tensor_values: \"values\" holds a non-number");
  auto too_few = parse_logged_placement(
      "{\"mesh_shape\": [2, 2], \"placements\": [\"Shard(0)\"], \"global_shape\": [4], "
      "\"rank_coords\": [0, 0]}",
      "b.log:3");
  CHECK_FALSE(too_few.ok());
  CHECK(too_few.error == "b.log:3: dtensor_placement: 1 placements for a 2-D mesh");
  auto misspelt = parse_logged_placement(
      "{\"mesh_shape\": [2], \"placements\": [\"Sharded(0)\"], \"global_shape\": [4], "
      "\"rank_coords\": [0]}",
      "b.log:4");
  CHECK_FALSE(misspelt.ok());
  CHECK(misspelt.error.find("b.log:4: dtensor_placement: bad placement 'Sharded(0)'") == 0);
}
