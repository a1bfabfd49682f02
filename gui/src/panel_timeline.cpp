// The timeline panel's place in the registry; the drawing is timeline_window.cpp's (the
// gui-timeline work replaces both).
#include "panel.hpp"

namespace tlscope::gui {
namespace {

class TimelinePanel : public Panel {
 public:
  TimelinePanel() : Panel(views::ScreenId::collectives) {}
  std::optional<int64_t> count(const ViewerData& data) const override {
    return static_cast<int64_t>(data.timeline.intervals.size() - data.timeline.rejected);
  }
  void draw(PanelContext& ctx) override { draw_timeline_window(ctx.data); }
};

}  // namespace

std::unique_ptr<Panel> make_timeline_panel() {
  return std::make_unique<TimelinePanel>();
}

}  // namespace tlscope::gui
