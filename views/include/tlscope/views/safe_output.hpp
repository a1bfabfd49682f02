// The model's safe output (model/safe_output.hpp: atomic files, files created new and never
// through a link, private folders, write errors in words), for the front ends: every file
// tlscope writes goes through it, and gui/ and exporters/ reach the model only through views/.
#pragma once

#include "tlscope/model/safe_output.hpp"

namespace tlscope::views {

using model::AtomicFile;
using model::create_new_file;
using model::ensure_private_folder;
using model::PrivateFolder;
using model::write_all;
using model::write_error_text;
using model::write_file_atomically;

}  // namespace tlscope::views
