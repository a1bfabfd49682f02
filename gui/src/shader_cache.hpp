// Where the OpenGL driver keeps compiled shaders while the viewer runs.
#pragma once

namespace tlscope::gui {

// Mesa keeps compiled shaders under $XDG_CACHE_HOME or ~/.cache, whatever that folder is: a
// state folder that tlscope refuses (another user's, docs/security.md) would still be written by
// the driver, by root whom permissions do not stop. Unless the user chose (MESA_SHADER_CACHE_DIR
// or MESA_SHADER_CACHE_DISABLE set), the shaders go into tlscope's own private cache folder, and
// with none the driver's cache is off. Called before the first GL context is made.
void place_shader_cache();

}  // namespace tlscope::gui
