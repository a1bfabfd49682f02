// What the viewer's colours mean, in one place: compile statuses and finding severities. Every
// colour says something (ok, problem, warning, muted); none is a hash of a name.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string_view>

namespace tlscope::gui {

inline const ImVec4 kColourOk(0.45f, 0.80f, 0.45f, 1.0f);
inline const ImVec4 kColourError(1.0f, 0.45f, 0.45f, 1.0f);
inline const ImVec4 kColourWarning(0.95f, 0.70f, 0.30f, 1.0f);
inline const ImVec4 kColourNotice(0.85f, 0.80f, 0.35f, 1.0f);
inline const ImVec4 kColourMuted(0.60f, 0.60f, 0.62f, 1.0f);
inline const ImVec4 kColourCacheHit(0.45f, 0.70f, 0.95f, 1.0f);

// 0xRRGGBB (finding_kinds.hpp) as an ImGui colour.
inline ImVec4 rgb_colour(uint32_t rgb) {
  return ImVec4(static_cast<float>((rgb >> 16) & 0xFF) / 255.0f,
                static_cast<float>((rgb >> 8) & 0xFF) / 255.0f,
                static_cast<float>(rgb & 0xFF) / 255.0f, 1.0f);
}

// compiles.status (docs/schema.md), with graph breaks, recompiles and cache hits drawn apart:
// a problem outranks a cache hit, and a hit outranks a plain ok (it compiled without the work).
inline ImVec4 compile_status_colour(std::string_view status, bool graph_break, bool recompiled,
                                    bool cache_hit) {
  if (status == "failed") return kColourError;
  if (graph_break) return kColourWarning;
  if (status == "restarted") return kColourWarning;
  if (recompiled) return kColourNotice;
  if (cache_hit && status == "ok") return kColourCacheHit;
  if (status == "ok") return kColourOk;
  return kColourMuted;  // empty, no_metrics
}

inline ImVec4 severity_colour(std::string_view severity) {
  if (severity == "error") return kColourError;
  if (severity == "warning") return kColourWarning;
  return kColourMuted;
}

}  // namespace tlscope::gui
