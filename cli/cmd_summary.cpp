// `tlscope summary DB`: what a database holds: files, ranks, event kinds, compile ids, errors and
// the per-file line accounting, plus a warning for any file whose ingest did not finish.
#include <cstdio>
#include <memory>
#include <string>

#include "command.hpp"
#include "terminal_text.hpp"
#include "tlscope/model/analysis/findings.hpp"
#include "tlscope/model/sqlite.hpp"

namespace tlscope::cli {
namespace {

using model::Connection;
using model::Statement;

std::string text_or(const Statement& s, int col, const char* null_text) {
  return s.column_is_null(col) ? null_text : s.column_text(col);
}

void print_files(Connection& db) {
  Statement s = db.prepare(
      "SELECT id, path, rank, bytes, lines, events, errors, completed, gzip FROM files ORDER BY "
      "id");
  std::printf("Files\n");
  int n = 0;
  while (s.step()) {
    ++n;
    std::printf("  #%lld %s  rank %s  %lld bytes%s  %lld lines  %lld events  %lld errors%s\n",
                static_cast<long long>(s.column_int(0)), terminal_safe(s.column_text(1)).c_str(),
                terminal_safe(text_or(s, 2, "-")).c_str(), static_cast<long long>(s.column_int(3)),
                s.column_int(8) ? " (gunzipped)" : "", static_cast<long long>(s.column_int(4)),
                static_cast<long long>(s.column_int(5)), static_cast<long long>(s.column_int(6)),
                s.column_int(7) ? "" : "  INCOMPLETE");
  }
  if (n == 0) std::printf("  (none)\n");
}

void print_incomplete(Connection& db) {
  Statement s = db.prepare("SELECT path FROM files WHERE completed = 0 ORDER BY id");
  while (s.step()) {
    std::printf(
        "\nWARNING: %s is INCOMPLETE: its ingest was interrupted or reading stopped early, so "
        "its rows are partial. Re-ingest it into a fresh database.\n",
        terminal_safe(s.column_text(0)).c_str());
  }
}

// Findings exist once `tlscope analyze` (run by ingest) has written them.
void print_findings(Connection& db) {
  Statement exists = db.prepare(
      "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'findings'");
  if (!exists.step() || exists.column_int(0) == 0) {
    std::printf("\nFindings: not analysed yet (tlscope analyze DB)\n");
    return;
  }
  std::printf("\nFindings\n%s",
              terminal_safe_lines(model::analysis::findings_text(db.handle())).c_str());
}

void print_ranks(Connection& db) {
  // files.events is each file's count of events rows, kept by the writer: no scan of events.
  Statement s = db.prepare(
      "SELECT rank, count(*), sum(events) FROM files GROUP BY rank ORDER BY rank");
  std::printf("\nRanks\n");
  while (s.step()) {
    std::printf("  rank %s: %lld file(s), %lld events\n",
                terminal_safe(text_or(s, 0, "(none)")).c_str(),
                static_cast<long long>(s.column_int(1)), static_cast<long long>(s.column_int(2)));
  }
}

void print_kinds(Connection& db) {
  Statement s =
      db.prepare("SELECT kind, count(*) FROM events GROUP BY kind ORDER BY count(*) DESC, kind");
  std::printf("\nEvents per kind\n");
  while (s.step()) {
    std::printf("  %8lld  %s\n", static_cast<long long>(s.column_int(1)),
                terminal_safe(s.column_text(0)).c_str());
  }
}

void print_compile_ids(Connection& db) {
  Statement s = db.prepare(
      "SELECT compile_id FROM events WHERE compile_id IS NOT NULL GROUP BY compile_id "
      "ORDER BY min(id)");
  std::string list;
  int n = 0;
  while (s.step()) {
    if (n < 40) list += (n ? ", " : "") + s.column_text(0);
    ++n;
  }
  std::printf("\nCompile ids: %d distinct%s%s%s\n", n, n ? " (" : "", terminal_safe(list).c_str(),
              n > 40 ? ", ...)" : (n ? ")" : ""));
}

void print_errors(Connection& db) {
  Statement total =
      db.prepare("SELECT kind, count(*) FROM ingest_errors GROUP BY kind ORDER BY kind");
  std::string by_kind;
  long long n = 0;
  while (total.step()) {
    by_kind += (by_kind.empty() ? "" : ", ") + total.column_text(0) + " " +
               std::to_string(total.column_int(1));
    n += total.column_int(1);
  }
  std::printf("\nErrors: %lld%s%s%s\n", n, n ? " (" : "", terminal_safe(by_kind).c_str(),
              n ? ")" : "");
  Statement first = db.prepare(
      "SELECT coalesce(f.path, '(input)'), e.line, e.kind, e.reason FROM ingest_errors e "
      "LEFT JOIN files f ON f.id = e.file_id ORDER BY e.id LIMIT 5");
  while (first.step()) {
    std::string where = first.column_text(0);
    if (!first.column_is_null(1)) where += ":" + first.column_text(1);
    std::string reason = first.column_text(3);
    // Parser reasons already start with "<path>:<line>: "; say it once.
    if (reason.rfind(where + ": ", 0) == 0) reason.erase(0, where.size() + 2);
    std::printf("  %s: [%s] %s\n", terminal_safe(where).c_str(),
                terminal_safe(first.column_text(2)).c_str(), terminal_safe(reason).c_str());
  }
  if (n > 5) std::printf("  ... (tlscope query DB \"SELECT * FROM ingest_errors\")\n");
}

void print_line_accounting(Connection& db) {
  Statement s = db.prepare(
      "SELECT path, envelope_lines, payload_lines, blank_lines, error_lines, lines FROM files "
      "ORDER BY id");
  std::printf("\nLine accounting (envelope + payload + blank + error = total)\n");
  while (s.step()) {
    long long sum = s.column_int(1) + s.column_int(2) + s.column_int(3) + s.column_int(4);
    long long total = s.column_int(5);
    std::printf("  %s: %lld + %lld + %lld + %lld = %lld  %s\n",
                terminal_safe(s.column_text(0)).c_str(), static_cast<long long>(s.column_int(1)),
                static_cast<long long>(s.column_int(2)), static_cast<long long>(s.column_int(3)),
                static_cast<long long>(s.column_int(4)), total,
                sum == total ? "ok" : ("MISMATCH: buckets sum to " + std::to_string(sum)).c_str());
  }
}

int run_summary(const std::string& path) {
  try {
    Connection db(path, model::OpenMode::kReadOnly);
    std::printf("tlscope summary of %s\n\n", terminal_safe(path).c_str());
    print_files(db);
    print_ranks(db);
    print_kinds(db);
    print_compile_ids(db);
    print_errors(db);
    print_line_accounting(db);
    print_findings(db);
    print_incomplete(db);
    return kOk;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tlscope summary: %s: %s\n", terminal_safe(path).c_str(),
                 terminal_safe(e.what()).c_str());
    return kUsageOrIo;
  }
}

CommandRegistration summary_registration{
    11, [](CLI::App& app, int& exit_code) {
      auto path = std::make_shared<std::string>();
      CLI::App* cmd = app.add_subcommand("summary", "Print what a tlscope database holds");
      cmd->add_option("db", *path, "Database written by tlscope ingest")->required();
      cmd->callback([path, &exit_code] { exit_code = run_summary(*path); });
    }};

}  // namespace
}  // namespace tlscope::cli
