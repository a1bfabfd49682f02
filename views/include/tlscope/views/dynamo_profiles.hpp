// What Dynamo carried between runs (the report's cache page, the viewer's cache panel): the PGO
// profiles of dynamic shapes it loaded and saved (pgo_profiles, pgo_profile_entries) and the
// precompile Dynamo cache's records (dynamo_cache_records); docs/schema.md has the tables.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

struct PgoEntry {
  std::string code_id;  // the code object as logged: file:line:function
  std::string source;   // L['x']
  std::string entry;    // tensor size=[?, 4] stride=[4, 1]
  bool dynamic = false;
};

struct PgoProfile {
  int64_t event_id = 0;
  std::optional<int64_t> rank;
  std::string compile_id;     // "" for a save at exit
  std::string action, store;  // get / put; local, remote, extra_remote
  int64_t frames = 0, entries = 0, dynamic_entries = 0;
  std::string suggested_sources;  // TORCH_COMPILE_DYNAMIC_SOURCES PGO suggests, "" when none
  std::vector<PgoEntry> rows;     // at most kProfileRows, in log order
};

struct DynamoCacheRecord {
  int64_t event_id = 0;
  std::optional<int64_t> rank;
  std::string name, outcome;  // dynamo_cache_records.outcome: hit, miss, saved, bypass, error
  std::optional<int64_t> entries, backends;
  std::string keys, detail;
};

struct DynamoProfiles {
  std::vector<PgoProfile> profiles;        // log order
  std::vector<DynamoCacheRecord> records;  // log order
  bool empty() const { return profiles.empty() && records.empty(); }
};

inline constexpr size_t kProfileRows = 200;

// Nothing (no error) for a database analysed before these tables existed.
Result<DynamoProfiles> load_dynamo_profiles(const Database& db);

// "loaded the local profile: 3 inputs of 2 frames, 1 dynamic" / "saved the remote profile: ...".
std::string profile_words(const PgoProfile& p);

}  // namespace tlscope::views
