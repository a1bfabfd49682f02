// File > Open: an in-app file browser (ImGui only, no extra library). Lists one directory, dirs
// first; a file or the directory itself (a rank directory) can be opened.
#pragma once

#include <string>
#include <vector>

namespace tlscope::gui {

class FileBrowser {
 public:
  void open(const std::string& start_dir);
  // Draws the modal while it is open; true once when the user picked a path (in `picked`).
  bool draw(std::string* picked);
  bool is_open() const { return open_; }

 private:
  struct Entry {
    std::string name;
    bool directory = false;
    unsigned long long size = 0;
  };
  void list(const std::string& dir);

  bool open_ = false, just_opened_ = false;
  std::string dir_, error_;
  std::vector<Entry> entries_;
  int picked_ = -1;
  char path_box_[1024] = "";
};

}  // namespace tlscope::gui
