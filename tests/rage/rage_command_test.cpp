// `tlscope rage` end to end through the built binary: list the runs of a TORCH_TRACE directory,
// bundle one, and check the bundle with the system tar, SQLite and plain byte searches.
#include <catch2/catch.hpp>

#include "rage_support.hpp"
#include "tlscope/model/sqlite.hpp"

using namespace rage_test;
using tlscope::model::Connection;
using tlscope::model::OpenMode;

namespace {

// Planted secrets: one in a payload, one in an envelope, two in the environment.
const std::string kLogToken = "ghp_Pl4ntedT0kenABCDEFGHIJKLMNOPQRSTUV12";
const std::string kLogPassword = "pl4nted-pa55word";
const std::string kEnvToken = "hf_EnvPl4ntedABCDEFGHIJKLMNOPQRSTUVWXYZ";
const std::string kEnvPassword = "env-pa55word-99";

// A TORCH_TRACE directory with two runs of ranks 0 and 1: the older at 09:00, the newer at 10:00
// with secrets planted in its rank 0 log.
struct TraceDir {
  fs::path dir;
  std::string newer_rank0, newer_rank1, older_rank0;
  explicit TraceDir(const fs::path& root) : dir(root / "trace") {
    fs::create_directories(dir);
    older_rank0 = retime(slurp(kRank0), wall(9, 0, 0));
    std::string older_rank1 = retime(slurp(kRank1), wall(9, 0, 1));
    std::string planted =
        record("V1128 10:00:00.000000 60448 torch/_dynamo/convert_frame.py:1]",
               "{\"artifact\": {\"name\": \"user_script\", \"encoding\": \"string\"}, \"rank\": 0, "
               "\"frame_id\": 0, \"frame_compile_id\": 0, \"attempt\": 0}",
               {"import os", "os.environ['GH'] = '" + kLogToken + "'", "print('hi')"}) +
        "V1128 10:00:00.000000 60448 torch/_dynamo/convert_frame.py:2] {\"link\": {\"name\": "
        "\"data\", \"url\": \"https://alice:" +
        kLogPassword +
        "@example.com/d\"}, \"rank\": 0, "
        "\"frame_id\": 0, \"frame_compile_id\": 0, \"attempt\": 0}\n";
    newer_rank0 = planted + retime(slurp(kRank0), wall(10, 0, 0));
    newer_rank1 = retime(slurp(kRank1), wall(10, 0, 2));
    write("dedicated_log_torch_trace_rank_0_old00000.log", older_rank0, 9);
    write("dedicated_log_torch_trace_rank_1_old11111.log", older_rank1, 9);
    write("dedicated_log_torch_trace_rank_0_new00000.log", newer_rank0, 10);
    write("dedicated_log_torch_trace_rank_1_new11111.log", newer_rank1, 10);
  }
  void write(const std::string& name, const std::string& text, int hour) {
    spit(dir / name, text);
    set_mtime(dir / name, local_time(2026, 11, 28, hour, 1, 0));
  }
};

std::string env_prefix() {
  // A known environment: only what the test plants (plus what the binary needs to run).
  return "env -i PATH=\"$PATH\" HOME=\"$HOME\" ASAN_OPTIONS=\"$ASAN_OPTIONS\" "
         "LSAN_OPTIONS=\"$LSAN_OPTIONS\" UBSAN_OPTIONS=\"$UBSAN_OPTIONS\" "
         "TORCH_TEST_API_TOKEN=" +
         kEnvToken + " TORCH_TEST_STORE=https://bob:" + kEnvPassword +
         "@store.example.com/x UNRELATED_SECRET=" + kEnvPassword + " ";
}

}  // namespace

