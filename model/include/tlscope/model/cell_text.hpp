// Long text (docs/schema.md, "Long text"). Any TEXT value of a log or a database from elsewhere
// can be huge (a 100 MB guard, failure reason or file name). The analysis writes such a value
// into its tables clipped to kCellTextLimit bytes, and views/ hands the front ends at most that
// much of any cell, both with a note that says how long the text was: one limit, so a cell the
// analysis clipped reads back unchanged. Payloads, which may legitimately be large, are kept and
// read whole where they go out in full.
#pragma once

#include <sqlite3.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace tlscope::model {

// Far above any name, guard, reason or metadata an honest log has (the longest in the shared
// logs is a few KB), and small enough that a front end may copy it a few times.
inline constexpr size_t kCellTextLimit = 64 * 1024;

// The words that end a clipped text, before its full size: "... [clipped: 104857600 bytes in
// all]".
inline constexpr std::string_view kClipNote = " ... [clipped: ";

// `text` when it has at most `limit` bytes; else its first bytes (at most `limit`, never ending
// inside a UTF-8 sequence) and the clip note with its full size in bytes. A text already clipped
// to `limit` is returned as it is.
std::string clip_cell_text(std::string_view text, size_t limit = kCellTextLimit);
// The same, appended to `out` (no temporary string for the short texts of a hot loop).
void append_clipped(std::string& out, std::string_view text, size_t limit = kCellTextLimit);

// Adds tlscope_clip(x) to a connection: x clipped like clip_cell_text when it is a longer text,
// any other value as it is. For SQL that would otherwise copy a huge cell into a table, through a
// sort, a subquery or several JSON functions.
void register_clip_function(sqlite3* db);

}  // namespace tlscope::model
