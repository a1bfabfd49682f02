// The occurrence tables: graph breaks, recompiles, failures and restarts, cache outcomes
// (views::load_occurrence_groups), one group per row, most frequent first. A row's details list
// every occurrence, each opening its compile; double-clicking a row opens its first compile.
#include "panel.hpp"
#include "parity_sections.hpp"
#include "status_colours.hpp"
#include "table_view.hpp"

namespace tlscope::gui {
namespace {

struct ListOfScreen {
  views::ScreenId screen;
  std::vector<views::OccurrenceList> lists;
  std::vector<const char*> titles;  // one per list, shown above its table when there are several
};

ListOfScreen lists_of(views::ScreenId screen) {
  using L = views::OccurrenceList;
  switch (screen) {
    case views::ScreenId::recompiles:
      return {screen, {L::kRecompiles}, {"Recompiles"}};
    case views::ScreenId::failures:
      return {screen, {L::kFailures, L::kRestarts}, {"Failures", "Restarts"}};
    case views::ScreenId::cache:
      return {screen, {L::kCache}, {"Cache outcomes"}};
    default:
      return {screen, {L::kGraphBreaks}, {"Graph breaks"}};
  }
}

std::string rank_set(const std::set<int64_t>& ranks) {
  std::string s;
  for (int64_t r : ranks) s += (s.empty() ? "" : ",") + std::to_string(r);
  return s.empty() ? "-" : s;
}

ImVec4 tone_colour(views::CellTone tone) {
  switch (tone) {
    case views::CellTone::kGood:
      return kColourOk;
    case views::CellTone::kWarn:
      return kColourWarning;
    case views::CellTone::kMuted:
      return kColourMuted;
    default:
      return ImGui::GetStyle().Colors[ImGuiCol_Text];
  }
}

class OccurrencePanel : public Panel {
 public:
  explicit OccurrencePanel(views::ScreenId screen) : Panel(screen), lists_(lists_of(screen)) {
    tables_.resize(lists_.lists.size());
    views_.resize(lists_.lists.size());
  }

  std::optional<int64_t> count(ViewerSession& session) const override {
    int64_t n = 0;
    for (auto list : lists_.lists) n += session.occurrences(list).occurrence_count;
    return n;
  }

  void draw(ViewerSession& session) override {
    if (built_for_ != session.id()) {
      // A new session: its tables are built from its models as they are first drawn.
      built_for_ = session.id();
      for (auto& t : tables_) t = TableData{};
      for (auto& v : views_) v = TableView{};
    }
    if (screen() == views::ScreenId::cache) {
      const auto& t = session.cache_totals();
      ui::text("label", std::to_string(t.hits) + " hits, " + std::to_string(t.misses) +
                            " misses, " + std::to_string(t.bypasses) + " bypasses");
    }
    const float each = ImGui::GetContentRegionAvail().y / static_cast<float>(lists_.lists.size()) -
                       ImGui::GetFrameHeightWithSpacing() * 2;
    for (size_t i = 0; i < lists_.lists.size(); ++i) {
      const views::OccurrenceGroups* groups = groups_of(session, i);
      if (lists_.lists.size() > 1) ui::text("heading", lists_.titles[i]);
      if (!groups || groups->groups.empty()) {
        ui::text_disabled("label", std::string("No ") + lists_.titles[i] + " in this database.");
        continue;
      }
      if (tables_[i].columns.empty()) build(*groups, tables_[i]);
      ImGui::PushID(static_cast<int>(i));
      const int clicked = views_[i].draw("##groups", tables_[i], std::max(120.0f, each));
      ImGui::PopID();
      if (clicked < 0) continue;
      session.nav().select(
          Selection{SelectionKind::kRecord, record_key(i, static_cast<size_t>(clicked)), screen()});
      const auto& occ = groups->groups[static_cast<size_t>(clicked)].occurrences;
      if (ImGui::IsMouseDoubleClicked(0) && !occ.empty()) open_compile(session, occ.front());
    }
  }

  views::Status select(ViewerSession& session, const Selection& s) override {
    size_t list = 0, group = 0;
    if (s.kind != SelectionKind::kRecord || !parse_key(s.key, &list, &group) ||
        !groups_of(session, list) || group >= groups_of(session, list)->groups.size()) {
      return Panel::select(session, s);
    }
    views_[list].set_selected(static_cast<int>(group));
    return {};
  }

  void draw_details(ViewerSession& session, const Selection& s) override {
    size_t list = 0, index = 0;
    const views::OccurrenceGroups* groups = nullptr;
    if (!parse_key(s.key, &list, &index) || !(groups = groups_of(session, list)) ||
        index >= groups->groups.size()) {
      return;
    }
    const views::OccurrenceGroup& g = groups->groups[index];
    ui::text("details", std::string(lists_.titles[list]) + ": " + std::to_string(g.count) +
                            " occurrences on ranks " + rank_set(g.ranks));
    for (size_t c = 0; c < g.cells.size() && c < groups->headers.size(); ++c)
      ui::text_wrapped("details", groups->headers[c] + ": " + g.cells[c].text);
    ImGui::Separator();
    for (size_t k = 0; k < g.occurrences.size(); ++k) {
      const views::Occurrence& o = g.occurrences[k];
      std::string text = (o.rank >= 0 ? "rank " + std::to_string(o.rank) + " " : "") + "[" +
                         o.compile_id + "] line " + std::to_string(o.line);
      if (!o.detail.empty()) text += ": " + o.detail;
      if (ui::selectable("occurrence", text, false, 0, std::to_string(k).c_str()))
        open_compile(session, o);
    }
  }

