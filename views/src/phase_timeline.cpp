// The compile-phase timeline from chromium_events.
#include "tlscope/views/phase_timeline.hpp"

#include <unordered_map>

#include "tlscope/views/cell_text.hpp"

namespace tlscope::views {

Result<std::vector<TimelineInterval>> phase_intervals(const Database& db, const TraceRuns& runs,
                                                      std::vector<PhaseZone>* zones,
                                                      int64_t* unmatched) {
  Result<std::vector<TimelineInterval>> result;
  std::vector<TimelineInterval>& out = result.value;
  if (!db.has_table("chromium_events")) return result;
  // A log repeats a few dozen phase names over and over: each is classified once.
  struct ZoneKind {
    uint8_t kind = 0;  // a PhaseKind, or a CollectiveKind for an op zone
    bool op_zone = false;
  };
  std::unordered_map<std::string, ZoneKind> kinds;
  // A matched B row carries its E's time in dur; an unmatched B or E has dur NULL. The rank is
  // the file's, as everywhere (docs/schema.md): multi_rank_schedule's rank 1 and 2 files log
  // "rank": 0 on every record, which put all three ranks' phases on rank 0's lanes.
  db.prepare(
        "SELECT c.id, coalesce(f.rank, c.rank), c.file_id, c.pid, c.tid, c.name, c.ts, c.dur, "
        "c.ph, coalesce(c.compile_id, ''), coalesce(c.cat, '') FROM chromium_events c "
        "LEFT JOIN files f ON f.id = c.file_id WHERE c.ts IS NOT NULL AND "
        "((c.dur IS NOT NULL AND c.ph IN ('B', 'X')) OR c.ph IN ('i', 'I', 'B', 'E')) "
        "ORDER BY c.id")
      .for_each(
          [&](const Statement& st) {
            const std::string_view ph = st.text_view(8);
            const bool instant = ph == "i" || ph == "I";
            if (!instant && st.is_null(7)) {
              if (unmatched) ++*unmatched;
              return;
            }
            TimelineInterval iv;
            iv.source_id = st.int64(0);
            iv.rank = st.int64_or(1, -1);
            const int64_t file = st.int64(2);
            iv.run = runs.run_of(file);
            // Without a rank, files must not share lanes: their pids may collide.
            std::string& thread = iv.thread;
            if (iv.rank < 0) thread.append("file ").append(std::to_string(file)).append(" ");
            thread.append("pid ");
            append_clipped(thread, st.text_view(3));
            thread.append(" tid ");
            append_clipped(thread, st.text_view(4));
            iv.name = st.text(5);
            iv.start_us = st.real(6) - runs.origin_us(iv.run);
            iv.end_us = instant ? iv.start_us : iv.start_us + st.real(7);
            iv.instant = instant;
            if (instant) {
              iv.kind = static_cast<uint8_t>(PhaseKind::instant);
            } else {
              auto [it, added] = kinds.try_emplace(iv.name);
              if (added) {
                CollectiveKind op{};
                it->second.op_zone = is_collective_zone(iv.name, &op);
                it->second.kind = it->second.op_zone
                                      ? static_cast<uint8_t>(op)
                                      : static_cast<uint8_t>(classify_phase(iv.name));
              }
              iv.kind = it->second.kind;
              iv.op_zone = it->second.op_zone;
            }
            if (zones) zones->push_back({st.text(9), st.text(10), file});
            out.push_back(std::move(iv));
          },
          result);
  return result;
}

Result<PhaseTimeline> load_phase_timeline(const Database& db, const TraceRuns& runs) {
  Result<PhaseTimeline> out;
  PhaseTimeline& p = out.value;
  p.runs = runs;
  auto intervals = phase_intervals(db, runs, &p.zones, &p.unmatched);
  out.fail(intervals.error);
  for (const auto& iv : intervals.value) ++(iv.instant ? p.instants : p.phases);
  p.timeline = build_timeline(std::move(intervals.value), kPhaseMaxDepth);
  return out;
}

std::string lane_label(const TimelineLane& lane, size_t run_count) {
  std::string label;
  if (run_count > 1) label = "run " + std::to_string(lane.run + 1) + " \xC2\xB7 ";
  if (lane.rank >= 0) label += "rank " + std::to_string(lane.rank) + " \xC2\xB7 ";
  return label + lane.thread;
}

Result<EventFields> phase_event_fields(const Database& db, int64_t chromium_event_id) {
  Result<EventFields> out;
  EventFields& fields = out.value;
  if (!db.has_table("chromium_events")) return out;
  Statement st = db.prepare("SELECT * FROM chromium_events WHERE id = ?");
  st.bind(1, chromium_event_id);
  st.for_each(
      [&](const Statement& row) {
        for (int c = 0; c < row.column_count(); ++c)
          fields.emplace_back(std::string(row.column_name(c)),
                              row.is_null(c) ? "NULL" : row.text(c));
      },
      out);
  return out;
}

}  // namespace tlscope::views
