// The tabular windows: summary, compile list and ingest errors.
#include <imgui.h>

#include <cstdio>

#include "viewer_data.hpp"

namespace tlscope::gui {
namespace {

constexpr ImGuiTableFlags kTableFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                        ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable |
                                        ImGuiTableFlags_SizingFixedFit;

void text_cell(const std::string& s) {
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(s.c_str());
}

void int_cell(int64_t v) {
  ImGui::TableNextColumn();
  if (v < 0) {
    ImGui::TextDisabled("-");
  } else {
    ImGui::Text("%lld", static_cast<long long>(v));
  }
}

}  // namespace

void draw_summary_window(ViewerData& data) {
  ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(420, 270), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Summary")) {
    ImGui::End();
    return;
  }
  const auto& s = data.summary;
  ImGui::Text("%s", data.db_path.c_str());
  ImGui::Text("%zu files, %lld events, %lld ingest errors", s.files.size(),
              static_cast<long long>(s.events), static_cast<long long>(s.errors));
  for (const auto& p : data.load_problems)
    ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", p.c_str());
  if (ImGui::BeginTable("files", 5, kTableFlags, ImVec2(0, 100))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const char* h : {"file", "rank", "lines", "events", "errors"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const auto& f : s.files) {
      ImGui::TableNextRow();
      text_cell(f.path + (f.completed ? "" : " (incomplete)"));
      int_cell(f.rank);
      int_cell(f.lines);
      int_cell(f.events);
      int_cell(f.errors);
    }
    ImGui::EndTable();
  }
  if (ImGui::BeginTable("kinds", 2, kTableFlags)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("event kind");
    ImGui::TableSetupColumn("count");
    ImGui::TableHeadersRow();
    for (const auto& k : s.kinds) {
      ImGui::TableNextRow();
      text_cell(k.kind);
      int_cell(k.count);
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

void draw_compiles_window(ViewerData& data) {
  ImGui::SetNextWindowPos(ImVec2(0, 270), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(420, 280), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Compiles")) {
    ImGui::End();
    return;
  }
  ImGui::Text("%zu compilation_metrics rows", data.compiles.size());
  if (ImGui::BeginTable("compiles", 6, kTableFlags)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const char* h : {"compile id", "rank", "frame", "ms", "ops", "failure"}) {
      ImGui::TableSetupColumn(h);
    }
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(data.compiles.size()));
    while (clipper.Step()) {
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        const auto& c = data.compiles[static_cast<size_t>(i)];
        ImGui::TableNextRow();
        text_cell(c.compile_id);
        int_cell(c.rank);
        // The base name keeps the column narrow; the full path is one hover away.
        std::string base = c.co_filename.substr(c.co_filename.find_last_of('/') + 1);
        text_cell(c.co_name + " " + base + ":" + std::to_string(c.co_firstlineno));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", c.co_filename.c_str());
        ImGui::TableNextColumn();
        if (c.duration_us >= 0) {
          ImGui::Text("%.1f", c.duration_us / 1000.0);
        } else {
          ImGui::TextDisabled("-");
        }
        int_cell(c.graph_op_count);
        ImGui::TableNextColumn();
        if (!c.fail_type.empty()) {
          ImGui::TextColored(ImVec4(1, 0.45f, 0.45f, 1), "%s", c.fail_type.c_str());
          if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", c.fail_reason.c_str());
        }
      }
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

void draw_errors_window(ViewerData& data) {
  ImGui::SetNextWindowPos(ImVec2(0, 550), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(420, 250), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Ingest errors")) {
    ImGui::End();
    return;
  }
  ImGui::Text("%lld errors (%zu shown)", static_cast<long long>(data.summary.errors),
              data.errors.size());
  if (ImGui::BeginTable("errors", 4, kTableFlags)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const char* h : {"file:line", "kind", "reason", "excerpt"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(data.errors.size()));
    while (clipper.Step()) {
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        const auto& e = data.errors[static_cast<size_t>(i)];
        ImGui::TableNextRow();
        text_cell(e.path.empty() ? "(no file)"
                                 : e.path + ":" + (e.line >= 0 ? std::to_string(e.line) : "?"));
        text_cell(e.kind);
        text_cell(e.reason);
        text_cell(e.excerpt.substr(0, 120));
      }
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace tlscope::gui
