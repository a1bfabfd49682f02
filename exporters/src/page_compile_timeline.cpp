// compile_timeline.html: compile phases from chromium_event records (dynamo, backend_compile,
// inductor_compile, ...) nested per rank, drawn by timeline.js from data/compile_timeline.js.
#include <map>

#include "pages.hpp"
#include "timeline_data.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {
constexpr size_t kMaxBars = 200000;
}

void write_compile_timeline_page(ReportContext& ctx) {
  TimelineData data;
  int64_t total = 0;
  if (ctx.db.has_table("chromium_events")) {
    total = ctx.db.scalar("SELECT count(*) FROM chromium_events WHERE dur IS NOT NULL");
    Statement s = ctx.db.prepare(
        "SELECT rank, file_id, name, ts, dur, coalesce(compile_id, ''), coalesce(cat, '') "
        "FROM chromium_events WHERE dur IS NOT NULL ORDER BY rank, file_id, ts, dur DESC");
    std::map<std::pair<int64_t, int64_t>, int> lane_of;  // (rank, file) -> lane
    std::vector<std::vector<double>> open_ends;          // per lane: end times of enclosing bars
    while (s.step() && data.bars.size() < kMaxBars) {
      std::pair<int64_t, int64_t> key{s.opt_int64(0).value_or(-1), s.int64(1)};
      auto [it, inserted] = lane_of.try_emplace(key, static_cast<int>(data.lanes.size()));
      if (inserted) {
        data.lanes.push_back(s.is_null(0) ? "file " + std::to_string(key.second)
                                          : "rank " + std::to_string(key.first));
        open_ends.emplace_back();
      }
      TimelineBar b;
      b.lane = it->second;
      b.start = s.real(3);
      b.end = b.start + s.real(4);
      // Depth = how many earlier bars of the lane still enclose this one.
      auto& stack = open_ends[b.lane];
      while (!stack.empty() && stack.back() <= b.start) stack.pop_back();
      b.depth = static_cast<int>(std::min<size_t>(stack.size(), 12));
      stack.push_back(b.end);
      b.label = s.text(2);
      b.cls = "phase";
      b.detail = "compile " + s.text(5) + "  " + s.text(6);
      data.bars.push_back(std::move(b));
    }
  }
  if (static_cast<int64_t>(data.bars.size()) < total)
    ctx.warnings.push_back("compile timeline shows the first " + std::to_string(data.bars.size()) +
                           " of " + std::to_string(total) + " phases");
  ctx.site.write("data/compile_timeline.js", timeline_js(data));
  std::string h = page_head("Compile timeline", "compile_timeline", 0);
  h += "<p id=\"phase-count\" data-count=\"" + std::to_string(total) + "\">" +
       plural(total, "compile phase") +
       " from chromium_event records, nested as they ran, one lane per rank.</p>\n";
  h += timeline_host_html("<span><i style=\"background:#6b8fd6\"></i>phase</span>");
  h += page_tail(0, {"data/compile_timeline.js", "assets/timeline.js"});
  ctx.site.write("compile_timeline.html", h);
}

}  // namespace tlscope::exporters
