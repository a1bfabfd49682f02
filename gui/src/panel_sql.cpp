// SQL console: a read-only query against the open database (views::run_read_only_query), the
// result in a sortable table, an error shown in place.
#include <cstdio>

#include "panel.hpp"
#include "table_view.hpp"
#include "tlscope/views/read_only_query.hpp"

namespace tlscope::gui {
namespace {

const ImVec4 kErrorColour(1.0f, 0.45f, 0.45f, 1.0f);

class SqlPanel : public Panel {
 public:
  SqlPanel() : Panel(views::ScreenId::sql) {
    std::snprintf(sql_, sizeof sql_, "%s",
                  "SELECT kind, count(*) AS n FROM events GROUP BY kind ORDER BY n DESC");
  }

  void draw(ViewerSession& session) override {
    ui::text_disabled("label", "Read-only SQL over the database (docs/schema.md); Ctrl+Enter runs");
    const float box_h = ImGui::GetTextLineHeight() * 4 + 8;
    ImGui::InputTextMultiline("##sql", sql_, sizeof sql_, ImVec2(-FLT_MIN, box_h));
    const bool ctrl_enter = ImGui::IsItemFocused() && ImGui::GetIO().KeyCtrl &&
                            ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false);
    ui::record("query", sql_);
    if (ui::button("button", "Run") || ctrl_enter) run(session);
    if (!ran_) return;
    if (!result_.ok) {
      ui::text_colored("error", kErrorColour, result_.error);
      return;
    }
    if (result_.truncated) {
      ImGui::SameLine();
      ui::text_disabled("label", "(first " + std::to_string(result_.rows.size()) + " rows)");
    }
    view_.draw("##sql_result", table_);
  }

  views::Status select(ViewerSession& session, const Selection& s) override {
    if (s.kind != SelectionKind::kQuery) return Panel::select(session, s);
    std::snprintf(sql_, sizeof sql_, "%s", s.key.c_str());
    run(session);
    return {};
  }

  void draw_details(ViewerSession&, const Selection& s) override {
    ui::text("details", "Query");
    ui::text_wrapped("details", s.key);
    if (ran_ && result_.ok) {
      ui::text("details", std::to_string(result_.rows.size()) + " rows, " +
                              std::to_string(result_.columns.size()) + " columns");
    }
  }

 private:
  // A person's SQL runs on a connection of its own, opened read-only with an authorizer that
  // admits reads only (views/read_only_query.hpp): whatever it is, it cannot change the session's
  // connection (its temporary views, its guards) that every panel reads through.
  void run(ViewerSession& session) {
    ran_ = true;
    result_ = views::run_read_only_query(session.db_path(), sql_);
    table_.columns = result_.columns;
    table_.rows.clear();
    for (const auto& row : result_.rows) {
      auto& cells = table_.rows.emplace_back();
      for (const auto& c : row) {
        TableCell cell{c.is_null ? "NULL" : c.text};
        if (c.is_number) cell.number = c.number;
        cells.push_back(std::move(cell));
      }
    }
    view_ = TableView();
    session.nav().select(Selection{SelectionKind::kQuery, sql_, screen()});
  }

  char sql_[8192] = "";
  bool ran_ = false;
  views::QueryResult result_;
  TableData table_;
  TableView view_;
};

}  // namespace

std::unique_ptr<Panel> make_sql_panel() {
  return std::make_unique<SqlPanel>();
}

}  // namespace tlscope::gui
