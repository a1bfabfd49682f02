// The one table of the viewer's panels: a row per panel, naming its screen (views::kScreens) and
// how to make it. Adding a panel is a row here and its panel_*.cpp.
#include <algorithm>

#include "panel.hpp"

namespace tlscope::gui {

// Defined in the panel files.
std::unique_ptr<Panel> make_findings_panel();
std::unique_ptr<Panel> make_compile_tree_panel();
std::unique_ptr<Panel> make_compile_panel();
std::unique_ptr<Panel> make_occurrence_panel(views::ScreenId screen);
std::unique_ptr<Panel> make_divergence_panel();
std::unique_ptr<Panel> make_timeline_panel();
std::unique_ptr<Panel> make_find_zone_panel();
std::unique_ptr<Panel> make_tensors_panel();
std::unique_ptr<Panel> make_sql_panel();
std::unique_ptr<Panel> make_errors_panel();
std::unique_ptr<Panel> make_provenance_panel();
std::unique_ptr<Panel> make_export_panel();
std::unique_ptr<Panel> make_compile_time_panel();
std::unique_ptr<Panel> make_vllm_panel();

namespace {

struct PanelRow {
  views::ScreenId screen;
  std::unique_ptr<Panel> (*make)();
};

// The occurrence-table panels share one implementation, made for their screen.
template <views::ScreenId screen>
std::unique_ptr<Panel> make_occurrences() {
  return make_occurrence_panel(screen);
}

const PanelRow kPanelRows[] = {
    {views::ScreenId::summary, make_findings_panel},
    {views::ScreenId::compile_tree, make_compile_tree_panel},
    {views::ScreenId::compile, make_compile_panel},
    {views::ScreenId::graph_breaks, make_occurrences<views::ScreenId::graph_breaks>},
    {views::ScreenId::recompiles, make_occurrences<views::ScreenId::recompiles>},
    {views::ScreenId::failures, make_occurrences<views::ScreenId::failures>},
    {views::ScreenId::cache, make_occurrences<views::ScreenId::cache>},
    {views::ScreenId::ranks, make_divergence_panel},
    {views::ScreenId::collectives, make_timeline_panel},
    {views::ScreenId::find_zone, make_find_zone_panel},
    {views::ScreenId::tensors, make_tensors_panel},
    {views::ScreenId::sql, make_sql_panel},
    {views::ScreenId::errors, make_errors_panel},
    {views::ScreenId::provenance, make_provenance_panel},
    {views::ScreenId::torch_export, make_export_panel},
    {views::ScreenId::compile_time, make_compile_time_panel},
    {views::ScreenId::vllm, make_vllm_panel},
};

}  // namespace

views::Status Panel::select(ViewerSession&, const Selection& s) {
  views::Status r;
  r.fail("the " + std::string(name()) + " panel cannot select a " +
         std::string(selection_kind_name(s.kind)));
  return r;
}

void Panel::draw_details(ViewerSession&, const Selection& s) {
  ui::text("details", std::string(selection_kind_name(s.kind)) + " " + s.key);
}

std::vector<std::unique_ptr<Panel>> make_panels() {
  std::vector<std::unique_ptr<Panel>> panels;
  for (const auto& row : kPanelRows) panels.push_back(row.make());
  // Navigation order is the screens list's order, whatever the order of the rows above.
  std::stable_sort(panels.begin(), panels.end(),
                   [](const auto& a, const auto& b) { return a->screen() < b->screen(); });
  return panels;
}

}  // namespace tlscope::gui
