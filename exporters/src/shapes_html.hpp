// HTML of the symbolic-shape and runtime view models, shared by the compile pages and the export
// page: tables of symbols, specializations and guards, and a compile's runtime, autotuning and
// links. Everything from the log is escaped here.
#pragma once

#include <string>

#include "tlscope/views/compile_runtime.hpp"
#include "tlscope/views/symbolic_shapes.hpp"

namespace tlscope::exporters {

std::string user_frame_html(const views::UserFrame& at);
std::string shape_symbols_html(const std::vector<views::ShapeSymbol>& symbols);
std::string specializations_html(const std::vector<views::ShapeSpecialization>& specializations);
std::string shape_guards_html(const std::vector<views::ShapeGuard>& guards);
// "Symbolic shapes" section of a compile page ("" when the compile logged none).
std::string compile_shapes_html(const views::CompileShapes& shapes);
// "Runtime and autotuning" section of a compile page ("" when there is nothing).
std::string compile_runtime_html(const views::CompileRuntime& runtime);
// "Links" of index.html: `link` records logged outside any compile ("" when there are none).
std::string unattached_links_html(
    const std::vector<std::pair<std::string, views::CompileLink>>& links);

}  // namespace tlscope::exporters
