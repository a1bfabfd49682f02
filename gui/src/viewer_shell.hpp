// The viewer's shell: what is open (or being opened), the panels, the navigation and the layout
// around them (menu bar, navigation list, tabs, details pane, start screen, popups). viewer.cpp
// owns the window and calls frame() between ImGui::NewFrame and ImGui::Render.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "file_browser.hpp"
#include "open_job.hpp"
#include "panel.hpp"
#include "search_popup.hpp"
#include "settings.hpp"
#include "tlscope/gui/viewer.hpp"

namespace tlscope::gui {

class ViewerShell {
 public:
  ViewerShell(const ViewerOptions& options, ViewerSettings settings, std::function<void()> wake);

  // Opens inputs; ingest or extraction runs in the background while what is open stays on screen
  // (with the progress in a strip at the bottom), and replaces it once ready.
  void open(const std::vector<std::string>& inputs);
  // Stops a running open (Cancel, or the window closing): the ingest stops after its batch.
  void cancel_open() {
    if (job_) job_->cancel();
  }
  // One frame of the whole UI.
  void frame();
  // Keyboard and mouse shortcuts (before frame()).
  void handle_shortcuts();

  bool quit_requested() const { return quit_; }
  bool loaded() const { return data_ != nullptr; }
  bool busy() const { return job_ && job_->running(); }
  // The running open's progress, or nullopt when nothing is being opened.
  std::optional<OpenProgress> open_progress() const;
  // A failure opening the inputs or applying --panel/--select; "" when none.
  const std::string& open_error() const { return open_error_; }
  bool selection_failed() const { return selection_failed_; }
  const ViewerData* data() const { return data_.get(); }
  UiDump& dump() { return dump_; }
  const ViewerSettings& settings() const { return settings_; }
  Panel* active_panel() const;

 private:
  void poll_job();
  void apply_test_selection();
  void draw_menu_bar();
  void draw_start_screen();
  // The progress bar, counts so far and a Cancel button of the running open.
  void draw_open_progress(float width);
  void draw_navigation(float width, float height);
  void draw_tabs(float width, float height);
  void draw_details(float width, float height);
  void show_panel(views::ScreenId screen);
  Panel* panel_for(views::ScreenId screen) const;
  Panel* panel_named(std::string_view name) const;
  bool splitter(const char* id, float* width, float min, float max, bool right_side, float height);
  PanelContext context() { return PanelContext{*data_, nav_}; }

  ViewerOptions options_;
  ViewerSettings settings_;
  std::function<void()> wake_;
  std::vector<std::unique_ptr<Panel>> panels_;
  std::vector<views::ScreenId> tabs_;  // open tabs, in order
  views::ScreenId active_ = views::ScreenId::summary;
  std::optional<views::ScreenId> focus_tab_;  // select this tab on the next frame
  Navigator nav_;
  std::unique_ptr<ViewerData> data_;
  std::unique_ptr<OpenJob> job_;
  std::vector<std::string> opening_;  // inputs being opened
  std::string title_, open_error_;
  std::string opening_title_;  // what the running job opens (title_ names what is shown)
  bool test_selection_done_ = false, selection_failed_ = false;
  bool quit_ = false;
  FileBrowser browser_;
  SearchPopup search_;
  UiDump dump_;
};

}  // namespace tlscope::gui
