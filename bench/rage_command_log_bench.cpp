// What recording one tlscope invocation costs (cli/invocation.cpp): the start record written with
// the newest-100 pruning over a full log, then the end record rewritten, as every command does.
//   build/bench/rage_command_log_bench [--runs N] [--dir DIR]
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "tlscope/command_log/command_log.hpp"

namespace command_log = tlscope::command_log;

int main(int argc, char** argv) {
  CLI::App app{"Time the command log's writes"};
  int runs = 2000;
  std::string dir = (std::filesystem::temp_directory_path() / "tlscope_command_log_bench").string();
  app.add_option("--runs", runs, "Invocations to record")->check(CLI::Range(1, 1000000));
  app.add_option("--dir", dir, "Scratch state folder (emptied first)");
  CLI11_PARSE(app, argc, argv);
  std::filesystem::remove_all(dir);
  std::vector<double> micros;
  for (int i = 0; i < runs; ++i) {
    command_log::CommandRecord r;
    r.version = "0.1.0";
    r.cwd = "/home/user/project";
    r.argv = {"/usr/bin/tlscope", "summary", "/tmp/torch_trace_dir"};
    auto start = std::chrono::steady_clock::now();
    command_log::stamp_new_record(r);
    r.id += "-" + std::to_string(i);  // one process, many records
    std::string error = command_log::append_command_record(dir, r);
    r.exit_status = 0;
    r.stderr_tail = "tlscope summary: ingested 4 file(s), 1151 events in 0.15 s\n";
    if (error.empty()) error = command_log::append_command_record(dir, r);
    auto end = std::chrono::steady_clock::now();
    if (!error.empty()) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 2;
    }
    micros.push_back(std::chrono::duration<double, std::micro>(end - start).count());
  }
  std::sort(micros.begin(), micros.end());
  auto at = [&](double q) { return micros[static_cast<size_t>(q * (micros.size() - 1))]; };
  double sum = 0;
  for (double m : micros) sum += m;
  std::printf(
      "%d invocations recorded (start + end record, newest %zu kept): mean %.1f us, median "
      "%.1f us, p99 %.1f us, max %.1f us; %zu records kept\n",
      runs, command_log::kCommandsKept, sum / runs, at(0.5), at(0.99), micros.back(),
      command_log::list_command_records(dir).records.size());
  std::filesystem::remove_all(dir);
  return 0;
}
