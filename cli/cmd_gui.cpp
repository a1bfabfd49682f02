// `tlscope gui [PATH...]`: the desktop viewer. Built only with the GUI (TLSCOPE_WITH_GUI), so a
// headless build of the CLI has no ImGui, GLFW or OpenGL dependency; even with it, the binary
// does not link the viewer but loads its module when this command runs (cli/viewer_loader.hpp).
#ifdef TLSCOPE_WITH_GUI
#include <cstdio>
#include <memory>

#include "command.hpp"
#include "run_history.hpp"
#include "terminal_text.hpp"
#include "tlscope/gui/viewer.hpp"
#include "tlscope/views/open_run.hpp"
#include "tlscope/views/screens.hpp"
#include "viewer_loader.hpp"

namespace tlscope::cli {
namespace {

std::string viewer_panel_names() {
  std::string names;
  for (const auto& s : views::kScreens) {
    if (s.viewer_panel.empty()) continue;
    names += (names.empty() ? "" : ", ") + std::string(s.viewer_panel);
  }
  return names;
}

// Two inputs that cannot be one run's logs (two databases, or runs `tlscope run` recorded) are
// two runs to compare; two log files or rank directories stay one run's ranks unless --compare.
bool two_runs(const std::vector<std::string>& inputs) {
  if (inputs.size() != 2) return false;
  for (const std::string& in : inputs) {
    std::string error;
    if (!resolve_run_reference(in, error) && !views::is_database_file(in)) return false;
  }
  return true;
}

// Compare mode's inputs as `tlscope compare` reads them: a run reference (@1, an id) as the trace
// folder it names. False after printing the error for a reference to no run.
bool resolve_compare_inputs(std::vector<std::string>& inputs) {
  for (std::string& in : inputs) {
    std::string error;
    std::optional<std::string> trace = resolve_run_reference(in, error);
    if (!trace) continue;
    if (trace->empty()) {
      std::fprintf(stderr, "tlscope gui: %s\n", terminal_safe(error).c_str());
      return false;
    }
    in = *trace;
  }
  return true;
}

const CommandRegistration gui_registration(80, [](CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<gui::ViewerOptions>();
  auto* cmd = app.add_subcommand(
      "gui", "Open the desktop viewer on logs, a rank directory, a database or a rage bundle");
  cmd->add_option("paths", opts->inputs,
                  "log files, rank directories, .gz, one database or one rage bundle (.tar.gz); "
                  "none shows the start screen");
  cmd->add_flag("--compare", opts->compare,
                "open two runs A B side by side with what differs (each a log, rank directory, "
                "database or recorded run @N); implied for two databases or two runs");
  cmd->add_option("--width", opts->width, "window width")->check(CLI::Range(200, 8192));
  cmd->add_option("--height", opts->height, "window height")->check(CLI::Range(200, 8192));
  cmd->add_option("--panel", opts->panel, "show this panel: " + viewer_panel_names());
  cmd->add_option("--select", opts->select,
                  "select finding:K (1-based), compile:0/0, collective:GROUP:SEQ, zone:NAME or "
                  "sql:QUERY; in compare mode compile:KEY (of A), compile:b:KEY or difference:K");
  cmd->add_flag("--test-mode", opts->test,
                "read and write no remembered layout, window size or recent files (tests)");
  cmd->add_option("--screenshot", opts->screenshot_path,
                  "render --frames frames once open, save the last as this PNG and exit");
  cmd->add_option("--dump-ui", opts->dump_ui_path,
                  "write what the panel drew as JSON ({\"panel\", \"items\": [{kind, text}]}) "
                  "and exit");
  cmd->add_flag("--dump-ui-each-frame", opts->dump_each_frame,
                "with --dump-ui: rewrite the dump after every frame and keep the window open");
  cmd->add_option("--frames", opts->frames, "frames to render before the screenshot or dump")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--tensor-shape", opts->tensor_shape, "shape shown in the tensors panel");
  cmd->add_option("--tensor-mesh", opts->tensor_mesh,
                  "device mesh for the tensors panel, e.g. 2x2");
  cmd->add_option("--tensor-placement", opts->tensor_placement,
                  "placements for the tensors panel, e.g. \"Shard(0),Replicate()\"");
  cmd->add_option("--bench-ingest-frames", opts->bench_ingest,
                  "once PATHS are open, ingest these logs in the background (fresh cache) while "
                  "drawing frames back to back; print the median and max frame time and exit");
  auto bench_zones = std::make_shared<size_t>(0);
  cmd->add_option("--bench-timeline", *bench_zones,
                  "print the CPU time per frame to lay out N synthetic zones on 64 lanes (no "
                  "window) and exit");
  cmd->callback([opts, bench_zones, &exit_code]() {
    LoadedViewer viewer = load_viewer_module();
    if (!viewer.module) {
      std::fprintf(stderr, "tlscope gui: %s\n", viewer.error.c_str());
      exit_code = kUsageOrIo;
      return;
    }
    if (*bench_zones) {
      exit_code = viewer.module->run_timeline_bench(*bench_zones, stdout);
      return;
    }
    if (two_runs(opts->inputs)) opts->compare = true;
    if (opts->compare && opts->inputs.size() != 2) {
      std::fprintf(stderr, "tlscope gui: --compare takes two runs, A and B (got %zu)\n",
                   opts->inputs.size());
      exit_code = kUsageOrIo;
      return;
    }
    if (opts->compare && !resolve_compare_inputs(opts->inputs)) {
      exit_code = kUsageOrIo;
      return;
    }
    gui::ViewerResult r = viewer.module->run_viewer(*opts);
    if (!r.ok) {
      std::fprintf(stderr, "tlscope gui: %s\n", r.error.c_str());
      exit_code = kUsageOrIo;
      return;
    }
    if (!opts->screenshot_path.empty()) {
      std::printf(
          "%s: %dx%d, %zu frames, %zu timeline items (%zu folded, %zu zones), %zu tensor cells\n",
          opts->screenshot_path.c_str(), r.stats.framebuffer_width, r.stats.framebuffer_height,
          r.stats.frames, r.stats.timeline_items, r.stats.timeline_folded, r.stats.timeline_zones,
          r.stats.tensor_cells);
    }
    exit_code = kOk;
  });
});

}  // namespace
}  // namespace tlscope::cli
#endif  // TLSCOPE_WITH_GUI
