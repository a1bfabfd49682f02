// Reads where compile time goes from compile_phase_tree (see compile_phases.hpp).
#include "tlscope/views/compile_phases.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "read_rows.hpp"

namespace tlscope::views {

namespace {

constexpr size_t kTopPhases = 15;
// A phase of cache work: its name says cache (inductor_codecache_torch_key, FxGraphCache.load,
// AOTAutogradCache.*), except PyCodeCache's loading of the generated module, which is mostly
// the wait for its kernels to compile (async_compile.wait inside it).
constexpr const char* kCachePhase = "lower(name) LIKE '%cache%' AND name NOT LIKE 'PyCodeCache.%'";
constexpr size_t kTopSources = 5;

// Orders rows of one tree (path, name, depth, sums) depth first, costlier children first.
std::vector<PhaseTotal> depth_first(std::vector<PhaseTotal> rows) {
  std::map<std::string, std::vector<size_t>> children;  // parent path -> rows
  std::map<std::string, size_t> at;
  for (size_t i = 0; i < rows.size(); ++i) at[rows[i].path] = i;
  for (size_t i = 0; i < rows.size(); ++i) {
    PhaseTotal& r = rows[i];
    std::string parent_path;
    const size_t cut = r.path.size() >= r.name.size() + 3 ? r.path.size() - r.name.size() - 3 : 0;
    if (r.depth > 0 && cut > 0 && at.count(r.path.substr(0, cut))) {
      parent_path = r.path.substr(0, cut);
      r.parent = rows[at[parent_path]].name;
    } else {
      r.depth = 0;  // a clipped path: shown as a root rather than lost
    }
    children[parent_path].push_back(i);
  }
  for (auto& [p, list] : children)
    std::stable_sort(list.begin(), list.end(),
                     [&](size_t a, size_t b) { return rows[a].seconds > rows[b].seconds; });
  std::vector<PhaseTotal> out;
  out.reserve(rows.size());
  std::vector<std::pair<size_t, int64_t>> stack;  // row, depth
  auto push_children = [&](const std::string& path, int64_t depth) {
    auto it = children.find(path);
    if (it == children.end()) return;
    for (auto c = it->second.rbegin(); c != it->second.rend(); ++c) stack.push_back({*c, depth});
  };
  push_children("", 0);
  while (!stack.empty()) {
    auto [i, depth] = stack.back();
    stack.pop_back();
    PhaseTotal r = rows[i];
    r.depth = depth;
    out.push_back(r);
    if (!rows[i].path.empty()) push_children(rows[i].path, depth + 1);
  }
  return out;
}

PhaseTotal total_row(const Statement& s) {
  PhaseTotal t;
  t.path = s.text(0);
  t.name = s.text(1);
  t.depth = s.int64(2);
  t.seconds = s.real(3) / 1e6;
  t.self_seconds = s.real(4) / 1e6;
  t.count = s.int64(5);
  return t;
}

std::string seconds_words(double s) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

}  // namespace

Result<std::vector<PhaseTotal>> load_phase_totals(const Database& db) {
  Result<std::vector<PhaseTotal>> out;
  if (!db.has_table("compile_phase_tree")) return out;
  std::vector<PhaseTotal> rows;
  read_rows(db,
            "SELECT path, min(name), min(depth), total(duration_us), total(self_us), count(*) "
            "FROM compile_phase_tree GROUP BY path ORDER BY min(id)",
            out, [&](const Statement& s) { rows.push_back(total_row(s)); });
  out.value = depth_first(std::move(rows));
  return out;
}

Result<CompileTimeSplit> load_compile_time_split(const Database& db) {
  Result<CompileTimeSplit> out;
  CompileTimeSplit& v = out.value;
  if (db.has_table("compile_phase_tree") &&
      db.scalar("SELECT count(*) FROM (SELECT 1 FROM compile_phase_tree LIMIT 1)") > 0) {
    // An ancestor's names are the path before the phase's own name.
    read_rows(db,
              "SELECT (SELECT count(*) FROM (SELECT DISTINCT file_id, compile_id FROM "
              "compile_phase_tree)), "
              "total(CASE WHEN parent_id IS NULL THEN duration_us END), "
              "total(CASE WHEN name = 'backend_compile' AND instr(substr(path, 1, length(path) - "
              "length(name)), 'backend_compile > ') = 0 THEN duration_us END), "
              "total(CASE WHEN " +
                  std::string(kCachePhase) +
                  " AND instr(lower(substr(path, 1, length(path) - length(name))), 'cache') = 0 "
                  "THEN duration_us END) "
                  "FROM compile_phase_tree",
              out, [&](const Statement& s) {
                v.compiles = s.int64(0);
                v.total_s = s.real(1) / 1e6;
                v.backend_s = s.real(2) / 1e6;
                v.cache_s = s.real(3) / 1e6;
              });
  } else if (db.has_table("compile_phases")) {
    v.from_metrics = true;
    read_rows(db,
              "SELECT count(DISTINCT file_id || ' ' || compile_id), "
              "total(CASE WHEN phase = 'entire_frame' THEN duration_us END), "
              "total(CASE WHEN phase = 'backend' THEN duration_us END) FROM compile_phases "
              "WHERE source = 'metrics'",
              out, [&](const Statement& s) {
                v.compiles = s.int64(0);
                v.total_s = s.real(1) / 1e6;
                v.backend_s = s.real(2) / 1e6;
              });
  }
  v.tracing_s = std::max(0.0, v.total_s - v.backend_s);
  if (db.has_table("compilation_metrics")) {
    read_rows(db,
              "SELECT count(x), total(x) FROM (SELECT json_extract(m.metadata, "
              "'$.remote_cache_time_saved_s') AS x FROM events m WHERE m.kind IN "
              "('compilation_metrics', 'bwd_compilation_metrics') AND json_valid(m.metadata))",
              out, [&](const Statement& s) {
                if (s.int64(0) > 0) v.cache_saved_s = s.real(1);
              });
  }
  return out;
}

Result<CompilePhases> load_compile_phases(const Database& db, size_t max_compiles) {
  Result<CompilePhases> out;
  CompilePhases& v = out.value;
  Result<CompileTimeSplit> split = load_compile_time_split(db);
  v.split = split.value;
  if (!split.ok()) out.fail(split.error);
  if (!db.has_table("compile_phase_tree")) return out;
  Result<std::vector<PhaseTotal>> run = load_phase_totals(db);
  v.run = std::move(run.value);
  if (!run.ok()) out.fail(run.error);
  // The costliest phase names and, for each, the compiles that spent most in it.
  std::map<std::string, TopPhase> by_name;
  read_rows(db,
            "SELECT name, file_id, min(rank), compile_id, total(duration_us), count(*) FROM "
            "compile_phase_tree GROUP BY name, file_id, compile_id",
            out, [&](const Statement& s) {
              TopPhase& t = by_name[s.text(0)];
              t.name = s.text(0);
              const double sec = s.real(4) / 1e6;
              t.seconds += sec;
              t.count += s.int64(5);
              t.compiles.push_back({s.int64(1), s.opt_int64(2), s.text(3), sec});
            });
  for (auto& [name, t] : by_name) {
    std::stable_sort(t.compiles.begin(), t.compiles.end(),
                     [](const auto& a, const auto& b) { return a.seconds > b.seconds; });
    if (t.compiles.size() > kTopSources) t.compiles.resize(kTopSources);
    v.top.push_back(std::move(t));
  }
  std::stable_sort(v.top.begin(), v.top.end(),
                   [](const TopPhase& a, const TopPhase& b) { return a.seconds > b.seconds; });
  if (v.top.size() > kTopPhases) v.top.resize(kTopPhases);
  // The costliest compiles' trees.
  v.compile_count = static_cast<size_t>(
      db.scalar("SELECT count(*) FROM (SELECT DISTINCT file_id, compile_id FROM "
                "compile_phase_tree)"));
  read_rows_bound(
      db,
      "SELECT file_id, min(rank), compile_id, total(CASE WHEN parent_id IS NULL THEN "
      "duration_us END) AS s FROM compile_phase_tree GROUP BY file_id, compile_id ORDER BY s "
      "DESC, min(id) LIMIT ?1",
      out, [&](Statement& s) { s.bind(1, static_cast<int64_t>(max_compiles)); },
      [&](const Statement& s) {
        CompilePhaseTree& t = v.compiles.emplace_back();
        t.file_id = s.int64(0);
        t.rank = s.opt_int64(1);
        t.compile_id = s.text(2);
        t.seconds = s.real(3) / 1e6;
      });
  Statement tree = db.prepare(
      "SELECT path, min(name), min(depth), total(duration_us), total(self_us), count(*) FROM "
      "compile_phase_tree WHERE file_id = ?1 AND compile_id = ?2 GROUP BY path ORDER BY min(id)");
  for (CompilePhaseTree& t : v.compiles) {
    std::vector<PhaseTotal> rows;
    rerun_rows(
        tree, out, [&](Statement& s) { s.bind(1, t.file_id).bind(2, t.compile_id); },
        [&](const Statement& s) { rows.push_back(total_row(s)); });
    t.phases = depth_first(std::move(rows));
  }
  return out;
}

std::vector<IcicleCell> icicle_layout(const std::vector<PhaseTotal>& phases) {
  double width = 0;
  for (const PhaseTotal& p : phases)
    if (p.depth == 0) width += p.seconds;
  std::vector<IcicleCell> cells;
  if (width <= 0) return cells;
  std::vector<double> cursor(1, 0.0);  // where the next phase of each depth starts
  for (size_t i = 0; i < phases.size(); ++i) {
    const size_t d = static_cast<size_t>(std::max<int64_t>(0, phases[i].depth));
    if (d >= cursor.size()) cursor.resize(d + 1, cursor.back());
    const double x0 = cursor[d];
    const double x1 = std::min(1.0, x0 + phases[i].seconds / width);
    cells.push_back({i, static_cast<int64_t>(d), x0, x1});
    cursor[d] = x1;
    cursor.resize(d + 2);
    cursor[d + 1] = x0;  // its children start where it does
  }
  return cells;
}

std::string compile_time_words(const CompileTimeSplit& s) {
  if (s.total_s <= 0) return {};
  std::string w = "compile time " + seconds_words(s.total_s) + " over " +
                  std::to_string(s.compiles) + (s.compiles == 1 ? " compile" : " compiles") +
                  ": Dynamo tracing " + seconds_words(s.tracing_s) + ", backend " +
                  seconds_words(s.backend_s);
  if (!s.from_metrics) w += ", cache " + seconds_words(s.cache_s);
  if (s.cache_saved_s) w += "; remote cache saved " + seconds_words(*s.cache_saved_s);
  return w;
}

}  // namespace tlscope::views
