// `tlscope gui --bench-ingest-frames LOG`: frames are drawn while LOG is ingested in the
// background, the frame times come out in the promised lines, and the bench's private cache
// folder is gone afterwards (the user's cache is never touched).
#include <catch2/catch.hpp>
#include <regex>

#include "gui_support.hpp"

namespace fs = std::filesystem;

// Under the sanitizers the bench (no vsync, glFinish every frame) ends with two 56-byte blocks
// that LeakSanitizer reports as allocated from anonymous executable memory past the end of every
// module: Mesa llvmpipe's JIT-compiled shaders. A suppression file names modules or functions,
// and such frames have neither, so leak checking is off for these two runs only (every other
// viewer run, and all of tlscope's own code in the other tests, is still checked).
const std::string kBenchEnv = "ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:detect_leaks=0\" ";

TEST_CASE("the ingest-frames bench prints frame times and leaves no cache behind") {
  if (!gui_test::have_display()) return;
  auto dir = gui_test::scratch("ingest_frames_bench");
  const fs::path tmp = dir / "tmp";
  fs::create_directories(tmp);
  const fs::path out = dir / "bench.txt";
  const std::string cmd =
      kBenchEnv + "TMPDIR='" + tmp.string() + "' '" + std::string(TLSCOPE_BINARY_DIR) +
      "/cli/tlscope' gui --test-mode --bench-ingest-frames '" + gui_test::kLogs +
      "/simple.log' >'" + out.string() + "' 2>'" + (dir / "bench.err").string() + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  // The figures are stdout's; stderr may carry a warning first (a read-only HOME: "this run is
  // not recorded"), which must not shift them.
  const std::string text = tlscope::test::slurp(out);
  INFO(text << "\nstderr:\n" << tlscope::test::slurp(dir / "bench.err"));
  CHECK(std::regex_search(text, std::regex("^input 0\\.2 MB, open \\(ingest, analysis, panels\\) "
                                           "[0-9.]+ s\n")));
  std::smatch frames;
  REQUIRE(
      std::regex_search(text, frames,
                        std::regex("\nframes ([0-9]+) at 60 Hz, over 50 ms ([0-9]+) \\(wall\\), "
                                   "([0-9]+) \\(UI thread CPU\\)\n")));
  const int drawn = std::stoi(frames[1]);
  CHECK(drawn >= 3);  // the open's frames and the two that take the panels in
  CHECK(std::stoi(frames[2]) <= drawn);
  CHECK(std::stoi(frames[3]) <= drawn);
  for (const char* line : {"median frame", "p99 frame", "max frame", "median frame UI thread CPU",
                           "p99 frame UI thread CPU", "max frame UI thread CPU"})
    CHECK(
        std::regex_search(text, std::regex(std::string("\n") + line + " [0-9]+\\.[0-9]{2} ms\n")));
  // Paced at 60 Hz: the frames cannot outnumber the ticks of the open (plus the frame at its
  // start), which drawing back to back did many times over.
  std::smatch open;
  REQUIRE(std::regex_search(text, open, std::regex("panels\\) ([0-9.]+) s")));
  CHECK(drawn <= std::stod(open[1]) * 60 + 6);
  std::smatch rss;
  REQUIRE(std::regex_search(text, rss, std::regex("\npeak RSS \\(VmHWM\\) ([0-9.]+) MiB\n")));
  CHECK(std::stod(rss[1]) > 1);
  CHECK(std::regex_search(text, std::regex("\nload average at start [0-9. ]+, at end [0-9. ]+\n")));
  CHECK(fs::is_empty(tmp));                            // the bench's cache folder is removed
  CHECK_FALSE(fs::exists(dir / "cache" / "tlscope"));  // and the user's cache never used
}

TEST_CASE("while another log ingests, the panels stay on screen above the counts so far") {
  if (!gui_test::have_display()) return;
  auto dir = gui_test::scratch("ingest_frames_strip");
  // simple.log 40 times over (10 MB, three batches): the dump is taken mid-ingest.
  const std::string one = tlscope::test::slurp(gui_test::kLogs + "/simple.log");
  std::string all;
  for (int i = 0; i < 40; ++i) all += one;
  const fs::path big = dir / "big.log";
  tlscope::test::spit(big, all);
  const fs::path tmp = dir / "tmp";
  fs::create_directories(tmp);
  const std::string dump = (dir / "strip.json").string();
  const std::string cmd = kBenchEnv + "TMPDIR='" + tmp.string() + "' '" +
                          std::string(TLSCOPE_BINARY_DIR) + "/cli/tlscope' gui '" +
                          gui_test::kLogs +
                          "/comp_failure.log' --test-mode --panel compile-tree --dump-ui '" + dump +
                          "' --bench-ingest-frames '" + big.string() + "' >/dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  gui_test::Dump d = gui_test::read_dump(dump);
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  // The open panel is the first log's, drawn in full...
  CHECK(d.panel == "compile-tree");
  CHECK(d.has("nav", "Compiles"));
  CHECK(d.has("compile", "[0/0] failed"));  // comp_failure.log's failed compile
  // ...above the strip of the other open: bar, Cancel and what is stored so far. (On a loaded
  // machine one frame can span the rest of the ingest: the strip may already say "analysing".)
  CHECK((d.has("progress", "ingesting ") || d.has("progress", "analysing ")));
  CHECK(d.has("button", "Cancel"));
  const gui_test::Item* counts = d.find("progress", " of 1 files, ");
  REQUIRE(counts != nullptr);
  std::smatch m;
  REQUIRE(std::regex_match(counts->text, m,
                           std::regex("[01] of 1 files, ([0-9]+) records, ([0-9]+) errors")));
  CHECK(std::stoi(m[1]) > 0);  // the dump is taken once a batch is stored
}
