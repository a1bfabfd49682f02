// The pinned time ruler: 1-2-5 ticks with labels in the unit that suits the zoom (ns to s).
#include "timeline_view.hpp"
#include "tlscope/views/time_format.hpp"
#include "ui_dump.hpp"

namespace tlscope::gui {

int draw_timeline_ruler(ImDrawList* dl, ImVec2 origin, float width, const TimeRange& view) {
  dl->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + kRulerHeight),
                    IM_COL32(32, 34, 40, 255));
  const double span = view.span();
  if (!(span > 0) || width <= 0) return 0;
  // At most one label per ~120 px so labels never overlap.
  const double step = views::ruler_step_us(span, std::max(2.0, static_cast<double>(width) / 120.0));
  int drawn = 0;
  for (double t : views::ruler_ticks_us(view.start_us, view.end_us, step)) {
    const float x = origin.x + static_cast<float>((t - view.start_us) / span * width);
    dl->AddLine(ImVec2(x, origin.y + kRulerHeight - 7), ImVec2(x, origin.y + kRulerHeight),
                IM_COL32(170, 170, 180, 255));
    const std::string label = views::format_ruler_label(t, step);
    dl->AddText(ImVec2(x + 3, origin.y + 3), IM_COL32(210, 210, 215, 255), label.c_str());
    ui::record_at("ruler", label, ImVec2(x + 3, origin.y + 3));
    ++drawn;
  }
  return drawn;
}

}  // namespace tlscope::gui
