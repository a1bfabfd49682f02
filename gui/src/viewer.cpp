// Window, frame loop and screenshots of the viewer. Frames are drawn only when something changed:
// after input (plus a few frames for ImGui to settle) or when the background open posts an empty
// event; otherwise the viewer blocks in glfwWaitEvents (no timeout), so an idle window costs no
// CPU.
#include "tlscope/gui/viewer.hpp"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "ingest_frames_bench.hpp"
#include "shader_cache.hpp"
#include "viewer_shell.hpp"

namespace tlscope::gui {
namespace {

std::string g_glfw_error;
std::vector<std::string> g_dropped;  // paths dropped on the window, opened next frame

void on_glfw_error(int code, const char* description) {
  g_glfw_error = "GLFW error " + std::to_string(code) + ": " + (description ? description : "?");
}

void on_drop(GLFWwindow*, int count, const char** paths) {
  g_dropped.clear();
  for (int i = 0; i < count; ++i)
    if (paths[i]) g_dropped.emplace_back(paths[i]);
}

// Reads the back buffer of the frame just rendered and writes it top row first.
views::Status write_screenshot(const std::string& path, int w, int h) {
  views::Status r;
  std::vector<unsigned char> pixels(static_cast<size_t>(w) * static_cast<size_t>(h) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  const size_t row = static_cast<size_t>(w) * 4;
  std::vector<unsigned char> flipped(pixels.size());
  for (int y = 0; y < h; ++y) {
    std::copy_n(pixels.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(h - 1 - y) * row),
                row, flipped.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(y) * row));
  }
  if (!stbi_write_png(path.c_str(), w, h, 4, flipped.data(), static_cast<int>(row)))
    r.fail(path + ": cannot write PNG");
  return r;
}

// Frames drawn after each wake-up: ImGui lays out a change over a couple of frames.
constexpr int kSettleFrames = 3;

}  // namespace

