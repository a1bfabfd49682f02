// Findings panel (the Summary screen): what was read, then every finding in words, grouped by
// kind, most serious first, each with what it means and what to try (views::load_findings, the
// order and hints the report's index and `tlscope summary` use). Clicking a finding selects it;
// double-click, Enter or "Go to" opens its place: the collective on the timeline, the compile, the
// rank divergence table.
#include "panel.hpp"
#include "status_colours.hpp"
#include "tlscope/views/rank_words.hpp"
#include "tlscope/views/unknown_records.hpp"

namespace tlscope::gui {
namespace {

// Where a finding leads; an empty selection when it has no place the viewer shows.
Selection place_of(const FindingEntry& f) {
  const std::string kind = f.row->kind;
  if (f.place && f.place->is_collective())
    return Selection{SelectionKind::kCollective, f.place->collective_key(),
                     views::ScreenId::collectives};
  if (kind == "rank_divergence")
    return Selection{SelectionKind::kFinding, "", views::ScreenId::ranks};
  if (!f.row->compile_id.empty()) {
    std::string key = f.row->compile_id;
    if (f.row->ranks.size() == 1) key += "@r" + std::to_string(f.row->ranks[0]);
    return Selection{SelectionKind::kCompile, key, views::ScreenId::compile};
  }
  return {};
}

class FindingsPanel : public Panel {
 public:
  FindingsPanel() : Panel(views::ScreenId::summary) {}

  // The lines the panel lists (one fact on many ranks is one line), as the group headers count.
  std::optional<int64_t> count(ViewerSession& session) const override {
    return session.findings().findings.lines;
  }

  void draw(ViewerSession& session) override {
    const FindingList& d = session.findings();
    const views::Summary& s = session.summary();
    const views::RunEnvironment& environment = session.environment();
    ui::text("label", std::to_string(s.files.size()) + " files, " + std::to_string(s.rank_count) +
                          " ranks, " + std::to_string(s.events) + " events, " +
                          std::to_string(s.compiles) + " compiles (" +
                          std::to_string(s.failed_compiles) + " failed), " +
                          std::to_string(s.errors) + " ingest errors");
    const std::string version = views::torch_version_text(environment);
    ui::text("label",
             "PyTorch: " + (version.empty() ? std::string("the logs do not say") : version) +
                 (environment.config_values.empty()
                      ? std::string()
                      : ", " + std::to_string(environment.config_values.size()) +
                            " config values (SQL: run_config)"));
    const std::vector<views::KindCount> unknown = views::unknown_kinds(s.kinds);
    if (!unknown.empty()) {
      int64_t records = 0;
      std::string list;
      for (const auto& k : unknown) {
        records += k.count;
        list += (list.empty() ? "" : ", ") + k.kind + " (" + std::to_string(k.count) + ")";
      }
      ui::text_wrapped("label", std::to_string(records) + " records of " +
                                    std::to_string(unknown.size()) +
                                    " kinds tlscope does not know: " + list);
    }
    if (d.findings.analysed && d.findings.total != d.findings.lines) {
      ui::text("label", std::to_string(d.findings.total) + " findings in " +
                            std::to_string(d.findings.lines) + " lines");
    }
    for (const auto& p : session.load_problems()) ui::text_colored("error", kColourError, p);
    ImGui::Separator();
    if (!d.findings.analysed) {
      ui::text_colored("label", kColourWarning,
                       "Not analysed: run `tlscope analyze` on the database for findings.");
      return;
    }
    if (d.order.empty()) {
      ui::text_colored("label", kColourOk,
                       "No findings: nothing went wrong that tlscope knows of.");
      return;
    }
    const bool scroll = scroll_to_ >= 0;
    const views::FindingGroup* group = nullptr;
    bool group_open = true;
    for (size_t i = 0; i < d.order.size(); ++i) {
      const FindingEntry& f = d.order[i];
      if (i == 0 || f.group != group) {
        group = f.group;
        const std::string title =
            group ? std::string(group->kind->title) + "  (" + std::to_string(group->count) + ")"
                  : std::string("Other findings");
        ImGui::PushStyleColor(ImGuiCol_Text,
                              group ? rgb_colour(group->kind->colour) : kColourMuted);
        ImGui::SetNextItemOpen(true, ImGuiCond_Once);
        group_open = ImGui::CollapsingHeader(
            (ui::imgui_label(title) + "##group" + std::to_string(i)).c_str());
        ImGui::PopStyleColor();
        ui::record("group", title);
      }
      if (!group_open) continue;
      const std::string key = std::to_string(i + 1);
      std::string text = key + ". " + f.row->message;
      // The ranks, unless the line already starts with them (a fact merged across ranks).
      const std::string ranks = views::rank_words(f.row->ranks, d.findings.job_ranks);
      if (!f.row->ranks.empty() && !f.row->ranks_first) text += "   [" + ranks + "]";
      const bool selected = session.nav().current().kind == SelectionKind::kFinding &&
                            session.nav().current().key == key;
      const bool clicked = ui::selectable_wrapped("finding", text, selected,
                                                  severity_colour(f.row->severity), key.c_str());
      if (clicked) {
        session.nav().select(Selection{SelectionKind::kFinding, key, screen()});
        if (ImGui::IsMouseDoubleClicked(0)) go_to(session, f);
      }
      if (ImGui::IsItemFocused() && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)))
        go_to(session, f);
      draw_hint(f.row->hint.line());
      if (scroll && scroll_to_ == static_cast<int>(i)) {
        ImGui::SetScrollHereY(0.3f);
        scroll_to_ = -1;
      }
    }
    if (!d.findings.late_again.empty()) {
      ImGui::Spacing();
      ui::text("heading", "Late again and again");
      for (const auto& late : d.findings.late_again) {
        ui::text_colored("row", kColourWarning,
                         views::rank_words(late.ranks, d.findings.job_ranks) + " of group " +
                             late.pg_name + " was late " + std::to_string(late.times) +
                             " times, keeping the others waiting " +
                             std::to_string(static_cast<int64_t>(late.wait_us / 1000)) + " ms");
      }
    }
  }

