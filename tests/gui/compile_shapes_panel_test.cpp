// The compile panel's symbolic-shape and runtime sections on the shape-specialization sample,
// checked against its truth.json: the specialization sentence, the created symbol, the guard,
// the runtime autotune time and the link of compile 0/1.
#include <catch2/catch.hpp>

#include "gui_support.hpp"

using gui_test::Dump;
using gui_test::have_display;
using gui_test::view;

TEST_CASE("the compile panel shows a compile's specialization, runtime metrics and link") {
  if (!have_display()) return;
  auto dir = gui_test::scratch("compile_shapes");
  auto logs = gui_test::sample_logs(dir, "shape-specialization");
  REQUIRE_FALSE(logs.empty());
  std::string truth = tlscope::test::slurp(gui_test::fs::path(logs) / "truth.json");
  // truth.json: 0/1 specialized s0 (L['x'].size()[0]) to 6 by Eq(s0, 6); its runtime record.
  REQUIRE(truth.find("\"compile_id\": \"0/1\", \"frame\": \"batch_mean\", \"symbol\": \"s0\", "
                     "\"source\": \"L['x'].size()[0]\", \"value\": 6") != std::string::npos);
  const std::string key = "\"compile_id\": \"0/1\", \"runtime_triton_autotune_time_us\": ";
  size_t at = truth.find(key);
  REQUIRE(at != std::string::npos);
  std::string us =
      truth.substr(at + key.size(), truth.find(',', at + key.size()) - at - key.size());

  Dump d = view({logs}, "compile", "compile:0/1", dir, "compile_shapes");
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  CHECK(d.has("section", "Symbolic shapes"));
  CHECK(d.has("specialization", "s0 (L['x'].size()[0]) was specialized to 6 at "));
  CHECK(d.has("specialization", "because x.size(0) is used as a Python int"));
  CHECK(d.has("symbol", "s0  = 6  L['x'].size()[0]"));
  CHECK(d.has("guard", "Eq(s0, 6)"));
  CHECK(d.has("section", "Runtime and autotuning"));
  CHECK(d.has("runtime", "runtime_triton_autotune_time_us = " + us));
  CHECK(d.has("link", "autotune_report: https://autotune.invalid/report/0/1"));
  CHECK(d.count("kernel") > 0);

  // The first compile was static: no shapes section, but its runtime.
  Dump first = view({logs}, "compile", "compile:0/0", dir, "");
  REQUIRE(first.ok);
  CHECK_FALSE(first.has("section", "Symbolic shapes"));
  CHECK(first.has("section", "Runtime and autotuning"));
}
