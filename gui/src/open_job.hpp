// The viewer's open: views::RunOpener (the background open every front end shares) that, once the
// database is there, opens its viewer session on the same thread and reads there what the first
// frame draws (every panel's navigation count and the summary), so the window never spends the
// seconds of a big log between two frames.
#pragma once

#include <memory>
#include <optional>

#include "tlscope/views/run_opener.hpp"
#include "viewer_session.hpp"

namespace tlscope::gui {

using views::InputKind;
using views::OpenPlan;
using views::OpenProgress;
using views::plan_open;

// What the first frame of a session draws: one run's panels (the navigation with its counts, the
// summary), or compare mode's view (the compile lists and the timeline of each run).
enum class FirstFrame { kPanels, kCompare };

class OpenJob : public views::RunOpener {
 public:
  ~OpenJob() { stop(); }  // before session_ goes: the thread may be writing it

  // With `session_options`, the thread opens the session too (ViewerSession::open) and reads the
  // models `first` draws.
  void start(const OpenPlan& plan, std::function<void()> wake,
             std::optional<ViewerOptions> session_options = std::nullopt,
             FirstFrame first = FirstFrame::kPanels);
  // Once done, with session options given and no error: the session (moved out; null afterwards).
  std::shared_ptr<ViewerSession> take_session() { return std::move(session_); }

 private:
  std::shared_ptr<ViewerSession> session_;  // written by the thread before done(), read after
};

// Reads, on the calling thread, the models the first frame of `session` draws: for one run's
// panels what each panel's navigation entry asks (shown, count), the findings panel's among them;
// for compare mode the compile tree and the timeline scene.
void read_first_frame(ViewerSession& session, FirstFrame first = FirstFrame::kPanels);

// $XDG_CONFIG_HOME/tlscope, else ~/.config/tlscope. Empty when neither variable nor HOME is set.
// (The cache folder is the input cache's, shared with the CLI.)
std::string user_config_dir();

}  // namespace tlscope::gui
