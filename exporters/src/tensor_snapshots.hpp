// The logged tensor values of a database (tensor_values + dtensor_placement artifacts) grouped
// into views::TensorSnapshot objects, with what the report links them from.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/tensor_snapshot.hpp"

namespace tlscope::exporters {

using views::Database;
using views::Statement;

struct SnapshotEntry {
  views::TensorSnapshot snapshot;
  std::string page;            // "tensor/values_<k>.html", "" when past the page limit
  std::set<int64_t> file_ids;  // logs that reported it
  std::set<std::pair<int64_t, std::string>> compiles;  // (file, compile key) of compiled records
};

struct TensorSnapshots {
  std::vector<SnapshotEntry> entries;  // in log order of first appearance
  std::vector<std::string> errors;     // unreadable records, "file:line: why"
  // Snapshots a compile page links: logged inside it, or named like one of its inputs on its rank.
  std::vector<size_t> for_compile(int64_t file_id, const std::string& compile_id,
                                  const std::set<std::string>& input_names) const;

  std::map<std::pair<int64_t, std::string>, std::vector<size_t>> by_file_name;
};

// At most `max_pages` snapshots get a page.
TensorSnapshots load_tensor_snapshots(const Database& db, size_t max_pages);

// "w1" from "L['w1']", "L['self'].w1" or "w1": the input name a snapshot name matches.
std::string input_base_name(const std::string& source);

}  // namespace tlscope::exporters
