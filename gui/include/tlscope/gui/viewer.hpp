// The tlscope desktop viewer (Dear ImGui + GLFW + OpenGL 3): every screen of views::kScreens that
// has a viewer panel, over a database it opens or ingests in the background. Draws view models;
// owns no analysis.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tlscope::gui {

struct ViewerOptions {
  // Log files, rank directories, .gz, one database or one rage bundle (.tar.gz); empty shows the
  // start screen.
  std::vector<std::string> inputs;
  // Compare mode: `inputs` are two runs, A then B (each a log, a rank directory or a database),
  // opened side by side with what differs between them (views/compare.hpp).
  bool compare = false;
  int width = 1280;
  int height = 800;
  // Start on this panel (a viewer_panel name of views::kScreens) with this selection
  // ("finding:1", "compile:0/0", "collective:GROUP:SEQ", "zone:NAME", "sql:QUERY"). Neither
  // changes what the viewer remembers: that is `test`.
  std::string panel;
  std::string select;
  // Test mode (--test-mode): no remembered layout, window size or recent files are read or
  // written, so a test's window is the same on every machine and leaves the user's alone.
  bool test = false;
  // With a screenshot or dump path (and no dump_each_frame): render `frames` frames once the
  // database is open, write the last one and return. The pointer is kept off the window, so no
  // hover or tooltip shows.
  std::string screenshot_path;
  std::string dump_ui_path;
  bool dump_each_frame = false;  // rewrite dump_ui_path after every frame; the window stays open
  int frames = 3;
  // Tensor panel start-up shape ("2,3,4,5"); empty picks the first describe_tensor row.
  std::string tensor_shape;
  std::string tensor_mesh;       // e.g. "2x2": show the tensor sharded over this device mesh
  std::string tensor_placement;  // e.g. "Shard(0),Replicate()"
  // Bench: once `inputs` are open (at once when there are none), open these logs in the
  // background into a fresh cache folder, draw frames without waiting until that is done, print
  // the frame times (median, max, in ms) and return. A screenshot (and dump) path is written
  // once, mid-ingest (30% of the bytes), showing the progress strip.
  std::vector<std::string> bench_ingest;

  // Its own flag: starting on a panel, a screenshot or a dump used to switch it on unasked.
  bool test_mode() const { return test; }
  bool exits_after_frames() const {
    return (!screenshot_path.empty() || !dump_ui_path.empty()) && !dump_each_frame;
  }
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
  // Set when !ok: the inputs were refused (input_error) or the display or the PNG failed.
  std::string error;
  bool input_error = false;
  FrameStats stats;
};

ViewerResult run_viewer(const ViewerOptions& options);

}  // namespace tlscope::gui
