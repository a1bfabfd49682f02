// Graph breaks from the three places the logs record them, merged so that each break is one row:
//  1. dynamo_graph_break_reason artifacts (reason, user file and line, user stack);
//  2. restart_reasons of a compile that logged no such artifact (2024 logs: the reason text only);
//  3. resume frames `torch_dynamo_resume_in_<fn>_at_<line>`: the code after a break, compiled as a
//     new frame. They name the user line of the break they resume from; a resume frame whose
//     break was not logged at all becomes a row of its own.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "analysis_schema.hpp"
#include "json_text.hpp"
#include "passes.hpp"
#include "tlscope/model/sqlite.hpp"
#include "tlscope/model/analysis/graph_breaks.hpp"

namespace tlscope::model::analysis {

namespace {

struct CompileInfo {
  int64_t file_id = 0;
  std::optional<int64_t> rank;
  std::string compile_id;
  std::optional<int64_t> frame_compile_id;
  std::string co_name, co_filename;
  int64_t first_event_id = 0;
};

struct BreakRow {
  size_t compile = 0;  // index into the compile list
  int64_t attempt = 0;
  std::string reason;
  std::optional<std::string> user_file;
  std::optional<int64_t> user_line;
  std::string user_stack_json = "[]";
  std::string source;
  std::optional<int64_t> event_id;
  std::optional<std::string> resume_compile_id;
  int64_t order = 0;  // log position, for output order
};

std::string stack_json(const std::vector<UserFrame>& stack) {
  std::string out = "[";
  for (size_t i = 0; i < stack.size(); ++i) {
    if (i) out += ",";
    out += "{\"file\":" + json_string(stack[i].file) +
           ",\"line\":" + std::to_string(stack[i].line) +
           ",\"name\":" + json_string(stack[i].name) + "}";
  }
  return out + "]";
}

// 2024 logs quote the reason inside the string: "'skip function graph_break in file ...'".
std::string unquote(std::string s) {
  if (s.size() >= 2 && s.front() == '\'' && s.back() == '\'') return s.substr(1, s.size() - 2);
  return s;
}

// Restarts that are not graph breaks (e.g. TensorifyScalarRestartAnalysis) name their exception.
bool is_plain_restart(const std::string& reason) {
  return reason.find("RestartAnalysis") != std::string::npos &&
         reason.find(' ') == std::string::npos;
}

}  // namespace

void build_graph_breaks(sqlite3* db) {
  std::vector<CompileInfo> compiles;
  std::map<std::pair<int64_t, std::string>, size_t> by_key;
  {
    Statement q(db,
                "SELECT file_id, rank, compile_id, frame_compile_id, COALESCE(co_name, ''), "
                "COALESCE(co_filename, ''), first_event_id FROM compiles ORDER BY first_event_id");
    while (q.step()) {
      CompileInfo c{q.int64(0), q.opt_int64(1), q.text(2), q.opt_int64(3),
                    q.text(4),  q.text(5),      q.int64(6)};
      by_key[{c.file_id, c.compile_id}] = compiles.size();
      compiles.push_back(std::move(c));
    }
  }
  std::vector<BreakRow> rows;
  std::set<size_t> compiles_with_artifacts;

  Statement artifacts(db, "SELECT a.event_id, a.file_id, " + compile_key_sql("e.compile_id") +
                              ", COALESCE(e.attempt, 0), p.text FROM artifacts a "
                              "JOIN events e ON e.id = a.event_id "
                              "LEFT JOIN payloads p ON p.id = a.payload_id "
                              "WHERE a.name = 'dynamo_graph_break_reason' ORDER BY a.event_id");
  while (artifacts.step()) {
    auto it = by_key.find({artifacts.int64(1), artifacts.text(2)});
    if (it == by_key.end()) continue;  // a break outside any compile context cannot be placed
    GraphBreakText text = parse_graph_break_text(artifacts.text_view(4));
    BreakRow row;
    row.compile = it->second;
    row.attempt = artifacts.int64(3);
    row.reason = text.reason;
    row.user_file = text.user_file;
    row.user_line = text.user_line;
    row.user_stack_json = stack_json(text.user_stack);
    row.source = "artifact";
    row.event_id = artifacts.int64(0);
    row.order = artifacts.int64(0);
    compiles_with_artifacts.insert(it->second);
    rows.push_back(std::move(row));
  }

  Statement restarts(db,
                     "SELECT file_id, compile_id, attempt, reason, event_id FROM restarts "
                     "ORDER BY id");
  while (restarts.step()) {
    auto it = by_key.find({restarts.int64(0), restarts.text(1)});
    if (it == by_key.end() || compiles_with_artifacts.count(it->second)) continue;
    std::string reason = unquote(restarts.text(3));
    if (is_plain_restart(reason)) continue;
    BreakRow row;
    row.compile = it->second;
    row.attempt = restarts.int64(2);
    row.reason = reason;
    row.source = "restart_reason";
    row.event_id = restarts.int64(4);
    row.order = compiles[it->second].first_event_id;
    rows.push_back(std::move(row));
  }

  // Resume frames, in log order; each resumes from the latest earlier compile of the same
  // function (or of one of its resume functions, which dynamo names after the original function)
  // in the same file whose break is unclaimed. Compiles are indexed by that base function name so
  // the search never walks unrelated compiles.
  auto base_name = [](const std::string& co_name) {
    auto parsed = parse_resume_frame_name(co_name);
    return parsed ? parsed->first : co_name;
  };
  std::map<std::tuple<int64_t, std::string, std::string>, std::vector<size_t>> by_function;
  for (size_t c = 0; c < compiles.size(); ++c)
    by_function[{compiles[c].file_id, compiles[c].co_filename, base_name(compiles[c].co_name)}]
        .push_back(c);
  std::vector<std::vector<size_t>> rows_of(compiles.size());
  for (size_t i = 0; i < rows.size(); ++i) rows_of[rows[i].compile].push_back(i);
  std::vector<bool> claimed(rows.size(), false);
  for (size_t r = 0; r < compiles.size(); ++r) {
    const CompileInfo& resume = compiles[r];
    if (resume.frame_compile_id.value_or(0) != 0) continue;  // recompiles resume nothing new
    auto parsed = parse_resume_frame_name(resume.co_name);
    if (!parsed) continue;
    const auto& [fn, line] = *parsed;
    const auto& candidates = by_function[{resume.file_id, resume.co_filename, fn}];
    std::optional<size_t> parent, parent_row;
    for (auto it = std::lower_bound(candidates.begin(), candidates.end(), r);
         it != candidates.begin();) {
      size_t c = *--it;
      std::optional<size_t> unclaimed;
      for (size_t i : rows_of[c]) {
        if (claimed[i]) continue;
        if (!unclaimed || rows[i].user_line == line) unclaimed = i;
      }
      if (!parent) parent = c;
      if (unclaimed) {
        parent = c;
        parent_row = unclaimed;
        break;
      }
    }
    if (parent_row) {
      BreakRow& row = rows[*parent_row];
      claimed[*parent_row] = true;
      row.resume_compile_id = resume.compile_id;
      if (!row.user_file) {
        row.user_file = resume.co_filename;
        row.user_line = line;
      }
    } else {
      BreakRow row;
      row.compile = parent.value_or(r);
      row.reason = "(reason not logged)";
      row.user_file = resume.co_filename;
      row.user_line = line;
      row.source = "resume_frame";
      row.resume_compile_id = resume.compile_id;
      row.order = resume.first_event_id;
      rows.push_back(std::move(row));
      claimed.push_back(true);
    }
  }

  std::stable_sort(rows.begin(), rows.end(),
                   [](const BreakRow& a, const BreakRow& b) { return a.order < b.order; });
  Statement insert(db,
                   "INSERT INTO graph_breaks(file_id, rank, compile_id, attempt, frame, "
                   "reason, user_file, user_line, user_stack, source, event_id, "
                   "resume_compile_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
                   "?12)");
  for (const BreakRow& row : rows) {
    const CompileInfo& c = compiles[row.compile];
    insert.bind(1, c.file_id).bind(2, c.rank).bind(3, std::string_view(c.compile_id));
    insert.bind(4, row.attempt);
    if (c.co_name.empty())
      insert.bind_null(5);
    else
      insert.bind(5, std::string_view(c.co_name));  // clipped in compiles
    // The reason and file come from the log: written clipped (cell_text.hpp).
    insert.bind_clipped(6, row.reason).bind_clipped(7, row.user_file).bind(8, row.user_line);
    insert.bind(9, std::string_view(row.user_stack_json)).bind(10, std::string_view(row.source));
    insert.bind(11, row.event_id).bind(12, row.resume_compile_id);
    insert.run();
  }

  exec(db,
       "INSERT INTO graph_break_summary(reason, user_file, user_line, count, compile_ids, "
       "ranks, frames) "
       "SELECT reason, user_file, user_line, count(*), json_group_array(compile_id), "
       "json_group_array(DISTINCT rank) FILTER (WHERE rank IS NOT NULL), "
       "json_group_array(DISTINCT frame) FILTER (WHERE frame IS NOT NULL) "
       "FROM graph_breaks GROUP BY reason, user_file, user_line ORDER BY min(id)");
}

}  // namespace tlscope::model::analysis
