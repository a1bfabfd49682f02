// What the viewer drew, as data: every text item a panel shows goes through one of the helpers
// below, which both draw it with ImGui and record it, so `--dump-ui FILE.json` is exactly what
// the window showed (tests check content through it, not through pixels).
#pragma once

#include <imgui.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tlscope/views/result.hpp"

namespace tlscope::gui {

// Where an item was drawn, in window pixels (for tests that drive the pointer).
struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
};

struct DumpItem {
  std::string kind;  // "row", "label", "marker", "details", "nav", "tab", "cell", "error", ...
  std::string text;
  std::optional<Rect> rect;  // set for ImGui items and record_at texts
};

class UiDump {
 public:
  // Starts a frame's record: the active panel's name and no items.
  void begin_frame(std::string_view panel);
  void add(std::string_view kind, std::string_view text, std::optional<Rect> rect = std::nullopt);
  const std::vector<DumpItem>& items() const { return items_; }
  const std::string& panel() const { return panel_; }
  void set_panel(std::string_view panel) { panel_ = panel; }
  // {"panel": ..., "frame": N, "items": [{"kind": ..., "text": ..., "x", "y", "w", "h"}, ...]},
  // valid UTF-8; the rectangle only for ImGui items.
  std::string json(size_t frame) const;
  // Written under a temporary name and renamed, so a reader never sees half a file.
  views::Status write(const std::string& path, size_t frame) const;

 private:
  std::string panel_;
  std::vector<DumpItem> items_;
};

// The recorder the helpers write to; null records nothing.
void set_current_dump(UiDump* dump);
UiDump* current_dump();

// JSON string body of `s`: quotes, backslashes and control bytes escaped, invalid UTF-8 replaced
// with U+FFFD (log text is hostile).
std::string json_escape(std::string_view s);

namespace ui {

// Records a text that was drawn by other means (a draw-list label, a marker on a canvas).
void record(std::string_view kind, std::string_view text);
// Records a text drawn with the draw list at `pos` (screen pixels), with its rectangle in the
// current font: for texts a test measures against others (a lane label against the ruler).
void record_at(std::string_view kind, std::string_view text, ImVec2 pos);
// Records the ImGui item just drawn, with its rectangle.
void record_item(std::string_view kind, std::string_view text);
void text(std::string_view kind, std::string_view text);
void text_colored(std::string_view kind, const ImVec4& colour, std::string_view text);
void text_disabled(std::string_view kind, std::string_view text);
void text_wrapped(std::string_view kind, std::string_view text);
void text_colored_wrapped(std::string_view kind, const ImVec4& colour, std::string_view text);
// Before an item `width` pixels wide that follows on the same line when it fits: SameLine, or
// a new line when the rest of the row is narrower (toolbars and button rows wrap, not clip).
void same_line_if_fits(float width);
// A table cell: next column, then the text.
void cell(std::string_view kind, std::string_view text);
void cell_colored(std::string_view kind, const ImVec4& colour, std::string_view text);
// A selectable row or item; true when clicked (or activated with the keyboard).
bool selectable(std::string_view kind, std::string_view text, bool selected,
                ImGuiSelectableFlags flags = 0, const char* id_suffix = nullptr);
// A selectable whose text wraps at the available width (findings, messages); true when clicked.
bool selectable_wrapped(std::string_view kind, std::string_view text, bool selected,
                        const ImVec4& colour, const char* id);
// A button; true when pressed.
bool button(std::string_view kind, std::string_view text);
// `t` with every "##" broken up, so ImGui shows it whole instead of taking the rest as an id
// (and font_safe).
std::string imgui_label(std::string_view t);
// The most bytes of one text the viewer draws as one item. ImGui reserves four vertices a
// character for a whole text up front and indexes a draw list with 16 bits, so one text past
// ~16,000 characters aborts the viewer (IM_ASSERT, exit 134); a log's failure reason, guard or
// payload line may be megabytes. Every text drawn from a log is cut here (font_safe, and so every
// helper of this file, and drawable_part for texts drawn piecewise).
inline constexpr size_t kMaxDrawnBytes = 4096;
// `t` cut to at most kMaxDrawnBytes at a UTF-8 character boundary (no note added).
std::string_view drawable_part(std::string_view t);
// `t` cut to kMaxDrawnBytes with a note of its whole size when longer, and with the characters
// views/ writes that ImGui's built-in font has no glyph for (it draws them as '?') spelled in
// ones it has: "\u2192" as "->", "\u2026" as "...", "\u22ee" as ":" and "\u22f1" as "..". The
// helpers here draw this and record `t` itself in the dump.
std::string font_safe(std::string_view t);

}  // namespace ui
}  // namespace tlscope::gui
