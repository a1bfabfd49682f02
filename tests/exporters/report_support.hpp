// Helpers for the report tests: counting matches, querying the database, checking that every link
// of a written site resolves (files are read with common/scratch_files.hpp's slurp).
#pragma once

#include <sqlite3.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/scratch_files.hpp"
#include "tlscope/exporters/report.hpp"
#include "tlscope/model/ingest.hpp"

namespace tlscope::test {

inline size_t count_of(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t pos = 0; (pos = text.find(needle, pos)) != std::string::npos; pos += needle.size())
    ++n;
  return n;
}

// The quoted value that follows the first `prefix` (which ends with the opening quote) in `text`;
// nullopt if there is none.
inline std::optional<std::string> value_after(const std::string& text, const std::string& prefix) {
  size_t value = text.find(prefix);
  if (value == std::string::npos) return std::nullopt;
  value += prefix.size();
  size_t close = text.find('"', value);
  if (close == std::string::npos) return std::nullopt;
  return text.substr(value, close - value);
}

// The value of attribute `attr` on the element with id `id` ("" if absent).
inline std::string attr_of(const std::string& html, const std::string& id,
                           const std::string& attr) {
  size_t at = html.find("id=\"" + id + "\"");
  if (at == std::string::npos) return "";
  size_t start = html.rfind('<', at), end = html.find('>', at);
  return value_after(html.substr(start, end - start), attr + "=\"").value_or("");
}

// Every quoted href="..." and src="..." value of a page, in page order. A plain scan rather than
// std::regex: it runs over every page of every report, and std::regex is slow (the more so
// unoptimised under the sanitizers).
inline std::vector<std::string> link_targets(const std::string& html) {
  std::vector<std::string> out;
  for (size_t i = 0; i < html.size(); ++i) {
    size_t start;
    if (html.compare(i, 6, "href=\"") == 0) {
      start = i + 6;
    } else if (html.compare(i, 5, "src=\"") == 0) {
      start = i + 5;
    } else {
      continue;
    }
    size_t close = html.find('"', start);
    if (close == std::string::npos) break;
    out.push_back(html.substr(start, close - start));
    i = close;
  }
  return out;
}

inline long long db_count(const std::string& db_path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* s = nullptr;
  long long n = -1;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK &&
      sqlite3_step(s) == SQLITE_ROW)
    n = sqlite3_column_int64(s, 0);
  sqlite3_finalize(s);
  sqlite3_close(db);
  return n;
}

inline std::vector<std::filesystem::path> html_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.path().extension() == ".html") out.push_back(e.path());
  return out;
}

// Relative href/src targets that do not exist on disk, as "page -> target".
inline std::vector<std::string> broken_links(const std::filesystem::path& dir) {
  std::vector<std::string> broken;
  for (const auto& page : html_files(dir)) {
    for (std::string target : link_targets(slurp(page))) {
      target = target.substr(0, target.find('#'));  // the page, not the anchor in it
      if (target.empty()) continue;
      if (target.find("://") != std::string::npos) {
        broken.push_back(page.string() + " -> external " + target);
        continue;
      }
      if (!std::filesystem::exists(page.parent_path() / target))
        broken.push_back(page.string() + " -> " + target);
    }
  }
  return broken;
}

// comp_failure.log with `inserted` at the start of every co_name and fail_reason: both live in
// the envelopes, so no payload hash changes.
inline std::string comp_failure_log_with_long_names(const std::string& inserted) {
  std::string log = slurp(std::string(TLSCOPE_FIXTURES) + "/comp_failure.log");
  for (const std::string key : {"\"co_name\": \"", "\"fail_reason\": \""}) {
    for (size_t at = log.find(key); at != std::string::npos; at = log.find(key, at + 1))
      log.insert(at + key.size(), inserted);
  }
  return log;
}

// `log` written as root/long.log, ingested into root/long.db, and reported into root/site.
inline tlscope::exporters::ReportResult report_of_log(const std::filesystem::path& root,
                                                      const std::string& log) {
  spit(root / "long.log", log);
  std::string db = (root / "long.db").string();
  tlscope::model::ingest(db, {(root / "long.log").string()});
  tlscope::exporters::ReportOptions options;
  options.db_path = db;
  options.out_dir = (root / "site").string();
  return tlscope::exporters::write_report(options);
}

}  // namespace tlscope::test
