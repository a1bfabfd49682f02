// See shape_user_frames.hpp. This was one SQL statement (json_each over both stacks, four
// json_extract calls and a correlated filename look-up per frame, then a window sort over every
// frame): 1.1 s for the 93,000 frames of the 1 GB benchmark log. Here each record's metadata is
// parsed once by simdjson and only the chosen frame is written. Values are converted as
// json_extract converts them, so the rows are the ones the SQL wrote.
#include "shape_user_frames.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tlscope/model/sqlite.hpp"

namespace tlscope::model::analysis {

namespace {

// One JSON value as json_extract hands it to SQL: NULL, an integer (also true / false), a real,
// or text (a string unquoted, an object or array as minified JSON).
struct Cell {
  int type = SQLITE_NULL;
  int64_t integer = 0;
  double real = 0;
  std::string text;
};

Cell cell_of(simdjson::dom::element v) {
  Cell c;
  switch (v.type()) {
    case simdjson::dom::element_type::INT64:
      c.type = SQLITE_INTEGER;
      c.integer = v.get_int64().value_unsafe();
      break;
    case simdjson::dom::element_type::UINT64:  // beyond int64: SQLite reads it as a real
      c.type = SQLITE_FLOAT;
      c.real = static_cast<double>(v.get_uint64().value_unsafe());
      break;
    case simdjson::dom::element_type::DOUBLE:
      c.type = SQLITE_FLOAT;
      c.real = v.get_double().value_unsafe();
      break;
    case simdjson::dom::element_type::BOOL:
      c.type = SQLITE_INTEGER;
      c.integer = v.get_bool().value_unsafe() ? 1 : 0;
      break;
    case simdjson::dom::element_type::STRING:
      c.type = SQLITE_TEXT;
      c.text = std::string(v.get_string().value_unsafe());
      break;
    case simdjson::dom::element_type::ARRAY:
    case simdjson::dom::element_type::OBJECT:
      c.type = SQLITE_TEXT;
      c.text = simdjson::minify(v);
      break;
    case simdjson::dom::element_type::NULL_VALUE:
      break;
  }
  return c;
}

// The string-table index a frame's `filename` value names, compared as SQLite compares it with
// the INTEGER column `idx`: numbers by value, text converted when it reads as a number.
std::optional<int64_t> index_of(const Cell& c) {
  double value = 0;
  if (c.type == SQLITE_INTEGER) return c.integer;
  if (c.type == SQLITE_FLOAT) {
    value = c.real;
  } else if (c.type == SQLITE_TEXT) {
    const char* begin = c.text.c_str();
    char* end = nullptr;
    long long as_int = std::strtoll(begin, &end, 10);
    auto rest_blank = [&](const char* p) {
      while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') ++p;
      return *p == '\0';
    };
    if (end != begin && rest_blank(end)) return static_cast<int64_t>(as_int);
    value = std::strtod(begin, &end);
    if (end == begin || !rest_blank(end)) return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (!std::isfinite(value) || value != std::floor(value) || std::fabs(value) > 9.0e18)
    return std::nullopt;
  return static_cast<int64_t>(value);
}

// ASCII case-insensitive, as SQLite's LIKE.
bool contains_nocase(std::string_view text, std::string_view part) {
  auto lower = [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c); };
  for (size_t i = 0; i + part.size() <= text.size(); ++i) {
    size_t k = 0;
    while (k < part.size() && lower(text[i + k]) == lower(part[k])) ++k;
    if (k == part.size()) return true;
  }
  return false;
}
bool starts_nocase(std::string_view text, std::string_view part) {
  return text.size() >= part.size() && contains_nocase(text.substr(0, part.size()), part);
}

// User code: not torch's own files and not the Python standard library (site-packages are user
// code's dependencies, and count as user code here, as before).
bool is_user_file(std::string_view file) {
  if (contains_nocase(file, "/torch/") || starts_nocase(file, "torch/")) return false;
  return !(contains_nocase(file, "/lib/python") && !contains_nocase(file, "-packages/"));
}

// A chosen frame: its resolved filename (null when unknown) and its object, read once chosen.
struct Pick {
  const std::string* file = nullptr;
  simdjson::dom::object frame;
};

// Filename entries per (file_id, idx), in log order.
using StringTable =
    std::map<std::pair<int64_t, int64_t>, std::vector<std::pair<int64_t, std::string>>>;

StringTable read_strings(sqlite3* db, std::string_view kinds_sql, simdjson::dom::parser& parser) {
  // The `str` metadata is read as the ingest reads it into `strings`: [filename, integer index]
  // (an index beyond 64 bits is no index). Parsed here rather than by six json1 calls a row.
  Statement q(db,
              "SELECT file_id, id, metadata FROM events WHERE kind = 'str' AND file_id IN "
              "(SELECT DISTINCT file_id FROM events WHERE kind IN " +
                  std::string(kinds_sql) + ") ORDER BY id");
  StringTable table;
  while (q.step()) {
    std::string_view metadata = q.text_view(2);
    simdjson::dom::array entry;
    if (metadata.empty()) continue;  // NULL metadata: no pointer to hand the parser
    if (parser.parse(metadata.data(), metadata.size()).get_array().get(entry)) continue;
    std::string_view filename;
    int64_t idx = 0;
    if (entry.at(0).get_string().get(filename) || entry.at(1).get_int64().get(idx)) continue;
    table[{q.int64(0), idx}].emplace_back(q.int64(1), std::string(filename));
  }
  return table;
}

// The entry logged last before the record (the stack_frames rule).
const std::string* filename_at(const StringTable& strings, int64_t file_id, int64_t idx,
                               int64_t event_id) {
  auto it = strings.find({file_id, idx});
  if (it == strings.end()) return nullptr;
  const auto& entries = it->second;
  auto after = std::lower_bound(entries.begin(), entries.end(), event_id,
                                [](const auto& e, int64_t id) { return e.first < id; });
  if (after == entries.begin()) return nullptr;
  return &std::prev(after)->second;
}

}  // namespace

void build_shape_user_frames(sqlite3* db, std::string_view kinds_sql) {
  exec(db, "CREATE TEMP TABLE shape_user_frames(event_id INT, file, line, name, loc)");
  simdjson::dom::parser parser;
  const StringTable strings = read_strings(db, kinds_sql, parser);
  Statement records(db, "SELECT id, file_id, metadata FROM events WHERE kind IN " +
                            std::string(kinds_sql) + " ORDER BY id");
  Statement insert(db, "INSERT INTO temp.shape_user_frames VALUES (?1, ?2, ?3, ?4, ?5)");
  while (records.step()) {
    int64_t event_id = records.int64(0);
    int64_t file_id = records.int64(1);
    std::string_view metadata = records.text_view(2);
    simdjson::dom::object fields;
    if (metadata.empty()) continue;  // NULL metadata: no pointer to hand the parser
    if (parser.parse(metadata.data(), metadata.size()).get_object().get(fields)) continue;
    // Frames in the order of preference: user_stack before stack, innermost (last) first.
    std::optional<Pick> user, fallback;
    for (const char* which : {"user_stack", "stack"}) {
      if (user) break;
      simdjson::dom::array stack;
      if (fields.at_key(which).get_array().get(stack)) continue;
      bool is_user_stack = which[0] == 'u';
      for (simdjson::dom::element frame : stack) {
        simdjson::dom::object f;
        if (frame.get_object().get(f)) continue;
        const std::string* file = nullptr;
        simdjson::dom::element index;
        if (!f.at_key("filename").get(index))
          if (auto idx = index_of(cell_of(index)))
            file = filename_at(strings, file_id, *idx, event_id);
        bool user_frame = file && is_user_file(*file);
        if (!user_frame && !is_user_stack) continue;
        (user_frame ? user : fallback) = Pick{file, f};
      }
    }
    const std::optional<Pick>& chosen = user ? user : fallback;
    if (!chosen) continue;
    insert.bind(1, event_id);
    if (chosen->file)
      insert.bind(2, std::string_view(*chosen->file));
    else
      insert.bind_null(2);
    int column = 3;
    for (const char* key : {"line", "name", "loc"}) {
      Cell c;
      simdjson::dom::element v;
      if (!chosen->frame.at_key(key).get(v)) c = cell_of(v);
      if (c.type == SQLITE_INTEGER)
        insert.bind(column, c.integer);
      else if (c.type == SQLITE_FLOAT)
        insert.bind(column, c.real);
      else if (c.type == SQLITE_TEXT)
        insert.bind(column, std::string_view(c.text));
      else
        insert.bind_null(column);
      ++column;
    }
    insert.run();
  }
  exec(db, "CREATE INDEX temp.shape_user_frames_key ON shape_user_frames(event_id)");
}

}  // namespace tlscope::model::analysis