TEST_CASE("rage --list: the runs of a TORCH_TRACE directory, newest first") {
  fs::path root = scratch("cmd_list");
  TraceDir trace(root);
  Run r = sh(root, q(kTlscope) + " rage --list " + q(trace.dir.string()));
  REQUIRE(r.exit_code == 0);
  auto lines = lines_of(r.out);
  REQUIRE(lines.size() == 4);  // title, column names, two runs
  CHECK(lines[0].find("2 run(s)") != std::string::npos);
  CHECK(lines[2].find("   0  2026-11-28 10:00:00") == 0);
  CHECK(lines[3].find("   1  2026-11-28 09:00:00") == 0);
  CHECK(lines[2].find(" 0-1 ") != std::string::npos);
  // Records of the newer run: its two files' envelope lines (including the two planted ones).
  long long records = record_lines(trace.newer_rank0) + record_lines(trace.newer_rank1);
  CHECK(lines[2].find(" " + std::to_string(records) + " ") != std::string::npos);
}

TEST_CASE("rage: the newest run bundled, secrets gone from every file, the rest intact") {
  fs::path root = scratch("cmd_bundle");
  TraceDir trace(root);
  fs::path bundle = root / "bug.tar.gz";
  Run r = sh(root, env_prefix() + q(kTlscope) + " rage " + q(trace.dir.string()) + " -o " +
                       q(bundle.string()) + " --no-probe");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("github_token") != std::string::npos);

  Run list = sh(root, "tar -tzf " + q(bundle.string()));
  REQUIRE(list.exit_code == 0);
  auto names = lines_of(list.out);
  auto has = [&](const std::string& n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  CHECK(names.front() == "bug/README.txt");
  CHECK(names.back() == "bug/manifest.json");
  CHECK(has("bug/env.txt"));
  CHECK(has("bug/tlscope.db"));
  CHECK(has("bug/report/index.html"));
  CHECK(has("bug/logs/dedicated_log_torch_trace_rank_0_new00000.log"));
  CHECK(has("bug/logs/dedicated_log_torch_trace_rank_1_new11111.log"));
  CHECK_FALSE(has("bug/logs/dedicated_log_torch_trace_rank_0_old00000.log"));

  fs::path x = root / "x";
  fs::create_directories(x);
  REQUIRE(sh(root, "tar -xzf " + q(bundle.string()) + " -C " + q(x.string())).exit_code == 0);
  fs::path b = x / "bug";
  std::vector<fs::path> files = files_under(b);
  CHECK(files.size() == names.size());
  for (const fs::path& f : files) {
    std::string bytes = slurp(f);
    INFO(f.string());
    CHECK(bytes.find(kLogToken) == std::string::npos);
    CHECK(bytes.find(kLogPassword) == std::string::npos);
    CHECK(bytes.find(kEnvToken) == std::string::npos);
    CHECK(bytes.find(kEnvPassword) == std::string::npos);
    // Nothing names the scratch folder the bundle was staged in.
    CHECK(bytes.find(".staging-") == std::string::npos);
  }

  // Rank 1 had nothing to redact: byte-identical. Rank 0 differs only on the two planted lines.
  CHECK(slurp(b / "logs/dedicated_log_torch_trace_rank_1_new11111.log") == trace.newer_rank1);
  auto before = lines_of(trace.newer_rank0);
  auto after = lines_of(slurp(b / "logs/dedicated_log_torch_trace_rank_0_new00000.log"));
  REQUIRE(after.size() == before.size());
  std::vector<size_t> differing;
  for (size_t i = 0; i < before.size(); ++i)
    if (before[i] != after[i]) differing.push_back(i + 1);
  // Line 1 (its has_payload MD5 recomputed), line 3 (the token), line 5 (the URL password).
  CHECK(differing == std::vector<size_t>{1, 3, 5});
  CHECK(after[2] == "\tos.environ['GH'] = '<redacted:github_token>'");

  // The database holds the run's events, with no MD5 mismatch introduced by the redaction.
  {
    Connection db((b / "tlscope.db").string(), OpenMode::kReadOnly);
    long long records = record_lines(trace.newer_rank0) + record_lines(trace.newer_rank1);
    CHECK(db.scalar_int("SELECT count(*) FROM events") == records);
    CHECK(db.scalar_int("SELECT count(*) FROM files") == 2);
    // Redaction introduced no MD5 mismatch: the rank 0 log (redacted) has none; the rank 1 log
    // (untouched) keeps the one mismatch its original has, reported under its bundle name.
    CHECK(db.scalar_int("SELECT count(*) FROM events e JOIN files f ON f.id = e.file_id "
                        "WHERE e.md5_ok = 0 AND f.path LIKE '%rank_0%'") == 0);
    CHECK(db.scalar_int("SELECT count(*) FROM events e JOIN files f ON f.id = e.file_id "
                        "WHERE e.md5_ok = 1 AND f.path LIKE '%rank_0%'") > 0);
    CHECK(db.scalar_int("SELECT count(*) FROM ingest_errors e JOIN files f ON f.id = e.file_id "
                        "WHERE f.path = 'logs/dedicated_log_torch_trace_rank_1_new11111.log'") ==
          db.scalar_int("SELECT count(*) FROM ingest_errors"));
    CHECK(db.scalar_int("SELECT count(*) FROM files WHERE path LIKE 'logs/%'") == 2);
    CHECK(db.scalar_int("SELECT count(*) FROM payloads WHERE text LIKE "
                        "'%<redacted:github_token>%'") == 1);
  }

  std::string env = slurp(b / "env.txt");
  CHECK(env.find("TORCH_TEST_API_TOKEN=<redacted:secret_env_var>") != std::string::npos);
  CHECK(env.find("TORCH_TEST_STORE=https://<redacted:url_credentials>@store.example.com/x") !=
        std::string::npos);
  CHECK(env.find("UNRELATED_SECRET") == std::string::npos);  // not a PyTorch-related variable
  CHECK(env.find("sqlite: 3.") != std::string::npos);

  std::string manifest = slurp(b / "manifest.json");
  CHECK(manifest.find("\"github_token\": 1") != std::string::npos);
  CHECK(manifest.find("\"url_credentials\": 2") != std::string::npos);  // log + env
  CHECK(manifest.find("\"secret_env_var\": 1") != std::string::npos);
  CHECK(manifest.find("\"payloads_rehashed\": 1") != std::string::npos);
  CHECK(manifest.find("\"line 3: github_token\"") != std::string::npos);
  CHECK(manifest.find("\"path\": \"report/index.html\"") != std::string::npos);
  // Each listed MD5 is that of the extracted file (README.txt, the first entry).
  std::string readme_md5 = tlscope::parser::Md5::hex_of(slurp(b / "README.txt"));
  CHECK(manifest.find("{\"path\": \"README.txt\", \"bytes\": " +
                      std::to_string(fs::file_size(b / "README.txt")) + ", \"md5\": \"" +
                      readme_md5 + "\"}") != std::string::npos);
  CHECK(slurp(b / "README.txt").find("report/index.html") != std::string::npos);
  CHECK(fs::file_size(b / "report/index.html") > 0);
  // No staging leftovers beside the bundle.
  for (const auto& e : fs::directory_iterator(root))
    CHECK(e.path().filename().string().find("staging") == std::string::npos);
}

