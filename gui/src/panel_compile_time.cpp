// Compile time panel: where compile time goes (views/compile_phases.hpp), as the report's
// compile_time.html: the split into tracing, backend and cache, the run's phase tree as an icicle
// drawn with the draw list (hover names a phase), the costliest phases, and each costly
// compile's icicle.
#include <algorithm>
#include <cstdio>

#include "palette.hpp"
#include "panel.hpp"

namespace tlscope::gui {
namespace {

constexpr float kRowHeight = 20.0f;

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

// One icicle: a row per depth, each phase a box as wide as its share of the roots' time.
void draw_icicle(const char* id, const std::vector<views::PhaseTotal>& phases) {
  const std::vector<views::IcicleCell> cells = views::icicle_layout(phases);
  if (cells.empty()) {
    ui::text_disabled("label", "no timed phases");
    return;
  }
  int64_t depth = 0;
  for (const views::IcicleCell& c : cells) depth = std::max(depth, c.depth);
  const float width = std::max(100.0f, ImGui::GetContentRegionAvail().x);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, ImVec2(width, kRowHeight * static_cast<float>(depth + 1)));
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (const views::IcicleCell& c : cells) {
    const views::PhaseTotal& p = phases[c.phase];
    const ImVec2 a(origin.x + static_cast<float>(c.x0) * width,
                   origin.y + static_cast<float>(c.depth) * kRowHeight);
    const ImVec2 b(origin.x + static_cast<float>(c.x1) * width, a.y + kRowHeight - 1.0f);
    draw->AddRectFilled(a, b, name_color(p.name, 0.55f));
    if (b.x - a.x > 30.0f) {
      const std::string label = ui::font_safe(p.name);
      draw->PushClipRect(a, b, true);
      draw->AddText(ImVec2(a.x + 3.0f, a.y + 2.0f), IM_COL32_WHITE, label.c_str());
      draw->PopClipRect();
      ui::record_at("phase", p.name, ImVec2(a.x + 3.0f, a.y + 2.0f));
    }
    if (hovered && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y)
      ImGui::SetTooltip(
          "%s", ui::font_safe(p.path + "\n" + seconds(p.seconds) + " (self " +
                              seconds(p.self_seconds) + ", " + std::to_string(p.count) + " spans)")
                    .c_str());
  }
}

class CompileTimePanel : public Panel {
 public:
  CompileTimePanel() : Panel(views::ScreenId::compile_time) {}

  std::optional<int64_t> count(ViewerSession& session) const override {
    return static_cast<int64_t>(session.compile_phases().compile_count);
  }

  void draw(ViewerSession& session) override {
    const views::CompilePhases& v = session.compile_phases();
    const std::string words = views::compile_time_words(v.split);
    if (words.empty()) {
      ui::text_wrapped("label", "The logs time no compile (no chromium phases, no metrics).");
      return;
    }
    ui::text_wrapped("summary", words);
    if (v.run.empty()) return;
    ImGui::BeginChild("##compile-time", ImVec2(0, 0), false);
    ImGui::SetNextItemOpen(true, ImGuiCond_Appearing);
    if (ImGui::CollapsingHeader("Summed over the run")) {
      ui::record("section", "Summed over the run");
      draw_icicle("##icicle-run", v.run);
    }
    ImGui::SetNextItemOpen(true, ImGuiCond_Appearing);
    if (ImGui::CollapsingHeader("Costliest phases")) {
      ui::record("section", "Costliest phases");
      for (const views::TopPhase& t : v.top) {
        std::string line =
            t.name + "  " + seconds(t.seconds) + "  (" + std::to_string(t.count) + " spans)";
        if (!t.compiles.empty()) line += "  most in " + t.compiles.front().compile_id;
        ui::text("top-phase", line);
      }
    }
    if (ImGui::CollapsingHeader("Per compile")) {
      ui::record("section", "Per compile");
      for (size_t i = 0; i < v.compiles.size(); ++i) {
        const views::CompilePhaseTree& t = v.compiles[i];
        std::string head = t.compile_id + "  " + seconds(t.seconds);
        if (t.rank) head = "r" + std::to_string(*t.rank) + " " + head;
        ui::text("compile", head);
        draw_icicle(("##icicle-" + std::to_string(i)).c_str(), t.phases);
      }
    }
    ImGui::EndChild();
  }
};

}  // namespace

std::unique_ptr<Panel> make_compile_time_panel() {
  return std::make_unique<CompileTimePanel>();
}

}  // namespace tlscope::gui
