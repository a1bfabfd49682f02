// The words of every finding, one sentence a line in the order the analyses wrote them: what the
// analysis tests search for a finding's text. The findings table holds facts only; the sentences
// are views/'s (finding_words.hpp), read here through a second, read-only connection. (How front
// ends group and title them is views/'s findings view model, tested in tests/views and the
// agreement tests.)
#pragma once

#include <sqlite3.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tlscope/views/finding_words.hpp"

namespace tlscope::test {

// Every finding of the database `db` is the main database of, with its sentence.
// An in-memory database (the fixtures') is copied to a scratch file first: views/ opens paths.
inline std::vector<views::WordedFinding> worded_findings(sqlite3* db) {
  const char* name = sqlite3_db_filename(db, "main");
  std::string path = name ? name : "", copy;
  if (path.empty()) {
    static int copies = 0;
    copy = (std::filesystem::temp_directory_path() /
            ("tlscope-findings-" + std::to_string(::getpid()) + "-" + std::to_string(++copies) +
             ".db"))
               .string();
    std::filesystem::remove(copy);
    sqlite3_exec(db, ("VACUUM INTO '" + copy + "'").c_str(), nullptr, nullptr, nullptr);
    path = copy;
  }
  std::string error;
  std::vector<views::WordedFinding> out;
  {
    views::Database read(path);
    views::Result<std::vector<views::WordedFinding>> worded = views::word_findings(read);
    out = std::move(worded.value);
    error = worded.error;
    if (!read.ok()) error = read.error();
  }
  if (!copy.empty()) std::filesystem::remove(copy);
  if (!error.empty()) out.push_back({{}, "(error: " + error + ")"});
  return out;
}

// The sentences of the findings of `kind` (every kind when empty), one a line.
inline std::string findings_messages(sqlite3* db, const std::string& kind = {}) {
  std::string out;
  for (const views::WordedFinding& f : worded_findings(db)) {
    if (!kind.empty() && f.facts.kind != kind) continue;
    out += f.sentence;
    out += "\n";
  }
  return out;
}

}  // namespace tlscope::test
