// The compile panel's "Symbolic shapes" and "Runtime and autotuning" sections: a compile's
// views::CompileShapes and views::CompileRuntime drawn as collapsing sections (recorded in the
// UI dump as the report's compile page shows them).
#pragma once

#include "tlscope/views/compile_runtime.hpp"
#include "tlscope/views/symbolic_shapes.hpp"

namespace tlscope::gui {

void draw_compile_shapes(const views::CompileShapes& shapes);
void draw_compile_runtime(const views::CompileRuntime& runtime);

}  // namespace tlscope::gui
