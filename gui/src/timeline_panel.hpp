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

struct LaneCanvas;  // timeline_panel.cpp

class TimelinePanel : public Panel {
 public:
  TimelinePanel() : Panel(views::ScreenId::collectives) {}

  std::optional<int64_t> count(ViewerSession& session) const override {
    const auto scene = session.timeline_scene();
    return static_cast<int64_t>(scene->timeline.intervals.size() - scene->timeline.rejected);
  }

  void draw(ViewerSession& session) override;
  views::Status select(ViewerSession& session, const Selection& s) override;
  void draw_details(ViewerSession& session, const Selection& s) override;

  // The visible time range (compare mode keeps two panels on one axis through these).
  const TimeRange& view_range() const { return view_; }
  void set_view_range(const TimeRange& range) { view_ = range; }

 private:
  // Takes the session's scene; a new scene (a new session) starts the lanes and selection afresh.
  void ensure(ViewerSession& session);
  void fit();
  void focus_collective(const std::string& pg, int64_t seq);
  void reveal_lane(int lane);
  int lane_of_marker(const views::ProblemMarker& m) const;
  std::string shown_label(size_t lane) const;
  void draw_toolbar();
  // The lanes and everything on them, one piece per job (timeline_panel.cpp's LaneCanvas is the
  // frame's geometry they share).
  void draw_lanes(ViewerSession& session);
  float label_column_width(float avail_w) const;
  void handle_canvas_input(LaneCanvas& lc, bool focused);
  const DrawRect* draw_zones(ViewerSession& session,
                             const LaneCanvas& lc);  // returns the one hovered
  const views::CollectiveBar* selected_bar() const;
  void draw_collective_links(const LaneCanvas& lc);
  int draw_markers(const LaneCanvas& lc);  // returns the hovered marker's index or -1
  void draw_measured_range(const LaneCanvas& lc);
  int draw_lane_labels(const LaneCanvas& lc, std::string* tooltip);  // returns a clicked lane
  void toggle_lane(size_t lane);
  void show_tooltip(const std::string& label, const DrawRect* under, int under_marker) const;
  void click_canvas(ViewerSession& session, const LaneCanvas& lc, const DrawRect* under,
                    int under_marker);
  void describe_interval(ViewerSession& session, int interval);

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
