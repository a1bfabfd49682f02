// viewer.conf: one "key=value" a line, written under a temporary name and renamed.
#include "settings.hpp"
#include "tlscope/views/safe_output.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tlscope::gui {
namespace fs = std::filesystem;
namespace {

constexpr const char* kFileName = "viewer.conf";

template <typename T>
void read_number(const std::string& value, T& out, T lo, T hi) {
  std::istringstream in(value);
  T v{};
  if (in >> v) out = std::clamp(v, lo, hi);
}

}  // namespace

void ViewerSettings::add_recent(const std::vector<std::string>& inputs) {
  std::string entry;
  for (const auto& p : inputs) {
    if (p.find_first_of("\t\n") != std::string::npos) return;  // could not be read back
    entry += (entry.empty() ? "" : "\t") + p;
  }
  if (entry.empty()) return;
  recent.erase(std::remove(recent.begin(), recent.end(), entry), recent.end());
  recent.insert(recent.begin(), entry);
  if (recent.size() > kMaxRecent) recent.resize(kMaxRecent);
}

std::vector<std::string> split_recent(const std::string& entry) {
  std::vector<std::string> parts;
  std::istringstream in(entry);
  std::string p;
  while (std::getline(in, p, '\t'))
    if (!p.empty()) parts.push_back(p);
  return parts;
}

ViewerSettings load_settings(const std::string& config_dir) {
  ViewerSettings s;
  if (config_dir.empty()) return s;
  std::ifstream in(fs::path(config_dir) / kFileName);
  std::string line;
  while (std::getline(in, line)) {
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "window_width") read_number(value, s.window_width, 640, 8192);
    if (key == "window_height") read_number(value, s.window_height, 400, 8192);
    if (key == "nav_width") read_number(value, s.nav_width, 100.0f, 2000.0f);
    if (key == "details_width") read_number(value, s.details_width, 150.0f, 3000.0f);
    if (key == "recent" && !value.empty() && s.recent.size() < ViewerSettings::kMaxRecent)
      s.recent.push_back(value);
  }
  return s;
}

views::Status save_settings(const std::string& config_dir, const ViewerSettings& s) {
  views::Status r;
  if (config_dir.empty()) return r;
  // The settings hold recent paths: the folder is this user's only (a link or a folder of
  // another user is refused), and the file is replaced atomically, never written through.
  if (std::string why = views::ensure_private_folder(config_dir); !why.empty()) {
    r.fail(why);
    return r;
  }
  std::ostringstream out;
  out << "window_width=" << s.window_width << "\nwindow_height=" << s.window_height
      << "\nnav_width=" << s.nav_width << "\ndetails_width=" << s.details_width << "\n";
  for (const auto& r : s.recent) out << "recent=" << r << "\n";
  std::string why =
      views::write_file_atomically((fs::path(config_dir) / kFileName).string(), out.str(), 0600);
  if (!why.empty()) r.fail(why);
  return r;
}

}  // namespace tlscope::gui
