// Loading the viewer's data through the views layer's queries.
#include <cstdio>

#include "tlscope/views/phase_timeline.hpp"
#include "viewer_data.hpp"

namespace tlscope::gui {

bool load_viewer_data(const std::string& db_path, const ViewerOptions& options, ViewerData& data,
                      std::string* error) {
  views::Database db(db_path);
  std::string refused = db.not_tlscope_reason();
  if (!refused.empty()) {
    if (error) *error = refused;
    return false;
  }
  data.db_path = db_path;
  std::string why;
  auto note = [&](const char* what) {
    if (!why.empty()) data.load_problems.push_back(std::string(what) + ": " + why);
    why.clear();
  };
  if (auto s = views::load_summary(db, &why)) data.summary = std::move(*s);
  note("summary");
  data.compiles = views::load_compiles(db, &why);
  note("compiles");
  data.errors = views::load_ingest_errors(db, 10000, &why);
  note("ingest errors");
  data.tensors = views::load_tensors(db, &why);
  note("tensors");
  data.timeline = views::load_phase_timeline(db, views::load_trace_runs(db, &why), &why).timeline;
  note("timeline");
  std::snprintf(data.tensor_view.mesh, sizeof data.tensor_view.mesh, "%s",
                options.tensor_mesh.c_str());
  std::snprintf(data.tensor_view.placement, sizeof data.tensor_view.placement, "%s",
                options.tensor_placement.c_str());
  if (!options.tensor_shape.empty()) {
    std::snprintf(data.tensor_view.shape, sizeof data.tensor_view.shape, "%s",
                  options.tensor_shape.c_str());
  } else {
    for (size_t i = 0; i < data.tensors.size(); ++i) {
      if (!data.tensors[i].shape) continue;
      data.tensor_view.picked_row = static_cast<int>(i);
      break;
    }
  }
  return true;
}

}  // namespace tlscope::gui
