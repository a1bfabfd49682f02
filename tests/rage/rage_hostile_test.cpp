// `tlscope rage` against what issue 12 found: secrets in file names and in every part of a record,
// FIFOs and devices in a run directory, a planted <out>.part symlink, signals mid-bundle, an
// output path that is an input, and a probe that never answers.
#include <catch2/catch.hpp>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "rage_support.hpp"
#include "tlscope/exporters/rage/environment.hpp"
#include "tlscope/model/sqlite.hpp"

using namespace rage_test;
using tlscope::model::Connection;
using tlscope::model::OpenMode;

namespace {

const std::string kFileNameToken = "ghp_F1leNameT0kenABCDEFGHIJKLMNOPQRSTUV";

// A log whose records carry the defect-6 forms, in a payload, an envelope and a header path.
std::string planted_log() {
  return record("V1128 10:00:00.000000 60448 /home/a/" + kFileNameToken + "/convert_frame.py:1]",
                "{\"artifact\": {\"name\": \"user_script\", \"encoding\": \"string\", "
                "\"token\": \"tok-abc123def456\"}, \"rank\": 0, \"frame_id\": 0, "
                "\"frame_compile_id\": 0, \"attempt\": 0}",
                {"import os", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                 "headers = {'Authorization': 'Bearer", "  eyJhbGciOiJIUzI1NiJ9.body.sig'}"}) +
         retime(slurp(kRank0), wall(10, 0, 0));
}

const std::vector<std::string> kPlantedSecrets = {kFileNameToken, "tok-abc123def456",
                                                  "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                                                  "eyJhbGciOiJIUzI1NiJ9.body.sig"};

fs::path extract(const fs::path& root, const fs::path& bundle) {
  fs::path x = root / "x";
  fs::create_directories(x);
  REQUIRE(sh(root, "tar -xzf " + q(bundle.string()) + " -C " + q(x.string())).exit_code == 0);
  return x;
}

int64_t events_of(const fs::path& db) {
  Connection c(db.string(), OpenMode::kReadOnly);
  return c.scalar_int("SELECT count(*) FROM events").value_or(-1);
}

}  // namespace

TEST_CASE("rage hostile: a token in a log's file name is redacted everywhere it would appear") {
  // Issue 12 defect 7: the name kept its token in the tar member, manifest, files.path and
  // index.html, and "0 secrets redacted" was reported.
  fs::path root = scratch("hostile_file_name");
  fs::path log = root / ("dedicated_log_torch_trace_rank_0_x." + kFileNameToken + ".log");
  spit(log, planted_log());
  fs::path bundle = root / "b.tar.gz";
  Run r =
      sh(root, q(kTlscope) + " rage " + q(log.string()) + " --no-probe -o " + q(bundle.string()));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  Run list = sh(root, "tar -tzf " + q(bundle.string()));
  CHECK(list.out.find(kFileNameToken) == std::string::npos);
  CHECK(list.out.find("b/logs/dedicated_log_torch_trace_rank_0_x.redacted-github_token.log") !=
        std::string::npos);
  fs::path x = extract(root, bundle);
  for (const fs::path& f : files_under(x)) {
    INFO(f.string());
    std::string bytes = slurp(f);
    for (const std::string& s : kPlantedSecrets) CHECK(bytes.find(s) == std::string::npos);
  }
  std::string manifest = slurp(x / "b/manifest.json");
  CHECK(manifest.find("\"file_names\": {\"github_token\": 1}") != std::string::npos);
  Connection db((x / "b/tlscope.db").string(), OpenMode::kReadOnly);
  CHECK(db.scalar_int("SELECT count(*) FROM files WHERE path = "
                      "'logs/dedicated_log_torch_trace_rank_0_x.redacted-github_token.log'") == 1);
  CHECK(r.out.find(" 0 secret(s) redacted") == std::string::npos);
}

TEST_CASE("rage hostile: the bundled log ingests to the same events and errors as the original") {
  // Redaction keeps every record parseable and every line: a header redaction that broke the
  // grammar (issue 12 defect 8) cost an event and added a bad_header error.
  fs::path root = scratch("hostile_same_events");
  fs::path log = root / "dedicated_log_torch_trace_rank_0_abc.log";
  std::string text = planted_log();
  spit(log, text);
  fs::path original_db = root / "original.db";
  REQUIRE(sh(root, q(kTlscope) + " ingest " + q(log.string()) + " --db " + q(original_db.string()))
              .exit_code == 0);
  fs::path bundle = root / "b.tar.gz";
  Run r = sh(root, q(kTlscope) + " rage " + q(log.string()) + " --no-probe --no-report -o " +
                       q(bundle.string()));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  fs::path x = extract(root, bundle);
  std::string bundled = slurp(x / "b/logs/dedicated_log_torch_trace_rank_0_abc.log");
  CHECK(lines_of(bundled).size() == lines_of(text).size());
  for (const std::string& s : kPlantedSecrets) CHECK(bundled.find(s) == std::string::npos);
  CHECK(events_of(x / "b/tlscope.db") == events_of(original_db));
  CHECK(events_of(original_db) == record_lines(text));
  Connection a(original_db.string(), OpenMode::kReadOnly),
      b((x / "b/tlscope.db").string(), OpenMode::kReadOnly);
  const char* errors = "SELECT count(*) FROM ingest_errors";
  CHECK(b.scalar_int(errors) == a.scalar_int(errors));
  CHECK(b.scalar_int("SELECT count(*) FROM ingest_errors WHERE reason LIKE '%bad_header%'") == 0);
}

TEST_CASE(
    "rage hostile: a FIFO, a device and a symlink to /dev/zero in a run directory are "
    "skipped with a warning") {
  // Issue 12 defect 4: rage --list and rage waited on the FIFO forever and read /dev/zero.
  fs::path root = scratch("hostile_fifo");
  fs::path dir = root / "trace";
  fs::create_directories(dir);
  spit(dir / "dedicated_log_torch_trace_rank_0_aaaa.log", retime(slurp(kRank0), wall(10, 0, 0)));
  std::string fifo = (dir / "dedicated_log_torch_trace_rank_1_fifo.log").string();
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  fs::create_symlink("/dev/zero", dir / "dedicated_log_torch_trace_rank_2_zero.log");
  // `timeout` keeps a regression from hanging the suite.
  Run list = sh(root, "timeout 60 " + q(kTlscope) + " rage --list " + q(dir.string()));
  CHECK(list.exit_code == 0);
  CHECK(list.err.find(fifo + ": a FIFO, not a regular file") != std::string::npos);
  CHECK(list.err.find("rank_2_zero.log: a character device, not a regular file") !=
        std::string::npos);
  CHECK(list.out.find("1 run(s)") != std::string::npos);

  fs::path bundle = root / "b.tar.gz";
  Run r = sh(root, "timeout 60 " + q(kTlscope) + " rage " + q(dir.string()) +
                       " --no-probe --no-report -o " + q(bundle.string()));
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find(fifo + ": a FIFO, not a regular file") != std::string::npos);
  Run names = sh(root, "tar -tzf " + q(bundle.string()));
  CHECK(names.out.find("rank_0_aaaa.log") != std::string::npos);
  CHECK(names.out.find("fifo") == std::string::npos);

