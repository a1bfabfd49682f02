// Loading the timeline scene through the views/ timeline models.
#include "timeline_scene.hpp"

#include <algorithm>

namespace tlscope::gui {

std::shared_ptr<TimelineScene> load_timeline_scene(const views::Database& db) {
  auto s = std::make_shared<TimelineScene>();
  s->db_path = db.path();
  if (!db.ok()) {
    s->problems.push_back(db.error());
    return s;
  }
  auto take = [&](const char* what, auto result, auto& into) {
    if (!result.ok()) s->problems.push_back(std::string(what) + ": " + result.error);
    into = std::move(result.value);
  };
  take("runs", views::load_trace_runs(db), s->runs);
  int64_t unmatched = 0;
  std::vector<views::TimelineInterval> ivs;
  take("compile phases", views::phase_intervals(db, s->runs, &s->phase_zones, &unmatched), ivs);
  take("collectives", views::load_collective_timeline(db, s->runs), s->collectives);
  for (auto& iv : views::collective_intervals(s->collectives)) ivs.push_back(std::move(iv));
  // The same depth cap as the report's compile timeline, so their lanes agree.
  s->timeline = views::build_timeline(std::move(ivs), views::kPhaseMaxDepth);

  // Alike ranks from views' folding; a group's lanes fold behind its first rank's.
  s->folding = views::fold_collective_lanes(s->collectives);
  const size_t runs = s->runs.runs.size();
  s->timeline_lane_of_collective_lane.assign(s->collectives.lanes.size(), -1);
  for (const views::TimelineLane& lane : s->timeline.lanes) {
    const int c = views::collective_lane(s->collectives, lane.run, lane.rank);
    if (c >= 0 && lane.thread == "collectives")
      s->timeline_lane_of_collective_lane[static_cast<size_t>(c)] =
          static_cast<int>(s->lane_labels.size());
    s->lane_labels.push_back(views::lane_label(lane, runs));
    int g = s->folding.group_of(lane.run, lane.rank);
    if (g >= 0 && s->folding.groups[static_cast<size_t>(g)].lanes.size() < 2) g = -1;
    s->lane_group.push_back(g);
    s->lane_leads.push_back(g < 0 ||
                            s->folding.groups[static_cast<size_t>(g)].ranks.front() == lane.rank);
  }
  return s;
}

int first_lane_of_rank(const TimelineScene& scene, int32_t run, int64_t rank) {
  for (size_t i = 0; i < scene.timeline.lanes.size(); ++i)
    if (scene.timeline.lanes[i].run == run && scene.timeline.lanes[i].rank == rank)
      return static_cast<int>(i);
  return -1;
}

int interval_of_bar(const TimelineScene& scene, int bar) {
  if (bar < 0) return -1;
  // Collective intervals follow the phase intervals in bar order.
  const size_t at = scene.phase_zones.size() + static_cast<size_t>(bar);
  return at < scene.timeline.intervals.size() ? static_cast<int>(at) : -1;
}

int interval_for_key(const TimelineScene& scene, const std::string& key) {
  const auto& ivs = scene.timeline.intervals;
  if (key.size() > 1 && key[0] == '#' &&
      key.find_first_not_of("0123456789", 1) == std::string::npos && key.size() < 11) {
    const size_t i = std::stoul(key.substr(1));
    return i < ivs.size() ? static_cast<int>(i) : -1;
  }
  int best = -1;
  for (size_t i = 0; i < ivs.size(); ++i) {
    if (ivs[i].name != key) continue;
    if (best < 0 || ivs[i].end_us - ivs[i].start_us > ivs[static_cast<size_t>(best)].end_us -
                                                          ivs[static_cast<size_t>(best)].start_us)
      best = static_cast<int>(i);
  }
  return best;
}

int longest_zone_of_compile(const TimelineScene& scene, std::string_view compile_id,
                            int64_t file_id) {
  const auto& ivs = scene.timeline.intervals;
  int best = -1;
  double longest = -1;
  for (size_t i = 0; i < scene.phase_zones.size() && i < ivs.size(); ++i) {
    const views::PhaseZone& z = scene.phase_zones[i];
    if (z.compile_id != compile_id || z.file_id != file_id) continue;
    if (ivs[i].end_us - ivs[i].start_us > longest) {
      longest = ivs[i].end_us - ivs[i].start_us;
      best = static_cast<int>(i);
    }
  }
  return best;
}

}  // namespace tlscope::gui
