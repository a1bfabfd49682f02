// Helpers of the viewer tests: sample scenarios run into scratch folders, the viewer run in test
// mode (--panel/--select/--dump-ui/--screenshot) in-process, and its UI dump read back with
// simdjson (so a test also proves the dump is valid JSON).
#pragma once

#include <simdjson.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "common/scratch_files.hpp"
#include "tlscope/gui/viewer.hpp"

namespace gui_test {

namespace fs = std::filesystem;

inline const std::string kSample =
    std::string(TLSCOPE_BINARY_DIR) + "/samples/runtime/tlscope-sample";
inline const std::string kLogs = TLSCOPE_SHARED_LOGS;

inline bool have_display() {
  const char* d = std::getenv("DISPLAY");
  if (d && *d) return true;
  // ctest treats this line as a skip (SKIP_REGULAR_EXPRESSION in tests/CMakeLists.txt).
  std::printf("TLSCOPE-SKIP: no DISPLAY; run under xvfb-run -a -s \"-screen 0 1280x800x24\"\n");
  return false;
}

// Screenshots are kept as test artifacts: <build>/tests/gui_screens/<name>.png.
inline std::string artifact(const std::string& name) {
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "tests" / "gui_screens";
  fs::create_directories(dir);
  return (dir / name).string();
}

// A fresh scratch folder whose cache and config dirs the viewer uses (XDG_* point into it).
inline fs::path scratch(const std::string& name) {
  fs::path dir = tlscope::test::fresh_scratch("gui_scratch", name);
  setenv("XDG_CACHE_HOME", (dir / "cache").c_str(), 1);
  setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);
  return dir;
}

// Runs a sample scenario into dir/logs; returns that folder ("" if the runtime failed).
inline std::string sample_logs(const fs::path& dir, const std::string& scenario) {
  std::string out = (dir / "logs").string();
  std::string cmd =
      "'" + kSample + "' " + scenario + " --out '" + out + "' --steps 3 >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0 ? out : std::string();
}

struct Item {
  std::string kind, text;
  double x = -1, y = -1, w = 0, h = 0;
};

struct Dump {
  bool ok = false;
  std::string error;
  std::string panel;
  int64_t frame = 0;
  std::vector<Item> items;

  bool has(const std::string& kind, const std::string& needle) const {
    for (const auto& i : items)
      if ((kind.empty() || i.kind == kind) && i.text.find(needle) != std::string::npos) return true;
    return false;
  }
  const Item* find(const std::string& kind, const std::string& needle) const {
    for (const auto& i : items)
      if ((kind.empty() || i.kind == kind) && i.text.find(needle) != std::string::npos) return &i;
    return nullptr;
  }
  size_t count(const std::string& kind) const {
    size_t n = 0;
    for (const auto& i : items) n += i.kind == kind;
    return n;
  }
  std::string all() const {
    std::string s;
    for (const auto& i : items) s += i.kind + ": " + i.text + "\n";
    return s;
  }
};

inline Dump read_dump(const std::string& path) {
  Dump d;
  simdjson::ondemand::parser parser;
  simdjson::padded_string json;
  if (simdjson::padded_string::load(path).get(json)) {
    d.error = path + ": cannot read";
    return d;
  }
  simdjson::ondemand::document doc;
  if (parser.iterate(json).get(doc)) {
    d.error = path + ": not JSON";
    return d;
  }
  std::string_view panel;
  if (doc["panel"].get_string().get(panel)) {
    d.error = path + ": no panel";
    return d;
  }
  d.panel = std::string(panel);
  if (doc["frame"].get_int64().get(d.frame)) {
    d.error = path + ": no frame";
    return d;
  }
  simdjson::ondemand::array items;
  if (doc["items"].get_array().get(items)) {
    d.error = path + ": no items";
    return d;
  }
  for (auto value : items) {
    simdjson::ondemand::object o;
    if (value.get_object().get(o)) {
      d.error = path + ": an item is not an object";
      return d;
    }
    Item item;
    for (auto field : o) {
      std::string_view key;
      if (field.unescaped_key().get(key)) continue;
      if (key == "kind" || key == "text") {
        std::string_view v;
        if (field.value().get_string().get(v)) {
          d.error = path + ": bad " + std::string(key);
          return d;
        }
        (key == "kind" ? item.kind : item.text) = std::string(v);
      } else {
        double v = 0;
        if (field.value().get_double().get(v)) continue;
        if (key == "x") item.x = v;
        if (key == "y") item.y = v;
        if (key == "w") item.w = v;
        if (key == "h") item.h = v;
      }
    }
    d.items.push_back(std::move(item));
  }
  d.ok = true;
  return d;
}

// The viewer on `inputs` in test mode; the dump (and a screenshot artifact when `shot` is set).
inline Dump view(const std::vector<std::string>& inputs, const std::string& panel,
                 const std::string& select, const fs::path& dir, const std::string& shot = "",
                 tlscope::gui::ViewerResult* result = nullptr) {
  tlscope::gui::ViewerOptions opts;
  opts.test = true;  // no remembered layout or recent files
  opts.inputs = inputs;
  opts.panel = panel;
  opts.select = select;
  opts.dump_ui_path = (dir / ("dump_" + panel + ".json")).string();
  if (!shot.empty()) opts.screenshot_path = artifact(shot + ".png");
  fs::remove(opts.dump_ui_path);
  tlscope::gui::ViewerResult r = tlscope::gui::run_viewer(opts);
  if (result) *result = r;
  if (!r.ok) {
    Dump d;
    d.error = r.error;
    return d;
  }
  return read_dump(opts.dump_ui_path);
}

}  // namespace gui_test
