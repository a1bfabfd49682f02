// Clipping of long cell texts (cell_text.hpp).
#include "tlscope/model/cell_text.hpp"

namespace tlscope::model {

namespace {

constexpr std::string_view kNoteEnd = " bytes in all]";

void sql_clip(sqlite3_context* ctx, int, sqlite3_value** argv) {
  sqlite3_value* v = argv[0];
  if (sqlite3_value_type(v) != SQLITE_TEXT ||
      static_cast<size_t>(sqlite3_value_bytes(v)) <= kCellTextLimit) {
    sqlite3_result_value(ctx, v);
    return;
  }
  const char* text = reinterpret_cast<const char*>(sqlite3_value_text(v));
  std::string clipped =
      clip_cell_text(std::string_view(text, static_cast<size_t>(sqlite3_value_bytes(v))));
  sqlite3_result_text(ctx, clipped.data(), static_cast<int>(clipped.size()), SQLITE_TRANSIENT);
}

}  // namespace

void append_clipped(std::string& out, std::string_view text, size_t limit) {
  // A text already clipped (by the analysis or tlscope_clip) is at most its note longer than the
  // limit.
  if (text.size() <= limit ||
      (text.size() <= limit + kClipNote.size() + 20 + kNoteEnd.size() && text.ends_with(kNoteEnd) &&
       text.rfind(kClipNote) != std::string_view::npos)) {
    out.append(text);
    return;
  }
  // Back off continuation bytes (10xxxxxx) so the cut falls before a sequence's lead byte.
  size_t cut = limit;
  for (int k = 0; k < 3 && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80; ++k)
    --cut;
  out.append(text.substr(0, cut));
  out.append(kClipNote);
  out.append(std::to_string(text.size()));
  out.append(kNoteEnd);
}

std::string clip_cell_text(std::string_view text, size_t limit) {
  std::string out;
  append_clipped(out, text, limit);
  return out;
}

void register_clip_function(sqlite3* db) {
  sqlite3_create_function(db, "tlscope_clip", 1,
                          SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nullptr, sql_clip,
                          nullptr, nullptr);
}

}  // namespace tlscope::model
