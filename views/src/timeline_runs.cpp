// Telling runs apart by the time spans of their files.
#include "tlscope/views/timeline_runs.hpp"

#include <algorithm>
#include <cmath>

namespace tlscope::views {

TraceRuns group_into_runs(std::vector<FileSpan> files) {
  TraceRuns out;
  files.erase(std::remove_if(files.begin(), files.end(),
                             [](const FileSpan& f) {
                               return !std::isfinite(f.start_us) || !std::isfinite(f.end_us);
                             }),
              files.end());
  std::sort(files.begin(), files.end(), [](const FileSpan& a, const FileSpan& b) {
    return a.start_us != b.start_us ? a.start_us < b.start_us : a.file_id < b.file_id;
  });
  for (const FileSpan& f : files) {
    if (out.runs.empty() || f.start_us > out.runs.back().end_us + kRunGapUs) {
      out.runs.push_back({f.start_us, f.end_us, {}});
    }
    TraceRun& run = out.runs.back();
    run.end_us = std::max(run.end_us, f.end_us);
    run.file_ids.push_back(f.file_id);
    out.run_of_file[f.file_id] = static_cast<int>(out.runs.size()) - 1;
  }
  return out;
}

Result<TraceRuns> load_trace_runs(const Database& db) {
  Result<TraceRuns> out;
  std::map<int64_t, FileSpan> spans;
  auto add = [&](int64_t file, double start, double end) {
    auto [it, inserted] = spans.try_emplace(file, FileSpan{file, start, end});
    if (!inserted) {
      it->second.start_us = std::min(it->second.start_us, start);
      it->second.end_us = std::max(it->second.end_us, end);
    }
  };
  auto collect = [&](std::string_view sql) {
    db.prepare(sql).for_each([&](const Statement& st) { add(st.int64(0), st.real(1), st.real(2)); },
                             out);
  };
  if (db.has_table("chromium_events"))
    collect(
        "SELECT file_id, min(ts), max(ts + coalesce(dur, 0)) FROM chromium_events "
        "WHERE ts IS NOT NULL GROUP BY file_id");
  if (db.has_table("collectives"))
    collect(
        "SELECT file_id, min(coalesce(created_us, started_us, completed_us)), "
        "max(coalesce(completed_us, started_us, created_us)) FROM collectives "
        "WHERE coalesce(created_us, started_us, completed_us) IS NOT NULL GROUP BY file_id");
  std::vector<FileSpan> files;
  for (auto& [id, span] : spans) files.push_back(span);
  out.value = group_into_runs(std::move(files));
  return out;
}

}  // namespace tlscope::views
