// The provenance panel through --dump-ui on the real JIT log: selecting a kernel shows what it maps
// to and records the lines it highlights in each pane (facts read off the log: the kernel
// cpp_fused_mul_relu_sigmoid_0 computes relu, sigmoid and mul, from x_1, x_2 and d).
#include <catch2/catch.hpp>

#include "gui/gui_support.hpp"

using gui_test::Dump;
using gui_test::view;

TEST_CASE("provenance panel: a kernel highlights its post-grad and pre-grad nodes") {
  if (!gui_test::have_display()) return;
  auto dir = gui_test::scratch("provenance");
  const std::string log = gui_test::kLogs + "/inductor_provenance_jit_log.txt";
  Dump d = view({log}, "provenance", "record:provenance:1:cpp_fused_mul_relu_sigmoid_0", dir,
                "provenance_jit");
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  CHECK(d.panel == "provenance");
  CHECK(d.has("graph", "[0/0]"));
  CHECK(d.has("kernel", "extern_kernels.addmm"));
  CHECK(d.has("selected", "kernel cpp_fused_mul_relu_sigmoid_0"));
  CHECK(d.has("links", "pre-grad: d, x_1, x_2  |  post-grad: mul, relu, sigmoid"));
  CHECK(d.has("highlighted", "pre 3, post 3, code 38"));
  CHECK(d.has("highlight", "1:         relu: \"f32[8, 16][16, 1]cpu\""));
  CHECK(d.has("highlight", "0:         x_1: \"f32[8, 16][16, 1]cpu\""));
  CHECK(d.has("highlight", "2:     cpp_fused_mul_relu_sigmoid_0(buf1, arg3_1, buf2)"));
  CHECK_FALSE(d.has("highlight", "addmm_1: "));
  CHECK(d.has("pane", "Generated code: inductor_output_code"));

  tlscope::gui::ViewerResult r;
  view({log}, "provenance", "record:provenance:1:no_such_kernel", dir, "", &r);
  CHECK_FALSE(r.ok);
  CHECK(r.error.find("no node or kernel 'no_such_kernel' in provenance graph 1") !=
        std::string::npos);
}
