// The compile panel's symbolic-shape and runtime sections (see compile_shapes_view.hpp).
#include "compile_shapes_view.hpp"

#include "status_colours.hpp"
#include "ui_dump.hpp"

namespace tlscope::gui {

namespace {

std::string at_words(const views::UserFrame& at) {
  if (!at.known()) return "";
  return "  at " + at.where() + (at.code.empty() ? "" : "  " + at.code);
}

}  // namespace

void draw_compile_shapes(const views::CompileShapes& shapes) {
  if (shapes.empty()) return;
  const std::string header = "Symbolic shapes  (" + std::to_string(shapes.symbols.size()) +
                             " symbols, " + std::to_string(shapes.specializations.size()) +
                             " specialized, " + std::to_string(shapes.guards.size()) + " guards)";
  ImGui::SetNextItemOpen(!shapes.specializations.empty(), ImGuiCond_Appearing);
  if (!ImGui::CollapsingHeader((header + "###shapes").c_str())) return;
  ui::record("section", header);
  // A specialization is why this compile will not serve another size: shown first, as a warning.
  for (const views::ShapeSpecialization& s : shapes.specializations)
    ui::text_colored("specialization", kColourWarning, s.sentence());
  for (const views::ShapeSymbol& s : shapes.symbols) {
    std::string line = s.symbol + (s.unbacked ? "  unbacked" : "  = " + s.value);
    if (!s.source.empty()) line += "  " + s.source;
    if (!s.range.empty()) line += "  range " + s.range;
    ui::text("symbol", line + at_words(s.at));
  }
  for (const views::ShapeGuard& g : shapes.guards) ui::text("guard", g.expr + at_words(g.at));
}

void draw_compile_runtime(const views::CompileRuntime& rt) {
  if (rt.empty()) return;
  const std::string header = "Runtime and autotuning";
  ImGui::SetNextItemOpen(true, ImGuiCond_Appearing);
  if (!ImGui::CollapsingHeader((header + "###runtime").c_str())) return;
  ui::record("section", header);
  for (const views::RuntimeMetrics& m : rt.runtime) {
    ui::text("label", m.kind + "  (line " + std::to_string(m.line) + ")");
    for (const views::NamedValue& f : m.fields)
      ui::text("runtime", "  " + f.name + " = " + f.value);
  }
  for (const views::NamedValue& f : rt.autotune) ui::text("autotune", f.name + " = " + f.value);
  for (const views::KernelAutotune& k : rt.kernels) {
    std::string line = k.kernel;
    if (k.configs >= 0) line += "  " + std::to_string(k.configs) + " configs";
    if (!k.cache_state.empty()) line += "  cache " + k.cache_state;
    if (k.compile_time_us >= 0) line += "  " + std::to_string(k.compile_time_us) + " us";
    ui::text("kernel", line);
  }
  for (const views::CompileLink& l : rt.links) ui::text("link", l.name + ": " + l.url);
}

}  // namespace tlscope::gui
