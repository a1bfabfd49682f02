// Precompile / Dynamo cache records (torch/_dynamo/package.py, precompile_context.py): what the
// Dynamo cache of compiled packages saved, bypassed or failed on, plus any later
// `dynamo_cache_*` record (a hit or miss). Their payloads are JSON:
//   dynamo_cache_entries        {"num_entries": n, "artifacts": {"dynamo": [{..., "key"}],
//                                "backends": [backend ids]}}  the entries about to be saved
//   dynamo_cache_save_contents  {"artifacts": {"dynamo": [...], "backends": [...]}}
//   dynamo_cache_bypass         {"entry": {...}, "missing_backend": id}  a code saved without
//                                its backend, so it will not be cached
//   dynamo_cache_exception      {"key": k, "error": text}  an entry that could not be made
// The outcome is read from the name, so a record kind PyTorch adds later still lands somewhere.
#include "passes.hpp"

namespace tlscope::model::analysis {

void build_dynamo_cache(sqlite3* db) {
  if (!has_rows(db, "artifacts WHERE name LIKE 'dynamo\\_cache\\_%' ESCAPE '\\'")) return;
  const std::string j = "(CASE WHEN json_valid(p.text) THEN p.text END)";
  exec(db,
       "INSERT INTO dynamo_cache_records(file_id, rank, compile_id, event_id, name, outcome, "
       "entries, backends, keys, detail) SELECT a.file_id, COALESCE(f.rank, a.rank), "
       "a.compile_id, a.event_id, tlscope_clip(a.name), CASE "
       "WHEN a.name LIKE '%hit%' THEN 'hit' WHEN a.name LIKE '%miss%' THEN 'miss' "
       "WHEN a.name LIKE '%bypass%' THEN 'bypass' "
       "WHEN a.name LIKE '%exception%' OR a.name LIKE '%error%' OR a.name LIKE '%fail%' THEN "
       "'error' WHEN a.name LIKE '%save%' OR a.name = 'dynamo_cache_entries' THEN 'saved' "
       "ELSE 'other' END, "
       "coalesce(json_extract(" +
           j + ", '$.num_entries'), json_array_length(" + j +
           ", '$.artifacts.dynamo')), json_array_length(" + j +
           ", '$.artifacts.backends'), "
           "tlscope_clip(coalesce((SELECT group_concat(CASE WHEN k.type = 'object' THEN k.value "
           "->> '$.key' END, ', ') FROM "
           "json_each(" +
           j + ", '$.artifacts.dynamo') k), json_extract(" + j + ", '$.key'), json_extract(" + j +
           ", '$.entry.key'))), "
           "tlscope_clip(coalesce(json_extract(" +
           j +
           ", '$.error'), "
           "'missing backend ' || json_extract(" +
           j +
           ", '$.missing_backend'), "
           "CASE WHEN " +
           j +
           " IS NULL THEN substr(p.text, 1, 4096) END)) "
           "FROM artifacts a JOIN files f ON f.id = a.file_id LEFT JOIN payloads p ON p.id = "
           "a.payload_id WHERE a.name LIKE 'dynamo\\_cache\\_%' ESCAPE '\\' ORDER BY a.event_id");
}

}  // namespace tlscope::model::analysis
