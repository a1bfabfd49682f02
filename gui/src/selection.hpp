// What is selected in the viewer (a finding, a compile, a zone, a collective, a record, a query)
// and the back/forward history through everything clicked. Panels select through the Navigator
// and may ask for another panel to be shown on a selection (click-through).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tlscope/views/result.hpp"
#include "tlscope/views/screens.hpp"

namespace tlscope::gui {

enum class SelectionKind { kNone, kFinding, kCompile, kZone, kCollective, kRecord, kQuery };

struct Selection {
  SelectionKind kind = SelectionKind::kNone;
  // finding: 1-based position in the findings order; compile: "0/0" (or "[r]0/0" with a rank);
  // zone: its name or id; collective: "GROUP:SEQ"; record: "table:id"; query: the SQL.
  std::string key;
  views::ScreenId panel = views::ScreenId::summary;  // the panel that shows it

  bool empty() const { return kind == SelectionKind::kNone; }
  bool operator==(const Selection& o) const {
    return kind == o.kind && key == o.key && panel == o.panel;
  }
  bool operator!=(const Selection& o) const { return !(*this == o); }
};

// "finding:3", "compile:0/0", "collective:G:S", "zone:NAME", "sql:QUERY" (as --select takes them)
// -> a selection without a panel; an error naming the --select value for anything else.
views::Result<Selection> parse_selection(std::string_view what);
std::string_view selection_kind_name(SelectionKind kind);

class Navigator {
 public:
  // Makes `s` the current selection and the newest history entry (dropping the forward part).
  void select(const Selection& s);
  // Selects `s` and asks for its panel to be shown (the layout opens its tab next frame).
  void open(const Selection& s);
  void show_panel(views::ScreenId panel) { panel_request_ = panel; }
  bool back();
  bool forward();
  bool can_back() const { return at_ > 0; }
  bool can_forward() const { return at_ + 1 < history_.size(); }
  const Selection& current() const;
  // The panel to bring to front, once.
  std::optional<views::ScreenId> take_panel_request();
  // True once after the selection changed by back/forward or open, so the panel that shows it
  // scrolls to it.
  bool take_scroll_request();
  void clear();

 private:
  std::vector<Selection> history_;
  size_t at_ = 0;
  std::optional<views::ScreenId> panel_request_;
  bool scroll_request_ = false;
};

}  // namespace tlscope::gui
