// A stable colour per name for the viewer's drawings (the compile-time icicle's phases): the same
// name gets the same colour in every compile and every frame.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string_view>

namespace tlscope::gui {

// Hue from a string hash, with fixed saturation/value so text stays readable on top.
inline ImU32 name_color(std::string_view name, float value = 0.75f) {
  uint32_t h = 2166136261u;
  for (char c : name) h = (h ^ static_cast<uint8_t>(c)) * 16777619u;
  float r, g, b;
  ImGui::ColorConvertHSVtoRGB(static_cast<float>(h % 360) / 360.0f, 0.55f, value, r, g, b);
  return ImGui::GetColorU32(ImVec4(r, g, b, 1.0f));
}

}  // namespace tlscope::gui
