// vLLM panel: vLLM's compile records (views/vllm.hpp), as the report's vllm.html: per compile call
// the compilation config, the piecewise compiles grouped by size or range (capture sizes marked)
// with their records, and the post-grad passes in order with each one's diff. Listed only when
// the logs have vLLM records.
#include "panel.hpp"
#include "status_colours.hpp"

namespace tlscope::gui {
namespace {

class VllmPanel : public Panel {
 public:
  VllmPanel() : Panel(views::ScreenId::vllm) {}

  bool shown(ViewerSession& session) const override { return session.vllm().present; }

  std::optional<int64_t> count(ViewerSession& session) const override {
    return static_cast<int64_t>(session.vllm().calls.size());
  }

  void draw(ViewerSession& session) override {
    const views::VllmReport& v = session.vllm();
    if (!v.present) {
      ui::text_wrapped("label", "The logs hold no vLLM records.");
      return;
    }
    ImGui::BeginChild("##vllm", ImVec2(0, 0), false);
    for (size_t i = 0; i < v.calls.size(); ++i) draw_call(session, v.calls[i], i);
    ImGui::EndChild();
  }

 private:
  void draw_call(ViewerSession& session, const views::VllmCall& c, size_t n) {
    ImGui::PushID(static_cast<int>(n));
    const std::string head = "Compile call " + std::to_string(c.index) +
                             (c.compile_id.empty() ? "" : "  [" + c.compile_id + "]");
    ImGui::SetNextItemOpen(true, ImGuiCond_Appearing);
    if (!ImGui::CollapsingHeader(ui::imgui_label(head).c_str())) {
      ImGui::PopID();
      return;
    }
    ui::record("section", head);
    for (const views::VllmConfigEntry& e : c.config) ui::text("config", e.key + " = " + e.value);
    for (const views::VllmSizeGroup& g : c.groups) {
      std::string label = g.label + "  (" + std::to_string(g.piecewise.size()) + " submodules)";
      if (g.cudagraph_capture_size) label += "  cudagraph capture size";
      const bool open = ImGui::TreeNode(ui::imgui_label(label).c_str());
      ui::record("group", label);
      if (open) {
        for (const views::VllmPiecewise& p : g.piecewise) {
          ui::text("piecewise", (p.index ? std::to_string(*p.index) : "?") + "  " + p.submod_name);
          for (const views::VllmArtifact& a : p.artifacts) ui::text("record", "    " + a.name);
        }
        ImGui::TreePop();
      }
    }
    for (size_t k = 0; k < c.passes.size(); ++k) {
      const views::VllmPass& p = c.passes[k];
      std::string label = std::to_string(k + 1) + ". " + p.name;
      if (p.lines_added)
        label += "  +" + std::to_string(*p.lines_added) + " -" +
                 std::to_string(p.lines_removed.value_or(0));
      ImGui::PushID(static_cast<int>(k));
      const bool open = ImGui::TreeNode(ui::imgui_label(label).c_str());
      ui::record("pass", label);
      if (open) {
        if (p.base_event_id != 0) {
          views::Result<views::VllmPassTexts> texts = views::load_pass_texts(session.db(), p);
          for (const views::VllmDiffLine& l : views::pass_diff(texts->before, texts->after)) {
            const std::string line = std::string(1, l.op == '@' ? ' ' : l.op) + " " + l.text;
            if (l.op == '+')
              ui::text_colored("diff", kColourOk, line);
            else if (l.op == '-')
              ui::text_colored("diff", kColourError, line);
            else
              ui::text("diff", line);
          }
        }
        ImGui::TreePop();
      }
      ImGui::PopID();
    }
    ImGui::PopID();
  }
};

}  // namespace

std::unique_ptr<Panel> make_vllm_panel() {
  return std::make_unique<VllmPanel>();
}

}  // namespace tlscope::gui
