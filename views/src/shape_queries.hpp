// The reads of the symbolic-shape analysis tables that the compile view (symbolic_shapes.cpp) and
// the export report (export_report.cpp) share: each streams the rows of one table, optionally
// filtered by a WHERE clause, with its file id. Lists come out of SQLite unit-separated
// (char(31); char(30) between a key and its value), so no JSON is parsed here.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "tlscope/views/symbolic_shapes.hpp"

namespace tlscope::views {

// user_file, user_line, user_name, user_code: four columns read by user_frame_at.
inline constexpr const char* kUserFrameColumns = "user_file, user_line, user_name, user_code";
// The `symbols` JSON array column as one unit-separated text.
inline constexpr const char* kSymbolsList =
    "(SELECT group_concat(value, char(31)) FROM json_each(CASE WHEN json_valid(symbols) THEN "
    "symbols ELSE '[]' END))";
// The `sources` JSON object column as unit-separated "symbol<RS>source" items.
inline constexpr const char* kSourcesList =
    "(SELECT group_concat(key || char(30) || CAST(value AS TEXT), char(31)) FROM "
    "json_each(CASE WHEN json_valid(sources) AND json_type(sources) = 'object' THEN sources "
    "ELSE '{}' END))";
// The `sources` JSON array column (shape_specializations) as one unit-separated text.
inline constexpr const char* kSourcesArray =
    "(SELECT group_concat(CAST(value AS TEXT), char(31)) FROM json_each(CASE WHEN "
    "json_valid(sources) AND json_type(sources) = 'array' THEN sources ELSE '[]' END))";

UserFrame user_frame_at(const Statement& s, int first);
std::vector<std::pair<std::string, std::string>> split_pairs(std::string_view joined);

// Each reader keeps a failure in `status` (the first one wins) and skips a missing table.
void read_shape_symbols(const Database& db, std::string_view where, Status& status,
                        const std::function<void(int64_t file_id, ShapeSymbol)>& row);
void read_shape_specializations(
    const Database& db, std::string_view where, Status& status,
    const std::function<void(int64_t file_id, ShapeSpecialization)>& row);
void read_shape_guards(const Database& db, std::string_view where, Status& status,
                       const std::function<void(int64_t file_id, ShapeGuard)>& row);

}  // namespace tlscope::views
