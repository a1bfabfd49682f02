// Ingest errors panel: every input problem the ingest recorded (file, line, kind, reason,
// excerpt); a row's details show the whole excerpt.
#include "panel.hpp"
#include "table_view.hpp"

namespace tlscope::gui {
namespace {

constexpr std::string_view kErrorRecordPrefix = "ingest_errors:";

// The table shows the file's base name (the column stays narrow); the details, the full path.
std::string place(const views::IngestErrorRow& e, bool full = false) {
  if (e.path.empty()) return "(no file)";
  const std::string file = full ? e.path : e.path.substr(e.path.find_last_of('/') + 1);
  return file + ":" + (e.line >= 0 ? std::to_string(e.line) : "?");
}

class ErrorsPanel : public Panel {
 public:
  ErrorsPanel() : Panel(views::ScreenId::errors) {}

  std::optional<int64_t> count(ViewerSession& session) const override {
    return session.summary().errors;
  }

  void draw(ViewerSession& session) override {
    const auto& errors = session.ingest_errors();
    if (built_for_ != session.id()) build(session.id(), errors);
    const int64_t total = session.summary().errors;
    if (static_cast<int64_t>(errors.size()) < total) {
      ui::text_disabled("label", "showing the first " + std::to_string(errors.size()) + " of " +
                                     std::to_string(total) + " errors");
    }
    if (errors.empty()) {
      ui::text("label", "No ingest errors: every line was read.");
      return;
    }
    int clicked = view_.draw("##errors", table_);
    if (clicked >= 0) {
      session.nav().select(Selection{
          SelectionKind::kRecord,
          std::string(kErrorRecordPrefix) + std::to_string(errors[static_cast<size_t>(clicked)].id),
          screen()});
    }
  }

  views::Status select(ViewerSession& session, const Selection& s) override {
    views::Status r;
    const views::IngestErrorRow* e = find(session, s);
    if (!e) {
      r.fail("no ingest error " + s.key);
      return r;
    }
    view_.set_selected(static_cast<int>(e - session.ingest_errors().data()));
    return r;
  }

  void draw_details(ViewerSession& session, const Selection& s) override {
    const views::IngestErrorRow* e = find(session, s);
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
  void build(uint64_t session_id, const std::vector<views::IngestErrorRow>& errors) {
    built_for_ = session_id;
    table_.columns = {"file:line", "kind", "reason", "excerpt"};
    table_.rows.clear();
    for (const auto& e : errors) {
      table_.rows.push_back({TableCell{place(e)}, TableCell{e.kind},
                             TableCell{views::ingest_error_what(e)}, TableCell{e.excerpt}});
    }
    view_.invalidate();
  }

  static const views::IngestErrorRow* find(ViewerSession& session, const Selection& s) {
    if (s.kind != SelectionKind::kRecord || s.key.rfind(kErrorRecordPrefix, 0) != 0) return nullptr;
    const std::string id = s.key.substr(kErrorRecordPrefix.size());
    for (const auto& e : session.ingest_errors())
      if (std::to_string(e.id) == id) return &e;
    return nullptr;
  }

  TableData table_;
  TableView view_;
  uint64_t built_for_ = 0;  // the session table_ was built from
};

}  // namespace

std::unique_ptr<Panel> make_errors_panel() {
  return std::make_unique<ErrorsPanel>();
}

}  // namespace tlscope::gui
