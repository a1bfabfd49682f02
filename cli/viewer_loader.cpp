// Loads the viewer module for `tlscope gui` (see viewer_loader.hpp).
#ifdef TLSCOPE_WITH_GUI
#include "viewer_loader.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <string_view>
#include <system_error>
#include <vector>

#include "tlscope/version.hpp"

namespace tlscope::cli {
namespace {

namespace fs = std::filesystem;

// The directory of the running binary (not of argv[0], which may be a PATH look-up or a symlink).
fs::path binary_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

std::vector<fs::path> module_candidates() {
  fs::path dir = binary_dir();
  if (dir.empty()) return {};
  return {dir / gui::kViewerModuleFile,
          (dir / TLSCOPE_VIEWER_RELDIR / gui::kViewerModuleFile).lexically_normal()};
}

LoadedViewer open_module(const fs::path& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    return {nullptr, "cannot load the viewer module " + path.string() + ": " +
                         (why ? why : "unknown error")};
  }
  using Entry = const gui::ViewerModule* (*)();
  auto entry = reinterpret_cast<Entry>(dlsym(handle, gui::kViewerModuleSymbol));
  const gui::ViewerModule* module = entry ? entry() : nullptr;
  if (!module) {
    dlclose(handle);
    return {nullptr, path.string() + " is not a tlscope viewer module (no " +
                         std::string(gui::kViewerModuleSymbol) + ")"};
  }
  if (module->layout != gui::kViewerModuleLayout || !module->version ||
      std::string_view(module->version) != kVersion) {
    std::string theirs = module->version ? module->version : "?";
    dlclose(handle);
    return {nullptr, "the viewer module " + path.string() + " is from another build (tlscope " +
                         theirs + ") than this tlscope " + std::string(kVersion) +
                         "; reinstall tlscope"};
  }
  return {module, {}};
}

LoadedViewer load_once() {
  std::vector<fs::path> candidates = module_candidates();
  std::string tried;
  for (const fs::path& path : candidates) {
    std::error_code ec;
    if (fs::exists(path, ec)) return open_module(path);
    tried += (tried.empty() ? "" : ", ") + path.string();
  }
  if (candidates.empty()) return {nullptr, "cannot find the tlscope binary's own directory"};
  return {nullptr, "the viewer module " + std::string(gui::kViewerModuleFile) +
                       " is not installed (looked for " + tried +
                       "); install tlscope with the viewer (built with -DTLSCOPE_GUI=ON)"};
}

}  // namespace

LoadedViewer load_viewer_module() {
  static const LoadedViewer loaded = load_once();
  return loaded;
}

}  // namespace tlscope::cli
#endif  // TLSCOPE_WITH_GUI
