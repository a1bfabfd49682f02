// Provenance panel: one Inductor provenance graph (views::ProvenanceView) as three panes - the
// pre-grad graph, the post-grad graph and the generated code. Clicking a line that defines a
// node or a kernel (or a kernel's button) highlights every line it maps to in the other panes,
// the same sets the report's provenance page highlights. `--select
// record:provenance:GRAPH:NAME` selects an item by name for tests.
#include <imgui.h>

#include <memory>

#include "panel.hpp"
#include "status_colours.hpp"
#include "tlscope/views/provenance.hpp"

namespace tlscope::gui {
namespace {

constexpr std::string_view kProvenanceRecordPrefix = "provenance:";
// Highlighted lines recorded in the UI dump per pane (the clipper draws only visible ones).
constexpr size_t kDumpedHighlights = 200;
const ImVec4 kHighlight(0.55f, 0.48f, 0.12f, 1.0f);

class ProvenancePanel : public Panel {
 public:
  ProvenancePanel() : Panel(views::ScreenId::provenance) {}

  void draw(ViewerSession& session) override {
    ensure_graphs(session);
    if (!error_.empty()) ui::text_colored("error", kColourError, error_);
    if (graphs_.empty()) {
      ui::text_wrapped("label",
                       "No Inductor provenance in this database: the logs hold no "
                       "inductor_provenance_tracking_node_mappings or kernel-to-node artifacts.");
      return;
    }
    for (size_t i = 0; i < graphs_.size(); ++i) {
      if (i) ui::same_line_if_fits(ImGui::CalcTextSize(graphs_[i].label().c_str()).x);
      if (ui::selectable("graph", graphs_[i].label(), static_cast<int>(i) == current_,
                         ImGuiSelectableFlags_None, std::to_string(i).c_str()))
        show(session, static_cast<int>(i));
    }
    if (current_ < 0) show(session, 0);
    if (!view_) return;
    for (const std::string& e : view_->errors) ui::text_colored("error", kColourError, e);
    for (const std::string& m : view_->missing) ui::text_disabled("missing", m);
    for (size_t i = 0; i < view_->items.size(); ++i) {
      if (view_->items[i].kind != views::ProvenanceItemKind::kKernel) continue;
      const std::string& name = view_->items[i].name;
      ui::same_line_if_fits(ImGui::CalcTextSize(name.c_str()).x +
                            2 * ImGui::GetStyle().FramePadding.x);
      if (ui::button("kernel", name)) pick(static_cast<int>(i));
    }
    ImGui::NewLine();
    selected_summary();
    if (ImGui::BeginTable("##provenance", 3,
                          ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV)) {
      for (int p = 0; p < 3; ++p) ImGui::TableSetupColumn(views::kProvenancePaneTitles[p]);
      ImGui::TableNextRow();
      for (int p = 0; p < 3; ++p) {
        ImGui::TableNextColumn();
        pane(p);
      }
      ImGui::EndTable();
    }
  }

  views::Status select(ViewerSession& session, const Selection& s) override {
    ensure_graphs(session);
    views::Status r;
    auto fail = [&](const std::string& w) {
      r.fail(w);
      return r;
    };
    if (s.kind != SelectionKind::kRecord || s.key.rfind(kProvenanceRecordPrefix, 0) != 0)
      return fail("the provenance panel selects record:provenance:GRAPH:NAME");
    std::string rest = s.key.substr(kProvenanceRecordPrefix.size());
    size_t colon = rest.find(':');
    std::string graph = rest.substr(0, colon);
    int index = -1;
    for (size_t i = 0; i < graphs_.size(); ++i)
      if (std::to_string(graphs_[i].id) == graph) index = static_cast<int>(i);
    if (index < 0) return fail("no provenance graph " + graph + " in this database");
    show(session, index);
    if (colon == std::string::npos) return r;
    std::string name = rest.substr(colon + 1);
    // A name may be a node in both graphs: kernels first, then post-grad, then pre-grad nodes.
    for (auto kind : {views::ProvenanceItemKind::kKernel, views::ProvenanceItemKind::kPostNode,
                      views::ProvenanceItemKind::kPreNode})
      for (size_t i = 0; view_ && i < view_->items.size(); ++i)
        if (view_->items[i].kind == kind && view_->items[i].name == name) {
          pick(static_cast<int>(i));
          return r;
        }
    return fail("no node or kernel '" + name + "' in provenance graph " + graph);
  }

  void draw_details(ViewerSession&, const Selection& s) override {
    ui::text("details", "Provenance " + s.key);
  }