ViewerResult run_viewer(const ViewerOptions& options) {
  ViewerResult result;
  const bool test_mode = options.test_mode();
  // Refuse bad inputs before any window opens, so the message comes at once and exit is 2.
  if (options.compare && options.inputs.size() != 2) {
    result.error = "compare mode opens two runs, A and B; got " +
                   std::to_string(options.inputs.size()) + " input(s)";
    result.input_error = true;
    return result;
  }
  // In compare mode each input is a run of its own.
  std::vector<std::vector<std::string>> runs;
  if (options.compare)
    runs = {{options.inputs[0]}, {options.inputs[1]}};
  else if (!options.inputs.empty())
    runs = {options.inputs};
  for (const auto& run : runs) {
    OpenPlan plan = plan_open(run);
    if (!plan.ok) {
      result.error = plan.error;
      result.input_error = true;
      return result;
    }
    if (plan.ready && plan.kind == InputKind::kDatabase) {
      views::Database db(plan.db_path);
      std::string refused = db.not_tlscope_reason();
      if (!refused.empty()) {
        result.error = refused;
        result.input_error = true;
        return result;
      }
    }
  }
  if (!options.panel.empty() && !views::screen_for_panel(options.panel)) {
    result.error = "--panel " + options.panel + ": no such panel";
    result.input_error = true;
    return result;
  }
  std::unique_ptr<IngestFramesBench> bench;
  if (!options.bench_ingest.empty()) {
    bench = std::make_unique<IngestFramesBench>();
    if (bench->cache_dir().empty()) {
      result.error = "--bench-ingest-frames: cannot create a cache folder under $TMPDIR";
      return result;
    }
  }
  bool bench_started = false;
  int frames_after_bench = 0;
  const std::string config_dir = test_mode ? std::string() : user_config_dir();
  ViewerSettings settings = load_settings(config_dir);
  int width = options.width, height = options.height;
  if (!test_mode && options.width == ViewerOptions().width &&
      options.height == ViewerOptions().height) {
    width = settings.window_width;
    height = settings.window_height;
  }

  place_shader_cache();
  glfwSetErrorCallback(on_glfw_error);
  // An X server resets when its last client leaves (Xvfb does by default), and refuses
  // connections while it does: a viewer started right after another closed retries briefly.
  bool initialised = glfwInit();
  const char* display = std::getenv("DISPLAY");
  for (int attempt = 0; !initialised && display && *display && attempt < 20; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    initialised = glfwInit();
  }
  if (!initialised) {
    result.error = "cannot open a window (is DISPLAY set?): " + g_glfw_error;
    return result;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  // The bench runs until its open is done; a --screenshot then shows the window mid-ingest.
  const bool exits = options.exits_after_frames() && options.bench_ingest.empty();
  bool bench_shot_taken = false;
  if (exits) glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
  GLFWwindow* window = glfwCreateWindow(width, height, "tlscope", nullptr, nullptr);
  if (!window) {
    result.error = "cannot create an OpenGL 3.0 window: " + g_glfw_error;
    glfwTerminate();
    return result;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(exits || bench ? 0 : 1);
  glfwSetDropCallback(window, on_drop);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout is the shell's (viewer.conf), not ImGui's window list
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  io.ConfigInputTextCursorBlink = false;  // a blinking cursor would need frames while idle
  ImGui::StyleColorsDark();
  // On a HiDPI screen (a 4K monitor at 200%) text and spacing grow with the monitor's scale.
  float scale_x = 1.0f, scale_y = 1.0f;
  glfwGetWindowContentScale(window, &scale_x, &scale_y);
  if (scale_y > 1.0f) {
    io.FontGlobalScale = scale_y;
    ImGui::GetStyle().ScaleAllSizes(scale_y);
  }
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 130");

  ViewerShell shell(options, settings, [] { glfwPostEmptyEvent(); });
  if (options.compare)
    shell.open_compare(options.inputs[0], options.inputs[1]);
  else if (!options.inputs.empty())
    shell.open(options.inputs);

  int settle = kSettleFrames;
  size_t loaded_frames = 0;
  std::string last_title;
  while (!glfwWindowShouldClose(window) && !shell.quit_requested()) {
    if (bench) {
      // One frame per display tick (no vsync under the bench: it sleeps to the tick instead),
      // each timed from its events to the finished picture.
      bench->frame_begin();
      glfwPollEvents();
      const bool waiting_for_panels = !options.inputs.empty() && !shell.loaded();
      if (waiting_for_panels && !shell.busy() && !shell.open_error().empty()) break;  // failed
      if (!bench_started && !shell.busy() && !waiting_for_panels) {
        shell.open(options.bench_ingest);
        bench->started();
        bench_started = true;
      }
    } else if (exits && shell.busy()) {
      // Test mode waits for the background open without spinning: it posts an event when done.
      glfwWaitEventsTimeout(0.1);
    } else if (exits || settle > 0) {
      glfwPollEvents();
      --settle;
    } else {
      glfwWaitEvents();
      settle = kSettleFrames;
    }
    if (!bench && exits && !shell.loaded() && !shell.busy() && !shell.open_error().empty()) {
      result.error = shell.open_error();
      result.input_error = true;
      break;
    }
    if (!g_dropped.empty()) {
      shell.open(g_dropped);
      g_dropped.clear();
    }
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (exits || bench) {
      // Keep the pointer off the window: no hover highlight, no tooltip in the screenshot.
      io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
      for (bool& down : io.MouseDown) down = false;
    }
    // Decided before drawing, so the saved frame shows at least the progress that triggered it.
    bool shoot_this_frame = false;
    if (bench && bench_started && !bench_shot_taken &&
        (!options.screenshot_path.empty() || !options.dump_ui_path.empty())) {
      auto progress = shell.open_progress();
      shoot_this_frame = progress && progress->events > 0 && progress->fraction >= 0.3;
    }
    ImGui::NewFrame();
    shell.handle_shortcuts();
    shell.frame();
    ImGui::Render();
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window, &fb_w, &fb_h);
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(0.10f, 0.11f, 0.13f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

    ViewerSession* session = shell.session();
    std::string title = session ? "tlscope - " + session->db_path() : "tlscope";
    if (title != last_title) {
      glfwSetWindowTitle(window, title.c_str());
      last_title = title;
    }
    FrameStats& st = result.stats;
    ++st.frames;
    if (session) {
      const DrawnCounts& drawn = session->drawn();
      st.timeline_items = drawn.timeline_items;
      st.timeline_folded = drawn.timeline_folded;
      st.timeline_zones = drawn.timeline_zones;
      st.tensor_cells = drawn.tensor_cells;
    }
    st.framebuffer_width = fb_w;
    st.framebuffer_height = fb_h;
    if (shell.selection_failed()) {
      result.error = shell.open_error();
      result.input_error = true;
      break;
    }
    if (session) ++loaded_frames;
    if (!options.dump_ui_path.empty() && options.dump_each_frame && session) {
      shell.dump().write(options.dump_ui_path, st.frames);  // the next frame writes it again
    }
    if (exits && session && static_cast<int>(loaded_frames) >= std::max(1, options.frames)) {
      views::Status written;
      if (!options.screenshot_path.empty())
        written = write_screenshot(options.screenshot_path, fb_w, fb_h);
      if (written.ok() && !options.dump_ui_path.empty())
        written = shell.dump().write(options.dump_ui_path, st.frames);
      result.ok = written.ok();
      result.error = written.error;
      break;
    }
    if (shoot_this_frame) {
      bench_shot_taken = true;
      views::Status written;
      if (!options.screenshot_path.empty())
        written = write_screenshot(options.screenshot_path, fb_w, fb_h);
      if (written.ok() && !options.dump_ui_path.empty())
        written = shell.dump().write(options.dump_ui_path, st.frames);
      if (!written.ok()) {
        result.error = written.error;
        break;
      }
    }
    glfwSwapBuffers(window);
    if (bench && bench_started) {
      glFinish();  // the frame is done when the picture is, not when its commands are queued
      bench->frame_end();
      // Two more frames once the open is done: the first one takes the new panels in.
      if (bench_started && !shell.busy() && ++frames_after_bench > 2) break;
    }
  }
  if (bench) {
    bench->print(stdout, options.bench_ingest, shell.open_error());
    result.ok = shell.open_error().empty();
    if (!result.ok) result.error = shell.open_error();
  }
  // A window closed during an ingest stops it after its batch, instead of waiting for the rest.
  shell.cancel_open();
  if (!exits && result.error.empty()) result.ok = true;
  if (!test_mode) {
    ViewerSettings keep = shell.settings();
    glfwGetWindowSize(window, &keep.window_width, &keep.window_height);
    save_settings(config_dir, keep);  // a folder that cannot be written keeps no layout
  }

  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return result;
}

}  // namespace tlscope::gui
