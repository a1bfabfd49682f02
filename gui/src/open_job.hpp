// The viewer's open: views::RunOpener (the background open every front end shares) that, once the
// database is there, reads every panel's view models on the same thread, so the window never
// spends seconds of a big log between two frames.
#pragma once

#include <memory>
#include <optional>

#include "tlscope/views/run_opener.hpp"
#include "viewer_data.hpp"

namespace tlscope::gui {

using views::InputKind;
using views::OpenPlan;
using views::OpenProgress;
using views::plan_open;

class OpenJob : public views::RunOpener {
 public:
  ~OpenJob() { stop(); }  // before data_ goes: the thread may be writing it

  // With `load`, the thread reads the panels' data too (load_viewer_data).
  void start(const OpenPlan& plan, std::function<void()> wake,
             std::optional<ViewerOptions> load = std::nullopt);
  // Once done, with `load` given and no error: the panels' data (moved out; null afterwards).
  std::unique_ptr<ViewerData> take_data() { return std::move(data_); }

 private:
  std::unique_ptr<ViewerData> data_;  // written by the thread before done(), read after
};

// $XDG_CONFIG_HOME/tlscope, else ~/.config/tlscope. Empty when neither variable nor HOME is set.
// (The cache folder is the input cache's, shared with the CLI.)
std::string user_config_dir();

}  // namespace tlscope::gui
