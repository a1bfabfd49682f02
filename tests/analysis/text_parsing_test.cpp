// Parsing of the free text the logs carry: guard failures and graph-break reasons.
#include <catch2/catch.hpp>

#include "tlscope/model/analysis/graph_breaks.hpp"
#include "tlscope/model/analysis/recompiles.hpp"

using namespace tlscope::model::analysis;

TEST_CASE("guard failure: tensor size mismatch from recompile_reasons") {
  // Entry of multi_rank_logs/dedicated_log_torch_trace_rank_1.log, recompile_reasons of 0/2.
  GuardFailure g =
      parse_guard_failure("0/1: tensor 'x' size mismatch at index 0. expected 3, actual 4");
  CHECK(g.prev_compile_id == std::optional<std::string>("0/1"));
  CHECK(g.text == "tensor 'x' size mismatch at index 0. expected 3, actual 4");
  CHECK(g.input == "x");
  CHECK(g.property == "size");
  CHECK(g.index == std::optional<int64_t>(0));
  CHECK(g.expected == std::optional<std::string>("3"));
  CHECK(g.actual == std::optional<std::string>("4"));
}

TEST_CASE("guard failure: stride, dtype, value, identity, length forms") {
  GuardFailure stride =
      parse_guard_failure("tensor 'L['y']' stride mismatch at index 1. expected 4, actual 1");
  CHECK(stride.input == "y");
  CHECK(stride.property == "stride");
  CHECK(stride.index == std::optional<int64_t>(1));
  CHECK(stride.expected == std::optional<std::string>("4"));
  CHECK(stride.actual == std::optional<std::string>("1"));

  GuardFailure dtype =
      parse_guard_failure("tensor 'x' dtype mismatch. expected Float, actual Half");
  CHECK(dtype.property == "dtype");
  CHECK(dtype.expected == std::optional<std::string>("Float"));
  CHECK(dtype.actual == std::optional<std::string>("Half"));
  CHECK_FALSE(dtype.prev_compile_id);

  GuardFailure value = parse_guard_failure("0/3: L['n'] == 3");
  CHECK(value.prev_compile_id == std::optional<std::string>("0/3"));
  CHECK(value.input == "n");
  CHECK(value.property == "value");
  CHECK(value.expected == std::optional<std::string>("3"));

  GuardFailure id = parse_guard_failure("___check_obj_id(L['self'].layer, 140234)");
  CHECK(id.property == "identity");
  CHECK(id.input == "self.layer");
  CHECK(id.expected == std::optional<std::string>("140234"));

  GuardFailure length = parse_guard_failure("len(L['xs']) == 3");
  CHECK(length.property == "length");
  CHECK(length.input == "xs");

  GuardFailure other = parse_guard_failure("some guard nobody parses");
  CHECK(other.property == "other");
  CHECK(other.text == "some guard nobody parses");
}

TEST_CASE("graph break text: modern dynamo_graph_break_reason payload") {
  GraphBreakText t = parse_graph_break_text(
      "Graph break in user code at /home/u/model.py:42\n"
      "Graph Break Reason: Unsupported Tensor.item() call with capture_scalar_outputs=False\n"
      "  Explanation: Dynamo does not support tracing `Tensor.item()`\n"
      "User code traceback:\n"
      "  File \"/home/u/train.py\", line 10, in main\n"
      "    model(x)\n"
      "  File \"/home/u/model.py\", line 42, in forward\n"
      "    n = x.sum().item()\n");
  CHECK(t.reason == "Unsupported Tensor.item() call with capture_scalar_outputs=False");
  CHECK(t.user_file == std::optional<std::string>("/home/u/model.py"));
  CHECK(t.user_line == std::optional<int64_t>(42));
  REQUIRE(t.user_stack.size() == 2);
  CHECK(t.user_stack[0].file == "/home/u/train.py");
  CHECK(t.user_stack[0].line == 10);
  CHECK(t.user_stack[1].name == "forward");
}

TEST_CASE("graph break text: skip form takes its location from the traceback") {
  GraphBreakText t = parse_graph_break_text(
      "Graph break: skip: from user code at:\n  File \"/a/b.py\", line 7, in fn\n    g()\n");
  CHECK(t.reason == "skip: from user code at:");
  CHECK(t.user_file == std::optional<std::string>("/a/b.py"));
  CHECK(t.user_line == std::optional<int64_t>(7));
}

TEST_CASE("resume frame names") {
  // co_name of frame 1 in comp_metrics.log.
  auto r = parse_resume_frame_name("torch_dynamo_resume_in_fn_at_9551");
  REQUIRE(r);
  CHECK(r->first == "fn");
  CHECK(r->second == 9551);
  auto nested = parse_resume_frame_name("torch_dynamo_resume_in_my_at_fn_at_12");
  REQUIRE(nested);
  CHECK(nested->first == "my_at_fn");
  CHECK_FALSE(parse_resume_frame_name("forward"));
  CHECK_FALSE(parse_resume_frame_name("torch_dynamo_resume_in_fn_at_x"));
}

TEST_CASE("input names from guard sources") {
  CHECK(input_name("L['x']") == "x");
  CHECK(input_name("L['self']._modules['lin']") == "self._modules['lin']");
  CHECK(input_name("x") == "x");
}
