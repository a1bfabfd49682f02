// The one list of screens that the front ends show: each row is what a person sees as one place
// (a report page, a viewer panel, or both). The report's navigation, the viewer's panel list and
// `tlscope gui --panel NAME` all read this table, so adding a screen is one row here plus the
// file that draws it.
#pragma once

#include <array>
#include <string_view>

namespace tlscope::views {

// X(id, label, report_page, viewer_panel, panel_label)
//   id            stable C++-style name
//   label         what the navigation shows
//   report_page   file base name in the HTML report ("" when the report has no such page)
//   viewer_panel  the viewer's panel name, as `--panel` takes it ("" when the viewer has none)
//   panel_label   what the viewer's navigation shows when its panel is more than the page ("":
//                 the label); the viewer's one timeline holds the collectives and the compile
//                 phases that the report splits over two pages
#define TLSCOPE_SCREENS(X)                                             \
  X(summary, "Summary", "index", "findings", "")                       \
  X(compile_tree, "Compiles", "compiles", "compile-tree", "")          \
  X(compile, "Compile", "", "compile", "")                             \
  X(graph_breaks, "Graph breaks", "graph_breaks", "graph-breaks", "")  \
  X(recompiles, "Recompiles", "recompiles", "recompiles", "")          \
  X(failures, "Failures", "failures", "failures", "")                  \
  X(cache, "Cache", "cache", "cache", "")                              \
  X(ranks, "Ranks", "ranks", "divergence", "")                         \
  X(collectives, "Collectives", "collectives", "timeline", "Timeline") \
  X(compile_timeline, "Compile timeline", "compile_timeline", "", "")  \
  X(compile_time, "Compile time", "compile_time", "compile-time", "")  \
  X(find_zone, "Find zone", "", "find-zone", "")                       \
  X(tensors, "Tensors", "tensors", "tensors", "")                      \
  X(sql, "SQL", "", "sql", "")                                         \
  X(errors, "Ingest errors", "errors", "errors", "")                   \
  X(provenance, "Provenance", "", "provenance", "")                    \
  X(torch_export, "Export", "export", "export", "")                    \
  X(vllm, "vLLM", "vllm", "vllm", "")

enum class ScreenId {
#define TLSCOPE_SCREEN_ENUM(id, label, page, panel, panel_label) id,
  TLSCOPE_SCREENS(TLSCOPE_SCREEN_ENUM)
#undef TLSCOPE_SCREEN_ENUM
};

struct Screen {
  ScreenId id;
  std::string_view name;  // the id as text
  std::string_view label;
  std::string_view report_page;
  std::string_view viewer_panel;
  std::string_view panel_label;

  // What the viewer's navigation and tab show.
  constexpr std::string_view viewer_label() const {
    return panel_label.empty() ? label : panel_label;
  }
};

inline constexpr std::array kScreens = {
#define TLSCOPE_SCREEN_ROW(id, label, page, panel, panel_label) \
  Screen{ScreenId::id, #id, label, page, panel, panel_label},
    TLSCOPE_SCREENS(TLSCOPE_SCREEN_ROW)
#undef TLSCOPE_SCREEN_ROW
};

constexpr const Screen& screen(ScreenId id) {
  return kScreens[static_cast<size_t>(id)];
}

// The screen whose viewer panel is `panel` ("graph-breaks"), or nullptr.
constexpr const Screen* screen_for_panel(std::string_view panel) {
  for (const Screen& s : kScreens)
    if (!s.viewer_panel.empty() && s.viewer_panel == panel) return &s;
  return nullptr;
}

}  // namespace tlscope::views
