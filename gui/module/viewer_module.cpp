// The viewer module's one export (tlscope/gui/viewer_module.hpp): the table `tlscope gui` calls
// through. Everything else in the module is hidden (gui/CMakeLists.txt), so its copies of the
// views and model code never bind to the tlscope binary's.
#include "tlscope/gui/viewer_module.hpp"

#include "tlscope/gui/timeline_bench.hpp"
#include "tlscope/gui/viewer.hpp"
#include "tlscope/version.hpp"

namespace {

const tlscope::gui::ViewerModule kModule{
    tlscope::gui::kViewerModuleLayout,
    tlscope::kVersion.data(),  // a literal from version.hpp.in: NUL-terminated
    &tlscope::gui::run_viewer,
    &tlscope::gui::run_timeline_bench,
};

}  // namespace

extern "C" __attribute__((visibility("default"))) const tlscope::gui::ViewerModule*
tlscope_viewer_module() {
  return &kModule;
}
