// Ctrl+F: case-insensitive substring search over what the panels show; the first 200 hits.
#include "search_popup.hpp"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "timeline_scene.hpp"

namespace tlscope::gui {
namespace {

constexpr size_t kMaxHits = 200;

bool contains(std::string_view text, std::string_view needle) {
  auto it = std::search(text.begin(), text.end(), needle.begin(), needle.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  });
  return it != text.end();
}

}  // namespace

void SearchPopup::search(ViewerSession& session) {
  searched_ = query_;
  searched_in_ = session.id();
  hits_.clear();
  truncated_ = false;
  if (searched_.empty()) return;
  auto add = [&](std::string text, SelectionKind kind, std::string key, views::ScreenId panel) {
    if (hits_.size() >= kMaxHits) {
      truncated_ = true;
      return;
    }
    hits_.push_back({std::move(text), Selection{kind, std::move(key), panel}});
  };
  // Compiles by id and by frame (function, file).
  const views::CompileTree& tree = session.compile_tree();
  for (const auto& c : tree.compiles) {
    std::string frame = c.co_name + " " + c.co_filename + ":" + std::to_string(c.co_firstlineno);
    if (contains(c.compile_id, searched_) || contains(frame, searched_)) {
      add("compile " + compile_key(c) + "  " + frame, SelectionKind::kCompile, compile_key(c),
          views::ScreenId::compile);
    }
  }
  // Frames of the compile tree (functions that were compiled).
  for (const auto& f : tree.frames) {
    std::string frame = f.name + " " + f.filename + ":" + std::to_string(f.line);
    if (contains(frame, searched_) && !f.compiles.empty()) {
      add("frame " + frame, SelectionKind::kCompile, compile_key(tree.compiles[f.compiles.front()]),
          views::ScreenId::compile_tree);
    }
  }
  // Findings by their words.
  const std::vector<FindingEntry>& findings = session.findings().order;
  for (size_t i = 0; i < findings.size(); ++i) {
    const auto& row = *findings[i].row;
    if (contains(row.message, searched_) || contains(row.kind, searched_)) {
      add("finding " + std::to_string(i + 1) + ": " + row.message, SelectionKind::kFinding,
          std::to_string(i + 1), views::ScreenId::summary);
    }
  }
  // Zones by name, each name once: the compile phases, which are the timeline scene's first
  // phase_zones.size() intervals (the scene is read anyway; a phase timeline of its own cost a
  // second read of every phase, 1 s on the 1 GB log).
  std::set<std::string_view> zones;
  const std::shared_ptr<TimelineScene> scene = session.timeline_scene();
  const size_t phases = std::min(scene->phase_zones.size(), scene->timeline.intervals.size());
  for (size_t i = 0; i < phases; ++i) {
    const views::TimelineInterval& iv = scene->timeline.intervals[i];
    if (contains(iv.name, searched_) && zones.insert(iv.name).second) {
      add("zone " + iv.name, SelectionKind::kZone, iv.name, views::ScreenId::collectives);
    }
  }
}

void SearchPopup::draw(ViewerSession& session) {
  if (!open_) return;
  if (just_opened_) {
    ImGui::OpenPopup("Search");
    just_opened_ = false;
  }
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowSize(ImVec2(std::min(700.0f, display.x * 0.8f), display.y * 0.6f),
                           ImGuiCond_Appearing);
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.2f), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.0f));
  if (!ImGui::BeginPopupModal("Search", &open_)) {
    open_ = false;
    return;
  }
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  ImGui::SetNextItemWidth(-FLT_MIN);
  ImGui::InputTextWithHint("##query", "compile id, function, file, zone name", query_,
                           sizeof query_);
  if (searched_ != query_ || searched_in_ != session.id()) search(session);
  ui::text_disabled("label", std::to_string(hits_.size()) + (truncated_ ? "+" : "") + " matches");
  ImGui::BeginChild("##hits");
  for (size_t i = 0; i < hits_.size(); ++i) {
    if (ui::selectable("row", hits_[i].text, false, 0, std::to_string(i).c_str())) {
      session.nav().open(hits_[i].selection);
      open_ = false;
    }
  }
  ImGui::EndChild();
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) open_ = false;
  if (!open_) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

}  // namespace tlscope::gui
