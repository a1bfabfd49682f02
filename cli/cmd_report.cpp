// `tlscope report PATH...|DB -o DIR [--open]`: the static HTML report of a database, or of logs
// ingested first into DIR/tlscope.db (replaced on each run).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <algorithm>
#include <thread>

#include "command.hpp"
#include "output_paths.hpp"
#include "tlscope/exporters/report.hpp"
#include "tlscope/model/ingest.hpp"

namespace tlscope::cli {

namespace {

bool is_sqlite_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[16] = {};
  in.read(magic, sizeof magic);
  return in && std::string_view(magic, 15) == "SQLite format 3";
}

void open_in_browser(const std::string& file) {
  // fork/exec rather than system(): the path never passes through a shell.
  pid_t pid = fork();
  if (pid == 0) {
    execlp("xdg-open", "xdg-open", file.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
}

struct ReportArgs {
  std::vector<std::string> inputs;
  std::string out_dir;
  bool open = false;
  size_t rows_per_page = 200;
};

int run_report(const ReportArgs& args) {
  std::string db_path;
  for (const std::string& in : args.inputs) {
    if (in != "-" && !std::filesystem::exists(in)) {
      std::fprintf(stderr, "tlscope report: %s: no such file or directory\n", in.c_str());
      return kUsageOrIo;
    }
  }
  if (refuse_output_over_input("report", args.out_dir, args.inputs)) return kUsageOrIo;
  if (args.inputs.size() == 1 && is_sqlite_file(args.inputs[0])) {
    db_path = args.inputs[0];
  } else {
    // Logs: ingest them into a fresh DIR/tlscope.db (the analysis runs in write_report).
    std::error_code ec;
    std::filesystem::create_directories(args.out_dir, ec);
    db_path = args.out_dir + "/tlscope.db";
    if (refuse_output_over_input("report", db_path, args.inputs)) return kUsageOrIo;
    std::filesystem::remove(db_path, ec);
    model::IngestOptions ingest_options;
    ingest_options.jobs = std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
    model::IngestResult ingested;
    try {
      ingested = model::ingest(db_path, args.inputs, ingest_options);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "tlscope report: %s: %s\n", db_path.c_str(), e.what());
      return kUsageOrIo;
    }
    for (const std::string& problem : ingested.problems)
      std::fprintf(stderr, "tlscope report: %s\n", problem.c_str());
    if (ingested.files.empty()) {
      std::fprintf(stderr, "tlscope report: no log could be read\n");
      return kUsageOrIo;
    }
    std::printf("ingested %zu file(s), %llu events, %llu input errors in %.2f s -> %s\n",
                ingested.files.size(), static_cast<unsigned long long>(ingested.events),
                static_cast<unsigned long long>(ingested.errors), ingested.seconds,
                db_path.c_str());
  }
  exporters::ReportOptions options;
  options.db_path = db_path;
  options.out_dir = args.out_dir;
  options.rows_per_page = args.rows_per_page;
  exporters::ReportResult r = exporters::write_report(options);
  if (!r.ok) {
    std::fprintf(stderr, "tlscope report: %s\n", r.error.c_str());
    return kUsageOrIo;
  }
  for (const std::string& w : r.warnings) std::fprintf(stderr, "tlscope report: note: %s\n", w.c_str());
  std::printf("wrote %zu pages (%zu files, %.1f MB, largest page %.1f KB) to %s/index.html\n",
              r.pages, r.files, static_cast<double>(r.bytes) / 1e6,
              static_cast<double>(r.largest_page_bytes) / 1e3, args.out_dir.c_str());
  if (std::getenv("TLSCOPE_REPORT_TIMES"))
    for (const auto& [family, sec] : r.seconds) std::printf("  %-18s %.2f s\n", family.c_str(), sec);
  if (args.open) open_in_browser(args.out_dir + "/index.html");
  return kOk;
}

CommandRegistration report_registration(40, [](CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* cmd = app.add_subcommand("report", "Write a static HTML report (works from file://)");
  cmd->add_option("inputs", args->inputs, "A tlscope database, or TORCH_TRACE log files/folders")
      ->required();
  cmd->add_option("-o,--out", args->out_dir, "Output folder")->required();
  cmd->add_flag("--open", args->open, "Open index.html in the default browser");
  cmd->add_option("--rows-per-page", args->rows_per_page, "Rows per table page")
      ->check(CLI::PositiveNumber);
  cmd->callback([args, &exit_code] { exit_code = run_report(*args); });
});

}  // namespace

}  // namespace tlscope::cli
