// What each input's run was: the PyTorch that wrote it (run_info) and the configuration it ran
// with (run_config). PyTorch states its version in several places depending on the release:
// a `torch_version` record or artifact (2.14 on), fields of compilation_metrics, and the
// `# torch version:` header of every fx_graph_runnable; each file keeps the most direct one.
#include <array>
#include <string>
#include <vector>

#include "analysis_schema.hpp"
#include "passes.hpp"
#include "tlscope/model/sqlite.hpp"
#include "tlscope/model/analysis/run_environment.hpp"

namespace tlscope::model::analysis {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '#' ||
                        s.front() == '"' || s.front() == '\''))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' ||
                        s.back() == '"' || s.back() == '\'' || s.back() == ','))
    s.remove_suffix(1);
  return s;
}

std::string lower_words(std::string_view s) {
  std::string out;
  for (char c : s) {
    char l = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    out += (l == '_' || l == '-') ? ' ' : l;
  }
  return out;
}

// The keys PyTorch and its tools have used for the three facts, lower-cased with '_' as ' '.
enum class Fact { kNone, kVersion, kCommit, kCuda, kPython, kTriton };
Fact fact_of(std::string_view key) {
  static constexpr std::array<std::pair<std::string_view, Fact>, 13> kKeys{{
      {"torch version", Fact::kVersion},
      {"version", Fact::kVersion},
      {"torch git version", Fact::kCommit},
      {"git version", Fact::kCommit},
      {"git commit", Fact::kCommit},
      {"torch commit", Fact::kCommit},
      {"commit", Fact::kCommit},
      {"torch cuda version", Fact::kCuda},
      {"cuda version", Fact::kCuda},
      {"cuda", Fact::kCuda},
      {"torch cuda", Fact::kCuda},
      {"python version", Fact::kPython},
      {"triton version", Fact::kTriton},
  }};
  for (const auto& [name, fact] : kKeys)
    if (key == name) return fact;
  return Fact::kNone;
}

}  // namespace

TorchVersionFacts read_torch_version_text(std::string_view text) {
  TorchVersionFacts out;
  bool keyed = false;
  size_t lines = 0;
  std::string_view only;
  for (size_t at = 0; at <= text.size() && lines < 64;) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = trim(text.substr(at, end - at));
    at = end + 1;
    if (line.empty()) continue;
    ++lines;
    only = line;
    size_t sep = line.find_first_of(":=");
    if (sep == std::string_view::npos) continue;
    Fact fact = fact_of(lower_words(trim(line.substr(0, sep))));
    std::string_view value = trim(line.substr(sep + 1));
    if (fact == Fact::kNone || value.empty() || value == "None" || value == "null") continue;
    keyed = true;
    std::string& slot = fact == Fact::kVersion  ? out.version
                        : fact == Fact::kCommit ? out.commit
                        : fact == Fact::kCuda   ? out.cuda
                        : fact == Fact::kPython ? out.python
                                                : out.triton;
    if (slot.empty()) slot = std::string(value);
  }
  // A payload that is just the version ("2.14.0").
  if (!keyed && lines == 1 && only.size() < 80 && only.find(' ') == std::string_view::npos)
    out.version = std::string(only);
  // "2.6.0a0+giteece9ec": the short commit of a source build, when nothing gave the full one.
  if (out.commit.empty()) {
    size_t git = out.version.find("+git");
    if (git != std::string::npos) out.commit = out.version.substr(git + 4);
  }
  return out;
}

