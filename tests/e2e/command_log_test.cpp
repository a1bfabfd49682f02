// tlscope records its own invocations ($XDG_STATE_HOME/tlscope/commands) and `tlscope rage
// --commands` / `--command K` list and bundle them.
#include <catch2/catch.hpp>

#include "everyday_support.hpp"

using namespace e2e;

namespace {

fs::path log_file(const fs::path& dir) {
  return dir / "state" / "tlscope" / "commands.jsonl";
}

// The log's lines: a start line and an end line per invocation.
std::vector<std::string> log_lines(const fs::path& dir) {
  std::vector<std::string> lines;
  std::istringstream in(slurp(log_file(dir)));
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("command log: argv, cwd, exit status, duration, version and stderr's tail") {
  fs::path dir = scratch("cmdlog_record");
  RunResult r = tlscope_in(dir, "summary missing.log");
  REQUIRE(r.exit_code == 2);
  auto written = log_lines(dir);
  REQUIRE(written.size() == 2);
  CHECK(contains(written[0], "\"exit_status\": null"));  // what a crash would leave
  std::string json = written[1];
  CHECK(contains(json, "\"argv\": [\"" + kTlscope + "\", \"summary\", \"missing.log\"]"));
  CHECK(contains(json, "\"cwd\": \"" + dir.string() + "\""));
  CHECK(contains(json, "\"exit_status\": 2,"));
  CHECK(contains(json, "\"version\": \"0.1.0\""));
  CHECK(contains(json, "\"duration_s\": 0."));
  CHECK(contains(
      json, "\"stderr_tail\": \"tlscope summary: missing.log: no such file or directory\\n\""));
  // What the user saw on stderr is unchanged by the recording.
  CHECK(r.err == "tlscope summary: missing.log: no such file or directory\n");
  // Hostile argv bytes stay valid JSON: control bytes and invalid UTF-8 escaped.
  tlscope_in(dir, "tensor --shape \"$(printf '2\\033[2J\\377')\"");
  auto both = log_lines(dir);
  REQUIRE(both.size() == 4);
  CHECK(contains(both[3], "2\\u001b[2J\\u00ff"));
}

TEST_CASE("command log: past its size the log rotates, and the newest 100 are listed") {
  fs::path dir = scratch("cmdlog_prune");
  fs::create_directories(log_file(dir).parent_path());
  {
    // 105 old records, big enough together to pass the size at which the log rotates.
    std::ofstream log(log_file(dir));
    for (int i = 0; i < 105; ++i) {
      char id[64];
      std::snprintf(id, sizeof id, "20200101T000000.%06dZ-1", i);
      log << "{\"id\": \"" << id << "\", \"exit_status\": 0, \"stderr_tail\": \""
          << std::string(6000, 'x') << "\"}\n";
    }
  }
  REQUIRE(tlscope_in(dir, "tensor --shape 2").exit_code == 0);
  // At the start record the log rotated: its tail (that record included) went to
  // commands.jsonl.1 and the log holds this run's end record only.
  fs::path rotated = log_file(dir).string() + ".1";
  CHECK(fs::file_size(rotated) <= 512 * 1024);
  CHECK(contains(slurp(rotated), "20200101T000000.000104Z-1"));
  auto lines = log_lines(dir);
  REQUIRE(lines.size() == 1);
  CHECK(contains(lines[0], "\"exit_status\": 0"));
  // Listed from both files, the start and end records of one command joined.
  RunResult list = tlscope_in(dir, "rage --commands");
  CHECK(contains(list.out, "   0  "));
  CHECK(contains(list.out.substr(list.out.find("   0  ")), "tlscope tensor --shape 2\n"));
}

TEST_CASE("command log: an unwritable state folder gives one warning, the command still works") {
  fs::path dir = scratch("cmdlog_readonly");
  { std::ofstream(dir / "state") << "a file where the folder should be\n"; }
  RunResult r = tlscope_in(dir, "tensor --shape 2,3");
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "dim 1 [3]"));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(contains(r.err, "tlscope: warning: this run is not recorded"));
}

TEST_CASE("command log: rage --commands lists them newest first, rage --command K bundles one") {
  fs::path dir = scratch("cmdlog_rage");
  fs::path log = dir / "simple.log";
  fs::copy_file(kLogs + "/simple.log", log);
  REQUIRE(tlscope_in(dir, "report " + q(log.string()) + " -o rep").exit_code == 0);
  REQUIRE(tlscope_in(dir, "tensor --shape 4").exit_code == 0);
  RunResult list = tlscope_in(dir, "rage --commands");
  REQUIRE(list.exit_code == 0);
  size_t tensor_at = list.out.find("   0  ");
  size_t report_at = list.out.find("   1  ");
  REQUIRE(tensor_at != std::string::npos);
  REQUIRE(report_at != std::string::npos);
  CHECK(list.out.find("tlscope tensor --shape 4", tensor_at) < report_at);
  CHECK(contains(list.out.substr(report_at), "tlscope report"));

  RunResult bundle = tlscope_in(dir, "rage --command 1 -o bug.tar.gz --no-probe");
  REQUIRE(bundle.exit_code == 0);
  RunResult listing = run_line(dir, "tar tzf bug.tar.gz");
  REQUIRE(listing.exit_code == 0);
  for (const char* member : {"bug/command.json", "bug/command.txt", "bug/env.txt",
                             "bug/logs/simple.log", "bug/tlscope.db", "bug/report/index.html"})
    CHECK(contains(listing.out, std::string(member) + "\n"));
  RunResult record = run_line(dir, "tar xzf bug.tar.gz -O bug/command.json");
  CHECK(contains(record.out, "\"report\""));
  CHECK(contains(record.out, "\"exit_status\": 0"));
  RunResult notes = run_line(dir, "tar xzf bug.tar.gz -O bug/command.txt");
  CHECK(contains(notes.out, "simple.log: whole, 249457 bytes"));
  CHECK(contains(notes.out, "report: the command wrote " + (dir / "rep").string()));

  // A command that read nothing still gives a bundle: its record and the environment.
  tlscope_in(dir, "no-such-thing");
  REQUIRE(tlscope_in(dir, "rage --command 0 -o nothing.tar.gz --no-probe").exit_code == 0);
  RunResult small = run_line(dir, "tar tzf nothing.tar.gz");
  CHECK(small.out == "nothing/env.txt\nnothing/command.json\nnothing/command.txt\n");
  CHECK(tlscope_in(dir, "rage --command 99 -o x.tar.gz").exit_code == 2);
}
