// A viewer module "from another build" for the e2e test that the loader refuses one: it has the
// right file name and entry symbol but states another version, and its entry points abort, so a
// loader that called into it would fail the test loudly rather than pass it.
#include <cstdlib>

#include "tlscope/gui/viewer_module.hpp"

namespace {

tlscope::gui::ViewerResult never_viewer(const tlscope::gui::ViewerOptions&) {
  std::abort();
}
int never_bench(size_t, std::FILE*) {
  std::abort();
}

const tlscope::gui::ViewerModule kStale{tlscope::gui::kViewerModuleLayout, "0.0.0-stale",
                                        &never_viewer, &never_bench};

}  // namespace

extern "C" __attribute__((visibility("default"))) const tlscope::gui::ViewerModule*
tlscope_viewer_module() {
  return &kStale;
}