TEST_CASE("rage --run 1: the older run, and explicit files as one run") {
  fs::path root = scratch("cmd_older");
  TraceDir trace(root);
  fs::path bundle = root / "old.tar.gz";
  Run r = sh(root, q(kTlscope) + " rage " + q(trace.dir.string()) +
                       " --run 1 --no-probe "
                       "--no-report -o " +
                       q(bundle.string()));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  Run list = sh(root, "tar -tzf " + q(bundle.string()));
  CHECK(list.out.find("old/logs/dedicated_log_torch_trace_rank_0_old00000.log") !=
        std::string::npos);
  CHECK(list.out.find("new00000") == std::string::npos);
  CHECK(list.out.find("report/") == std::string::npos);

  // A .gz log is stored decompressed (and redacted like the others).
  fs::copy_file(kLogs + "/comp_failure.log", root / "comp_failure.log");
  REQUIRE(sh(root, "gzip " + q((root / "comp_failure.log").string())).exit_code == 0);
  fs::path one = root / "one.tar.gz";
  Run files = sh(
      root, q(kTlscope) + " rage " +
                q((trace.dir / "dedicated_log_torch_trace_rank_0_old00000.log").string()) + " " +
                q((root / "comp_failure.log.gz").string()) + " --no-probe -o " + q(one.string()));
  INFO(files.err);
  REQUIRE(files.exit_code == 0);
  Run listed = sh(root, "tar -tzf " + q(one.string()));
  CHECK(listed.out.find("one/logs/comp_failure.log") != std::string::npos);
  CHECK(listed.out.find("one/logs/dedicated_log_torch_trace_rank_0_old00000.log") !=
        std::string::npos);
  fs::path x = root / "x";
  fs::create_directories(x);
  REQUIRE(sh(root, "tar -xzf " + q(one.string()) + " -C " + q(x.string())).exit_code == 0);
  CHECK(slurp(x / "one/logs/comp_failure.log") == slurp(kLogs + "/comp_failure.log"));
  CHECK(sh(root, q(kTlscope) + " rage --help").exit_code == 0);
}