  // A database whose files table names a log that is now a FIFO: bundled without it, and said.
  fs::path swapped = root / "dedicated_log_torch_trace_rank_0_swap.log";
  spit(swapped, retime(slurp(kRank0), wall(10, 0, 0)));
  std::string db = (root / "s.db").string();
  REQUIRE(sh(root, q(kTlscope) + " ingest " + q(swapped.string()) + " --db " + q(db)).exit_code ==
          0);
  fs::remove(swapped);
  REQUIRE(mkfifo(swapped.c_str(), 0600) == 0);
  Run from_db = sh(root, "timeout 60 " + q(kTlscope) + " rage " + q(db) +
                             " --no-probe --no-report -o " + q((root / "d.tar.gz").string()));
  CHECK(from_db.exit_code == 0);
  CHECK(from_db.err.find(swapped.string() + ": a FIFO, not read (named in the database") !=
        std::string::npos);

  // Named on the command line, it is refused outright.
  Run named = sh(root, "timeout 60 " + q(kTlscope) + " rage " + q(fifo) + " -o " +
                           q((root / "c.tar.gz").string()));
  CHECK(named.exit_code == 2);
  CHECK(named.err.find(fifo + ": a FIFO, not a regular file") != std::string::npos);
}

TEST_CASE("rage hostile: a planted <out>.part symlink is never written through") {
  // Issue 12 defect 9: `ln -s victim.txt b.tgz.part; rage d -o b.tgz` overwrote victim.txt.
  fs::path root = scratch("hostile_part_symlink");
  fs::path log = root / "dedicated_log_torch_trace_rank_0_abc.log";
  spit(log, retime(slurp(kRank0), wall(10, 0, 0)));
  spit(root / "victim.txt", "precious\n");
  fs::create_symlink(root / "victim.txt", root / "b.tgz.part");
  Run r = sh(root, q(kTlscope) + " rage " + q(log.string()) + " --no-probe --no-report -o " +
                       q((root / "b.tgz").string()));
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(slurp(root / "victim.txt") == "precious\n");
  CHECK(sh(root, "tar -tzf " + q((root / "b.tgz").string())).exit_code == 0);
}

