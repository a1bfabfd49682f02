// Databases for the views tests: a real log ingested and analysed by the model (so the view
// models are checked on data nobody here wrote), and a hand-built FixtureDb written to a file.
#pragma once

#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

#include "analysis/fixture_db.hpp"
#include "common/scratch_files.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"

namespace tlscope::test {

// <build>/views-tests/<name>/run.db holding `inputs` (paths under the shared torch logs),
// ingested and analysed.
inline std::string analysed_real_log(const std::string& name,
                                     const std::vector<std::string>& inputs) {
  std::filesystem::path dir = fresh_scratch("views-tests", name);
  std::string db = (dir / "run.db").string();
  std::vector<std::string> paths;
  for (const std::string& in : inputs) paths.push_back(std::string(TLSCOPE_SHARED_LOGS) + "/" + in);
  model::IngestResult ingested = model::ingest(db, paths);
  if (!ingested.problems.empty()) throw std::runtime_error(ingested.problems.front());
  auto analysis = model::analysis::ensure_analysis(db);
  if (!analysis.ok) throw std::runtime_error(analysis.error);
  return db;
}

// The fixture written to <build>/views-tests/<name>/fixture.db.
inline std::string fixture_file(FixtureDb& fixture, const std::string& name) {
  std::filesystem::path dir = fresh_scratch("views-tests", name);
  std::string db = (dir / "fixture.db").string();
  fixture.exec("VACUUM INTO " + FixtureDb::q(db));
  return db;
}

// Rows of `sql` on the database file, columns joined with "|".
inline std::vector<std::string> query_rows(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  std::vector<std::string> out = sql_rows(db, sql);
  sqlite3_close(db);
  return out;
}

}  // namespace tlscope::test
