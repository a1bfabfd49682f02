// The compile-time and vLLM panels through --dump-ui on real logs: simple.log's phase split and
// icicle, vllm_post_grad_diff.log's passes in order with their line counts, and the vLLM panel
// listed in the navigation only for a log with vLLM records.
#include <catch2/catch.hpp>

#include "gui_support.hpp"

using gui_test::Dump;
using gui_test::have_display;
using gui_test::view;

TEST_CASE("compile-time panel of simple.log: the split, the run's icicle, no vLLM in the list") {
  if (!have_display()) return;
  auto dir = gui_test::scratch("compile_time_simple");
  Dump d = view({std::string(TLSCOPE_SHARED_LOGS) + "/simple.log"}, "compile-time", "", dir,
                "compile_time_simple");
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  CHECK(d.panel == "compile-time");
  CHECK(d.has("summary", "compile time 1.66 s over 1 compile: Dynamo tracing 0.36 s, backend "
                         "1.31 s, cache 0.07 s"));
  CHECK(d.has("section", "Summed over the run"));
  CHECK(d.has("phase", "entire_frame_compile"));
  CHECK(d.has("top-phase", "dynamo  1.665 s"));
  CHECK(d.has("nav", "Compile time"));
  CHECK_FALSE(d.has("nav", "vLLM"));
}

TEST_CASE("vllm panel of vllm_post_grad_diff.log: the passes in order with their diffs") {
  if (!have_display()) return;
  auto dir = gui_test::scratch("vllm_post_grad");
  Dump d = view({std::string(TLSCOPE_SHARED_LOGS) + "/vllm_post_grad_diff.log"}, "vllm", "", dir,
                "vllm_post_grad");
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  CHECK(d.panel == "vllm");
  CHECK(d.has("nav", "vLLM"));
  CHECK(d.has("section", "Compile call 0  [0/0]"));
  const gui_test::Item* first = d.find("pass", "1. FusionPass  +2 -3");
  const gui_test::Item* second = d.find("pass", "2. ReshapePass  +2 -1");
  REQUIRE(first != nullptr);
  REQUIRE(second != nullptr);
  CHECK(first < second);
}
