// Opening inputs that must be regular files. A FIFO blocks open() and read() forever, a device
// such as /dev/zero never ends, so rage only reads regular files (after following symlinks) and
// checks the file it opened, not just the name it was given.
#pragma once

#include <optional>
#include <string>

namespace tlscope::exporters::rage {

// What `path` is when it is not a regular file ("a FIFO", "a character device", ...); nullopt for
// a regular file or a path that cannot be examined (opening it will say why).
std::optional<std::string> special_file_kind(const std::string& path);

// A read-only descriptor for `path`, opened without blocking on a FIFO and refused unless it is a
// regular file; -1 with `error` ("path: reason") otherwise. The caller closes it.
int open_regular_file(const std::string& path, std::string& error);

}  // namespace tlscope::exporters::rage
