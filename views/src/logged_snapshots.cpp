// Reads tensor_values / dtensor_placement artifacts in log order and groups them per (name,
// occurrence): the k-th values record of a name on each rank is one snapshot, paired with that
// rank's latest placement of the same name.
#include <algorithm>
#include <filesystem>

#include "tlscope/views/tensor_screens.hpp"

namespace tlscope::views {

std::string input_base_name(const std::string& source) {
  // L['x'] -> x; L['self'].layer.w -> w; plain names stay.
  std::string s = source;
  size_t dot = s.rfind('.');
  if (dot != std::string::npos && s.find(']', dot) == std::string::npos) return s.substr(dot + 1);
  size_t open = s.rfind("['");
  size_t close = s.rfind("']");
  if (open != std::string::npos && close != std::string::npos && close > open + 2)
    return s.substr(open + 2, close - open - 2);
  return s;
}

std::vector<size_t> TensorSnapshots::for_compile(int64_t file_id, const std::string& compile_id,
                                                 const std::set<std::string>& input_names) const {
  std::set<size_t> out;
  for (size_t i = 0; i < entries.size(); ++i)
    if (entries[i].compiles.count({file_id, compile_id})) out.insert(i);
  for (const std::string& name : input_names) {
    auto it = by_file_name.find({file_id, name});
    if (it != by_file_name.end()) out.insert(it->second.begin(), it->second.end());
  }
  return {out.begin(), out.end()};
}

Result<TensorSnapshots> load_tensor_snapshots(const Database& db, Page page) {
  Result<TensorSnapshots> out;
  TensorSnapshots& result = out.value;
  if (!db.has_table("artifacts")) return out;
  Statement s = db.prepare(
      "SELECT a.file_id, coalesce(f.rank, a.rank, -1), coalesce(a.compile_id, ''), a.name, "
      "coalesce(p.text, ''), coalesce(e.line, 0), coalesce(f.path, '') FROM artifacts a "
      "LEFT JOIN payloads p ON p.id = a.payload_id LEFT JOIN events e ON e.id = a.event_id "
      "LEFT JOIN files f ON f.id = a.file_id "
      "WHERE a.name IN ('tensor_values', 'dtensor_placement') ORDER BY a.file_id, a.event_id");
  struct Pending {
    std::vector<RankValues> ranks;
    std::set<int64_t> files;
    std::set<std::pair<int64_t, std::string>> compiles;
  };
  std::vector<std::pair<std::string, int>> order;  // (name, occurrence) by first appearance
  std::map<std::pair<std::string, int>, Pending> pending;
  std::map<std::pair<int64_t, std::string>, LoggedPlacement> placement;  // (file, name)
  std::map<std::pair<int64_t, std::string>, int> seen;                   // (file, name)
  while (s.step()) {
    int64_t file = s.int64(0);
    // The file name (not the whole path) keeps the page readable; ranks tell files apart.
    std::string where =
        std::filesystem::path(s.text(6)).filename().string() + ":" + std::to_string(s.int64(5));
    if (s.text_view(3) == "dtensor_placement") {
      Result<LoggedPlacement> p = parse_logged_placement(s.text_view(4), where);
      if (p.ok())
        placement[{file, p->tensor}] = std::move(p.value);
      else
        result.errors.push_back(std::move(p.error));
      continue;
    }
    Result<LoggedValues> v = parse_logged_values(s.text_view(4), where);
    if (!v.ok()) {
      result.errors.push_back(std::move(v.error));
      continue;
    }
    int occurrence = ++seen[{file, v->name}];
    std::pair<std::string, int> key{v->name, occurrence};
    auto [it, inserted] = pending.try_emplace(key);
    if (inserted) order.push_back(key);
    RankValues rv;
    rv.rank = s.int64(1);
    rv.source = where;
    auto pl = placement.find({file, v->name});
    if (pl != placement.end()) rv.placement = pl->second;
    rv.values = std::move(v.value);
    it->second.ranks.push_back(std::move(rv));
    it->second.files.insert(file);
    std::string compile = s.text(2).substr(0, s.text(2).find('_'));
    if (!compile.empty()) it->second.compiles.insert({file, compile});
  }
  if (!s.error().empty()) {
    result.errors.push_back("tensor values: " + s.error());
    out.fail(s.error());
  }
  result.total = order.size();
  result.first = std::min(page.offset, order.size());
  size_t end = result.first + std::min(page.limit, order.size() - result.first);
  for (size_t k = result.first; k < end; ++k) {
    const auto& key = order[k];
    Pending& p = pending[key];
    SnapshotEntry e;
    e.snapshot = assemble_snapshot(std::move(p.ranks), key.second);
    e.file_ids = std::move(p.files);
    e.compiles = std::move(p.compiles);
    for (int64_t f : e.file_ids)
      result.by_file_name[{f, key.first}].push_back(result.entries.size());
    result.entries.push_back(std::move(e));
  }
  return out;
}

}  // namespace tlscope::views
