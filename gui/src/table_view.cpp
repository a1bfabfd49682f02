// The shared table: filtering and sorting work on an index vector, so the rows are never copied.
#include "table_view.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "ui_dump.hpp"

namespace tlscope::gui {
namespace {

constexpr size_t kMaxCellChars = 160;  // longer text is cut here; the details pane has it all

bool contains_nocase(const std::string& text, const std::string& needle) {
  auto it = std::search(text.begin(), text.end(), needle.begin(), needle.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  });
  return it != text.end();
}

std::string shown_text(const std::string& s) {
  std::string out = s.size() > kMaxCellChars ? s.substr(0, kMaxCellChars) + "..." : s;
  std::replace(out.begin(), out.end(), '\n', ' ');
  return out;
}

// The whole text of a cut cell, wrapped; at most kMaxTooltipChars of it.
void whole_cell_tooltip(const std::string& text) {
  constexpr size_t kMaxTooltipChars = 4000;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 45.0f);
  const size_t n = std::min(text.size(), kMaxTooltipChars);
  ImGui::TextUnformatted(text.data(), text.data() + n);
  if (n < text.size())
    ImGui::TextDisabled("(%zu more bytes: see the details pane)", text.size() - n);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace

TableCell number_cell(int64_t v) {
  if (v < 0) return TableCell("-", -1.0);
  return TableCell(std::to_string(v), static_cast<double>(v));
}

TableCell real_cell(double v, const char* format) {
  if (v < 0) return TableCell("-", -1.0);
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return TableCell(buf, v);
}

void TableView::set_filter(const std::string& text) {
  std::snprintf(filter_, sizeof filter_, "%s", text.c_str());
  dirty_ = true;
}

void TableView::rebuild(const TableData& data, const ImGuiTableSortSpecs* specs) {
  built_for_ = &data;
  built_rows_ = data.rows.size();
  dirty_ = false;
  order_.clear();
  const std::string needle = filter_;
  for (size_t i = 0; i < data.rows.size(); ++i) {
    bool keep = needle.empty();
    for (size_t c = 0; !keep && c < data.rows[i].size(); ++c)
      keep = contains_nocase(data.rows[i][c].text, needle);
    if (keep) order_.push_back(static_cast<int>(i));
  }
  if (specs && specs->SpecsCount > 0) {
    sort_column_ = specs->Specs[0].ColumnIndex;
    sort_descending_ = specs->Specs[0].SortDirection == ImGuiSortDirection_Descending;
  } else if (specs) {
    sort_column_ = -1;  // a third click on the header: back to the view model's order
  }
  if (sort_column_ < 0) return;
  const size_t col = static_cast<size_t>(sort_column_);
  std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) {
    const auto& ra = data.rows[static_cast<size_t>(a)];
    const auto& rb = data.rows[static_cast<size_t>(b)];
    if (col >= ra.size() || col >= rb.size()) return false;
    const TableCell& x = ra[col];
    const TableCell& y = rb[col];
    bool less;
    if (x.number && y.number) {
      less = sort_descending_ ? *y.number < *x.number : *x.number < *y.number;
    } else {
      less = sort_descending_ ? y.text < x.text : x.text < y.text;
    }
    return less;
  });
}

