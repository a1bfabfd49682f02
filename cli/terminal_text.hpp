// Log text on its way to a terminal: a log can hold escape sequences (ESC ]0;... retitles the
// window, ESC [2J clears the screen) in any field, so the commands that print log-derived strings
// pass each through terminal_safe.
#pragma once

#include <string>
#include <string_view>

namespace tlscope::cli {

// `text` with every control character shown as an escape: C0 bytes and DEL as \x1b (TAB, LF and
// CR as \t, \n, \r), C1 controls and bidirectional or line-separator code points as \u009b, and
// bytes that are not valid UTF-8 as \xff. Valid UTF-8 text is kept as it is.
std::string terminal_safe(std::string_view text);

// The same for a multi-line block: each line made safe, the line breaks between them kept.
std::string terminal_safe_lines(std::string_view text);

}  // namespace tlscope::cli
