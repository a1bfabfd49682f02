// `tlscope rage --command K` bundles only what it should (issue 27, item 9): the trace logs the
// command read, tlscope's own state, and files the user names with --include. A file the recorded
// command line named that is not a log (a netrc, a key) and the arguments of the program that
// `tlscope run` ran never get in; --dry-run lists the bundle without writing it.
#include <catch2/catch.hpp>

#include "rage_support.hpp"

using namespace rage_test;

namespace {

const std::string kNetrcPassword = "n3trcPa55wordSecret";
const std::string kKeyBody = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7";

struct CommandDir {
  fs::path dir;
  explicit CommandDir(const std::string& name) : dir(scratch(name)) {
    fs::create_directories(dir / "state");
    // Not logs, though named like them: what a command line may name by mistake or by design.
    spit(dir / "netrc.log", "machine example.com login alice password " + kNetrcPassword + "\n");
    spit(dir / "id_key.log", "-----BEGIN OPENSSH PRIVATE KEY-----\n" + kKeyBody +
                                 "\n-----END OPENSSH PRIVATE KEY-----\n");
    spit(dir / "rank0.log", retime(slurp(kRank0), wall(10, 0, 0)));
  }
  Run tlscope(const std::string& args) const {
    return sh(dir, "cd " + q(dir.string()) + " && XDG_STATE_HOME=" + q((dir / "state").string()) +
                       " XDG_CACHE_HOME=" + q((dir / "cache").string()) + " " + q(kTlscope) + " " +
                       args);
  }
  // Every byte of the bundle, each member decompressed by tar.
  std::string unpacked(const std::string& bundle) const {
    fs::path x = dir / ("x-" + bundle);
    fs::create_directories(x);
    REQUIRE(sh(dir, "tar -xzf " + q((dir / bundle).string()) + " -C " + q(x.string())).exit_code ==
            0);
    std::string all;
    for (const fs::path& f : files_under(x)) all += f.string() + "\n" + slurp(f);
    return all;
  }
};

}  // namespace

TEST_CASE("rage --command: files that are not logs are refused unless named, --dry-run lists",
          "[rage][command]") {
  CommandDir c("command_scope");
  // The recorded command read a log and two files that are not logs.
  c.tlscope("ingest rank0.log netrc.log id_key.log --db run.db");
  Run refused = c.tlscope("rage --command 0 -o bug.tar.gz --no-probe");
  INFO(refused.err);
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("netrc.log") != std::string::npos);
  CHECK(refused.err.find("id_key.log") != std::string::npos);
  CHECK(refused.err.find("--include") != std::string::npos);
  CHECK(refused.err.find("--logs-only") != std::string::npos);
  CHECK_FALSE(fs::exists(c.dir / "bug.tar.gz"));

  Run dry = c.tlscope("rage --command 0 --logs-only --dry-run -o dry.tar.gz --no-probe");
  INFO(dry.out + dry.err);
  CHECK(dry.exit_code == 0);
  CHECK(dry.out.find("logs/rank0.log") != std::string::npos);
  CHECK(dry.out.find("left out, not a TORCH_TRACE log: " + (c.dir / "netrc.log").string()) !=
        std::string::npos);
  CHECK(dry.out.find("command.json") != std::string::npos);
  CHECK_FALSE(fs::exists(c.dir / "dry.tar.gz"));

  Run logs_only = c.tlscope("rage --command 0 --logs-only -o logs.tar.gz --no-probe");
  INFO(logs_only.err);
  REQUIRE(logs_only.exit_code == 0);
  std::string all = c.unpacked("logs.tar.gz");
  CHECK(all.find("rank0.log") != std::string::npos);
  CHECK(all.find(kNetrcPassword) == std::string::npos);
  CHECK(all.find(kKeyBody) == std::string::npos);
  CHECK(all.find("extra/") == std::string::npos);

  // Named explicitly: bundled under extra/, redacted. (rage --command runs are not listed, so
  // K = 0 still names the ingest.)
  Run named = c.tlscope(
      "rage --command 0 --include netrc.log --logs-only -o named.tar.gz "
      "--no-probe");
  INFO(named.err);
  REQUIRE(named.exit_code == 0);
  std::string with = c.unpacked("named.tar.gz");
  CHECK(with.find("/extra/netrc.log\nmachine example.com login alice password <redacted:") !=
        std::string::npos);
  CHECK(with.find(kNetrcPassword) == std::string::npos);
  CHECK(with.find(kKeyBody) == std::string::npos);
}

TEST_CASE("rage --command: the program tlscope run ran and its arguments are never inputs",
          "[rage][command]") {
  CommandDir c("command_run_args");
  // The child fails before writing a trace, so the record names no input of tlscope's: only its
  // argv, where the program's arguments name a key, a netrc and a database-looking file.
  c.tlscope("run -o report -- sh -c 'exit 3' id_key.log netrc.log --password " + kNetrcPassword +
            " -p " + kNetrcPassword + "x");
  Run bundle = c.tlscope("rage --command 0 -o run.tar.gz --no-probe");
  INFO(bundle.err);
  REQUIRE(bundle.exit_code == 0);
  std::string all = c.unpacked("run.tar.gz");
  CHECK(all.find(kKeyBody) == std::string::npos);
  CHECK(all.find(kNetrcPassword) == std::string::npos);  // argv's --password and -p values too
  CHECK(all.find("logs/") == std::string::npos);
  CHECK(all.find("\"--password\", \"<redacted:") != std::string::npos);
}
