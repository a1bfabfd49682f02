// Findings panel (the Summary screen): what was read (files, ranks, events, errors). The grouped
// findings in words arrive with the views/ summary model; until then this is the files summary.
#include "panel.hpp"
#include "table_view.hpp"

namespace tlscope::gui {
namespace {

class FindingsPanel : public Panel {
 public:
  FindingsPanel() : Panel(views::ScreenId::summary) {}

  void draw(PanelContext& ctx) override {
    const auto& s = ctx.data.summary;
    ui::text("label", ctx.data.db_path);
    ui::text("label", std::to_string(s.files.size()) + " files, " + std::to_string(s.events) +
                          " events, " + std::to_string(s.errors) + " ingest errors");
    for (const auto& p : ctx.data.load_problems)
      ui::text_colored("error", ImVec4(1, 0.45f, 0.45f, 1), p);
    if (files_.columns.empty()) build(ctx.data);
    ImGui::Spacing();
    ui::text("heading", "Files");
    files_view_.draw("##files", files_, ImGui::GetContentRegionAvail().y * 0.5f);
    ui::text("heading", "Event kinds");
    kinds_view_.draw("##kinds", kinds_);
  }

 private:
  void build(const ViewerData& data) {
    files_.columns = {"file", "rank", "lines", "events", "errors"};
    for (const auto& f : data.summary.files) {
      files_.rows.push_back({TableCell{f.path + (f.completed ? "" : " (incomplete)")},
                             number_cell(f.rank), number_cell(f.lines), number_cell(f.events),
                             number_cell(f.errors)});
    }
    kinds_.columns = {"event kind", "count"};
    for (const auto& k : data.summary.kinds)
      kinds_.rows.push_back({TableCell{k.kind}, number_cell(k.count)});
  }

  TableData files_, kinds_;
  TableView files_view_, kinds_view_;
};

}  // namespace

std::unique_ptr<Panel> make_findings_panel() {
  return std::make_unique<FindingsPanel>();
}

}  // namespace tlscope::gui
