// The viewer's panel interface: one panel per viewer screen of views::kScreens, one file per
// panel (panel_*.cpp), and one table row per panel in panel_registry.cpp. A panel draws view
// models from ViewerData into the central tab it is given, records every text it draws through
// the ui:: helpers (ui_dump.hpp), selects through the Navigator and describes its selection in
// the details pane.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "selection.hpp"
#include "tlscope/views/screens.hpp"
#include "ui_dump.hpp"
#include "viewer_data.hpp"

namespace tlscope::gui {

struct PanelContext {
  ViewerData& data;
  Navigator& nav;
};

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
  virtual bool shown(const ViewerData&) const { return true; }
  // The number the navigation list shows beside the label (findings, compiles, rows...).
  virtual std::optional<int64_t> count(const ViewerData&) const { return std::nullopt; }
  // Draws the panel into the current ImGui window (a tab of the central area).
  virtual void draw(PanelContext& ctx) = 0;
  // Puts the panel on `s` (--select, a click-through, back/forward): false with `why` when it
  // has no such item. The default knows nothing.
  virtual bool select(PanelContext& ctx, const Selection& s, std::string* why);
  // The details pane for a selection this panel made.
  virtual void draw_details(PanelContext& ctx, const Selection& s);

 private:
  views::ScreenId screen_;
};

// Every panel, in views::kScreens order (screens without a viewer panel have none).
std::vector<std::unique_ptr<Panel>> make_panels();

}  // namespace tlscope::gui
