// The timeline panel's class (timeline_panel.cpp draws it; timeline_selection.cpp puts it on a
// selection and fills the details pane).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "panel.hpp"
#include "timeline_draw_list.hpp"
#include "timeline_scene.hpp"
#include "timeline_view.hpp"

namespace tlscope::gui {

class TimelinePanel : public Panel {
 public:
  TimelinePanel() : Panel(views::ScreenId::collectives) {}

  std::optional<int64_t> count(const ViewerData& data) const override {
    const auto scene = timeline_scene(data);
    return static_cast<int64_t>(scene->timeline.intervals.size() - scene->timeline.rejected);
  }

  void draw(PanelContext& ctx) override;
  bool select(PanelContext& ctx, const Selection& s, std::string* why) override;
  void draw_details(PanelContext& ctx, const Selection& s) override;

 private:
  void ensure(const ViewerData& data);
  void fit();
  void focus_collective(const std::string& pg, int64_t seq);
  void reveal_lane(int lane);
  int lane_of_marker(const views::ProblemMarker& m) const;
  std::string shown_label(size_t lane) const;
  void draw_toolbar();
  void draw_lanes(PanelContext& ctx);
  void describe_interval(PanelContext& ctx, int interval);

  std::shared_ptr<TimelineScene> scene_;
  TimeRange view_;
  std::vector<uint8_t> collapsed_, hidden_, group_open_;
  int selected_ = -1;         // interval
  int selected_marker_ = -1;  // index into collectives.markers
  bool measuring_ = false, has_range_ = false, dragged_ = false;
  double range_a_ = 0, range_b_ = 0;
  int scroll_to_lane_ = -1;
  TimelineDrawList list_;
  int details_for_ = -1;  // the interval details_ describe
  std::vector<std::pair<std::string, std::string>> details_;
};

}  // namespace tlscope::gui
