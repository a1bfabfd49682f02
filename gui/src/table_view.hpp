// One sortable, filterable, resizable ImGui table over rows of text cells, used by every tabular
// panel (errors, compiles, SQL results, ...): click a header to sort (numbers by value), type in
// the filter box to keep the rows containing the text, columns start as wide as their content.
#pragma once

#include <imgui.h>

#include <optional>
#include <string>
#include <vector>

namespace tlscope::gui {

struct TableCell {
  TableCell() = default;
  TableCell(std::string t) : text(std::move(t)) {}  // NOLINT: a cell is its text
  TableCell(std::string t, double n) : text(std::move(t)), number(n) {}
  std::string text;
  std::optional<double> number;  // sorts by value when set
  std::optional<ImVec4> colour;
};

struct TableData {
  std::vector<std::string> columns;
  std::vector<std::vector<TableCell>> rows;
};

TableCell number_cell(int64_t v);  // "-" (sorting first) for negative = unknown
TableCell real_cell(double v, const char* format);

class TableView {
 public:
  // Draws the filter box and the table; the row clicked this frame (index into data.rows), or -1.
  int draw(const char* id, const TableData& data, float height = 0.0f);
  int selected() const { return selected_; }
  void set_selected(int row) {
    selected_ = row;
    scroll_to_selected_ = true;
  }
  // Rows shown after filtering (for counts and tests).
  size_t shown() const { return order_.size(); }
  void set_filter(const std::string& text);
  void invalidate() { dirty_ = true; }

 private:
  void rebuild(const TableData& data, const ImGuiTableSortSpecs* specs);

  char filter_[256] = "";
  std::vector<int> order_;  // rows shown, in display order
  const TableData* built_for_ = nullptr;
  size_t built_rows_ = 0;
  bool dirty_ = true;
  int selected_ = -1;
  bool scroll_to_selected_ = false;
  int sort_column_ = -1;
  bool sort_descending_ = false;
};

}  // namespace tlscope::gui
