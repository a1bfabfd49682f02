// Incomplete files and analysis staleness (see store_health.hpp).
#include "tlscope/views/store_health.hpp"

namespace tlscope::views {

StoreHealth store_health(const Database& db) {
  StoreHealth h;
  if (!db.has_table("files")) return h;
  db.prepare("SELECT path FROM files WHERE completed = 0 ORDER BY id").for_each([&](Statement& s) {
    h.incomplete_files.push_back(s.text(0));
  });
  if (!db.has_table("findings")) return h;
  if (!db.has_table("analysis_files")) {
    h.analysis = StoreHealth::Analysis::kStale;
    db.prepare("SELECT path FROM files ORDER BY id").for_each([&](Statement& s) {
      h.files_not_analysed.push_back(s.text(0));
    });
    return h;
  }
  // A file is covered only as it was analysed: same id, same event count, same completion. A
  // join, not a correlated NOT EXISTS: SQLite indexes a join's inner table when it has no key
  // (analysis_files of older databases), so this stays n log n in the file count.
  db.prepare(
        "SELECT f.path FROM files f LEFT JOIN analysis_files a ON a.file_id = f.id AND "
        "a.events = f.events AND a.completed = f.completed WHERE a.file_id IS NULL ORDER BY f.id")
      .for_each([&](Statement& s) { h.files_not_analysed.push_back(s.text(0)); });
  h.analysed_files_gone = db.scalar(
      "SELECT count(*) FROM analysis_files a WHERE NOT EXISTS (SELECT 1 FROM files f WHERE "
      "f.id = a.file_id AND a.events = f.events AND a.completed = f.completed)");
  bool stale = !h.files_not_analysed.empty() || h.analysed_files_gone > 0;
  h.analysis = stale ? StoreHealth::Analysis::kStale : StoreHealth::Analysis::kCurrent;
  return h;
}

std::vector<std::string> StoreHealth::warnings(const std::string& db_path) const {
  std::vector<std::string> out;
  for (const std::string& path : incomplete_files) {
    out.push_back(path +
                  " is INCOMPLETE: its ingest was interrupted or reading stopped early, so its "
                  "rows are partial; run `tlscope ingest` on it again to replace them");
  }
  if (analysis == Analysis::kStale) {
    std::string what;
    if (!files_not_analysed.empty()) {
      what = std::to_string(files_not_analysed.size()) + " file(s) added or changed since (" +
             files_not_analysed.front() + (files_not_analysed.size() > 1 ? ", ..." : "") + ")";
    } else {
      what = std::to_string(analysed_files_gone) + " file(s) it covered are gone";
    }
    out.push_back("the analysis is STALE: it does not cover the database as it is now: " + what +
                  "; findings, compiles and collectives may be missing: run `tlscope analyze " +
                  db_path + "`");
  }
  return out;
}

}  // namespace tlscope::views
