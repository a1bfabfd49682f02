// The boundary between the tlscope command and the viewer module (tlscope-viewer.so). The viewer
// links ImGui, GLFW, OpenGL and X11; loading those libraries costs every process ~0.8 ms and
// ~1.6 M instructions before main (bench/README.md, "Small jobs"), so only `tlscope gui` loads
// them, by dlopen()ing the module (cli/viewer_loader.cpp), and every other command starts without.
//
// Both sides are built from one tree by one compiler, so C++ types cross the boundary; the
// module still states the version and layout it was built with, and the loader refuses a module
// from another build (an old install beside a new binary) instead of calling into it.
#pragma once

#include <cstddef>
#include <cstdio>

#include "tlscope/gui/viewer.hpp"

namespace tlscope::gui {

// What the module exports: one table of entry points.
struct ViewerModule {
  // sizeof(ViewerModule) + sizeof(ViewerOptions) + sizeof(ViewerResult) of the build that made
  // it: any change of these structs changes it.
  size_t layout;
  const char* version;  // tlscope::kVersion of that build
  ViewerResult (*run_viewer)(const ViewerOptions& options);
  int (*run_timeline_bench)(size_t zones, std::FILE* out);
};

inline constexpr size_t kViewerModuleLayout =
    sizeof(ViewerModule) + sizeof(ViewerOptions) + sizeof(ViewerResult);

// The module's file name and its one exported symbol (extern "C", so the name is not mangled).
inline constexpr const char* kViewerModuleFile = "tlscope-viewer.so";
inline constexpr const char* kViewerModuleSymbol = "tlscope_viewer_module";

}  // namespace tlscope::gui
