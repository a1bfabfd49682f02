// Long text in view models (docs/schema.md, "Long text"). Any TEXT cell of a database from
// elsewhere can be huge (a 100 MB guard, failure reason or file name): copied whole into a view
// model and from there escaped, highlighted and written by each front end, one such cell made
// the report take 18 s and 900 MB. So views/ hands the front ends at most kCellTextLimit bytes
// of a cell, with a note that says how long it was; payloads, which may legitimately be large,
// are read whole (Statement::full_text) or streamed where they go out in full. The limit and the
// clip are the model's (tlscope/model/cell_text.hpp): the analysis writes its tables clipped the
// same way, and a cell it clipped reads back unchanged.
#pragma once

#include "tlscope/model/cell_text.hpp"

namespace tlscope::views {

using model::append_clipped;
using model::clip_cell_text;
using model::kCellTextLimit;
using model::kClipNote;

}  // namespace tlscope::views