namespace {

// A record's text as "key: value" lines: a JSON object's members, a JSON string's content, or
// the text itself.
std::string as_lines_sql(const std::string& t) {
  return "CASE WHEN " + t + " IS NULL THEN NULL WHEN json_valid(" + t + ") AND json_type(" + t +
         ") = 'object' THEN (SELECT group_concat(j.key || ': ' || j.value, char(10)) FROM "
         "json_each(" +
         t + ") j WHERE j.type NOT IN ('object', 'array')) WHEN json_valid(" + t +
         ") AND json_type(" + t + ") IN ('text', 'real', 'integer') THEN " + t +
         " ->> '$' ELSE substr(" + t + ", 1, 4096) END";
}

void build_run_info(sqlite3* db) {
  // Candidates, most direct source first (prio).
  std::string sql =
      "SELECT e.file_id, COALESCE(f.rank, e.rank), e.id, 1, 'torch_version', " +
      as_lines_sql("e.metadata") + ", " + as_lines_sql("p.text") +
      " FROM events e JOIN files f ON f.id = e.file_id LEFT JOIN payloads p ON p.id = "
      "e.payload_id WHERE e.kind = 'torch_version' "
      "UNION ALL "
      "SELECT a.file_id, COALESCE(f.rank, a.rank), a.event_id, 1, 'artifact torch_version', "
      "NULL, " +
      as_lines_sql("p.text") +
      " FROM artifacts a JOIN files f ON f.id = a.file_id LEFT JOIN payloads p ON p.id = "
      "a.payload_id WHERE a.name = 'torch_version' "
      "UNION ALL "
      // Metrics carry it as fields in some releases; only their version-like fields are read.
      "SELECT e.file_id, COALESCE(f.rank, e.rank), e.id, 2, e.kind, (SELECT group_concat(j.key "
      "|| ': ' || j.value, char(10)) FROM json_each(e.metadata) j WHERE j.key IN "
      "('torch_version', 'torch_git_version', 'torch_cuda_version', 'cuda_version', "
      "'python_version', 'triton_version') AND j.type = 'text'), NULL "
      "FROM files f JOIN events e ON e.id = (SELECT id FROM events WHERE kind = "
      "'compilation_metrics' AND file_id = f.id AND json_valid(metadata) AND "
      "coalesce(metadata ->> '$.torch_version', metadata ->> '$.python_version', "
      "metadata ->> '$.cuda_version', metadata ->> '$.triton_version') IS NOT NULL "
      "ORDER BY id LIMIT 1) "
      "UNION ALL "
      "SELECT x.file_id, COALESCE(f.rank, x.rank), x.event_id, 3, 'fx_graph_runnable', NULL, "
      "substr(p.text, 1, 4096) FROM (SELECT file_id, rank, min(event_id) AS event_id, payload_id "
      "FROM artifacts WHERE name = 'fx_graph_runnable' GROUP BY file_id) x JOIN files f ON f.id "
      "= x.file_id JOIN payloads p ON p.id = x.payload_id "
      "ORDER BY 1, 4, 3";
  struct Best {
    std::string value, source;
    int64_t event_id = 0;
  };
  Statement insert(db,
                   "INSERT INTO run_info(file_id, rank, key, value, source, event_id) "
                   "VALUES(?1, ?2, ?3, ?4, ?5, ?6)");
  int64_t file = -1;
  std::optional<int64_t> rank;
  std::array<Best, 5> best;  // in kKeys' order
  static constexpr std::array<const char*, 5> kKeys{
      "torch_version", "torch_commit", "torch_cuda_version", "python_version", "triton_version"};
  auto flush = [&] {
    for (size_t k = 0; k < best.size(); ++k) {
      if (best[k].value.empty()) continue;
      insert.bind(1, file).bind(2, rank).bind(3, kKeys[k]);
      insert.bind_clipped(4, best[k].value).bind(5, best[k].source).bind(6, best[k].event_id);
      insert.run();
    }
    best = {};
  };
  Statement q(db, sql);
  while (q.step()) {
    if (q.int64(0) != file) {
      if (file >= 0) flush();
      file = q.int64(0);
      rank = q.opt_int64(1);
    }
    std::string source = q.text(4);
    for (int col : {5, 6}) {
      if (q.is_null(col)) continue;
      TorchVersionFacts facts = read_torch_version_text(q.text_view(col));
      const std::array<std::string*, 5> got{&facts.version, &facts.commit, &facts.cuda,
                                            &facts.python, &facts.triton};
      for (size_t k = 0; k < best.size(); ++k) {
        if (best[k].value.empty() && !got[k]->empty()) best[k] = Best{*got[k], source, q.int64(2)};
      }
    }
  }
  if (file >= 0) flush();
}

// The configuration a file ran with: the first record of each scope that carries one.
void build_run_config(sqlite3* db) {
  const std::string value =
      "CASE j.type WHEN 'true' THEN 'True' WHEN 'false' THEN 'False' WHEN 'null' THEN 'None' "
      "ELSE tlscope_clip(j.value) END";
  std::string sources =
      // compilation_metrics keeps each config as a JSON string (dynamo_config, inductor_config).
      "SELECT f.id AS file_id, f.rank AS rank, s.scope, 'compilation_metrics' AS source, e.id AS "
      "event_id, e.metadata ->> ('$.' || s.scope || '_config') AS cfg "
      "FROM files f, (SELECT 'dynamo' AS scope UNION ALL SELECT 'inductor') s "
      "JOIN events e ON e.id = (SELECT id FROM events WHERE kind = 'compilation_metrics' AND "
      "file_id = f.id AND json_valid(metadata) AND metadata ->> ('$.' || s.scope || '_config') "
      "IS NOT NULL ORDER BY id LIMIT 1) "
      "UNION ALL "
      // A config record of its own: its payload, else its metadata.
      "SELECT e.file_id, COALESCE(f.rank, e.rank), substr(e.kind, 1, length(e.kind) - 7), "
      "'record', e.id, CASE WHEN json_valid(p.text) THEN p.text ELSE e.metadata END "
      "FROM events e JOIN files f ON f.id = e.file_id LEFT JOIN payloads p ON p.id = "
      "e.payload_id WHERE e.kind IN ('dynamo_config', 'inductor_config') "
      "UNION ALL "
      // A config artifact: dynamo_config, inductor_config, torch._functorch.config (AOT
      // autograd's, logged per compile) or any torch._<module>.config.
      "SELECT a.file_id, COALESCE(f.rank, a.rank), CASE WHEN a.name GLOB 'torch._*.config' THEN "
      "substr(a.name, 8, length(a.name) - 14) ELSE substr(a.name, 1, length(a.name) - 7) END, "
      "'artifact', a.event_id, p.text FROM artifacts a JOIN files f ON f.id = a.file_id JOIN "
      "payloads p ON p.id = a.payload_id WHERE a.name IN ('dynamo_config', 'inductor_config') "
      "OR a.name GLOB 'torch._*.config'";
  exec(db,
       "INSERT INTO run_config(file_id, rank, scope, key, value, source, event_id) "
       "WITH src AS (" +
           sources +
           "), firsts AS (SELECT file_id, scope, min(event_id) AS event_id FROM src WHERE "
           "json_valid(cfg) AND json_type(cfg) = 'object' GROUP BY file_id, scope) "
           "SELECT s.file_id, s.rank, s.scope, tlscope_clip(j.key), " +
           value +
           ", s.source, s.event_id FROM firsts x JOIN src s ON s.file_id = x.file_id AND "
           "s.scope = x.scope AND s.event_id = x.event_id, json_each(s.cfg) j "
           "ORDER BY s.file_id, s.scope, j.key");
  // The config fields of the metrics record itself (config_suppress_errors, ...).
  exec(db,
       "INSERT INTO run_config(file_id, rank, scope, key, value, source, event_id) "
       "SELECT f.id, f.rank, 'compile', j.key, " +
           value +
           ", 'compilation_metrics', e.id FROM files f JOIN events e ON e.id = (SELECT id FROM "
           "events WHERE kind = 'compilation_metrics' AND file_id = f.id AND json_valid(metadata) "
           "ORDER BY id LIMIT 1), json_each(e.metadata) j WHERE (j.key LIKE 'config\\_%' ESCAPE "
           "'\\' OR j.key = 'specialize_float') AND j.type NOT IN ('object', 'array') "
           "ORDER BY f.id, j.key");
}

}  // namespace

void build_run_environment(sqlite3* db) {
  build_run_info(db);
  build_run_config(db);
}

}  // namespace tlscope::model::analysis
