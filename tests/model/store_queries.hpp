// Reading single values back from a tlscope database in the model tests.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "tlscope/model/sqlite.hpp"

namespace tlscope::test {

// The query's first value as an integer; -1 when there is no row or it is NULL.
inline int64_t count(model::Connection& db, const std::string& sql) {
  return db.scalar_int(sql).value_or(-1);
}

// The query's first value as text, "NULL" for NULL; the query must return a row.
inline std::string text(model::Connection& db, const std::string& sql) {
  model::Statement s = db.prepare(sql);
  REQUIRE(s.step());
  return s.is_null(0) ? "NULL" : s.text(0);
}

}  // namespace tlscope::test
