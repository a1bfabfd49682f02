// Every table of a tlscope database as text, for tests that two databases hold the same rows
// (a merge against one ingest, --jobs 1 against --jobs N): table by table, rows in rowid order
// (by every column for WITHOUT ROWID tables), rowids included, so renumbered ids must agree too.
#pragma once

#include <sqlite3.h>

#include <map>
#include <string>
#include <vector>

#include "common/sql_rows.hpp"

namespace tlscope::test {

// Table name -> its rows; `skip` names tables left out.
inline std::map<std::string, std::vector<std::string>> dump_tables(
    const std::string& path, const std::vector<std::string>& skip = {}) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    throw std::runtime_error("cannot open " + path);
  }
  std::map<std::string, std::vector<std::string>> out;
  for (const std::string& row : sql_rows(
           db, "SELECT m.name, m.sql LIKE '%WITHOUT ROWID%', (SELECT count(*) FROM "
               "pragma_table_info(m.name)) FROM sqlite_master m WHERE m.type = 'table' AND "
               "m.name NOT LIKE 'sqlite_%' ORDER BY m.name")) {
    size_t a = row.find('|'), b = row.rfind('|');
    std::string name = row.substr(0, a);
    bool without_rowid = row.substr(a + 1, b - a - 1) == "1";
    int columns = std::stoi(row.substr(b + 1));
    bool skipped = false;
    for (const std::string& s : skip) skipped = skipped || s == name;
    if (skipped) continue;
    std::string order;
    for (int i = 1; i <= columns; ++i) order += (i > 1 ? ", " : "") + std::to_string(i);
    out[name] = sql_rows(db, without_rowid
                                 ? "SELECT * FROM \"" + name + "\" ORDER BY " + order
                                 : "SELECT rowid, * FROM \"" + name + "\" ORDER BY rowid");
  }
  sqlite3_close(db);
  return out;
}

// The first difference between two dumps, or "" when they are equal.
inline std::string first_difference(const std::map<std::string, std::vector<std::string>>& a,
                                    const std::map<std::string, std::vector<std::string>>& b) {
  for (const auto& [name, rows] : a) {
    auto it = b.find(name);
    if (it == b.end()) return "table " + name + " only in the first";
    const std::vector<std::string>& other = it->second;
    for (size_t i = 0; i < rows.size() || i < other.size(); ++i) {
      std::string x = i < rows.size() ? rows[i] : "(no row)";
      std::string y = i < other.size() ? other[i] : "(no row)";
      if (x != y) {
        return name + " row " + std::to_string(i) + " (of " + std::to_string(rows.size()) +
               " / " + std::to_string(other.size()) + "): " + x.substr(0, 300) + "  vs  " +
               y.substr(0, 300);
      }
    }
  }
  for (const auto& [name, rows] : b) {
    if (!a.count(name)) return "table " + name + " only in the second";
  }
  return "";
}

}  // namespace tlscope::test
