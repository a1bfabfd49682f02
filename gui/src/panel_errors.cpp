// Ingest errors panel: every input problem the ingest recorded (file, line, kind, reason,
// excerpt); a row's details show the whole excerpt.
#include "panel.hpp"
#include "table_view.hpp"

namespace tlscope::gui {
namespace {

constexpr std::string_view kRecordPrefix = "ingest_errors:";

// The table shows the file's base name (the column stays narrow); the details, the full path.
std::string place(const views::IngestErrorRow& e, bool full = false) {
  if (e.path.empty()) return "(no file)";
  const std::string file = full ? e.path : e.path.substr(e.path.find_last_of('/') + 1);
  return file + ":" + (e.line >= 0 ? std::to_string(e.line) : "?");
}

class ErrorsPanel : public Panel {
 public:
  ErrorsPanel() : Panel(views::ScreenId::errors) {}

  std::optional<int64_t> count(const ViewerData& data) const override {
    return data.summary.errors;
  }

  void draw(PanelContext& ctx) override {
    const auto& errors = ctx.data.errors;
    if (table_.rows.size() != errors.size() || table_.columns.empty()) build(errors);
    if (static_cast<int64_t>(errors.size()) < ctx.data.summary.errors) {
      ui::text_disabled("label", "showing the first " + std::to_string(errors.size()) + " of " +
                                     std::to_string(ctx.data.summary.errors) + " errors");
    }
    if (errors.empty()) {
      ui::text("label", "No ingest errors: every line was read.");
      return;
    }
    int clicked = view_.draw("##errors", table_);
    if (clicked >= 0) {
      ctx.nav.select(Selection{
          SelectionKind::kRecord,
          std::string(kRecordPrefix) + std::to_string(errors[static_cast<size_t>(clicked)].id),
          screen()});
    }
  }

  bool select(PanelContext& ctx, const Selection& s, std::string* why) override {
    const views::IngestErrorRow* e = find(ctx.data, s);
    if (!e) {
      if (why) *why = "no ingest error " + s.key;
      return false;
    }
    view_.set_selected(static_cast<int>(e - ctx.data.errors.data()));
    return true;
  }

  void draw_details(PanelContext& ctx, const Selection& s) override {
    const views::IngestErrorRow* e = find(ctx.data, s);
    if (!e) {
      ui::text_disabled("details", "ingest error " + s.key + " is not in this database");
      return;
    }
    ui::text("details", "Ingest error " + std::to_string(e->id));
    ui::text_wrapped("details", "at " + place(*e, true));
    ui::text("details", "kind: " + e->kind);
    ui::text_wrapped("details", "reason: " + views::ingest_error_what(*e));
    ImGui::Separator();
    ui::text("details", "excerpt:");
    ui::text_wrapped("details", e->excerpt);
  }

 private:
  void build(const std::vector<views::IngestErrorRow>& errors) {
    table_.columns = {"file:line", "kind", "reason", "excerpt"};
    table_.rows.clear();
    for (const auto& e : errors) {
      table_.rows.push_back({TableCell{place(e)}, TableCell{e.kind},
                             TableCell{views::ingest_error_what(e)}, TableCell{e.excerpt}});
    }
    view_.invalidate();
  }

  static const views::IngestErrorRow* find(const ViewerData& data, const Selection& s) {
    if (s.kind != SelectionKind::kRecord || s.key.rfind(kRecordPrefix, 0) != 0) return nullptr;
    const std::string id = s.key.substr(kRecordPrefix.size());
    for (const auto& e : data.errors)
      if (std::to_string(e.id) == id) return &e;
    return nullptr;
  }

  TableData table_;
  TableView view_;
};

}  // namespace

std::unique_ptr<Panel> make_errors_panel() {
  return std::make_unique<ErrorsPanel>();
}

}  // namespace tlscope::gui
