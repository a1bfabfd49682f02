// `tlscope compare A B`: what changed between two runs. A and B are each a log file, a rank
// directory or a database, read through the input cache like every reading command; the
// comparison is views::compare_runs, drawn here as terminal text, markdown or JSON.
#include <atomic>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "command.hpp"
#include "compare_json.hpp"
#include "input_database.hpp"
#include "invocation.hpp"
#include "markdown_table.hpp"
#include "output_paths.hpp"
#include "progress_line.hpp"
#include "run_history.hpp"
#include "terminal_text.hpp"
#include "tlscope/exporters/compare_report.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/views/compare.hpp"
#include "tlscope/views/rank_words.hpp"

namespace tlscope::cli {
namespace {

// The markdown layout's version, the first line of `--format markdown` (docs/json.md).
constexpr const char* kCompareMarkdownSchema = "tlscope.compare.md/1";

struct CompareOptions {
  std::string a, b, format = "text";
  std::string out_dir;  // -o: the HTML page too
};

std::string compare_lines(long long a, long long b) {
  return (a >= 0 ? std::to_string(a) : std::string("-")) + " / " +
         (b >= 0 ? std::to_string(b) : std::string("-"));
}

void print_compare_text(const views::Comparison& c, const std::string& a, const std::string& b) {
  std::printf("tlscope compare\n  A: %s\n  B: %s\n\n", terminal_safe(a).c_str(),
              terminal_safe(b).c_str());
  for (const std::string& line : views::verdict(c))
    std::printf("%s\n", terminal_safe_lines(line).c_str());
  std::string_view section;
  for (const views::Difference& d : c.differences) {
    const views::DifferenceKindInfo& info = views::kind_info(d.kind);
    if (info.section != section) {
      section = info.section;
      std::printf("\n%c%s\n", std::toupper(static_cast<unsigned char>(section[0])),
                  std::string(section.substr(1)).c_str());
    }
    std::printf("  %s\n", terminal_safe_lines(views::difference_text(d)).c_str());
  }
  std::printf("\nFrame by frame (A / B)\n");
  for (const views::FrameMatch& f : c.frames) {
    std::printf(
        "  %-8s %s (%s) lines %s  compiles %lld / %lld  failed %lld / %lld  "
        "recompiles %lld / %lld\n",
        views::frame_status_name(f.status), terminal_safe(f.function).c_str(),
        terminal_safe(f.file).c_str(), compare_lines(f.line_a, f.line_b).c_str(),
        static_cast<long long>(f.compiles_a), static_cast<long long>(f.compiles_b),
        static_cast<long long>(f.failed_a), static_cast<long long>(f.failed_b),
        static_cast<long long>(f.recompiles_a), static_cast<long long>(f.recompiles_b));
  }
  if (!c.phases.empty()) {
    std::printf("\nCompile time per phase over the %lld compile(s) both completed (A -> B)\n",
                static_cast<long long>(c.timed_compiles));
    for (const views::PhaseDelta& p : c.phases)
      std::printf("  %+10.3f s  %s: %.3f s -> %.3f s\n", (p.b_us - p.a_us) / 1e6,
                  terminal_safe(p.phase).c_str(), p.a_us / 1e6, p.b_us / 1e6);
  }
  if (!c.notes.empty()) std::printf("\nNotes\n");
  for (const std::string& n : c.notes) std::printf("  %s\n", terminal_safe_lines(n).c_str());
}

void print_compare_markdown(const views::Comparison& c, const std::string& a,
                            const std::string& b) {
  std::string out = std::string("<!-- ") + kCompareMarkdownSchema + " -->\n";
  out += "## tlscope compare\n\n- A: " + markdown_text(a) + "\n- B: " + markdown_text(b) + "\n\n";
  for (const std::string& line : views::verdict(c)) out += "**" + markdown_text(line) + "**\n\n";
  if (!c.differences.empty()) {
    MarkdownTable differences({"kind", "subject", "A", "B", "ranks"});
    for (const views::Difference& d : c.differences)
      differences.row({markdown_text(views::kind_info(d.kind).name), markdown_text(d.subject),
                       d.a ? markdown_text(*d.a) : "", d.b ? markdown_text(*d.b) : "",
                       views::rank_runs(d.ranks)});
    out += differences.text();
  }
  out += "\n### Frames\n\n";
  MarkdownTable frames(
      {"status", "function", "file", "lines A / B", "compiles A / B", "failed A / B"});
  for (const views::FrameMatch& f : c.frames)
    frames.row({markdown_text(views::frame_status_name(f.status)), markdown_text(f.function),
                markdown_text(f.file), compare_lines(f.line_a, f.line_b),
                std::to_string(f.compiles_a) + " / " + std::to_string(f.compiles_b),
                std::to_string(f.failed_a) + " / " + std::to_string(f.failed_b)});
  out += frames.empty() ? "_No frames compiled._\n" : frames.text();
  if (!c.notes.empty()) out += "\n### Notes\n\n";
  for (const std::string& n : c.notes) out += "- " + markdown_text(n) + "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
}

// A database that lacks the analysis tables (ingested with --no-analyze) gets them first.
bool compare_analysed(const std::string& db) {
  model::analysis::EnsuredAnalysis analysed = model::analysis::ensure_analysis(db);
  if (!analysed.ok)
    std::fprintf(stderr, "tlscope compare: %s\n", terminal_safe(analysed.error).c_str());
  return analysed.ok;
}

// Both sides through the input cache. Logs of two runs are ingested at once, one per core; the
// same inputs twice (the cache names a database after the input paths) are resolved once, so
// two ingests never race for one cache file.
// A run reference (@1, @2, a run id: run_history.hpp) as the trace folder it names, so that the
// same run named two ways is seen as the same inputs below.
std::optional<std::string> compare_path(const std::string& input) {
  std::string error;
  std::optional<std::string> trace = resolve_run_reference(input, error);
  if (!trace) return input;
  if (trace->empty()) std::fprintf(stderr, "tlscope compare: %s\n", terminal_safe(error).c_str());
  return trace->empty() ? std::nullopt : trace;
}

std::optional<std::pair<std::string, std::string>> compare_inputs(const CompareOptions& o) {
  std::optional<std::string> in_a = compare_path(o.a), in_b = compare_path(o.b);
  if (!in_a || !in_b) return std::nullopt;
  ReadInputs a, b;
  a.paths = {*in_a};
  b.paths = {*in_b};
  const bool same =
      model::identify_inputs(a.paths).name_key == model::identify_inputs(b.paths).name_key;
  model::ResolvedDatabase ra, rb;
  // One progress line for both ingests: the bytes of A and B together.
  ProgressLine line(o.format == "text");
  std::atomic<uint64_t> done_a{0}, done_b{0}, total_a{0}, total_b{0};
  auto progress_of = [&](std::atomic<uint64_t>& done, std::atomic<uint64_t>& total) {
    std::function<void(const model::IngestProgress&)> f;
    if (line.enabled())
      f = [&](const model::IngestProgress& p) {
        done = p.bytes_done;
        total = p.bytes_total;
        line.show("ingesting A and B", done_a + done_b, total_a + total_b, "bytes");
      };
    return f;
  };
  // Two ingests at once: each takes an eighth of the page cache one ingest takes (8 of 64 MiB)
  // and half its queue of parsed batches (2 of 4 arenas of 4 MiB), so that the process stays
  // within the RSS one ingest may take (bench/README.md: 273 -> 138 MiB peak on two 1 GB logs).
  constexpr int kSideBySideCacheKib = 8192;
  constexpr size_t kSideBySideQueueDepth = 2;
  a.page_cache_kib = b.page_cache_kib = same ? 0 : kSideBySideCacheKib;
  a.queue_depth = b.queue_depth = same ? 0 : kSideBySideQueueDepth;
  if (same) {
    ra = resolve_read_inputs_quietly(a, progress_of(done_a, total_a));
    rb = ra;
  } else {
    std::thread other([&] { rb = resolve_read_inputs_quietly(b, progress_of(done_b, total_b)); });
    ra = resolve_read_inputs_quietly(a, progress_of(done_a, total_a));
    other.join();
  }
  line.clear();
  std::optional<std::string> path_a = report_resolved("compare", ra);
  std::optional<std::string> path_b = same ? path_a : report_resolved("compare", rb);
  std::vector<std::string> files = ra.files;
  if (!same) files.insert(files.end(), rb.files.begin(), rb.files.end());
  note_inputs(files);
  if (!path_a || !path_b || !compare_analysed(*path_a) || !compare_analysed(*path_b))
    return std::nullopt;
  return std::pair{*path_a, *path_b};
}

int run_compare(const CompareOptions& o) {
  std::optional<std::pair<std::string, std::string>> paths = compare_inputs(o);
  if (!paths) return kUsageOrIo;
  const std::string* path_a = &paths->first;
  const std::string* path_b = &paths->second;
  views::Database a(*path_a), b(*path_b);
  for (const views::Database* db : {&a, &b}) {
    if (std::string why = db->not_tlscope_reason(); !why.empty()) {
      std::fprintf(stderr, "tlscope compare: %s\n", terminal_safe(why).c_str());
      return kUsageOrIo;
    }
  }
  views::Result<views::Comparison> c = views::compare_runs(a, b);
  if (!c.ok()) {
    std::fprintf(stderr, "tlscope compare: %s\n", terminal_safe(c.error).c_str());
    return kUsageOrIo;
  }
  if (!o.out_dir.empty()) {
    if (refuse_output_over_input("compare", o.out_dir, {o.a, o.b})) return kUsageOrIo;
    if (std::string error = exporters::write_compare_report(*c, o.a, o.b, o.out_dir);
        !error.empty()) {
      std::fprintf(stderr, "tlscope compare: %s\n", terminal_safe(error).c_str());
      return kUsageOrIo;
    }
    std::fprintf(stderr, "tlscope compare: wrote %s/index.html\n",
                 terminal_safe(o.out_dir).c_str());
  }
  if (o.format == "json") {
    const std::string json = compare_json(*c);
    std::fwrite(json.data(), 1, json.size(), stdout);
  } else if (o.format == "markdown") {
    print_compare_markdown(*c, o.a, o.b);
  } else {
    print_compare_text(*c, o.a, o.b);
  }
  return kOk;
}

const CommandRegistration compare_registration(13, [](CLI::App& app, int& exit_code) {
  auto o = std::make_shared<CompareOptions>();
  CLI::App* cmd = app.add_subcommand(
      "compare", "What changed between two runs (each a log file, rank directory or database)");
  cmd->add_option("A", o->a,
                  "The first run (the baseline): a log file, rank directory, database, or a run "
                  "`tlscope run` recorded (@1 the newest, @2, ..., or its id)")
      ->required();
  cmd->add_option("B", o->b, "The second run, the same way (tlscope compare @2 @1)")->required();
  cmd->add_option("--format", o->format, "text, markdown (for a bug or pull request) or json")
      ->check(CLI::IsMember({"text", "markdown", "json"}));
  cmd->add_option("-o,--output", o->out_dir,
                  "Also write the comparison as a page, DIR/index.html (works from file://)");
  cmd->callback([o, &exit_code] { exit_code = run_compare(*o); });
});

}  // namespace
}  // namespace tlscope::cli
