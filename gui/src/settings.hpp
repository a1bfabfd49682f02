// What the viewer remembers between runs (not in test mode): window size, the widths of the
// navigation list and the details pane, and the recent files, in viewer.conf of the user config
// dir ($XDG_CONFIG_HOME/tlscope, else ~/.config/tlscope).
#pragma once

#include <string>
#include <vector>

#include "tlscope/views/result.hpp"

namespace tlscope::gui {

struct ViewerSettings {
  int window_width = 1280, window_height = 800;
  float nav_width = 190.0f;         // navigation list
  float details_width = 320.0f;     // details pane
  std::vector<std::string> recent;  // newest first; each a line of inputs joined by '\t'

  static constexpr size_t kMaxRecent = 12;
  void add_recent(const std::vector<std::string>& inputs);
};

// Missing or unreadable files give the defaults; unknown lines are ignored.
ViewerSettings load_settings(const std::string& config_dir);
// Writes viewer.conf (nothing for an empty `config_dir`); an error when the folder is not this
// user's own or the file cannot be written.
views::Status save_settings(const std::string& config_dir, const ViewerSettings& s);

std::vector<std::string> split_recent(const std::string& entry);

}  // namespace tlscope::gui
