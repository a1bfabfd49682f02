// A database the viewer tests open: inputs ingested and analysed in-process, as `tlscope ingest`
// does.
#pragma once

#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"

namespace gui_test {

// Ingests and analyses `inputs` into `db` (replaced if it exists); returns `db`.
inline std::string ingested_db(const std::string& db, const std::vector<std::string>& inputs) {
  std::filesystem::remove(db);
  auto r = tlscope::model::ingest(db, inputs);
  for (const auto& p : r.problems) INFO(p);
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &raw) == SQLITE_OK);
  tlscope::model::analysis::analyze(raw);
  sqlite3_close(raw);
  return db;
}

}  // namespace gui_test
