// PGO profiles and Dynamo cache records for the front ends (dynamo_profiles.hpp).
#include "tlscope/views/dynamo_profiles.hpp"

#include <map>

#include "read_rows.hpp"

namespace tlscope::views {

Result<DynamoProfiles> load_dynamo_profiles(const Database& db) {
  Result<DynamoProfiles> out;
  DynamoProfiles& d = out.value;
  if (db.has_table("pgo_profiles") && db.has_table("pgo_profile_entries")) {
    std::map<int64_t, size_t> at;  // pgo_profiles.id -> index
    read_rows(db,
              "SELECT id, event_id, rank, coalesce(compile_id, ''), action, store, frames, "
              "entries, dynamic_entries, coalesce(suggested_sources, '') FROM pgo_profiles "
              "ORDER BY event_id",
              out, [&](const Statement& s) {
                PgoProfile& p = d.profiles.emplace_back();
                at[s.int64(0)] = d.profiles.size() - 1;
                p.event_id = s.int64(1);
                p.rank = s.opt_int64(2);
                p.compile_id = s.text(3);
                p.action = s.text(4);
                p.store = s.text(5);
                p.frames = s.int64(6);
                p.entries = s.int64(7);
                p.dynamic_entries = s.int64(8);
                p.suggested_sources = s.text(9);
              });
    if (!d.profiles.empty())
      read_rows(db,
                "SELECT profile_id, code_id, source, entry, dynamic FROM pgo_profile_entries "
                "ORDER BY id",
                out, [&](const Statement& s) {
                  auto it = at.find(s.int64(0));
                  if (it == at.end()) return;
                  PgoProfile& p = d.profiles[it->second];
                  if (p.rows.size() >= kProfileRows) return;
                  p.rows.push_back({s.text(1), s.text(2), s.text(3), s.int64(4) != 0});
                });
  }
  if (db.has_table("dynamo_cache_records"))
    read_rows(db,
              "SELECT event_id, rank, name, outcome, entries, backends, coalesce(keys, ''), "
              "coalesce(detail, '') FROM dynamo_cache_records ORDER BY event_id",
              out, [&](const Statement& s) {
                d.records.push_back({s.int64(0), s.opt_int64(1), s.text(2), s.text(3),
                                     s.opt_int64(4), s.opt_int64(5), s.text(6), s.text(7)});
              });
  return out;
}

std::string profile_words(const PgoProfile& p) {
  std::string out = p.action == "get" ? "loaded" : p.action == "put" ? "saved" : p.action;
  std::string store = p.store;
  for (char& c : store)
    if (c == '_') c = ' ';
  out += " the " + store + " profile: " + std::to_string(p.entries) + " input(s) of " +
         std::to_string(p.frames) + " frame(s), " + std::to_string(p.dynamic_entries) + " dynamic";
  return out;
}

}  // namespace tlscope::views
