// The viewer's shell: the session on screen (viewer_session.hpp; two in compare mode) or the one
// being opened, the panels, and the layout around them (menu bar, navigation list, tabs, details
// pane, start screen, popups). viewer.cpp owns the window and calls frame() between ImGui::NewFrame
// and ImGui::Render.
#pragma once

#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "compare_view.hpp"
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
  // Compare mode: opens runs A and B at once (each like open()) and, once both are read, shows
  // them side by side (compare_view.hpp) instead of one run's panels.
  void open_compare(const std::string& a, const std::string& b);
  // Stops a running open (Cancel, or the window closing): the ingest stops after its batch.
  void cancel_open() {
    if (job_) job_->cancel();
    if (job_b_) job_b_->cancel();
  }
  // One frame of the whole UI.
  void frame();
  // Keyboard and mouse shortcuts (before frame()).
  void handle_shortcuts();

  bool quit_requested() const { return quit_; }
  bool loaded() const { return session() != nullptr; }
  bool busy() const {
    return (job_ && job_->running()) || (job_b_ && job_b_->running()) || comparing_.valid();
  }
  // The running open's progress, or nullopt when nothing is being opened.
  std::optional<OpenProgress> open_progress() const;
  // A failure opening the inputs or applying --panel/--select; "" when none.
  const std::string& open_error() const { return open_error_; }
  bool selection_failed() const { return selection_failed_; }
  // The session on screen (in compare mode, run A's); null while nothing is open.
  ViewerSession* session() const { return compare_ ? &compare_->run_a() : session_.get(); }
  UiDump& dump() { return dump_; }
  const ViewerSettings& settings() const { return settings_; }
  Panel* active_panel() const;

 private:
  void poll_job();
  void poll_compare_jobs();
  void draw_compare();
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

  ViewerOptions options_;
  ViewerSettings settings_;
  std::function<void()> wake_;
  std::vector<std::unique_ptr<Panel>> panels_;
  std::vector<views::ScreenId> tabs_;  // open tabs, in order
  views::ScreenId active_ = views::ScreenId::summary;
  std::optional<views::ScreenId> focus_tab_;  // select this tab on the next frame
  std::shared_ptr<ViewerSession> session_;    // one run on screen (null in compare mode)
  std::unique_ptr<OpenJob> job_;
  std::unique_ptr<OpenJob> job_b_;        // compare mode: run B's open, beside job_ (run A's)
  std::unique_ptr<CompareView> compare_;  // compare mode, once both runs are read
  // Compare mode between the two opens and the view: views::compare_runs on its own thread (on two
  // big runs it takes a frame's worth many times over).
  std::future<CompareRuns> comparing_;
  std::string opening_title_b_;
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