TEST_CASE("rage hostile: SIGINT, SIGTERM and SIGHUP remove the staging folder") {
  // Issue 12 defect 10: a signal left <out>.staging-XXXXXX behind. A python3 that never answers
  // holds rage in its environment probe, after the logs, database and report are staged.
  fs::path root = scratch("hostile_signals");
  fs::path log = root / "dedicated_log_torch_trace_rank_0_abc.log";
  spit(log, retime(slurp(kRank0), wall(10, 0, 0)));
  fs::path bin = root / "bin";
  fs::create_directories(bin);
  fs::path started = root / "probe_started";
  spit(bin / "python3", "#!/bin/sh\necho $$ > '" + started.string() + "'\nexec sleep 30\n");
  fs::permissions(bin / "python3", fs::perms::owner_all);
  std::string path_env = "PATH=" + bin.string() + ":" + std::getenv("PATH");
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    INFO("signal " << sig);
    fs::remove(started);
    std::string out = (root / ("b" + std::to_string(sig) + ".tar.gz")).string();
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      // An ignored signal stays ignored across exec (a test runner started with `&`).
      for (int s : {SIGINT, SIGTERM, SIGHUP}) signal(s, SIG_DFL);
      putenv(path_env.data());
      freopen("/dev/null", "w", stdout);
      execl(kTlscope.c_str(), "tlscope", "rage", log.c_str(), "-o", out.c_str(),
            static_cast<char*>(nullptr));
      _exit(127);
    }
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (slurp(started).empty() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    bool probing = !slurp(started).empty();
    CHECK(probing);
    bool staged = false;
    for (const auto& e : fs::directory_iterator(root))
      staged |= e.path().filename().string().find(".staging-") != std::string::npos;
    CHECK(staged);  // the scratch folder exists while the probe runs
    kill(pid, sig);
    int status = 0;
    waitpid(pid, &status, 0);
    if (probing) kill(std::stoi(slurp(started)), SIGKILL);  // the fake python3's sleep
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == sig);
    for (const auto& e : fs::directory_iterator(root))
      CHECK(e.path().filename().string().find("staging") == std::string::npos);
    CHECK_FALSE(fs::exists(out));
  }
}