 private:
  // The session's list of graphs; a new session starts the panel afresh.
  void ensure_graphs(ViewerSession& session) {
    if (db_ == session.connection()) return;
    db_ = session.connection();
    auto r = views::load_provenance_graphs(*db_);
    error_ = r.error;
    graphs_ = std::move(r.value);
    current_ = -1;
    view_.reset();
  }

  void show(ViewerSession& session, int index) {
    ensure_graphs(session);
    if (index == current_ && view_) return;
    current_ = index;
    selected_ = -1;
    auto r = views::load_provenance(*db_, graphs_[static_cast<size_t>(index)].id);
    if (!r.ok()) error_ = r.error;
    view_ = std::move(r.value);
    for (auto& h : highlighted_) h.assign(0, false);
  }

  void pick(int item) {
    selected_ = item;
    for (int p = 0; p < 3; ++p) {
      highlighted_[p].assign(view_->panes[p].lines.size(), false);
      const auto& lines = view_->items[static_cast<size_t>(item)].lines[p];
      for (int i : lines)
        if (i >= 0 && static_cast<size_t>(i) < highlighted_[p].size())
          highlighted_[p][static_cast<size_t>(i)] = true;
      scroll_to_[p] = lines.empty() ? -1 : lines.front();
    }
  }

  void selected_summary() {
    if (selected_ < 0) {
      ui::text_disabled("selected", "Click a node or kernel line to see what it maps to.");
      return;
    }
    const views::ProvenanceItem& it = view_->items[static_cast<size_t>(selected_)];
    ui::text("selected", std::string(views::provenance_item_kind_name(it.kind)) + " " + it.name);
    auto list = [](const std::vector<std::string>& v) {
      std::string s;
      for (const auto& n : v) s += (s.empty() ? "" : ", ") + n;
      return s.empty() ? std::string("-") : s;
    };
    ui::text_wrapped("links", "pre-grad: " + list(it.pre_nodes) + "  |  post-grad: " +
                                  list(it.post_nodes) + "  |  kernels: " + list(it.kernels));
    ui::text("highlighted", "highlighted lines: pre " + std::to_string(it.lines[0].size()) +
                                ", post " + std::to_string(it.lines[1].size()) + ", code " +
                                std::to_string(it.lines[2].size()));
    if (!it.stack.empty()) ui::text_wrapped("stack", it.stack);
    // Every highlighted line, for --dump-ui (the panes draw only what is visible).
    for (int p = 0; p < 3; ++p) {
      size_t n = 0;
      for (int i : it.lines[p]) {
        if (n++ >= kDumpedHighlights) break;
        ui::record("highlight",
                   std::to_string(p) + ": " + view_->panes[p].lines[static_cast<size_t>(i)].text);
      }
    }
  }

  void pane(int p) {
    const views::ProvenancePane& pane = view_->panes[p];
    ui::text_disabled("pane", std::string(views::kProvenancePaneTitles[p]) + ": " +
                                  (pane.source.empty() ? "not logged" : pane.source));
    std::string id = "##pane" + std::to_string(p);
    ImGui::BeginChild(id.c_str(), ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    const float row = ImGui::GetTextLineHeightWithSpacing();
    if (scroll_to_[p] >= 0) {
      ImGui::SetScrollY(std::max(0.0f, (static_cast<float>(scroll_to_[p]) - 3.0f) * row));
      scroll_to_[p] = -1;
    }
    const auto& hl = highlighted_[p];
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(pane.lines.size()));
    while (clipper.Step()) {
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        const views::ProvenanceLine& l = pane.lines[static_cast<size_t>(i)];
        bool lit = static_cast<size_t>(i) < hl.size() && hl[static_cast<size_t>(i)];
        if (lit) ImGui::PushStyleColor(ImGuiCol_Header, kHighlight);
        std::string suffix = std::to_string(p) + "-" + std::to_string(i);
        bool clicked = ui::selectable(lit ? "line-lit" : "line", l.text.empty() ? " " : l.text, lit,
                                      ImGuiSelectableFlags_None, suffix.c_str());
        if (lit) ImGui::PopStyleColor();
        if (clicked && !l.items.empty()) pick(l.items.front());
      }
    }
    ImGui::EndChild();
  }

  std::string error_;
  // The session's connection, shared while what this panel read from it lives: a new open
  // replaces the session's, and a reader must not outlive its connection.
  std::shared_ptr<const views::Database> db_;
  std::vector<views::ProvenanceGraphRow> graphs_;
  int current_ = -1, selected_ = -1;
  std::optional<views::ProvenanceView> view_;
  std::array<std::vector<bool>, 3> highlighted_;
  std::array<int, 3> scroll_to_{-1, -1, -1};
};

}  // namespace

std::unique_ptr<Panel> make_provenance_panel() {
  return std::make_unique<ProvenancePanel>();
}

}  // namespace tlscope::gui
