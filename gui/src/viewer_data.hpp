// Everything the viewer's panels show, loaded once from the database through the views layer,
// plus the per-panel interaction state that other files read (frame statistics for tests).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tlscope/gui/viewer.hpp"
#include "tlscope/views/collective_parity.hpp"
#include "tlscope/views/compile_tree.hpp"
#include "tlscope/views/export_report.hpp"
#include "tlscope/views/finding_places.hpp"
#include "tlscope/views/findings.hpp"
#include "tlscope/views/graph_runtimes.hpp"
#include "tlscope/views/ingest_errors.hpp"
#include "tlscope/views/occurrences.hpp"
#include "tlscope/views/rank_divergence.hpp"
#include "tlscope/views/run_environment.hpp"
#include "tlscope/views/summary.hpp"
#include "tlscope/views/tensor_grid.hpp"
#include "tlscope/views/tensor_screens.hpp"
#include "tlscope/views/timeline.hpp"
#include "tlscope/views/trace_queries.hpp"

namespace tlscope::gui {

struct TimelineScene;  // timeline_scene.hpp

struct TimelineViewState {
  double start_us = 0, end_us = 1;  // visible range
  bool fitted = false;
  views::TimelineFrame last_frame;  // the view model's output for the last frame
  size_t items_drawn = 0;           // of those, the ones inside the visible rows
  size_t folded_drawn = 0;          // drawn items that stand for several zones
};

// What the tensors panel draws: a logged snapshot (tensor_values + dtensor_placement), an input
// layout of the compiles, a describe_tensor row, or a typed shape (the playground).
enum class TensorSource { kSnapshot, kLayout, kDescribed, kTyped };

struct TensorViewState {
  char shape[128] = "2,3,4,5";
  char names[128] = "";
  char mesh[64] = "";
  char placement[128] = "";
  TensorSource source = TensorSource::kTyped;
  int picked = -1;  // index into the source's list (snapshots, layouts, tensors)
  float cell_px = 26.0f;
  bool dirty = true;
  std::string error;
  std::optional<views::TensorGrid> grid;
  float value_width = 0;  // the widest cell text in pixels: cells are at least this wide
  size_t cells_drawn = 0;
};

// One findings row in the findings order (groups most serious first, then kinds this build does
// not know), as `--select finding:K` counts them.
struct FindingEntry {
  const views::FindingRow* row = nullptr;
  const views::FindingGroup* group = nullptr;  // null for an unknown kind
  const views::FindingPlace* place = nullptr;  // null when the finding has no place row
};

struct ViewerData {
  std::string db_path;
  views::Summary summary;
  views::RunEnvironment environment;  // PyTorch version and config (the findings panel header)
  views::Findings findings;
  std::map<int64_t, views::FindingPlace> finding_places;
  std::vector<FindingEntry> finding_order;  // points into findings and finding_places
  views::CompileTree compile_tree;          // its compiles: every compile, in log order
  std::vector<views::IngestErrorRow> errors;
  std::map<views::OccurrenceList, views::OccurrenceGroups> occurrences;
  views::CacheTotals cache_totals;
  views::RankDivergence divergence;
  views::CollectiveParity collective_parity;  // the ranks panel's parity sections
  views::GraphRuntimes graph_runtimes;
  views::TensorSnapshots snapshots;
  views::TensorLayouts layouts;
  std::vector<views::TensorRow> tensors;
  views::Timeline timeline;
  views::ExportReport export_report;  // the export panel's, as the report's export page reads it
  std::vector<std::string> load_problems;  // loaders that failed; shown in the summary
  // The timeline and find-zone panels' scene, read with the rest (off the UI thread: on a 1 GB
  // log it took 200 ms, a frame's worth four times over, when the first frame read it).
  std::shared_ptr<TimelineScene> timeline_scene;
  TimelineViewState timeline_view;
  TensorViewState tensor_view;
};

// A compile's selection key: "0/0", with "@rN" for a compile of rank N's log ("0/0@r2").
std::string compile_key(const views::CompileRow& c);
// The compile a key names; a key without "@r" names the first compile with that id.
const views::CompileRow* find_compile(const ViewerData& data, std::string_view key);

// Loads all panels' data; false (with error) only when the database cannot be opened.
bool load_viewer_data(const std::string& db_path, const ViewerOptions& options, ViewerData& data,
                      std::string* error);

}  // namespace tlscope::gui
