// The run history: `tlscope run` records each run, `tlscope runs` lists them newest first, and
// every reading command takes @1, @2, ... or a run id.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "everyday_support.hpp"

using namespace e2e;

namespace {

std::string data_env(const fs::path& dir) { return "XDG_DATA_HOME=" + q((dir / "data").string()); }

}  // namespace

TEST_CASE("runs: two recorded runs listed newest first, read back as @1 and @2") {
  fs::path dir = scratch("runs_two");
  const std::string env = data_env(dir);
  REQUIRE(tlscope_in(dir, "run -o a -- " + q(kSample) + " mlp", env).exit_code == 0);
  REQUIRE(tlscope_in(dir, "run -o b -- sh -c 'exec \"$0\" recompiles; exit 9' " + q(kSample), env)
              .exit_code == 0);
  RunResult runs = tlscope_in(dir, "runs --format json", env);
  REQUIRE(runs.exit_code == 0);
  auto j = nlohmann::json::parse(runs.out);
  CHECK(j["schema"] == "tlscope.runs/1");
  REQUIRE(j["runs"].size() == 2);
  CHECK(j["runs"][0]["ref"] == "@1");
  CHECK(j["runs"][0]["command"][0] == "sh");  // the newest first
  CHECK(j["runs"][1]["command"][1] == "mlp");
  CHECK(j["runs"][0]["exit_status"] == 0);
  CHECK(j["runs"][0]["cwd"] == dir.string());
  CHECK(j["runs"][0]["bytes"].get<int64_t>() > 0);
  // @1 is the recompiles run: its summary says so; @2 the mlp run, which does not recompile.
  RunResult newest = tlscope_in(dir, "summary @1", env);
  REQUIRE(newest.exit_code == 0);
  CHECK(contains(newest.out, "recompiled"));
  const std::string older_id = j["runs"][1]["id"].get<std::string>();
  std::string older_ref = "@";
  older_ref += older_id;
  RunResult older = tlscope_in(dir, "summary " + q(older_ref), env);
  REQUIRE(older.exit_code == 0);
  CHECK_FALSE(contains(older.out, "recompiled"));
  CHECK(tlscope_in(dir, "summary " + older_id, env).out == older.out);
  RunResult missing = tlscope_in(dir, "summary @3", env);
  CHECK(missing.exit_code == 2);
  CHECK(contains(missing.err, "there are 2 recorded run(s)"));
  RunResult table = tlscope_in(dir, "runs", env);
  CHECK(contains(table.out, "@2 "));
  RunResult markdown = tlscope_in(dir, "runs --format markdown", env);
  CHECK(contains(markdown.out, "| ref | id |"));
}

TEST_CASE("runs: the command's status and a git commit are recorded") {
  fs::path dir = scratch("runs_status_git");
  const std::string env = data_env(dir);
  REQUIRE(std::system(("cd " + q(dir.string()) +
                       " && git init -q && git -c user.email=t@t -c user.name=t commit -q "
                       "--allow-empty -m x && echo dirt > tracked && git add tracked")
                          .c_str()) == 0);
  const std::string log = kLogs + "/simple.log";
  RunResult r = tlscope_in(
      dir, "run -- sh -c 'cp \"$0\" \"$TORCH_TRACE\"/dedicated_log_torch_trace_x.log; exit 5' " + q(log),
      env);
  CHECK(r.exit_code == 5);
  // A run that wrote no logs is not kept: there is nothing to compare.
  CHECK(tlscope_in(dir, "run -- sh -c 'exit 6'", env).exit_code == 6);
  auto j = nlohmann::json::parse(tlscope_in(dir, "runs --format json", env).out);
  REQUIRE(j["runs"].size() == 1);
  CHECK(j["runs"][0]["exit_status"] == 5);
  CHECK(j["runs"][0]["git_commit"].get<std::string>().size() == 40);
  CHECK(j["runs"][0]["git_dirty"] == true);
}

TEST_CASE("runs: a history folder open to others or a planted link is refused") {
  fs::path dir = scratch("runs_refused");
  fs::create_directories(dir / "data" / "tlscope");
  chmod((dir / "data" / "tlscope").c_str(), 0777);
  RunResult open = tlscope_in(dir, "runs", data_env(dir));
  CHECK(open.exit_code == 2);
  CHECK(contains(open.err, "open to others"));
  fs::remove_all(dir / "data");
  fs::create_directories(dir / "elsewhere");
  fs::create_directories(dir / "data");
  fs::create_directory_symlink(dir / "elsewhere", dir / "data" / "tlscope");
  RunResult link = tlscope_in(dir, "runs", data_env(dir));
  CHECK(link.exit_code == 2);
  CHECK(contains(link.err, "not a folder"));
  // `run` still runs the command and reports; it says the run is not kept.
  RunResult run = tlscope_in(dir, "run -o rep -- " + q(kSample) + " mlp", data_env(dir));
  CHECK(run.exit_code == 0);
  CHECK(contains(run.err, "not kept for compare"));
}
