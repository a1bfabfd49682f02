// JSON answers about one run that `tlscope mcp` gives and the commands print with --format json:
// the rows of a read-only query and one compile's detail, built from the views/ models.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "tlscope/views/read_only_query.hpp"

namespace tlscope::cli::mcp {

using nlohmann::json;

// A cell as JSON: null, an integer or real where SQLite holds a number, otherwise text.
json query_cell_json(const views::QueryCell& cell);

// {"columns": [...], "rows": [[...], ...], "truncated": bool}; throws ToolError when the SQL is
// refused or fails.
json query_json(const std::string& db, const std::string& sql, size_t max_rows);

// {"compile": {...}, "metrics": [...], "graphs"|"guards"|"code"|"artifacts": [{"name", "attempt",
// "text", "bytes"}]}: each text clipped at kCompileTextLimit. rank < 0 takes the first compile of
// that id in log order. Throws ToolError when there is no such compile.
json compile_json(const std::string& db, const std::string& compile_id, long rank);

inline constexpr size_t kCompileTextLimit = size_t{64} << 10;

}  // namespace tlscope::cli::mcp
