// The words of every finding, one message a line in the order the analyses wrote them: what the
// analysis tests search for a finding's text. (How front ends group and title them is views/'s
// findings view model, tested in tests/views and the agreement test.)
#pragma once

#include <sqlite3.h>

#include <string>

namespace tlscope::test {

inline std::string findings_messages(sqlite3* db) {
  std::string out;
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT message FROM findings ORDER BY id", -1, &st, nullptr) !=
      SQLITE_OK)
    return "(no findings table)";
  while (sqlite3_step(st) == SQLITE_ROW) {
    out += reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    out += "\n";
  }
  sqlite3_finalize(st);
  return out;
}

}  // namespace tlscope::test
