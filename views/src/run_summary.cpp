// Counting one run by the JSON contract's definitions (run_summary.hpp, docs/json.md).
#include "tlscope/views/run_summary.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "json_read.hpp"
#include "read_rows.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/views/findings.hpp"

namespace tlscope::views {

namespace {

template <typename T>
bool take(Result<RunSummary>& out, Result<T>& part) {
  if (!part.ok()) out.fail(part.error);
  return part.ok();
}

// The finding's detail column as a JSON object: re-serialised by simdjson, which also refuses
// invalid UTF-8, so what goes out is always valid JSON whatever the database holds.
std::string fields_of(std::string_view detail, simdjson::dom::parser& parser) {
  simdjson::dom::element doc;
  if (detail.empty() || parse_json(detail, parser, doc) || !doc.is_object()) return "{}";
  return simdjson::minify(doc);
}

void add_frames(RunSummary& s, const std::vector<CompileFact>& compiles) {
  std::map<std::tuple<std::string, int64_t, std::string>, size_t> index;
  for (const CompileFact& c : compiles) {
    auto [it, fresh] = index.try_emplace({c.file, c.line, c.function}, s.frames.size());
    if (fresh) {
      FrameSummary& f = s.frames.emplace_back();
      f.file = c.file;
      f.function = c.function;
      f.line = c.line;
    }
    FrameSummary& f = s.frames[it->second];
    ++f.compiles;
    f.completed += c.outcome == CompileOutcome::completed;
    f.failed += c.outcome == CompileOutcome::failed;
    if (c.recompile && !c.recompile_reason.empty() &&
        std::find(f.recompile_reasons.begin(), f.recompile_reasons.end(), c.recompile_reason) ==
            f.recompile_reasons.end())
      f.recompile_reasons.push_back(c.recompile_reason);
  }
}

void add_graph_breaks(RunSummary& s, const std::vector<GraphBreakFact>& breaks) {
  std::set<std::tuple<std::string, int64_t, std::string, std::string>> distinct;
  for (const GraphBreakFact& b : breaks) {
    if (!is_graph_break_record(b)) continue;
    ++s.graph_break_records;
    // The user frame: where the user's code broke, else the frame that was being compiled.
    distinct.insert({b.user_file, b.user_line, b.user_file.empty() ? b.frame : "", b.reason});
  }
  s.graph_breaks_distinct = static_cast<int64_t>(distinct.size());
}

void add_findings(RunSummary& s, const Database& db, Result<RunSummary>& out) {
  Result<Findings> findings = load_findings(db);
  if (!findings.ok()) out.fail(findings.error);
  if (!findings->analysed) return;
  Statement detail = db.prepare("SELECT detail FROM findings WHERE id = ?1");
  simdjson::dom::parser parser;
  auto add = [&](const FindingRow& row) {
    FindingSummary& f = s.findings.emplace_back();
    f.kind = row.kind;
    f.severity = row.severity;
    f.ranks = row.ranks;
    f.compile_id = row.compile_id;
    f.text = row.message;
    f.fields_json = "{}";
    std::string error;
    detail.reset();
    detail.bind(1, row.id);
    if (detail.step()) f.fields_json = fields_of(detail.text_view(0), parser);
    if (!detail.error().empty()) out.fail(detail.error());
  };
  for (const FindingGroup& g : findings->groups)
    for (const FindingRow& row : g.rows) add(row);
  for (const FindingRow& row : findings->unknown) add(row);
}

}  // namespace

CompileCounts count_compiles(const std::vector<CompileFact>& compiles) {
  CompileCounts n;
  for (const CompileFact& c : compiles) {
    ++n.attempted;
    n.completed += c.outcome == CompileOutcome::completed;
    n.failed += c.outcome == CompileOutcome::failed;
    n.unfinished += c.outcome == CompileOutcome::unfinished;
    n.restarts += c.restarts;
  }
  return n;
}

Result<RunSummary> load_run_summary(const Database& db) {
  return load_run_summary(db, load_run_environment(db));
}

Result<RunSummary> load_run_summary(const Database& db, const Result<RunEnvironment>& env,
                                    SummaryReads* reads) {
  Result<RunSummary> out;
  RunSummary& s = out.value;
  s.analysed = model::analysis::has_analysis_tables(db.handle());
  // The environment is read once (it was three times: the version, the records, a comparison).
  auto version = read_torch_version(db, env);
  if (take(out, version)) s.torch_version = *version;
  auto ranks = read_ranks(db);
  if (take(out, ranks)) s.ranks = *ranks;
  auto health = read_run_health(db);
  if (take(out, health)) s.health = *health;
  auto compiles = read_compiles(db);
  if (take(out, compiles)) {
    s.compiles = count_compiles(*compiles);
    for (const CompileFact& c : *compiles) s.recompiles += c.recompile;
    add_frames(s, *compiles);
  }
  auto breaks = read_graph_breaks(db);
  if (take(out, breaks)) add_graph_breaks(s, *breaks);
  add_findings(s, db, out);
  auto records = load_run_records(db, env);
  if (take(out, records)) s.records = std::move(records.value);
  if (reads) {
    reads->compiles = std::move(compiles);
    reads->breaks = std::move(breaks);
  }
  return out;
}

}  // namespace tlscope::views
