// Loading the viewer's data through the views layer's loaders: a loader that fails leaves its
// part empty and its message in load_problems, and the rest still shows.
#include <cstdio>

#include "timeline_scene.hpp"
#include "tlscope/views/phase_timeline.hpp"
#include "viewer_data.hpp"

namespace tlscope::gui {
namespace {

// At most this many ingest errors are loaded; the panel says how many there are in all.
constexpr size_t kMaxErrors = 10000;

}  // namespace

std::string compile_key(const views::CompileRow& c) {
  return c.rank >= 0 ? c.compile_id + "@r" + std::to_string(c.rank) : c.compile_id;
}

const views::CompileRow* find_compile(const ViewerData& data, std::string_view key) {
  const bool with_rank = key.find("@r") != std::string_view::npos;
  for (const auto& c : data.compile_tree.compiles) {
    if (with_rank ? compile_key(c) == key : c.compile_id == key) return &c;
  }
  return nullptr;
}

bool load_viewer_data(const std::string& db_path, const ViewerOptions& options, ViewerData& data,
                      std::string* error) {
  views::Database db(db_path);
  std::string refused = db.not_tlscope_reason();
  if (!refused.empty()) {
    if (error) *error = refused;
    return false;
  }
  data.db_path = db_path;
  auto take = [&](auto result, auto& into) {
    if (!result.ok()) data.load_problems.push_back(result.error);
    into = std::move(result.value);
  };
  take(views::load_summary(db), data.summary);
  take(views::load_run_environment(db), data.environment);
  take(views::load_findings(db), data.findings);
  take(views::load_finding_places(db), data.finding_places);
  take(views::load_compile_tree(db), data.compile_tree);
  views::Paged<views::IngestErrorRow> errors;
  take(views::load_ingest_errors(db, views::Page{0, kMaxErrors}), errors);
  data.errors = std::move(errors.rows);
  for (auto list : {views::OccurrenceList::kGraphBreaks, views::OccurrenceList::kRecompiles,
                    views::OccurrenceList::kFailures, views::OccurrenceList::kRestarts,
                    views::OccurrenceList::kCache}) {
    take(views::load_occurrence_groups(db, list), data.occurrences[list]);
  }
  take(views::load_cache_totals(db), data.cache_totals);
  take(views::load_rank_divergence(db), data.divergence);
  take(views::load_collective_parity(db), data.collective_parity);
  take(views::load_graph_runtimes(db), data.graph_runtimes);
  take(views::load_tensor_snapshots(db), data.snapshots);
  take(views::load_tensor_layouts(db), data.layouts);
  take(views::load_export_report(db), data.export_report);
  std::string why;
  data.tensors = views::load_tensors(db, &why);
  if (!why.empty()) data.load_problems.push_back(why);
  why.clear();
  data.timeline = views::load_phase_timeline(db, views::load_trace_runs(db, &why), &why).timeline;
  if (!why.empty()) data.load_problems.push_back(why);
  data.timeline_scene = load_timeline_scene(db_path);

  for (const auto& group : data.findings.groups) {
    for (const auto& row : group.rows) data.finding_order.push_back({&row, &group, nullptr});
  }
  for (const auto& row : data.findings.unknown)
    data.finding_order.push_back({&row, nullptr, nullptr});
  for (auto& entry : data.finding_order) {
    auto at = data.finding_places.find(entry.row->id);
    if (at != data.finding_places.end()) entry.place = &at->second;
  }

  std::snprintf(data.tensor_view.mesh, sizeof data.tensor_view.mesh, "%s",
                options.tensor_mesh.c_str());
  std::snprintf(data.tensor_view.placement, sizeof data.tensor_view.placement, "%s",
                options.tensor_placement.c_str());
  // Start on what the log holds: its logged values first, else a described tensor.
  auto& tv = data.tensor_view;
  if (!options.tensor_shape.empty()) {
    std::snprintf(tv.shape, sizeof tv.shape, "%s", options.tensor_shape.c_str());
  } else if (!data.snapshots.entries.empty()) {
    tv.source = TensorSource::kSnapshot;
    tv.picked = 0;
  } else {
    for (size_t i = 0; i < data.tensors.size(); ++i) {
      if (!data.tensors[i].shape) continue;
      tv.source = TensorSource::kDescribed;
      tv.picked = static_cast<int>(i);
      break;
    }
  }
  return true;
}

}  // namespace tlscope::gui
