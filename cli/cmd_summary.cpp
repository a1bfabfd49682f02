// `tlscope summary DB`: what a database holds: files, ranks, event kinds, compile ids, errors, the
// per-file line accounting and the findings, plus a warning for any file whose ingest did not
// finish. Everything it prints comes from views/ (summary.hpp, findings.hpp, ingest_errors.hpp).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "command.hpp"
#include "input_database.hpp"
#include "phase_bar.hpp"
#include "summary_json.hpp"
#include "summary_markdown.hpp"
#include "terminal_text.hpp"
#include "tlscope/views/compile_phases.hpp"
#include "tlscope/views/findings.hpp"
#include "tlscope/views/ingest_errors.hpp"
#include "tlscope/views/run_environment.hpp"
#include "tlscope/views/run_summary.hpp"
#include "tlscope/views/store_health.hpp"
#include "tlscope/views/summary.hpp"
#include "tlscope/views/summary_folding.hpp"
#include "tlscope/views/unknown_records.hpp"
#include "tlscope/views/vllm.hpp"

namespace tlscope::cli {
namespace {

// Every log-derived string goes through here on its way to the terminal: control characters
// shown escaped, one record per line (terminal_text.hpp).
std::string show(std::string_view log_text) {
  return terminal_safe(log_text);
}
// A finding's message may span lines (a failure's traceback): each line made safe, breaks kept.
std::string show_lines(std::string_view log_text) {
  return terminal_safe_lines(log_text);
}

std::string rank_text(int64_t rank, const char* none) {
  return rank < 0 ? none : std::to_string(rank);
}

void print_file(const views::FileRow& f) {
  std::printf("  #%lld %s  rank %s  %lld bytes%s  %lld lines  %lld events  %lld errors%s\n",
              static_cast<long long>(f.id), show(f.path).c_str(), rank_text(f.rank, "-").c_str(),
              static_cast<long long>(f.bytes), f.gzip ? " (gunzipped)" : "",
              static_cast<long long>(f.lines), static_cast<long long>(f.events),
              static_cast<long long>(f.errors), f.completed ? "" : "  INCOMPLETE");
}

// "ranks 0-1023 (all 1,024)", plus the files without a rank.
std::string folded_ranks(const std::vector<int64_t>& ranks, int64_t without_rank,
                         int64_t job_ranks) {
  std::string text = ranks.empty() ? "" : views::rank_words(ranks, job_ranks);
  if (without_rank > 0)
    text += (text.empty() ? "" : " and ") + views::grouped_number(without_rank) +
            (without_rank == 1 ? " file" : " files") + " without a rank";
  return text;
}

void print_files(const views::Summary& s, const views::FileFolding& fold) {
  std::printf("Files\n");
  for (size_t i : fold.listed) print_file(s.files[i]);
  if (fold.files > 0) {
    std::printf(
        "  %s%s %s with nothing to flag: %s, %s bytes, %s lines, %s events, 0 errors "
        "(--files lists each)\n",
        fold.listed.empty() ? "" : "and ", views::grouped_number(fold.files).c_str(),
        fold.files == 1 ? "file" : "files",
        folded_ranks(fold.ranks, fold.without_rank, s.rank_count).c_str(),
        views::grouped_number(fold.bytes).c_str(), views::grouped_number(fold.lines).c_str(),
        views::grouped_number(fold.events).c_str());
  }
  if (fold.empty.files > 0) {
    std::printf(
        "  %s%s empty %s (0 bytes; one ingest error each, \"input is empty\"): %s "
        "(--files lists each)\n",
        fold.listed.empty() && fold.files == 0 ? "" : "and ",
        views::grouped_number(fold.empty.files).c_str(), fold.empty.files == 1 ? "file" : "files",
        folded_ranks(fold.empty.ranks, fold.empty.without_rank, s.rank_count).c_str());
  }
  if (s.files.empty()) std::printf("  (none)\n");
}

// Incomplete files and a stale analysis, worded as the report words them.
void print_health(const views::Database& db, const std::string& path) {
  for (const std::string& w : views::store_health(db).warnings(path))
    std::printf("\nWARNING: %s\n", show(w).c_str());
}

// One line per rank in a small job; ranks that logged alike share a line in a large one.
void print_ranks(const views::Summary& s, bool all) {
  std::printf("\nRanks: %lld\n", static_cast<long long>(s.rank_count));
  std::vector<views::RankGroup> groups = views::group_ranks(s, views::kListedFiles, all);
  const size_t shown =
      !all && groups.size() > views::kListedFiles ? views::kListedFiles - 1 : groups.size();
  for (size_t i = 0; i < shown; ++i) {
    const views::RankGroup& g = groups[i];
    std::string who = g.ranks.front() < 0   ? "rank (none)"
                      : g.ranks.size() == 1 ? "rank " + std::to_string(g.ranks.front())
                                            : views::rank_words(g.ranks, s.rank_count);
    std::printf("  %s: %lld file(s), %lld events%s\n", who.c_str(), static_cast<long long>(g.files),
                static_cast<long long>(g.events), g.ranks.size() > 1 ? " each" : "");
  }
  if (shown < groups.size()) {
    int64_t ranks = 0, fewest = INT64_MAX, most = INT64_MIN;
    for (size_t i = shown; i < groups.size(); ++i) {
      ranks += static_cast<int64_t>(groups[i].ranks.size());
      fewest = std::min(fewest, groups[i].events);
      most = std::max(most, groups[i].events);
    }
    std::printf("  and %s other ranks, %lld to %lld events each (--files lists each)\n",
                views::grouped_number(ranks).c_str(), static_cast<long long>(fewest),
                static_cast<long long>(most));
  }
}

void print_unknown_kinds(const views::Summary& s);

void print_kinds(const views::Summary& s) {
  std::printf("\nEvents per kind\n");
  for (const views::KindCount& k : s.kinds)
    std::printf("  %8lld  %s\n", static_cast<long long>(k.count), show(k.kind).c_str());
  print_unknown_kinds(s);
}

// "12 records of 2 kinds tlscope does not know: foo_bar (10), baz (2)": kept, listed in the
// report's index.html with their payloads.
void print_unknown_kinds(const views::Summary& s) {
  std::vector<views::KindCount> unknown = views::unknown_kinds(s.kinds);
  if (unknown.empty()) return;
  int64_t records = 0;
  std::string list;
  for (const views::KindCount& k : unknown) {
    records += k.count;
    list += (list.empty() ? "" : ", ") + show(k.kind) + " (" + std::to_string(k.count) + ")";
  }
  std::printf("  %lld %s of %zu %s tlscope does not know: %s\n", static_cast<long long>(records),
              records == 1 ? "record" : "records", unknown.size(),
              unknown.size() == 1 ? "kind" : "kinds", list.c_str());
}

// The PyTorch that wrote the logs (run_info), or that they do not say.
void print_environment(const views::RunEnvironment& env) {
  std::string version = views::torch_version_text(env);
  std::printf("PyTorch: %s", version.empty() ? "the logs do not say" : show(version).c_str());
  if (env.torch_versions.size() > 1) {
    std::string all;
    for (const std::string& v : env.torch_versions) all += (all.empty() ? "" : ", ") + show(v);
    std::printf(" (the inputs name %zu versions: %s)", env.torch_versions.size(), all.c_str());
  }
  std::printf("\n");
  if (!env.config_values.empty())
    std::printf("Configuration: %zu values (tlscope query DB \"SELECT * FROM run_config\")\n",
                env.config_values.size());
  std::printf("\n");
}

void print_compile_ids(const views::Summary& s) {
  std::string list;
  for (const std::string& id : s.compile_ids) list += (list.empty() ? "" : ", ") + show(id);
  long long n = s.compile_id_count;
  std::printf("\nCompile ids: %lld distinct%s%s%s\n", n, n ? " (" : "", list.c_str(),
              n > static_cast<long long>(s.compile_ids.size()) ? ", ...)" : (n ? ")" : ""));
}

void print_errors(const views::Summary& s, const views::Paged<views::IngestErrorRow>& first) {
  std::string by_kind;
  for (const views::KindCount& k : s.error_kinds)
    by_kind += (by_kind.empty() ? "" : ", ") + show(k.kind) + " " + std::to_string(k.count);
  long long n = s.errors;
  std::printf("\nErrors: %lld%s%s%s\n", n, n ? " (" : "", by_kind.c_str(), n ? ")" : "");
  for (const views::IngestErrorRow& e : first.rows) {
    std::printf("  %s: [%s] %s\n", show(views::ingest_error_place(e)).c_str(), show(e.kind).c_str(),
                show(views::ingest_error_what(e)).c_str());
  }
  if (static_cast<size_t>(n) > first.rows.size())
    std::printf("  ... (tlscope query DB \"SELECT * FROM ingest_errors\")\n");
}

void print_accounting_line(const std::string& what, int64_t envelope, int64_t payload,
                           int64_t blank, int64_t error, int64_t lines) {
  long long sum = envelope + payload + blank + error;
  std::printf("  %s: %lld + %lld + %lld + %lld = %lld  %s\n", what.c_str(),
              static_cast<long long>(envelope), static_cast<long long>(payload),
              static_cast<long long>(blank), static_cast<long long>(error),
              static_cast<long long>(lines),
              sum == lines ? "ok" : ("MISMATCH: buckets sum to " + std::to_string(sum)).c_str());
}

void print_line_accounting(const views::Summary& s, const views::FileFolding& fold) {
  std::printf("\nLine accounting (envelope + payload + blank + error = total)\n");
  for (size_t i : fold.listed) {
    const views::FileRow& f = s.files[i];
    print_accounting_line(show(f.path), f.envelope_lines, f.payload_lines, f.blank_lines,
                          f.error_lines, f.lines);
  }
  if (fold.files > 0)
    print_accounting_line(views::grouped_number(fold.files) + " files with nothing to flag",
                          fold.envelope_lines, fold.payload_lines, fold.blank_lines,
                          fold.error_lines, fold.lines);
  if (fold.empty.files > 0)
    print_accounting_line(views::grouped_number(fold.empty.files) + " empty files", 0, 0, 0, 0, 0);
}

// Findings exist once `tlscope analyze` (run by ingest) has written them.
void print_findings(const views::Findings& f) {
  if (!f.analysed) {
    std::printf("\nFindings: not analysed yet (tlscope analyze DB)\n");
    return;
  }
  std::printf("\nFindings\n");
  if (f.total == 0) {
    std::printf("No findings.\n");
    return;
  }
  std::printf("%lld %s", static_cast<long long>(f.total), f.total == 1 ? "finding" : "findings");
  if (f.lines != f.total) std::printf(" in %lld lines", static_cast<long long>(f.lines));
  std::printf("\n");
  for (const views::FindingGroup& g : f.groups) {
    std::printf("\n%s (%lld):\n", std::string(g.kind->title).c_str(),
                static_cast<long long>(g.count));
    for (const views::FindingRow& row : g.rows) {
      std::printf("  %s\n", show_lines(row.message).c_str());
      std::printf("    -> %s\n", show(row.hint.line()).c_str());
    }
  }
  for (const views::FindingRow& row : f.unknown) {
    std::printf("  [%s] %s\n", show(row.kind).c_str(), show_lines(row.message).c_str());
    std::printf("    -> %s\n", show(row.hint.line()).c_str());
  }
  if (!f.late_again.empty()) std::printf("\nRanks late again and again:\n");
  for (const views::LateRank& late : f.late_again) {
    std::printf(
        "  %s was late %lld times in group %s; the others waited %.1f ms for it in total\n",
        views::rank_words(late.ranks, f.job_ranks).c_str(), static_cast<long long>(late.times),
        show(late.pg_desc.empty() ? late.pg_name : late.pg_desc).c_str(), late.wait_us / 1000.0);
  }
}

// The first lines when compile time is large: where it went (tracing, backend, cache), what the
// remote cache saved, and the phases that cost most.
void print_compile_time(const views::CompilePhases& p) {
  if (p.split.total_s < views::kLargeCompileSeconds) return;
  std::string words = views::compile_time_words(p.split);
  words[0] = 'C';  // "Compile time 3.41 s over 2 compiles: ..."
  std::printf("%s\n", show(words).c_str());
  std::string top;
  for (size_t i = 0; i < p.top.size() && i < 3; ++i) {
    const views::TopPhase& t = p.top[i];
    char secs[32];
    std::snprintf(secs, sizeof secs, " %.2f s", t.seconds);
    top += (top.empty() ? "" : ", ") + show(t.name) + secs;
    if (!t.compiles.empty()) top += " (most in " + show(t.compiles.front().compile_id) + ")";
  }
  if (!top.empty()) std::printf("  costliest phases: %s\n", top.c_str());
  // Where the time went at a glance: each phase's own time as a share of one bar.
  for (const std::string& line : compile_phase_bar(p.run)) std::printf("%s\n", line.c_str());
  std::printf("\n");
}

// One line when the log has vLLM records (the report's vllm.html has the rest).
void print_vllm(const views::VllmReport& v) {
  if (!v.present) return;
  size_t piecewise = 0, groups = 0, passes = 0;
  for (const views::VllmCall& c : v.calls) {
    groups += c.groups.size();
    passes += c.passes.size();
    for (const views::VllmSizeGroup& g : c.groups) piecewise += g.piecewise.size();
  }
  std::printf(
      "vLLM: %zu compile call(s), %zu piecewise compile(s) over %zu size(s) or range(s), "
      "%zu post-grad pass run(s)",
      v.calls.size(), piecewise, groups, passes);
  if (std::string model = v.config_value("model"); !model.empty())
    std::printf(", model %s", show(model).c_str());
  std::printf("\n\n");
}

// `--format json` and `--format markdown`: the counts of docs/json.md, from the same
// summary-facts model compare reads.
int print_summary_model(const views::Database& db, const std::string& path,
                        const std::string& format) {
  views::Result<views::RunSummary> s = views::load_run_summary(db);
  if (!s.ok()) {
    std::fprintf(stderr, "tlscope summary: %s\n", s.error.c_str());
    return kUsageOrIo;
  }
  const std::string text = format == "json" ? summary_json(*s) : summary_markdown(*s, path);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return kOk;
}

int run_summary(const std::string& path, bool all_files, const std::string& format) {
  views::Database db(path);
  if (std::string why = db.not_tlscope_reason(); !why.empty()) {
    std::fprintf(stderr, "tlscope summary: %s\n", why.c_str());
    return kUsageOrIo;
  }
  if (format != "text") return print_summary_model(db, path, format);
  constexpr size_t kFirstErrors = 5;
  views::Result<views::Summary> summary = views::load_summary(db);
  views::Result<views::Paged<views::IngestErrorRow>> errors =
      views::load_ingest_errors(db, views::Page{0, kFirstErrors});
  views::Result<views::Findings> findings = views::load_findings(db);
  views::Result<views::RunEnvironment> environment = views::load_run_environment(db);
  for (const std::string* error :
       {&summary.error, &errors.error, &findings.error, &environment.error}) {
    if (error->empty()) continue;
    std::fprintf(stderr, "tlscope summary: %s\n", error->c_str());
    return kUsageOrIo;
  }
  std::printf("tlscope summary of %s\n\n", show(path).c_str());
  print_environment(*environment);
  // Best effort: an older database without these tables prints neither line.
  print_compile_time(views::load_compile_phases(db, 0).value);
  print_vllm(views::load_vllm(db).value);
  const views::FileFolding fold = views::fold_files(*summary, views::kListedFiles, all_files);
  print_files(*summary, fold);
  print_ranks(*summary, all_files);
  print_kinds(*summary);
  print_compile_ids(*summary);
  print_errors(*summary, *errors);
  print_line_accounting(*summary, fold);
  print_findings(*findings);
  print_health(db, path);
  return kOk;
}

CommandRegistration summary_registration{
    11, [](CLI::App& app, int& exit_code) {
      auto inputs = std::make_shared<ReadInputs>();
      CLI::App* cmd = app.add_subcommand("summary", "Print what a tlscope database holds");
      add_read_inputs(cmd, *inputs);
      auto all_files = std::make_shared<bool>(false);
      cmd->add_flag("--files", *all_files,
                    "List every file and rank (past 16 "
                    "files, those with nothing to flag "
                    "fold into one line)");
      auto format = std::make_shared<std::string>("text");
      cmd->add_option("--format", *format,
                      "text (for people), json or markdown (counts, frames and findings, "
                      "docs/json.md)")
          ->check(CLI::IsMember({"text", "json", "markdown"}));
      cmd->callback([inputs, all_files, format, &exit_code] {
        auto db = resolve_read_database("summary", *inputs, *format == "text");
        exit_code = db ? run_summary(*db, *all_files, *format) : kUsageOrIo;
      });
    }};

}  // namespace
}  // namespace tlscope::cli