TEST_CASE("rage: a database is bundled as a redacted copy with the logs it names") {
  fs::path root = scratch("cmd_database");
  TraceDir trace(root);
  std::string db = (root / "mine.db").string();
  std::string newer = (trace.dir / "dedicated_log_torch_trace_rank_0_new00000.log").string();
  REQUIRE(sh(root, q(kTlscope) + " ingest " + q(newer) + " --db " + q(db)).exit_code == 0);
  {
    Connection c(db, OpenMode::kReadOnly);
    REQUIRE(c.scalar_int("SELECT count(*) FROM payloads WHERE instr(text, '" + kLogToken +
                         "') > 0") == 1);
  }
  fs::path bundle = root / "db.tar.gz";
  Run r = sh(root, q(kTlscope) + " rage " + q(db) + " --no-probe -o " + q(bundle.string()));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  fs::path x = root / "x";
  fs::create_directories(x);
  REQUIRE(sh(root, "tar -xzf " + q(bundle.string()) + " -C " + q(x.string())).exit_code == 0);
  for (const fs::path& f : files_under(x)) {
    std::string bytes = slurp(f);
    INFO(f.string());
    CHECK(bytes.find(kLogToken) == std::string::npos);
    CHECK(bytes.find(kLogPassword) == std::string::npos);
  }
  Connection c((x / "db/tlscope.db").string(), OpenMode::kReadOnly);
  CHECK(c.scalar_int("SELECT count(*) FROM events") == record_lines(trace.newer_rank0));
  CHECK(fs::exists(x / "db/logs/dedicated_log_torch_trace_rank_0_new00000.log"));
  CHECK(fs::exists(x / "db/report/index.html"));
  // The user's own database is left as it was.
  Connection mine(db, OpenMode::kReadOnly);
  CHECK(mine.scalar_int("SELECT count(*) FROM payloads WHERE instr(text, '" + kLogToken +
                        "') > 0") == 1);
}

TEST_CASE("rage: clear errors for a missing directory, no runs, a bad --run, unwritable output") {
  fs::path root = scratch("cmd_errors");
  std::string missing = (root / "no_such_trace").string();
  Run a = sh(root, q(kTlscope) + " rage " + q(missing) + " -o " + q((root / "a.tar.gz").string()));
  CHECK(a.exit_code == 2);
  CHECK(a.err.find(missing + ": no such file or directory") != std::string::npos);

  fs::create_directories(root / "empty");
  Run b = sh(root, q(kTlscope) + " rage --list " + q((root / "empty").string()));
  CHECK(b.exit_code == 2);
  CHECK(b.err.find("no dedicated_log_torch_trace") != std::string::npos);

  TraceDir trace(root);
  Run c = sh(root, q(kTlscope) + " rage " + q(trace.dir.string()) + " --run 5 -o " +
                       q((root / "c.tar.gz").string()));
  CHECK(c.exit_code == 2);
  CHECK(c.err.find("holds 2 run(s)") != std::string::npos);

  std::string nowhere = (root / "no_dir" / "d.tar.gz").string();
  Run d = sh(root, q(kTlscope) + " rage " + q(trace.dir.string()) + " --no-probe -o " + q(nowhere));
  CHECK(d.exit_code == 2);
  CHECK(d.err.find((root / "no_dir").string() + ": no such directory") != std::string::npos);
  CHECK_FALSE(fs::exists(nowhere));
}
