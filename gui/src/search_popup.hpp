// Ctrl+F: one search over compiles, frames, findings and zones; a result opens its panel on it.
#pragma once

#include <string>
#include <vector>

#include "panel.hpp"

namespace tlscope::gui {

class SearchPopup {
 public:
  void open() { open_ = just_opened_ = true; }
  bool is_open() const { return open_; }
  void draw(ViewerSession& session);

 private:
  struct Hit {
    std::string text;
    Selection selection;
  };
  void search(ViewerSession& session);

  bool open_ = false, just_opened_ = false;
  char query_[256] = "";
  std::string searched_;
  uint64_t searched_in_ = 0;  // the session the hits are of
  std::vector<Hit> hits_;
  bool truncated_ = false;
};

}  // namespace tlscope::gui
