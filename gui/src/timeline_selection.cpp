// The timeline panel on a selection: --select zone:NAME, collective:GROUP:SEQ and finding:K, the
// findings panel's click-through, and the details pane of the selected zone or collective.
#include "timeline_panel.hpp"
#include "tlscope/views/time_format.hpp"

namespace tlscope::gui {

views::Status TimelinePanel::select(ViewerSession& session, const Selection& s) {
  ensure(session);
  auto fail = [](const std::string& w) {
    views::Status r;
    r.fail(w);
    return r;
  };
  const views::CollectiveTimeline& c = scene_->collectives;
  if (s.kind == SelectionKind::kZone) {
    const int iv = interval_for_key(*scene_, s.key);
    if (iv < 0) return fail("no zone named " + s.key + " on the timeline");
    selected_ = iv;
    selected_marker_ = -1;
    const auto& z = scene_->timeline.intervals[static_cast<size_t>(iv)];
    view_.focus(z.start_us, z.end_us, 0.5);
    reveal_lane(first_lane_of_rank(*scene_, z.run, z.rank));
    return {};
  }
  if (s.kind == SelectionKind::kCollective) {
    const size_t colon = s.key.rfind(':');
    const std::string pg = s.key.substr(0, colon);
    const std::string seq_text = colon == std::string::npos ? "" : s.key.substr(colon + 1);
    if (seq_text.empty() || seq_text.find_first_not_of("0123456789") != std::string::npos ||
        seq_text.size() > 15)
      return fail("a collective is GROUP:SEQ with a number for SEQ");
    const int64_t seq = std::stoll(seq_text);
    const int bar = views::find_collective_bar(c, pg, seq);
    if (bar < 0) return fail("no collective " + std::to_string(seq) + " of group " + pg);
    selected_ = interval_of_bar(*scene_, bar);
    focus_collective(pg, seq);
    // A click-through from a finding: the ranks involved are marked; select the first marker
    // and the bar of its rank.
    selected_marker_ = -1;
    for (size_t i = 0; i < c.markers.size() && selected_marker_ < 0; ++i) {
      const auto& m = c.markers[i];
      if (m.pg_name != pg || m.seq != seq) continue;
      selected_marker_ = static_cast<int>(i);
      for (size_t b = 0; b < c.bars.size(); ++b)
        if (c.bars[b].pg_name == pg && c.bars[b].seq == seq && c.bars[b].rank == m.rank)
          selected_ = interval_of_bar(*scene_, static_cast<int>(b));
      reveal_lane(lane_of_marker(m));
    }
    return {};
  }
  if (s.kind == SelectionKind::kFinding) {
    // The key comes from --select (checked there) or another panel: parse it defensively.
    if (s.key.empty() || s.key.size() > 9 ||
        s.key.find_first_not_of("0123456789") != std::string::npos)
      return fail("a finding is its 1-based position in the findings list");
    const size_t k = static_cast<size_t>(std::stoul(s.key));
    const std::vector<FindingEntry>& order = session.findings().order;
    if (k < 1 || k > order.size())
      return fail("there are " + std::to_string(order.size()) + " findings");
    const int64_t id = order[k - 1].row->id;
    for (size_t i = 0; i < c.markers.size(); ++i) {
      const auto& m = c.markers[i];
      if (m.finding_id != id) continue;
      selected_marker_ = static_cast<int>(i);
      selected_ = -1;
      for (size_t b = 0; b < c.bars.size(); ++b)
        if (c.bars[b].pg_name == m.pg_name && c.bars[b].seq == m.seq &&
            (selected_ < 0 || c.bars[b].rank == m.rank))
          selected_ = interval_of_bar(*scene_, static_cast<int>(b));
      focus_collective(m.pg_name, m.seq);
      reveal_lane(lane_of_marker(m));
      return {};
    }
    return fail("finding " + s.key + " is not about a collective");
  }
  return fail("the timeline selects zones, collectives and collective findings");
}

void TimelinePanel::describe_interval(ViewerSession& session, int interval) {
  const views::Timeline& t = scene_->timeline;
  const auto& iv = t.intervals[static_cast<size_t>(interval)];
  ui::text("details", iv.name);
  ui::text("details", "duration " + views::format_duration_us(iv.end_us - iv.start_us) +
                          ", starts at +" + views::format_duration_us(iv.start_us) + " in run " +
                          std::to_string(iv.run + 1));
  if (iv.source == views::TimelineSource::collective) {
    const auto& c = scene_->collectives;
    const auto& bar = c.bars[static_cast<size_t>(iv.source_id)];
    ui::text("details", "rank " + std::to_string(bar.rank) + ", " + views::bar_detail(bar));
    if (bar.problem != views::ProblemKind::none)
      ui::text_colored("details", ImVec4(1, 0.4f, 0.4f, 1),
                       std::string("problem: ") + std::string(views::style_of(bar.problem).label));
    ImGui::Separator();
    ui::text("heading", "The same collective on every rank");
    for (const auto& other : c.bars) {
      if (other.pg_name != bar.pg_name || other.seq != bar.seq || other.run != bar.run) continue;
      ui::text("details", "rank " + std::to_string(other.rank) + ": " + other.op + " " +
                              other.input_sizes + ", " +
                              views::format_duration_us(other.end_us - other.start_us) + " at +" +
                              views::format_duration_us(other.start_us) + ", " + other.state);
    }
    for (const auto& m : c.markers)
      if (m.pg_name == bar.pg_name && m.seq == bar.seq)
        ui::text_colored("marker", ImVec4(1, 0.45f, 0.45f, 1), m.text);
    return;
  }
  // A phase: every column of its chromium_events row, args included, read once per selection.
  if (details_for_ != interval) {
    details_for_ = interval;
    details_.clear();
    views::Result<views::EventFields> fields =
        views::phase_event_fields(session.db(), iv.source_id);
    details_ = std::move(fields.value);
    if (!fields.ok()) details_.emplace_back("error", fields.error);
  }
  for (const auto& [name, value] : details_) {
    std::string shown = value.size() > 4000 ? value.substr(0, 4000) + " ..." : value;
    ui::text_wrapped("details", name + ": " + shown);
  }
}

void TimelinePanel::draw_details(ViewerSession& session, const Selection& s) {
  ensure(session);
  if ((s.kind == SelectionKind::kFinding || s.kind == SelectionKind::kCollective) &&
      selected_marker_ >= 0) {
    const auto& m = scene_->collectives.markers[static_cast<size_t>(selected_marker_)];
    ui::text_colored(
        "details", ImVec4(1, 0.45f, 0.45f, 1),
        std::string(views::style_of(m.kind).label) + " on rank " + std::to_string(m.rank));
    ui::text_wrapped("details", m.text);
    ImGui::Separator();
  }
  int interval = selected_;
  if (s.kind == SelectionKind::kZone) interval = interval_for_key(*scene_, s.key);
  if (interval >= 0 && static_cast<size_t>(interval) < scene_->timeline.intervals.size())
    describe_interval(session, interval);
  else
    Panel::draw_details(session, s);
}

}  // namespace tlscope::gui
