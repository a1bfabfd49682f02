// Finds and loads the viewer module (tlscope-viewer.so, gui/include/tlscope/gui/viewer_module.hpp)
// for `tlscope gui`: beside the binary (the build tree), then in the install's library directory
// relative to the binary (TLSCOPE_VIEWER_RELDIR, e.g. ../lib/tlscope). Built only with the GUI.
#pragma once

#include <string>

#include "tlscope/gui/viewer_module.hpp"

namespace tlscope::cli {

struct LoadedViewer {
  const gui::ViewerModule* module = nullptr;  // null when loading failed
  std::string error;                          // why, naming the paths tried
};

// Loads the module once per process and keeps it loaded (the viewer's threads may outlive a
// call); a module of another build (version or layout differs) is refused, not called.
LoadedViewer load_viewer_module();

}  // namespace tlscope::cli
