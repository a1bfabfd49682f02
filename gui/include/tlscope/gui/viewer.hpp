// The tlscope desktop viewer (Dear ImGui + GLFW + OpenGL 3): summary, compile list, timeline,
// tensor grid and ingest errors of one tlscope database. Draws view models; owns no analysis.
#pragma once

#include <cstddef>
#include <string>

namespace tlscope::gui {

struct ViewerOptions {
  std::string db_path;
  int width = 1280;
  int height = 800;
  // With a screenshot path: render `frames` frames, write the last one as PNG and return.
  std::string screenshot_path;
  int frames = 3;
  // Tensor window start-up shape ("2,3,4,5"); empty picks the first describe_tensor row.
  std::string tensor_shape;
  std::string tensor_mesh;       // e.g. "2x2": show the tensor sharded over this device mesh
  std::string tensor_placement;  // e.g. "Shard(0),Replicate()"
};

// What the last frame drew, so tests can check the drawing, not just that a window opened.
struct FrameStats {
  size_t frames = 0;
  size_t timeline_items = 0;   // timeline rectangles drawn (folded ones count once)
  size_t timeline_folded = 0;  // of which folded
  size_t timeline_zones = 0;   // zones overlapping the time range (all lanes, even scrolled off)
  size_t tensor_cells = 0;     // tensor cells drawn (after clipping)
  int framebuffer_width = 0, framebuffer_height = 0;
};

struct ViewerResult {
  bool ok = false;
  std::string error;  // set when !ok: the database, the display or the PNG failed
  FrameStats stats;
};

ViewerResult run_viewer(const ViewerOptions& options);

}  // namespace tlscope::gui
