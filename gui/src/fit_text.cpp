// Cutting labels to a width (see fit_text.hpp).
#include "fit_text.hpp"

#include <imgui.h>

#include "ui_dump.hpp"

namespace tlscope::gui {
namespace {

constexpr std::string_view kDots = "...";
// The fewest characters of the start a kept end leaves; with fewer, the cut goes in the middle.
constexpr size_t kMinHead = 8;

float width_of(std::string_view s) {
  return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x;
}

bool continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

size_t previous_char(std::string_view s, size_t at) {
  do --at;
  while (at > 0 && continuation(s[at]));
  return at;
}

size_t next_char(std::string_view s, size_t at) {
  do ++at;
  while (at < s.size() && continuation(s[at]));
  return at;
}

std::string joined(std::string_view text, size_t head, size_t tail) {
  return std::string(text.substr(0, head)).append(kDots).append(text.substr(tail));
}

}  // namespace

std::string fit_text(std::string_view whole, float max_width, size_t keep_from) {
  // Measured and cut one character at a time below: a megabyte label would take minutes, and no
  // column shows more than the viewer draws of one text anyway.
  std::string_view text = ui::drawable_part(whole);
  if (text.size() == whole.size() && width_of(text) <= max_width) return std::string(text);
  if (width_of(kDots) > max_width) return {};
  // The start is cut back from its end until the start, "..." and the end fit (labels are short:
  // a few dozen widths are measured).
  if (keep_from < text.size() && keep_from > kMinHead) {
    size_t head = keep_from;
    while (head > kMinHead && width_of(joined(text, head, keep_from)) > max_width)
      head = previous_char(text, head);
    if (head > kMinHead) return joined(text, head, keep_from);
  }
  // Otherwise characters go from the middle outwards, alternately from each side.
  size_t head = text.size() / 2;
  while (head > 0 && continuation(text[head])) --head;
  size_t tail = head;
  bool from_head = true;
  std::string out = joined(text, head, tail);
  while (width_of(out) > max_width && (head > 0 || tail < text.size())) {
    if ((from_head && head > 0) || tail >= text.size())
      head = previous_char(text, head);
    else
      tail = next_char(text, tail);
    from_head = !from_head;
    out = joined(text, head, tail);
  }
  return out;
}

}  // namespace tlscope::gui