int TableView::draw(const char* id, const TableData& data, float height) {
  ImGui::SetNextItemWidth(std::min(320.0f, ImGui::GetContentRegionAvail().x * 0.5f));
  if (ImGui::InputTextWithHint((std::string("##filter_") + id).c_str(), "filter", filter_,
                               sizeof filter_)) {
    dirty_ = true;
  }
  if (filter_[0]) ui::record("filter", filter_);
  // Filtering now (sorting by the last sort column); a new sort order is applied in the table.
  if (dirty_ || built_for_ != &data || built_rows_ != data.rows.size()) rebuild(data, nullptr);
  ImGui::SameLine();
  ui::text_disabled(
      "label", std::to_string(order_.size()) + " of " + std::to_string(data.rows.size()) + " rows");
  const int columns = static_cast<int>(data.columns.size());
  if (columns == 0) return -1;
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_Sortable |
                                ImGuiTableFlags_SortTristate | ImGuiTableFlags_SizingFixedFit |
                                ImGuiTableFlags_Reorderable | ImGuiTableFlags_Hideable;
  int clicked = -1;
  if (!ImGui::BeginTable(id, columns, flags, ImVec2(0, height))) return -1;
  ImGui::TableSetupScrollFreeze(0, 1);
  // Rows come in the view model's order (most frequent or costliest first) until a header is
  // clicked: without SortTristate ImGui sorts the first column ascending at once, which put the
  // rarest recompile on top. Number columns sort largest first on their first click.
  for (int c = 0; c < columns; ++c) {
    const bool numbers = !data.rows.empty() && static_cast<size_t>(c) < data.rows[0].size() &&
                         data.rows[0][static_cast<size_t>(c)].number.has_value();
    ImGui::TableSetupColumn(
        ui::imgui_label(data.columns[static_cast<size_t>(c)]).c_str(),
        numbers ? ImGuiTableColumnFlags_PreferSortDescending : ImGuiTableColumnFlags_None);
  }
  ImGui::TableHeadersRow();
  for (const auto& name : data.columns) ui::record("header", name);
  ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
  if (specs && specs->SpecsDirty) {
    rebuild(data, specs);
    specs->SpecsDirty = false;
  }
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(order_.size()));
  if (scroll_to_selected_) {
    auto at = std::find(order_.begin(), order_.end(), selected_);
    if (at != order_.end())
      clipper.ForceDisplayRangeByIndices(static_cast<int>(at - order_.begin()),
                                         static_cast<int>(at - order_.begin()) + 1);
  }
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const int row = order_[static_cast<size_t>(i)];
      const auto& cells = data.rows[static_cast<size_t>(row)];
      ImGui::TableNextRow();
      for (int c = 0; c < columns; ++c) {
        ImGui::TableNextColumn();
        const std::string text = static_cast<size_t>(c) < cells.size()
                                     ? shown_text(cells[static_cast<size_t>(c)].text)
                                     : std::string();
        // A cell cut by its column's width, by the table's right edge (until scrolled) or at
        // kMaxCellChars shows all of it on hover.
        const float text_right =
            ImGui::GetCursorScreenPos().x + ImGui::CalcTextSize(text.c_str()).x;
        const bool cut =
            static_cast<size_t>(c) < cells.size() &&
            (text.size() < cells[static_cast<size_t>(c)].text.size() ||
             text_right > ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x ||
             text_right > ImGui::GetWindowPos().x + ImGui::GetWindowWidth());
        const bool show_whole =
            cut && (ImGui::TableGetColumnFlags() & ImGuiTableColumnFlags_IsHovered) != 0;
        if (c == 0) {
          // The first cell carries the row's selectable, spanning all columns.
          ImGui::PushID(row);
          if (ImGui::Selectable(ui::imgui_label(text).c_str(), selected_ == row,
                                ImGuiSelectableFlags_SpanAllColumns)) {
            selected_ = row;
            clicked = row;
          }
          if (scroll_to_selected_ && selected_ == row) {
            ImGui::SetScrollHereY(0.3f);
            scroll_to_selected_ = false;
          }
          ImGui::PopID();
          ui::record_item("cell", text);
        } else if (cells[static_cast<size_t>(c)].colour) {
          ui::text_colored("cell", *cells[static_cast<size_t>(c)].colour, text);
        } else {
          ui::text("cell", text);
        }
        if (show_whole && ImGui::IsItemHovered())
          whole_cell_tooltip(cells[static_cast<size_t>(c)].text);
      }
    }
  }
  ImGui::EndTable();
  return clicked;
}

}  // namespace tlscope::gui
