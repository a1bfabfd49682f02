// Compiles panel: the compilation_metrics rows (compile id, rank, frame, time, ops, failure);
// a row selects its compile. The stack trie with status colours replaces the flat list once the
// views/ compile-tree model lands.
#include "panel.hpp"
#include "table_view.hpp"

namespace tlscope::gui {
namespace {

const ImVec4 kFailureColour(1.0f, 0.45f, 0.45f, 1.0f);

std::string frame_of(const views::CompileRow& c) {
  std::string base = c.co_filename.substr(c.co_filename.find_last_of('/') + 1);
  return c.co_name + " " + base + ":" + std::to_string(c.co_firstlineno);
}

class CompileTreePanel : public Panel {
 public:
  CompileTreePanel() : Panel(views::ScreenId::compile_tree) {}

  std::optional<int64_t> count(const ViewerData& data) const override {
    return static_cast<int64_t>(data.compiles.size());
  }

  void draw(PanelContext& ctx) override {
    const auto& compiles = ctx.data.compiles;
    if (table_.columns.empty() || table_.rows.size() != compiles.size()) build(compiles);
    if (compiles.empty()) {
      ui::text("label", "No compilation_metrics in this database.");
      return;
    }
    int clicked = view_.draw("##compiles", table_);
    if (clicked >= 0) {
      ctx.nav.select(Selection{SelectionKind::kCompile,
                               compiles[static_cast<size_t>(clicked)].compile_id, screen()});
    }
  }

  bool select(PanelContext& ctx, const Selection& s, std::string* why) override {
    if (s.kind != SelectionKind::kCompile) return Panel::select(ctx, s, why);
    const auto& compiles = ctx.data.compiles;
    for (size_t i = 0; i < compiles.size(); ++i) {
      if (compiles[i].compile_id == s.key) {
        view_.set_selected(static_cast<int>(i));
        return true;
      }
    }
    if (why) *why = "no compile " + s.key + " in this database";
    return false;
  }

  void draw_details(PanelContext& ctx, const Selection& s) override {
    ui::text("details", "Compile " + s.key);
    for (const auto& c : ctx.data.compiles) {
      if (c.compile_id != s.key) continue;
      ImGui::Separator();
      ui::text("details", c.kind + (c.rank >= 0 ? " on rank " + std::to_string(c.rank) : ""));
      ui::text_wrapped("details", "frame: " + c.co_name + " at " + c.co_filename + ":" +
                                      std::to_string(c.co_firstlineno));
      if (c.duration_us >= 0)
        ui::text("details", "time: " + std::to_string(c.duration_us / 1000.0) + " ms");
      if (c.graph_op_count >= 0) ui::text("details", "ops: " + std::to_string(c.graph_op_count));
      if (!c.fail_type.empty()) {
        ui::text_colored("details", kFailureColour, "failed: " + c.fail_type);
        ui::text_wrapped("details", c.fail_reason);
      }
    }
  }

 private:
  void build(const std::vector<views::CompileRow>& compiles) {
    table_.columns = {"compile id", "rank", "frame", "ms", "ops", "failure"};
    table_.rows.clear();
    for (const auto& c : compiles) {
      TableCell failure{c.fail_type};
      if (!c.fail_type.empty()) failure.colour = kFailureColour;
      table_.rows.push_back({TableCell{c.compile_id}, number_cell(c.rank), TableCell{frame_of(c)},
                             real_cell(c.duration_us / 1000.0, "%.1f"),
                             number_cell(c.graph_op_count), failure});
    }
    view_.invalidate();
  }

  TableData table_;
  TableView view_;
};

}  // namespace

std::unique_ptr<Panel> make_compile_tree_panel() {
  return std::make_unique<CompileTreePanel>();
}

}  // namespace tlscope::gui
