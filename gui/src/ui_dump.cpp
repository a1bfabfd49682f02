// The UI dump recorder and the drawing helpers that feed it.
#include "ui_dump.hpp"
#include "tlscope/views/safe_output.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <utility>

namespace tlscope::gui {
namespace {

UiDump* g_dump = nullptr;

// Length of the valid UTF-8 sequence at s[i], or 0 when it is not one.
size_t utf8_length(std::string_view s, size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  }
  if (n == 2 && b < 0xC2) return 0;  // overlong
  return n;
}

}  // namespace

void UiDump::begin_frame(std::string_view panel) {
  panel_ = panel;
  items_.clear();
}

void UiDump::add(std::string_view kind, std::string_view text, std::optional<Rect> rect) {
  items_.push_back({std::string(kind), std::string(text), rect});
}

std::string json_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 8);
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
      ++i;
    } else if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      ++i;
    } else if (size_t n = utf8_length(s, i)) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

std::string UiDump::json(size_t frame) const {
  std::string out = "{\"panel\": \"" + json_escape(panel_) +
                    "\", \"frame\": " + std::to_string(frame) + ", \"items\": [";
  for (size_t i = 0; i < items_.size(); ++i) {
    out += i ? ",\n  " : "\n  ";
    const DumpItem& item = items_[i];
    out += "{\"kind\": \"" + json_escape(item.kind) + "\", \"text\": \"" + json_escape(item.text) +
           "\"";
    if (item.rect) {
      char rect[96];
      std::snprintf(rect, sizeof rect, ", \"x\": %.0f, \"y\": %.0f, \"w\": %.0f, \"h\": %.0f",
                    item.rect->x, item.rect->y, item.rect->w, item.rect->h);
      out += rect;
    }
    out += "}";
  }
  out += "\n]}\n";
  return out;
}

views::Status UiDump::write(const std::string& path, size_t frame) const {
  views::Status r;
  // Through a private temporary beside `path`, renamed over it: a link planted at the path or at
  // any predictable name beside it is replaced, never written through.
  if (std::string why = views::write_file_atomically(path, json(frame)); !why.empty())
    r.fail(why + " (the UI dump)");
  return r;
}

void set_current_dump(UiDump* dump) {
  g_dump = dump;
}

UiDump* current_dump() {
  return g_dump;
}

namespace ui {

void record(std::string_view kind, std::string_view text) {
  if (g_dump) g_dump->add(kind, text);
}

void record_at(std::string_view kind, std::string_view text, ImVec2 pos) {
  if (!g_dump) return;
  const ImVec2 size = ImGui::CalcTextSize(text.data(), text.data() + text.size());
  g_dump->add(kind, text, Rect{pos.x, pos.y, size.x, size.y});
}

// Records the item just drawn with its rectangle on screen (what a pointer-driven test clicks).
void record_item(std::string_view kind, std::string_view text) {
  if (!g_dump) return;
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  g_dump->add(kind, text, Rect{a.x, a.y, b.x - a.x, b.y - a.y});
}

std::string_view drawable_part(std::string_view t) {
  if (t.size() <= kMaxDrawnBytes) return t;
  size_t end = kMaxDrawnBytes;
  while (end > 0 && (static_cast<unsigned char>(t[end]) & 0xC0) == 0x80) --end;
  return t.substr(0, end);
}

std::string font_safe(std::string_view whole) {
  std::string_view t = drawable_part(whole);
  std::string note;
  if (t.size() < whole.size())
    note = " ... (" + std::to_string(whole.size()) + " bytes in all; cut for display)";
  // Every such character starts with the byte 0xE2; most texts have none.
  if (t.find('\xE2') == std::string_view::npos) return std::string(t) + note;
  static constexpr std::pair<std::string_view, std::string_view> kSpelled[] = {
      {"\xE2\x86\x92", "->"},
      {"\xE2\x80\xA6", "..."},
      {"\xE2\x8B\xAE", ":"},
      {"\xE2\x8B\xB1", ".."}};
  std::string out;
  out.reserve(t.size());
  for (size_t i = 0; i < t.size();) {
    bool replaced = false;
    for (const auto& [from, to] : kSpelled) {
      if (t.compare(i, from.size(), from) == 0) {
        out += to;
        i += from.size();
        replaced = true;
        break;
      }
    }
    if (!replaced) out += t[i++];
  }
  return out + note;
}

void text(std::string_view kind, std::string_view t) {
  const std::string shown = font_safe(t);
  ImGui::TextUnformatted(shown.data(), shown.data() + shown.size());
  record_item(kind, t);
}

void text_colored(std::string_view kind, const ImVec4& colour, std::string_view t) {
  const std::string shown = font_safe(t);
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::TextUnformatted(shown.data(), shown.data() + shown.size());
  ImGui::PopStyleColor();
  record_item(kind, t);
}

void text_disabled(std::string_view kind, std::string_view t) {
  text_colored(kind, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled], t);
}

void text_wrapped(std::string_view kind, std::string_view t) {
  const std::string shown = font_safe(t);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(shown.data(), shown.data() + shown.size());
  ImGui::PopTextWrapPos();
  record_item(kind, t);
}

void text_colored_wrapped(std::string_view kind, const ImVec4& colour, std::string_view t) {
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  text_wrapped(kind, t);
  ImGui::PopStyleColor();
}

void same_line_if_fits(float width) {
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

void cell(std::string_view kind, std::string_view t) {
  ImGui::TableNextColumn();
  text(kind, t);
}

void cell_colored(std::string_view kind, const ImVec4& colour, std::string_view t) {
  ImGui::TableNextColumn();
  text_colored(kind, colour, t);
}

// ImGui reads "##" in a label as the start of its hidden id: log text must not cut itself short.
std::string imgui_label(std::string_view text) {
  const std::string t = font_safe(text);
  std::string label;
  label.reserve(t.size());
  for (size_t i = 0; i < t.size(); ++i) {
    label += t[i];
    if (t[i] == '#' && i + 1 < t.size() && t[i + 1] == '#') label += ' ';
  }
  return label;
}

bool selectable(std::string_view kind, std::string_view t, bool selected,
                ImGuiSelectableFlags flags, const char* id_suffix) {
  std::string label = imgui_label(t);
  if (id_suffix) label += std::string("##") + id_suffix;
  const bool clicked = ImGui::Selectable(label.c_str(), selected, flags);
  record_item(kind, t);
  return clicked;
}

bool selectable_wrapped(std::string_view kind, std::string_view t, bool selected,
                        const ImVec4& colour, const char* id) {
  const float width = std::max(40.0f, ImGui::GetContentRegionAvail().x);
  const std::string shown = font_safe(t);
  const ImVec2 size = ImGui::CalcTextSize(shown.data(), shown.data() + shown.size(), false, width);
  // The selectable's rectangle reaches half the item spacing beyond the text: draw at the cursor.
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const bool clicked =
      ImGui::Selectable((std::string("##") + id).c_str(), selected,
                        ImGuiSelectableFlags_AllowDoubleClick, ImVec2(width, size.y));
  ImGui::GetWindowDrawList()->AddText(ImGui::GetFont(), ImGui::GetFontSize(), at,
                                      ImGui::GetColorU32(colour), shown.data(),
                                      shown.data() + shown.size(), width);
  record_item(kind, t);
  return clicked;
}

bool button(std::string_view kind, std::string_view t) {
  const bool pressed = ImGui::Button(imgui_label(t).c_str());
  record_item(kind, t);
  return pressed;
}

}  // namespace ui
}  // namespace tlscope::gui
