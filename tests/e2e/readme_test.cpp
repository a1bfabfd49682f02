// The README's "Using it" commands, run as written so they never rot: extracted from README.md,
// with the build's paths, a sample scenario's logs for /tmp/torch_trace_dir and the sample for
// `python train.py`. Only the desktop viewer line is left out: it is interactive, and the gui
// suite drives the viewer.
#include <catch2/catch.hpp>

#include "everyday_support.hpp"

using namespace e2e;

namespace {

std::vector<std::string> using_it_commands() {
  std::string readme = slurp(std::string(TLSCOPE_SOURCE_DIR) + "/README.md");
  size_t section = readme.find("\n## Using it\n");
  REQUIRE(section != std::string::npos);
  size_t start = readme.find("```sh\n", section);
  REQUIRE(start != std::string::npos);
  start += 6;
  size_t end = readme.find("```", start);
  REQUIRE(end != std::string::npos);
  std::vector<std::string> lines;
  std::istringstream block(readme.substr(start, end - start));
  for (std::string line; std::getline(block, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("README: the \"Using it\" commands run as written") {
  fs::path dir = scratch("readme");
  fs::path trace = dir / "torch_trace_dir";
  write_sample_logs(trace, "graph-breaks");
  fs::path opener = dir / "opener.sh";
  {
    std::ofstream o(opener);
    o << "#!/bin/sh\nprintf '%s\\n' \"$1\" >> \"" << (dir / "opened.txt").string() << "\"\n";
  }
  fs::permissions(opener, fs::perms::owner_all);

  std::vector<std::string> lines = using_it_commands();
  REQUIRE(lines.size() >= 10);
  size_t ran = 0, viewer = 0;
  for (std::string line : lines) {
    INFO(line);
    REQUIRE(line.rfind("build/cli/tlscope ", 0) == 0);  // every line is a tlscope command
    if (line.rfind("build/cli/tlscope gui ", 0) == 0) {
      ++viewer;
      continue;
    }
    replace_all(line, "build/cli/tlscope", q(kTlscope));
    replace_all(line, "/tmp/torch_trace_dir", q(trace.string()));
    replace_all(line, "python train.py", q(kSample) + " graph-breaks");
    RunResult r = run_line(dir, line, "TLSCOPE_OPEN_COMMAND=" + q(opener.string()));
    INFO(r.err);
    CHECK(r.exit_code == 0);
    ++ran;
  }
  // The viewer lines (one run, and two runs compared) open windows: not run here.
  CHECK(viewer >= 1);
  CHECK(ran + viewer == lines.size());
  // What the commands say they make is there.
  CHECK(fs::exists(dir / "tlscope-report" / "index.html"));
  CHECK(fs::exists(dir / "run.db"));
  CHECK(fs::exists(dir / "report" / "index.html"));
  CHECK(fs::file_size(dir / "trace.json") > 100);
  CHECK(fs::exists(dir / "bug.tar.gz"));
  CHECK(fs::exists(dir / "tlscope-bug.tar.gz"));
  for (int i = 0; i < 100 && !fs::exists(dir / "opened.txt"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(slurp(dir / "opened.txt") == (dir / "tlscope-report" / "index.html").string() + "\n");
}