TEST_CASE("rage hostile: an output that is an input is refused, naming both, input intact") {
  // Issue 12 defect 11: these exited 0 and replaced the only copy.
  fs::path root = scratch("hostile_output_is_input");
  fs::path log = root / "in.log";
  std::string text = slurp(kLogs + "/simple.log");
  spit(log, text);
  std::string db = (root / "x.db").string();
  REQUIRE(sh(root, q(kTlscope) + " ingest " + q(log.string()) + " --db " + q(db)).exit_code == 0);
  std::string db_bytes = slurp(db);
  fs::create_symlink(db, root / "link.db");
  struct Case {
    std::string command, output, input;
  };
  std::vector<Case> cases = {
      {"rage " + q(log.string()) + " --no-probe -o " + q(log.string()), log.string(), log.string()},
      {"rage " + q(db) + " --no-probe -o " + q(db), db, db},
      {"export chrome-trace " + q(db) + " -o " + q(db), db, db},
      {"export chrome-trace " + q(db) + " -o " + q((root / "link.db").string()),
       (root / "link.db").string(), db},
      {"report " + q(db) + " -o " + q(db), db, db},
  };
  for (const Case& c : cases) {
    INFO(c.command);
    Run r = sh(root, q(kTlscope) + " " + c.command);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(c.output + ": is the input " + c.input) != std::string::npos);
    CHECK(slurp(log) == text);
    CHECK(slurp(db) == db_bytes);
  }
  // `report DIR/tlscope.db other.log -o DIR` would ingest into the database it reads.
  // (DIR is a report folder already, as `tlscope run -o DIR` leaves it: report and database.)
  fs::path out = root / "out";
  fs::create_directories(out);
  REQUIRE(sh(root, q(kTlscope) + " report " + q(db) + " -o " + q(out.string())).exit_code == 0);
  fs::copy_file(db, out / "tlscope.db");
  Run r = sh(root, q(kTlscope) + " report " + q((out / "tlscope.db").string()) + " " +
                       q(log.string()) + " -o " + q(out.string()));
  CHECK(r.exit_code == 2);
  CHECK(slurp(out / "tlscope.db") == db_bytes);
  // Re-rendering a report from its own database is fine.
  CHECK(sh(root,
           q(kTlscope) + " report " + q((out / "tlscope.db").string()) + " -o " + q(out.string()))
            .exit_code == 0);
}

TEST_CASE("rage hostile: env.txt redacts the planted forms in values and says a probe timed out") {
  // Issue 12 defect 18: a probe that timed out was recorded as "python3: not found".
  fs::path root = scratch("hostile_environment");
  fs::path slow = root / "slow_python3";
  spit(slow, "#!/bin/sh\nexec sleep 10\n");
  fs::permissions(slow, fs::perms::owner_all);
  tlscope::exporters::rage::EnvironmentOptions options;
  options.tlscope_version = "test";
  options.python = slow.string();
  options.nvidia_smi = (root / "no_such_nvidia_smi").string();
  options.probe_timeout_seconds = 0.5;
  options.use_process_environment = false;
  options.variables = {
      {"TORCH_EXTRA", "{\"api_key\": \"q8Jd0s9f7KqLm2Zx\"}"},
      {"PYTORCH_ARGS", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
      {"NCCL_HEADER", "Authorization: Basic dXNlcjpwYXNzd29yZA=="},
      {"PYTHONSTARTUP", "password=hunter2x"},
  };
  tlscope::exporters::rage::Redactor redactor;
  tlscope::exporters::rage::RedactionCounts counts;
  auto begin = std::chrono::steady_clock::now();
  std::string env = tlscope::exporters::rage::describe_environment(options, redactor, counts);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  INFO(env);
  CHECK(env.find("python3: timed out after 0.5 s") != std::string::npos);
  CHECK(env.find("gpus (nvidia-smi): none found") != std::string::npos);
  CHECK(seconds < 5);
  for (const char* s : {"q8Jd0s9f7KqLm2Zx", "wJalrXUtnFEMI", "dXNlcjpwYXNzd29yZA==", "hunter2x"})
    CHECK(env.find(s) == std::string::npos);
  CHECK(counts.total() == 4);

  // A python3 that is not there is "not found"; one that fails says how.
  options.python = (root / "no_such_python3").string();
  std::string missing = tlscope::exporters::rage::describe_environment(options, redactor, counts);
  CHECK(missing.find("python3: not found") != std::string::npos);
  fs::path failing = root / "failing_python3";
  spit(failing, "#!/bin/sh\necho broken >&2\nexit 3\n");
  fs::permissions(failing, fs::perms::owner_all);
  options.python = failing.string();
  std::string failed = tlscope::exporters::rage::describe_environment(options, redactor, counts);
  CHECK(failed.find("python3: failed (exit 3): broken") != std::string::npos);
}
