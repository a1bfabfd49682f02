// Drawing tokenised code: the number column, then each token in its kind's colour.
#include "code_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "ui_dump.hpp"

namespace tlscope::gui {
namespace {

ImVec4 token_colour(views::CodeTokenKind kind) {
  switch (kind) {
    case views::CodeTokenKind::kKeyword:
      return ImVec4(0.80f, 0.55f, 0.95f, 1.0f);
    case views::CodeTokenKind::kString:
      return ImVec4(0.60f, 0.85f, 0.50f, 1.0f);
    case views::CodeTokenKind::kComment:
      return ImVec4(0.50f, 0.55f, 0.60f, 1.0f);
    case views::CodeTokenKind::kNumber:
      return ImVec4(0.95f, 0.70f, 0.45f, 1.0f);
    case views::CodeTokenKind::kFunction:
      return ImVec4(0.45f, 0.75f, 1.0f, 1.0f);
    case views::CodeTokenKind::kPlain:
      break;
  }
  return ImGui::GetStyle().Colors[ImGuiCol_Text];
}

}  // namespace

CodeText make_code_text(std::string text, views::PayloadLanguage language) {
  CodeText code;
  code.text = std::move(text);
  code.lines = views::tokenize_code(code.text, language);
  if (code.lines.size() > 1 && code.lines.back().length == 0) code.lines.pop_back();
  return code;
}

void draw_code(const char* id, const CodeText& code, int max_lines) {
  const float line_h = ImGui::GetTextLineHeightWithSpacing();
  const int shown = std::min<int>(max_lines, static_cast<int>(code.lines.size()));
  const float height = line_h * static_cast<float>(shown) + ImGui::GetStyle().WindowPadding.y * 2 +
                       ImGui::GetStyle().ScrollbarSize;
  ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(0.07f, 0.08f, 0.10f, 1.0f));
  ImGui::BeginChild(id, ImVec2(0, height), true, ImGuiWindowFlags_HorizontalScrollbar);
  char number[16];
  std::snprintf(number, sizeof number, "%zu", code.lines.size());
  const float number_w = ImGui::CalcTextSize(number).x + 12;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(code.lines.size()));
  const ImVec4 muted = ImGui::GetStyle().Colors[ImGuiCol_TextDisabled];
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const views::CodeLine& line = code.lines[static_cast<size_t>(i)];
      const std::string_view text(code.text.data() + line.begin, line.length);
      std::snprintf(number, sizeof number, "%d", i + 1);
      const float x = ImGui::GetCursorPosX();
      ImGui::TextColored(muted, "%s", number);
      ImGui::SameLine(x + number_w);
      if (line.tokens.empty()) ImGui::NewLine();
      size_t drawn = 0;  // a megabyte line of short tokens is cut like one long text
      for (size_t t = 0; t < line.tokens.size() && drawn < ui::kMaxDrawnBytes; ++t) {
        const views::CodeToken& tok = line.tokens[t];
        drawn += tok.length;
        const std::string_view part = ui::drawable_part(text.substr(tok.begin, tok.length));
        ImGui::PushStyleColor(ImGuiCol_Text, token_colour(tok.kind));
        ImGui::TextUnformatted(part.data(), part.data() + part.size());
        ImGui::PopStyleColor();
        if (t + 1 < line.tokens.size() && drawn < ui::kMaxDrawnBytes) ImGui::SameLine(0, 0);
      }
      ui::record("code", std::string(number) + " " + std::string(text));
    }
  }
  ImGui::EndChild();
  ImGui::PopStyleColor();
}

}  // namespace tlscope::gui
