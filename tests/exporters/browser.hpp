// Headless Chromium for the report tests: load many pages in one browser start (a harness page
// walks them in iframes and records what each page's DOM says), and take screenshots.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "exporters/report_support.hpp"

namespace tlscope::test {

inline const char* chromium_path() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (std::filesystem::exists(p)) return p;
  return nullptr;
}

// Chromium keeps some state (crash reports) under $XDG_CONFIG_HOME or $HOME/.config whatever
// --user-data-dir says, and with HOME unset under /tmp/.config, shared with every user: the test
// suite runs with HOME unset in part (scripts/ctest_conditions.sh), so both point into the
// profile. Its cache is one folder of the build's that every start shares.
inline std::string chromium_environment(const std::filesystem::path& profile) {
  std::string env = "env HOME='";
  env += profile.string();
  env += "' XDG_CONFIG_HOME='";
  env += profile.string();
  env += "/config' XDG_CACHE_HOME='";
  env += TLSCOPE_BINARY_DIR;
  env += "/test-home/chromium-cache' ";
  return env;
}

inline std::string chromium_command(const std::filesystem::path& profile) {
  std::filesystem::remove_all(profile);
  return std::string("timeout 120 ") + chromium_environment(profile) + chromium_path() +
         " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
         "--disable-background-networking --disable-component-update --disable-sync "
         "--user-data-dir=" +
         profile.string();
}

struct PageCheck {
  std::string json;  // one object per page: {"page", "ready", "errors", "pwned", "imgs", ...}
  std::string stderr_text;
};

// Loads every page of `pages` (relative to `root`) in one Chromium start. Per page it records:
// ready (report.js ran), errors (script errors shown by report.js), pwned (hostile log text ran),
// imgs (img elements: the report has none), inline (script elements without src), the
// timeline / grid counters the page's scripts set, width (the page's scrollWidth in a 1280-px
// frame), and status_cells / status_wrapped (td.status cells, and those laid out on 2+ lines).
inline PageCheck check_pages(const std::filesystem::path& root,
                             const std::vector<std::string>& pages, const std::string& name) {
  std::string list;
  for (const std::string& p : pages) list += (list.empty() ? "\"" : ",\"") + p + "\"";
  std::ofstream(root / (name + ".js")) << "var PAGES = [" << list << "];\n"
                                       << R"JS(
var results = [];
function attr(d, id, a) { var e = d.getElementById(id); return e ? e.getAttribute(a) : null; }
function next(i) {
  if (i >= PAGES.length) {
    document.getElementById("out").textContent = JSON.stringify(results);
    return;
  }
  var f = document.createElement("iframe");
  f.width = 1280; f.height = 900;
  f.onload = function () { setTimeout(function () {
    var r = { page: PAGES[i] };
    try {
      var d = f.contentDocument;
      r.ready = d.body.getAttribute("data-ready");
      r.errors = d.querySelectorAll(".tlscope-js-error").length;
      // The hostile script sets the whole title to PWNED; a title that shows it as text is fine.
      r.pwned = (d.title === "PWNED" || d.body.dataset.pwned) ? 1 : 0;
      r.imgs = d.querySelectorAll("img").length;
      r.inline = 0;
      d.querySelectorAll("script").forEach(function (s) { if (!s.src) r.inline++; });
      r.bars = attr(d, "timeline", "data-bars");
      r.drawn = attr(d, "timeline", "data-drawn-bars");
      r.links = attr(d, "timeline", "data-links");
      r.cells = d.querySelectorAll("#tensor-grid .cell").length;
      r.width = d.documentElement.scrollWidth;  // a long unbroken log string must not widen it
      r.ruler = attr(d, "timeline", "data-ruler");  // the time axis labels, "|"-separated
      // Status cells (td.status) whose word was laid out on more than one line.
      r.status_cells = 0; r.status_wrapped = 0;
      d.querySelectorAll("td.status").forEach(function (c) {
        r.status_cells++;
        var range = d.createRange(), tops = {};
        range.selectNodeContents(c);
        Array.prototype.forEach.call(range.getClientRects(),
                                     function (x) { tops[Math.round(x.top)] = 1; });
        if (Object.keys(tops).length > 1) r.status_wrapped++;
      });
    } catch (e) { r.exception = String(e); }
    results.push(r);
    f.remove();
    next(i + 1);
  }, 30); };
  f.src = PAGES[i];
  document.body.appendChild(f);
}
next(0);
)JS";
  std::ofstream(root / (name + ".html"))
      << "<!DOCTYPE html><html><body><pre id=\"out\"></pre><script src=\"" << name
      << ".js\"></script></body></html>\n";
  std::filesystem::path out = root / (name + ".dom"), err = root / (name + ".stderr");
  std::string cmd = chromium_command(root / (name + "-profile")) +
                    " --allow-file-access-from-files --virtual-time-budget=60000 "
                    "--enable-logging=stderr --v=0 --dump-dom file://" +
                    (root / (name + ".html")).string() + " > " + out.string() + " 2> " +
                    err.string();
  std::system(cmd.c_str());
  PageCheck result;
  std::string dom = slurp(out);
  size_t a = dom.find("<pre id=\"out\">"), b = dom.find("</pre>");
  if (a != std::string::npos && b != std::string::npos)
    result.json = dom.substr(a + 14, b - a - 14);
  result.stderr_text = slurp(err);
  std::filesystem::remove_all(root / (name + "-profile"));
  return result;
}

// Screenshots of `pages` (absolute paths) into `pngs`, two browsers at a time.
inline void screenshots(
    const std::vector<std::pair<std::filesystem::path, std::filesystem::path>>& shots,
    const std::filesystem::path& scratch) {
  std::string cmd;
  for (size_t i = 0; i < shots.size(); ++i) {
    cmd += std::string("(") + chromium_command(scratch / ("shot-profile-" + std::to_string(i))) +
           " --window-size=1280,900 --hide-scrollbars --screenshot=" + shots[i].second.string() +
           " file://" + shots[i].first.string() + " >/dev/null 2>&1) " +
           (i % 2 == 0 && i + 1 < shots.size() ? "& " : "; ");
  }
  cmd += "wait";
  std::system(cmd.c_str());
  for (size_t i = 0; i < shots.size(); ++i)
    std::filesystem::remove_all(scratch / ("shot-profile-" + std::to_string(i)));
}

// Every object in the harness JSON that has `key` not equal to `value`, e.g. ("ready", "\"1\"").
inline std::vector<std::string> pages_where_not(const std::string& json, const std::string& key,
                                                const std::string& value) {
  std::vector<std::string> bad;
  size_t pos = 0;
  while ((pos = json.find("{\"page\":", pos)) != std::string::npos) {
    size_t end = json.find('}', pos);
    std::string obj = json.substr(pos, end - pos + 1);
    if (obj.find("\"" + key + "\":" + value) == std::string::npos) bad.push_back(obj);
    pos = end;
  }
  return bad;
}

inline size_t page_count(const std::string& json) {
  return count_of(json, "{\"page\":");
}

}  // namespace tlscope::test
