// Window, frame loop and screenshots of the viewer. Frames are drawn only after input (plus a
// few frames for ImGui to settle), so an idle viewer sleeps in glfwWaitEventsTimeout.
#include "tlscope/gui/viewer.hpp"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "viewer_data.hpp"

namespace tlscope::gui {
namespace {

std::string g_glfw_error;

void on_glfw_error(int code, const char* description) {
  g_glfw_error = "GLFW error " + std::to_string(code) + ": " + (description ? description : "?");
}

// Reads the back buffer of the frame just rendered and writes it top row first.
bool write_screenshot(const std::string& path, int w, int h, std::string* error) {
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
  if (!stbi_write_png(path.c_str(), w, h, 4, flipped.data(), static_cast<int>(row))) {
    *error = path + ": cannot write PNG";
    return false;
  }
  return true;
}

}  // namespace

ViewerResult run_viewer(const ViewerOptions& options) {
  ViewerResult result;
  ViewerData data;
  if (!load_viewer_data(options, data, &result.error)) return result;

  glfwSetErrorCallback(on_glfw_error);
  if (!glfwInit()) {
    result.error = "cannot open a window (is DISPLAY set?): " + g_glfw_error;
    return result;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  const bool screenshot = !options.screenshot_path.empty();
  if (screenshot) glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
  GLFWwindow* window = glfwCreateWindow(options.width, options.height,
                                        ("tlscope - " + options.db_path).c_str(), nullptr, nullptr);
  if (!window) {
    result.error = "cannot create an OpenGL 3.0 window: " + g_glfw_error;
    glfwTerminate();
    return result;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(screenshot ? 0 : 1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // same layout every start, and screenshots that tests can compare
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 130");

  int settle_frames = 3;  // ImGui needs a couple of frames to lay out after any change
  while (!glfwWindowShouldClose(window)) {
    if (screenshot || settle_frames > 0) {
      glfwPollEvents();
      --settle_frames;
    } else {
      glfwWaitEventsTimeout(1.0);
      settle_frames = 2;
    }
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    draw_summary_window(data);
    draw_compiles_window(data);
    draw_errors_window(data);
    draw_timeline_window(data);
    draw_tensor_window(data);
    ImGui::Render();
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window, &fb_w, &fb_h);
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(0.10f, 0.11f, 0.13f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

    FrameStats& st = result.stats;
    ++st.frames;
    st.timeline_items = data.timeline_view.items_drawn;
    st.timeline_folded = data.timeline_view.folded_drawn;
    st.timeline_zones = data.timeline_view.last_frame.zones_visible;
    st.tensor_cells = data.tensor_view.cells_drawn;
    st.framebuffer_width = fb_w;
    st.framebuffer_height = fb_h;
    if (screenshot && static_cast<int>(st.frames) >= std::max(1, options.frames)) {
      result.ok = write_screenshot(options.screenshot_path, fb_w, fb_h, &result.error);
      break;
    }
    glfwSwapBuffers(window);
  }
  if (!screenshot) result.ok = true;

  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return result;
}

}  // namespace tlscope::gui
