// How the views/ loaders run a query: every row into `row`, a failure into the Result (the
// message already names the database and the statement).
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

template <typename T, typename Row>
bool read_rows(const Database& db, std::string_view sql, Result<T>& result, Row&& row) {
  return db.prepare(sql).for_each(row, result);
}

// As read_rows, on a statement a reader prepared once and runs again for each item (each
// prepare compiles the SQL anew, the larger cost when a report reads a thousand items), with
// `bind(statement)` called before the first step.
template <typename T, typename Bind, typename Row>
bool rerun_rows(Statement& st, Result<T>& result, Bind&& bind, Row&& row) {
  st.reset();
  bind(st);
  return st.for_each(row, result);
}

// As rerun_rows, on a statement prepared for this one run.
template <typename T, typename Bind, typename Row>
bool read_rows_bound(const Database& db, std::string_view sql, Result<T>& result, Bind&& bind,
                     Row&& row) {
  Statement st = db.prepare(sql);
  return rerun_rows(st, result, std::forward<Bind>(bind), std::forward<Row>(row));
}

}  // namespace tlscope::views
