// The compare page (compare_report.hpp): verdict, the two runs' counts side by side, differences
// per section, the compile trees side by side and the timelines (compare_sides.cpp), frames
// aligned by their match, compile time per phase and the notes. Every text from a log goes
// through html_escape.
#include "tlscope/exporters/compare_report.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "assets.hpp"
#include "compare_sides.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

std::string esc(std::string_view s) {
  return html_escape(s);
}

std::string num(int64_t v) {
  return std::to_string(v);
}

std::string line_text(int64_t line) {
  return line >= 0 ? std::to_string(line) : "-";
}

void run_counts(std::string& h, const views::Comparison& c) {
  auto row = [&](const char* what, int64_t a, int64_t b) {
    h += "<tr><td>" + std::string(what) + "</td><td class=\"num\">" + num(a) +
         "</td><td class=\"num\">" + num(b) + "</td></tr>\n";
  };
  h += "<h2>The two "
       "runs</h2>\n<table><thead><tr><th></th><th>A</th><th>B</th></tr></thead><tbody>\n";
  h += "<tr><td>PyTorch</td><td>" + esc(c.a.torch_version.value_or("(not in the log)")) +
       "</td><td>" + esc(c.b.torch_version.value_or("(not in the log)")) + "</td></tr>\n";
  row("ranks", static_cast<int64_t>(c.a.ranks.size()), static_cast<int64_t>(c.b.ranks.size()));
  row("compiles attempted", c.a.compiles.attempted, c.b.compiles.attempted);
  row("completed", c.a.compiles.completed, c.b.compiles.completed);
  row("failed", c.a.compiles.failed, c.b.compiles.failed);
  row("unfinished", c.a.compiles.unfinished, c.b.compiles.unfinished);
  row("restarts", c.a.compiles.restarts, c.b.compiles.restarts);
  row("recompiles", c.a.recompiles, c.b.recompiles);
  row("graph breaks (distinct)", c.a.graph_breaks_distinct, c.b.graph_breaks_distinct);
  h += "</tbody></table>\n";
}

// A difference's value in one run: its text in a code box, or, when the run has none, words
// without a box (an empty box reads as an empty value, which is not what absent means).
std::string value_cell(const std::optional<std::string>& v, const char* run) {
  if (!v) return std::string("<span class=\"absent\">(not in ") + run + ")</span>";
  if (v->empty()) return "<span class=\"absent\">&mdash;</span>";  // present, but empty
  return "<pre>" + esc(*v) + "</pre>";
}

void differences(std::string& h, const views::Comparison& c) {
  std::string_view section;
  for (const views::Difference& d : c.differences) {
    const views::DifferenceKindInfo& info = views::kind_info(d.kind);
    if (info.section != section) {
      if (!section.empty()) h += "</tbody></table>\n";
      section = info.section;
      h += "<h2>" + esc(section) +
           "</h2>\n<table><thead><tr><th>kind</th><th>subject</th><th>A</th><th>B</th>"
           "<th>ranks</th></tr></thead><tbody>\n";
    }
    std::string ranks;
    for (int64_t r : d.ranks) ranks += (ranks.empty() ? "" : " ") + std::to_string(r);
    h += "<tr><td>" + esc(info.name) + "</td><td>" + esc(d.subject) + "</td><td>" +
         value_cell(d.a, "A") + "</td><td>" + value_cell(d.b, "B") + "</td><td>" + esc(ranks) +
         "</td></tr>\n";
  }
  if (!section.empty()) h += "</tbody></table>\n";
}

void frames(std::string& h, const views::Comparison& c) {
  h += "<h2>Frame by frame</h2>\n<table id=\"frame-table\"><thead><tr><th "
       "class=\"status\">status</th><th>function</th><th>file</th>"
       "<th>line A</th><th>line B</th><th>compiles A</th><th>compiles B</th><th>failed A</th>"
       "<th>failed B</th><th>recompiles A</th><th>recompiles B</th></tr></thead><tbody>\n";
  for (const views::FrameMatch& f : c.frames)
    h += "<tr><td class=\"status\">" + std::string(views::frame_status_name(f.status)) +
         "</td><td>" + esc(f.function) + "</td><td>" + esc(f.file) + "</td><td class=\"num\">" +
         line_text(f.line_a) + "</td><td class=\"num\">" + line_text(f.line_b) +
         "</td><td class=\"num\">" + num(f.compiles_a) + "</td><td class=\"num\">" +
         num(f.compiles_b) + "</td><td class=\"num\">" + num(f.failed_a) +
         "</td><td class=\"num\">" + num(f.failed_b) + "</td><td class=\"num\">" +
         num(f.recompiles_a) + "</td><td class=\"num\">" + num(f.recompiles_b) + "</td></tr>\n";
  h += "</tbody></table>\n";
}

void phases(std::string& h, const views::Comparison& c) {
  if (c.phases.empty()) return;
  h += "<h2>Compile time per phase</h2>\n<p class=\"muted\">Over the " + num(c.timed_compiles) +
       " compile(s) both runs completed" +
       (c.same_work ? "." : "; the runs did not compile the same work (see the notes).") +
       "</p>\n<table><thead><tr><th>phase</th><th>A (s)</th><th>B (s)</th><th>B - A (s)</th>"
       "</tr></thead><tbody>\n";
  for (const views::PhaseDelta& p : c.phases) {
    char cells[128];
    std::snprintf(cells, sizeof cells,
                  "<td class=\"num\">%.3f</td><td class=\"num\">%.3f</td><td class=\"num\">%+.3f"
                  "</td>",
                  p.a_us / 1e6, p.b_us / 1e6, (p.b_us - p.a_us) / 1e6);
    h += "<tr><td>" + esc(p.phase) + "</td>" + cells + "</tr>\n";
  }
  h += "</tbody></table>\n";
}

}  // namespace

std::string write_compare_report(const views::Comparison& c, const std::string& a,
                                 const std::string& b, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(fs::path(dir) / "assets", ec);
  if (ec) return dir + ": cannot create the folder: " + ec.message();
  std::string h =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<title>tlscope compare</title><link rel=\"stylesheet\" href=\"assets/report.css\">"
      "</head><body><main>\n<h1>tlscope compare</h1>\n<p>A: <code>" +
      esc(a) + "</code><br>B: <code>" + esc(b) + "</code></p>\n<ul class=\"verdict\">\n";
  for (const std::string& line : views::verdict(c)) h += "<li>" + esc(line) + "</li>\n";
  h += "</ul>\n";
  run_counts(h, c);
  differences(h, c);
  compare_compile_trees(h, c);
  compare_timelines(h, c);
  frames(h, c);
  phases(h, c);
  if (!c.notes.empty()) {
    h += "<h2>Notes</h2>\n<ul>\n";
    for (const std::string& n : c.notes) h += "<li>" + esc(n) + "</li>\n";
    h += "</ul>\n";
  }
  h += "</main></body></html>\n";
  for (const Asset& asset : report_assets()) {
    if (asset.name != "report.css") continue;
    const fs::path css = fs::path(dir) / "assets" / std::string(asset.name);
    std::ofstream out(css, std::ios::binary);
    out << asset.text;
    if (!out.flush()) return css.string() + ": cannot write";
  }
  const fs::path index = fs::path(dir) / "index.html";
  std::ofstream out(index, std::ios::binary);
  out << h;
  if (!out.flush()) return index.string() + ": cannot write";
  return "";
}

}  // namespace tlscope::exporters
