// Everything the viewer's panels show, loaded once from the database through the views layer,
// plus the per-panel interaction state that other files read (frame statistics for tests).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tlscope/gui/viewer.hpp"
#include "tlscope/views/tensor_grid.hpp"
#include "tlscope/views/timeline.hpp"
#include "tlscope/views/trace_queries.hpp"

namespace tlscope::gui {

struct TimelineViewState {
  double start_us = 0, end_us = 1;  // visible range
  bool fitted = false;
  views::TimelineFrame last_frame;  // the view model's output for the last frame
  size_t items_drawn = 0;           // of those, the ones inside the visible rows
  size_t folded_drawn = 0;          // drawn items that stand for several zones
};

struct TensorViewState {
  char shape[128] = "2,3,4,5";
  char names[128] = "";
  char mesh[64] = "";
  char placement[128] = "";
  int picked_row = -1;  // describe_tensor row, -1 for the typed shape
  float cell_px = 26.0f;
  bool dirty = true;
  std::string error;
  std::optional<views::TensorGrid> grid;
  size_t cells_drawn = 0;
};

struct ViewerData {
  std::string db_path;
  views::TraceSummary summary;
  std::vector<views::CompileRow> compiles;
  std::vector<views::IngestErrorRow> errors;
  std::vector<views::TensorRow> tensors;
  views::Timeline timeline;
  std::vector<std::string> load_problems;  // queries that failed; shown in the summary
  TimelineViewState timeline_view;
  TensorViewState tensor_view;
};

// Loads all panels' data; false (with error) only when the database cannot be opened.
bool load_viewer_data(const std::string& db_path, const ViewerOptions& options, ViewerData& data,
                      std::string* error);

}  // namespace tlscope::gui
