// Long text in view models (docs/schema.md, "Long text"). Any TEXT cell of a database from
// elsewhere can be huge (a 100 MB guard, failure reason or file name): copied whole into a view
// model and from there escaped, highlighted and written by each front end, one such cell made
// the report take 18 s and 900 MB. So views/ hands the front ends at most kCellTextLimit bytes
// of a cell, with a note that says how long it was; payloads, which may legitimately be large,
// are read whole (Statement::full_text) or streamed where they go out in full.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tlscope::views {

// Far above any name, guard, reason or metadata an honest log has (the longest in the shared
// logs is a few KB), and small enough that a front end may copy it a few times.
inline constexpr size_t kCellTextLimit = 64 * 1024;

// The words that end a clipped text, before its full size: "... [clipped: 104857600 bytes in
// all]".
inline constexpr std::string_view kClipNote = " ... [clipped: ";

// `text` when it has at most `limit` bytes; else its first bytes (at most `limit`, never ending
// inside a UTF-8 sequence) and the clip note with its full size in bytes.
std::string clip_cell_text(std::string_view text, size_t limit = kCellTextLimit);
// The same, appended to `out` (no temporary string for the short texts of a hot loop).
void append_clipped(std::string& out, std::string_view text, size_t limit = kCellTextLimit);

}  // namespace tlscope::views
