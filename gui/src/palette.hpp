// Colours shared by the viewer windows: a stable colour per name and per mesh owner set.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string_view>
#include <vector>

namespace tlscope::gui {

// Hue from a string hash, with fixed saturation/value so text stays readable on top.
inline ImU32 name_color(std::string_view name, float value = 0.75f) {
  uint32_t h = 2166136261u;
  for (char c : name) h = (h ^ static_cast<uint8_t>(c)) * 16777619u;
  float r, g, b;
  ImGui::ColorConvertHSVtoRGB(static_cast<float>(h % 360) / 360.0f, 0.55f, value, r, g, b);
  return ImGui::GetColorU32(ImVec4(r, g, b, 1.0f));
}

// Mesh ranks get evenly spaced hues; a replicated owner set mixes its members' hues.
inline ImU32 owner_color(const std::vector<int>& owners, int mesh_ranks, float alpha = 1.0f) {
  if (owners.empty() || mesh_ranks <= 0) return ImGui::GetColorU32(ImVec4(0.3f, 0.3f, 0.3f, alpha));
  float rs = 0, gs = 0, bs = 0;
  for (int o : owners) {
    float r, g, b;
    ImGui::ColorConvertHSVtoRGB(static_cast<float>(o) / static_cast<float>(mesh_ranks), 0.6f, 0.8f,
                                r, g, b);
    rs += r;
    gs += g;
    bs += b;
  }
  float n = static_cast<float>(owners.size());
  return ImGui::GetColorU32(ImVec4(rs / n, gs / n, bs / n, alpha));
}

}  // namespace tlscope::gui
