// The viewer's built-in font (ImGui's ProggyClean: ASCII and Latin-1) has no glyph for some
// characters views/ writes (the recompiles table's "Float → Double", the tensor grid's ellipsis
// cells), which ImGui drew as '?'. ui::font_safe spells them in characters the font has; the
// helpers draw that and still record the view model's text in the dump. Checked against the
// font itself, headless (an ImGui context with the default font, no window).
#include <imgui.h>

#include <catch2/catch.hpp>

#include "ui_dump.hpp"

using namespace tlscope::gui;

namespace {

// The code points of UTF-8 text (valid input only: the strings here).
std::vector<unsigned> code_points(const std::string& s) {
  std::vector<unsigned> out;
  for (size_t i = 0; i < s.size();) {
    unsigned c = static_cast<unsigned char>(s[i]);
    int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    unsigned cp = extra ? c & (0x3Fu >> extra) : c;
    for (int k = 1; k <= extra; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    out.push_back(cp);
    i += static_cast<size_t>(extra) + 1;
  }
  return out;
}

}  // namespace

TEST_CASE("font_safe: what views/ writes is drawn with glyphs the built-in font has") {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->AddFontDefault();
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // builds the atlas
  ImFont* font = io.Fonts->Fonts[0];
  auto drawable = [&](const std::string& s) {
    for (unsigned cp : code_points(s))
      if (!font->FindGlyphNoFallback(static_cast<ImWchar>(cp))) return false;
    return true;
  };
  // views/src/occurrences.cpp's change text and views/src/tensor_grid.cpp's ellipsis cells.
  const std::vector<std::string> texts = {"x dtype: Float \xE2\x86\x92 Double", "\xE2\x80\xA6",
                                          "\xE2\x8B\xAE", "\xE2\x8B\xB1"};
  for (const std::string& t : texts) {
    INFO(t);
    CHECK_FALSE(drawable(t));  // as written, ImGui would draw a '?'
    CHECK(drawable(ui::font_safe(t)));
  }
  CHECK(ui::font_safe(texts[0]) == "x dtype: Float -> Double");
  // Latin-1 (the lane labels' middle dot, "µs") is in the font and left alone.
  const std::string latin1 = "rank 0 \xC2\xB7 collectives, 59.0 \xC2\xB5s";
  CHECK(drawable(latin1));
  CHECK(ui::font_safe(latin1) == latin1);

  // The helpers draw the spelled text and record the view model's.
  io.DisplaySize = ImVec2(400, 300);
  io.DeltaTime = 1.0f / 60;
  UiDump dump;
  set_current_dump(&dump);
  ImGui::NewFrame();
  ImGui::Begin("test");
  dump.begin_frame("test");
  ui::text("cell", texts[0]);
  ImGui::End();
  ImGui::EndFrame();
  set_current_dump(nullptr);
  REQUIRE(dump.items().size() == 1);
  CHECK(dump.items()[0].text == texts[0]);
  ImGui::DestroyContext();
}
