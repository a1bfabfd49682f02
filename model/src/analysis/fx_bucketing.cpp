// Collective bucketing (torch/_inductor/fx_passes/bucketing.py): which collectives Inductor merged
// into one. `fx_bucketing_passes_all_gather_buckets`, `fx_bucketing_passes_reduce_scatter_buckets`
// (and any `fx_bucketing_*_buckets`) carry str(list[list[Node]]): "[[all_gather_into_tensor,
// all_gather_into_tensor_1], [all_gather_into_tensor_2]]", one inner list per bucket, each Node
// printed by name. One row per bucket; another fx_bucketing_* record (a free-text log such as
// fx_bucketing_collectives_TRIE) gets no rows and stays an artifact.
#include <string>
#include <vector>

#include "artifact_records.hpp"
#include "passes.hpp"

namespace tlscope::model::analysis {

namespace {

// The buckets of "[[a, b], [c]]", each a list of node names; nothing for another text.
std::vector<std::vector<std::string>> buckets_of(std::string_view text) {
  std::vector<std::vector<std::string>> out;
  while (!text.empty() && (text.front() == ' ' || text.front() == '\n')) text.remove_prefix(1);
  if (!text.starts_with("[")) return out;
  int depth = 0;
  std::string name;
  auto flush = [&] {
    size_t b = name.find_first_not_of(' '), e = name.find_last_not_of(' ');
    if (b != std::string::npos && !out.empty()) out.back().push_back(name.substr(b, e - b + 1));
    name.clear();
  };
  for (char c : text) {
    if (c == '[') {
      if (++depth == 2) out.emplace_back();
    } else if (c == ']') {
      if (depth == 2) flush();
      if (--depth == 0) break;
    } else if (c == ',' && depth == 2) {
      flush();
    } else if (depth == 2 && c != '\n') {
      name += c;
    } else if (depth != 1 || (c != ' ' && c != ',' && c != '\n')) {
      return {};  // not a list of lists of names
    }
  }
  return depth == 0 ? out : std::vector<std::vector<std::string>>{};
}

// "fx_bucketing_passes_all_gather_buckets" -> "all_gather".
std::string collective_of(std::string_view name) {
  name.remove_prefix(std::string_view("fx_bucketing_").size());
  if (name.starts_with("passes_")) name.remove_prefix(7);
  if (name.ends_with("_buckets")) name.remove_suffix(8);
  return std::string(name);
}

}  // namespace

void build_fx_bucketing(sqlite3* db) {
  Statement add(db,
                "INSERT INTO fx_buckets(file_id, rank, compile_id, event_id, name, collective, "
                "bucket_index, size, nodes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
  for_each_artifact(
      db, "a.name LIKE 'fx\\_bucketing\\_%' ESCAPE '\\'", [&](const ArtifactRecord& r) {
        const auto buckets = buckets_of(r.payload);
        const std::string collective = collective_of(r.name);
        for (size_t i = 0; i < buckets.size(); ++i) {
          std::string nodes;
          for (const std::string& n : buckets[i]) nodes += (nodes.empty() ? "" : ", ") + n;
          add.bind(1, r.file_id).bind(2, r.rank).bind(3, r.compile_id).bind(4, r.event_id);
          add.bind_clipped(5, r.name).bind_clipped(6, collective);
          add.bind(7, static_cast<int64_t>(i)).bind(8, static_cast<int64_t>(buckets[i].size()));
          add.bind_clipped(9, nodes).run();
        }
      });
}

}  // namespace tlscope::model::analysis