 private:
  const views::OccurrenceGroups* groups_of(ViewerSession& session, size_t i) const {
    if (i >= lists_.lists.size()) return nullptr;
    return &session.occurrences(lists_.lists[i]);
  }

  static std::string record_key(size_t list, size_t group) {
    return "group:" + std::to_string(list) + ":" + std::to_string(group);
  }

  static bool parse_key(const std::string& key, size_t* list, size_t* group) {
    return std::sscanf(key.c_str(), "group:%zu:%zu", list, group) == 2;
  }

  static void open_compile(ViewerSession& session, const views::Occurrence& o) {
    if (o.compile_id.empty()) return;
    session.nav().open(Selection{SelectionKind::kCompile, compile_key(o.compile_id, o.rank),
                                 views::ScreenId::compile});
  }

  // Count and ranks first: group cells can be long (reasons, guards), and the numbers must stay
  // in view without scrolling sideways.
  static void build(const views::OccurrenceGroups& groups, TableData& table) {
    table.columns = {"count", "ranks"};
    table.columns.insert(table.columns.end(), groups.headers.begin(), groups.headers.end());
    for (const auto& g : groups.groups) {
      auto& row = table.rows.emplace_back();
      row.push_back(number_cell(g.count));
      row.push_back(TableCell(rank_set(g.ranks)));
      for (const auto& cell : g.cells) {
        TableCell c(cell.text);
        if (cell.tone != views::CellTone::kPlain && cell.tone != views::CellTone::kPreformatted)
          c.colour = tone_colour(cell.tone);
        row.push_back(std::move(c));
      }
      row.resize(table.columns.size());
    }
  }

  ListOfScreen lists_;
  std::vector<TableData> tables_;
  std::vector<TableView> views_;
  uint64_t built_for_ = 0;  // the session tables_ were built from
};

class DivergencePanel : public Panel {
 public:
  DivergencePanel() : Panel(views::ScreenId::ranks) {}

  std::optional<int64_t> count(ViewerSession& session) const override {
    return static_cast<int64_t>(session.divergence().divergences.total);
  }

  void draw(ViewerSession& session) override {
    if (built_for_ != session.id()) {
      built_for_ = session.id();
      counts_ = rows_ = TableData{};
      counts_view_ = rows_view_ = TableView{};
      parity_ = ParitySections{};
    }
    const views::RankDivergence& d = session.divergence();
    if (d.ranks.size() < 2) {
      ui::text("label", "Fewer than two ranks: nothing to compare.");
      parity_.draw(session.collective_parity(), session.graph_runtimes());
      return;
    }
    if (counts_.columns.empty()) build(d);
    ui::text("heading", "Per rank (a cell that differs from most ranks is marked)");
    counts_view_.draw("##counts", counts_,
                      std::max(120.0f, ImGui::GetContentRegionAvail().y * 0.4f));
    ui::text("heading", std::to_string(d.divergences.total) + " divergences");
    const int clicked = rows_view_.draw("##divergences", rows_,
                                        std::max(120.0f, ImGui::GetContentRegionAvail().y * 0.35f));
    if (clicked >= 0) {
      const auto& row = d.divergences.rows[static_cast<size_t>(clicked)];
      if (!row.compile_id.empty())
        session.nav().select(
            Selection{SelectionKind::kCompile, row.compile_id, views::ScreenId::compile_tree});
    }
    parity_.draw(session.collective_parity(), session.graph_runtimes());
  }

 private:
  void build(const views::RankDivergence& d) {
    counts_.columns = {"what"};
    for (int64_t r : d.ranks) counts_.columns.push_back("rank " + std::to_string(r));
    for (const auto& row : d.counts) {
      auto& cells = counts_.rows.emplace_back();
      cells.push_back(TableCell(row.label));
      for (size_t i = 0; i < row.values.size(); ++i) {
        TableCell c(row.values[i]);
        if (i < row.differs.size() && row.differs[i]) {
          c.colour = kColourWarning;
          c.text += " (most: " + row.majority + ")";
        }
        cells.push_back(std::move(c));
      }
    }
    rows_.columns = {"aspect", "compile", "ranks", "value", "other ranks", "their value"};
    for (const auto& r : d.divergences.rows) {
      rows_.rows.push_back({TableCell(r.aspect), TableCell(r.compile_id), TableCell(r.ranks),
                            TableCell(r.value), TableCell(r.other_ranks),
                            TableCell(r.other_value)});
    }
  }

  TableData counts_, rows_;
  TableView counts_view_, rows_view_;
  ParitySections parity_;
  uint64_t built_for_ = 0;  // the session the tables were built from
};

}  // namespace

std::unique_ptr<Panel> make_occurrence_panel(views::ScreenId screen) {
  return std::make_unique<OccurrencePanel>(screen);
}

std::unique_ptr<Panel> make_divergence_panel() {
  return std::make_unique<DivergencePanel>();
}

}  // namespace tlscope::gui
