// Colours shared by the viewer windows: a stable colour per name, and per rank and mesh owner set
// from views/rank_colors.hpp (the rule the report and the terminal use too).
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include "tlscope/views/rank_colors.hpp"

namespace tlscope::gui {

// Hue from a string hash, with fixed saturation/value so text stays readable on top.
inline ImU32 name_color(std::string_view name, float value = 0.75f) {
  uint32_t h = 2166136261u;
  for (char c : name) h = (h ^ static_cast<uint8_t>(c)) * 16777619u;
  float r, g, b;
  ImGui::ColorConvertHSVtoRGB(static_cast<float>(h % 360) / 360.0f, 0.55f, value, r, g, b);
  return ImGui::GetColorU32(ImVec4(r, g, b, 1.0f));
}

// A mesh owner set's colour: views' one rank-colour rule, in the tone that light text reads on.
// `mesh_ranks` 0 (not sharded) gives grey.
inline ImU32 owner_color(const std::vector<int>& owners, int mesh_ranks, float alpha = 1.0f) {
  if (owners.empty() || mesh_ranks <= 0) return ImGui::GetColorU32(ImVec4(0.3f, 0.3f, 0.3f, alpha));
  views::Rgb c = views::owners_color(owners, views::RankTone::kDeep);
  return ImGui::GetColorU32(ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, alpha));
}

// A rank's colour (timeline lanes, legends), from the same rule.
inline ImU32 rank_color(int64_t rank, float alpha = 1.0f) {
  views::Rgb c = views::rank_color(rank, views::RankTone::kDeep);
  return ImGui::GetColorU32(ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, alpha));
}

}  // namespace tlscope::gui
