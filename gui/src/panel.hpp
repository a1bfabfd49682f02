// The viewer's panel interface: one panel per viewer screen of views::kScreens, one file per
// panel (panel_*.cpp), and one table row per panel in panel_registry.cpp. A panel asks the session
// (viewer_session.hpp) for its own view model and draws it into the central tab it is given,
// records every text it draws through the ui:: helpers (ui_dump.hpp), selects through the
// session's Navigator and describes its selection in the details pane. What a panel keeps between
// frames (filters, scroll, built tables) is its own; it starts afresh on a new session.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "selection.hpp"
#include "tlscope/views/result.hpp"
#include "tlscope/views/screens.hpp"
#include "ui_dump.hpp"
#include "viewer_session.hpp"

namespace tlscope::gui {

class Panel {
 public:
  explicit Panel(views::ScreenId screen) : screen_(screen) {}
  virtual ~Panel() = default;
  Panel(const Panel&) = delete;
  Panel& operator=(const Panel&) = delete;

  views::ScreenId screen() const { return screen_; }
  std::string_view name() const { return views::screen(screen_).viewer_panel; }
  std::string_view label() const { return views::screen(screen_).viewer_label(); }

  // Whether the navigation lists the panel for these logs (a vLLM panel only for vLLM logs).
  // The open's thread asks these of every panel before the first frame (open_job.cpp), so the
  // models they read are there when the navigation list first draws.
  virtual bool shown(ViewerSession&) const { return true; }
  // The number the navigation list shows beside the label (findings, compiles, rows...).
  virtual std::optional<int64_t> count(ViewerSession&) const { return std::nullopt; }
  // Draws the panel into the current ImGui window (a tab of the central area).
  virtual void draw(ViewerSession& session) = 0;
  // Puts the panel on `s` (--select, a click-through, back/forward): an error saying why when it
  // has no such item. The default knows nothing.
  virtual views::Status select(ViewerSession& session, const Selection& s);
  // The details pane for a selection this panel made.
  virtual void draw_details(ViewerSession& session, const Selection& s);

 private:
  views::ScreenId screen_;
};

// Every panel, in views::kScreens order (screens without a viewer panel have none).
std::vector<std::unique_ptr<Panel>> make_panels();

}  // namespace tlscope::gui
