// The in-app file browser.
#include "file_browser.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "ui_dump.hpp"

namespace tlscope::gui {
namespace fs = std::filesystem;

void FileBrowser::open(const std::string& start_dir) {
  open_ = true;
  just_opened_ = true;
  std::error_code ec;
  std::string dir = start_dir;
  if (dir.empty() || !fs::is_directory(dir, ec)) dir = fs::current_path(ec).string();
  list(dir);
}

void FileBrowser::list(const std::string& dir) {
  std::error_code ec;
  dir_ = fs::absolute(dir, ec).lexically_normal().string();
  entries_.clear();
  error_.clear();
  picked_ = -1;
  std::snprintf(path_box_, sizeof path_box_, "%s", dir_.c_str());
  fs::directory_iterator it(dir_, fs::directory_options::skip_permission_denied, ec), end;
  if (ec) error_ = dir_ + ": " + ec.message();
  for (; !ec && it != end; it.increment(ec)) {
    Entry e;
    e.name = it->path().filename().string();
    std::error_code sec;
    e.directory = it->is_directory(sec);
    if (!e.directory) e.size = it->is_regular_file(sec) ? it->file_size(sec) : 0;
    entries_.push_back(std::move(e));
  }
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    return a.directory != b.directory ? a.directory : a.name < b.name;
  });
}

bool FileBrowser::draw(std::string* picked) {
  if (!open_) return false;
  if (just_opened_) {
    ImGui::OpenPopup("Open");
    just_opened_ = false;
  }
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowSize(ImVec2(std::min(760.0f, display.x * 0.9f), display.y * 0.75f),
                           ImGuiCond_Appearing);
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  bool chosen = false;
  if (!ImGui::BeginPopupModal("Open", &open_)) {
    open_ = false;
    return false;
  }
  ui::text("label", "Open logs, a rank directory, a .gz, a database or a rage bundle (.tar.gz)");
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (ImGui::InputText("##path", path_box_, sizeof path_box_,
                       ImGuiInputTextFlags_EnterReturnsTrue)) {
    std::error_code ec;
    if (fs::is_directory(path_box_, ec)) {
      list(path_box_);
    } else if (fs::exists(path_box_, ec)) {
      *picked = path_box_;
      chosen = true;
    } else {
      error_ = std::string(path_box_) + ": no such file or directory";
    }
  }
  if (ui::button("button", "Up")) list(fs::path(dir_).parent_path().string());
  ImGui::SameLine();
  ui::text("label", dir_);
  if (!error_.empty()) ui::text_colored("error", ImVec4(1, 0.45f, 0.45f, 1), error_);
  const float footer = ImGui::GetFrameHeightWithSpacing() + 4;
  ImGui::BeginChild("entries", ImVec2(0, -footer), true);
  std::string go_into;
  for (size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    std::string label = e.directory ? e.name + "/" : e.name;
    if (ui::selectable("row", label, picked_ == static_cast<int>(i),
                       ImGuiSelectableFlags_AllowDoubleClick, std::to_string(i).c_str())) {
      picked_ = static_cast<int>(i);
      if (ImGui::IsMouseDoubleClicked(0)) {
        if (e.directory) {
          go_into = e.name;
        } else {
          *picked = (fs::path(dir_) / e.name).string();
          chosen = true;
        }
      }
    }
    if (!e.directory) {
      ImGui::SameLine(ImGui::GetContentRegionAvail().x - 90);
      ImGui::TextDisabled("%10llu B", e.size);
    }
  }
  ImGui::EndChild();
  if (!go_into.empty()) list((fs::path(dir_) / go_into).string());
  const bool have_pick = picked_ >= 0 && picked_ < static_cast<int>(entries_.size());
  if (ui::button("button", have_pick ? "Open selected" : "Open this directory")) {
    *picked =
        have_pick ? (fs::path(dir_) / entries_[static_cast<size_t>(picked_)].name).string() : dir_;
    chosen = true;
  }
  ImGui::SameLine();
  if (ui::button("button", "Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
    open_ = false;
  }
  if (chosen) open_ = false;
  if (!open_) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
  return chosen;
}

}  // namespace tlscope::gui
