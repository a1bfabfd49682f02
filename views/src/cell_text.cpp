// Clipping of long cell texts (cell_text.hpp).
#include "tlscope/views/cell_text.hpp"

namespace tlscope::views {

namespace {

constexpr std::string_view kNoteEnd = " bytes in all]";

}  // namespace

void append_clipped(std::string& out, std::string_view text, size_t limit) {
  // A text SQL already clipped (tlscope_clip) is at most its note longer than the limit.
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

}  // namespace tlscope::views
