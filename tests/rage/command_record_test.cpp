// The command record's JSON (command_log/command_log.hpp) and the bundle of one recorded
// command (command_bundle.hpp): inputs cut at the cap, the cut written down.
#include <catch2/catch.hpp>

#include "rage_support.hpp"
#include "tlscope/command_log/command_log.hpp"
#include "tlscope/exporters/rage/command_bundle.hpp"

using namespace rage_test;
namespace rage = tlscope::exporters::rage;
namespace command_log = tlscope::command_log;

TEST_CASE("command record: JSON round trip, whatever bytes argv and stderr hold") {
  command_log::CommandRecord r;
  command_log::stamp_new_record(r);
  r.version = "0.1.0";
  r.cwd = "/home/u/w\"x";
  r.argv = {"tlscope", "summary", std::string("a\0b", 3), "\xff\xfe", "\x1b]0;title\x07", "é"};
  r.exit_status = 2;
  r.duration_s = 0.25;
  r.inputs = {"/logs/a.log"};
  r.database = "/cache/x.db";
  r.stderr_tail = "line 1\nline 2\n";
  std::string json = command_log::command_record_json(r);
  std::string error;
  auto back = command_log::parse_command_record(json, &error);
  REQUIRE(back);
  CHECK(back->id == r.id);
  CHECK(back->cwd == r.cwd);
  CHECK(back->exit_status == 2);
  CHECK(back->duration_s == Approx(0.25));
  CHECK(back->argv[2] == std::string("a\0b", 3));
  CHECK(back->argv[3] == "\u00ff\u00fe");  // invalid UTF-8 bytes come back as their code points
  CHECK(back->argv[4] == r.argv[4]);
  CHECK(back->argv[5] == "é");
  CHECK(back->inputs == r.inputs);
  CHECK(back->database == r.database);
  CHECK(back->stderr_tail == r.stderr_tail);
  command_log::CommandRecord running = r;
  running.exit_status.reset();
  auto unfinished =
      command_log::parse_command_record(command_log::command_record_json(running), &error);
  REQUIRE(unfinished);
  CHECK_FALSE(unfinished->exit_status);
  CHECK_FALSE(command_log::parse_command_record("{\"argv\": 3", &error));
  CHECK_FALSE(error.empty());
}

TEST_CASE("command bundle: an input over the cap is cut at a line end and the cut recorded") {
  fs::path dir = scratch("command_bundle_cap");
  fs::copy_file(kRank0, dir / fs::path(kRank0).filename());
  rage::CommandBundleOptions options;
  options.record.id = "20260101T000000.000000Z-1";
  options.record.argv = {"tlscope", "summary", fs::path(kRank0).filename().string()};
  options.record.cwd = dir.string();  // the input is found through argv, relative to cwd
  options.record.exit_status = 0;
  options.rage.out_path = (dir / "b.tar.gz").string();
  options.rage.environment.probe_python = false;
  options.rage.with_report = false;
  options.max_input_bytes = 4096;
  rage::RageResult r = rage::write_command_bundle(options);
  REQUIRE(r.ok);
  Run x = sh(dir, "cd " + q(dir.string()) + " && tar xzf b.tar.gz");
  REQUIRE(x.exit_code == 0);
  fs::path bundled = dir / "b" / "logs" / fs::path(kRank0).filename();
  REQUIRE(fs::exists(bundled));
  uint64_t kept = fs::file_size(bundled);
  CHECK(kept <= 4096);
  CHECK(kept > 0);
  std::string head = slurp(bundled);
  CHECK(head.back() == '\n');
  CHECK(head == slurp(kRank0).substr(0, kept));
  std::string notes = slurp(dir / "b" / "command.txt");
  CHECK(notes.find(": cut to its first " + std::to_string(kept) + " bytes of " +
                   std::to_string(fs::file_size(kRank0)) + " on disk (cap 4096 bytes)") !=
        std::string::npos);
  CHECK(fs::exists(dir / "b" / "command.json"));
  // The folder of cut copies beside the bundle is gone.
  for (const auto& e : fs::directory_iterator(dir))
    CHECK(e.path().filename().string().find(".inputs-") == std::string::npos);
}
