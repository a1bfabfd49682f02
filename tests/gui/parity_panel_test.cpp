// The ranks panel's parity sections through --dump-ui on the real multi_rank_schedule logs: the
// same view models as the report's collectives.html and ranks.html, so the same graph (rank 1,
// compile 0/0, whose schedule lacks the reduce_scatter its code calls) disagrees.
#include <catch2/catch.hpp>

#include "gui_support.hpp"

using gui_test::Dump;
using gui_test::have_display;
using gui_test::view;

TEST_CASE("the ranks panel shows multi_rank_schedule's collectives parity") {
  if (!have_display()) return;
  auto dir = gui_test::scratch("parity");
  Dump d = view({gui_test::kLogs + "/multi_rank_schedule"}, "divergence", "", dir, "parity");
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  CHECK(d.has("heading", "Collectives parity"));
  CHECK(d.has("label", "6 graphs, 1 whose schedule and generated code disagree"));
  CHECK(d.count("parity") == 1);
  CHECK(d.has("parity", "rank 1, compile 0/0: "));
  CHECK(d.has("parity", "reduce_scatter_tensor 0/1"));
  CHECK(d.has("heading", "Graph runtime across ranks"));
  CHECK(d.has("label", "No graph logged inductor_runtime_and_tensor_meta"));
}
