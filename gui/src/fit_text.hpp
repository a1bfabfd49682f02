// Fitting a label into a column: a text wider than the room keeps its start and its end with
// "..." between them. The end kept is the part from `keep_from` on when there is room for it (a
// lane label's " · thread": which lane of the rank group it is), else as much of the end as of
// the start. The caller shows the whole text in a tooltip and in the UI dump.
#pragma once

#include <string>
#include <string_view>

namespace tlscope::gui {

// `text` itself when it is at most `max_width` pixels wide in the current font, else a cut of it
// around "..." (at UTF-8 character boundaries) as wide as fits; "" when not even "..." fits.
std::string fit_text(std::string_view text, float max_width,
                     size_t keep_from = std::string_view::npos);

}  // namespace tlscope::gui