  views::Status select(ViewerSession& session, const Selection& s) override {
    if (s.kind != SelectionKind::kFinding) return Panel::select(session, s);
    const std::vector<FindingEntry>& order = session.findings().order;
    const size_t k = static_cast<size_t>(std::stoll(s.key));
    views::Status r;
    if (k < 1 || k > order.size()) {
      r.fail("there are " + std::to_string(order.size()) + " findings (finding:K counts from 1)");
      return r;
    }
    scroll_to_ = static_cast<int>(k - 1);
    return r;
  }

  void draw_details(ViewerSession& session, const Selection& s) override {
    const FindingList& d = session.findings();
    const size_t k = static_cast<size_t>(std::stoll(s.key));
    if (k < 1 || k > d.order.size()) return;
    const FindingEntry& f = d.order[k - 1];
    ui::text_colored("details", severity_colour(f.row->severity),
                     "Finding " + s.key + ": " + f.row->kind + " (" + f.row->severity + ")");
    ui::text_wrapped("details", f.row->message);
    ui::text_wrapped("details", "What it means: " + f.row->hint.meaning);
    ui::text_wrapped("details", "What to try: " + f.row->hint.try_this);
    if (f.row->occurrences > 1)
      ui::text("details", std::to_string(f.row->occurrences) + " findings on this line");
    if (!f.row->ranks.empty())
      ui::text("details", "on " + views::rank_words(f.row->ranks, d.findings.job_ranks));
    if (f.place && !f.place->other_ranks.empty()) {
      ui::text("details",
               "against " + views::rank_words(f.place->other_ranks, d.findings.job_ranks));
    }
    if (f.place && f.place->is_collective()) {
      ui::text("details", "collective: group " + f.place->pg_name + ", sequence " +
                              std::to_string(f.place->seq));
    }
    if (!f.row->compile_id.empty()) ui::text("details", "compile: " + f.row->compile_id);
    const Selection place = place_of(f);
    if (!place.empty() &&
        ui::button("button", "Go to " + std::string(views::screen(place.panel).viewer_label())))
      go_to(session, f);
  }

 private:
  // The finding's meaning and what to try, muted and indented under it.
  static void draw_hint(const std::string& hint) {
    ImGui::Indent();
    ImGui::PushStyleColor(ImGuiCol_Text, kColourMuted);
    ui::text_wrapped("hint", hint);
    ImGui::PopStyleColor();
    ImGui::Unindent();
  }

  static void go_to(ViewerSession& session, const FindingEntry& f) {
    Selection place = place_of(f);
    if (place.empty()) return;
    if (place.key.empty()) {
      session.nav().show_panel(place.panel);
      return;
    }
    session.nav().open(place);
  }

  int scroll_to_ = -1;
};

}  // namespace

std::unique_ptr<Panel> make_findings_panel() {
  return std::make_unique<FindingsPanel>();
}

}  // namespace tlscope::gui
