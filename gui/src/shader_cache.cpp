// The OpenGL driver's shader cache, kept in tlscope's private cache folder (shader_cache.hpp).
#include "shader_cache.hpp"

#include <cstdlib>
#include <string>

#include "tlscope/views/open_run.hpp"

namespace tlscope::gui {

void place_shader_cache() {
  if (std::getenv("MESA_SHADER_CACHE_DIR") || std::getenv("MESA_SHADER_CACHE_DISABLE")) return;
  const std::string cache = views::private_cache_dir();
  if (cache.empty()) {
    ::setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
    return;
  }
  ::setenv("MESA_SHADER_CACHE_DIR", (cache + "/gl-shaders").c_str(), 1);
}

}  // namespace tlscope::gui
