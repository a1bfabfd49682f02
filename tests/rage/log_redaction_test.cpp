// Redacting a whole log: secrets go, everything else stays byte for byte, and the result still
// parses with no MD5 mismatch the original did not have.
#include <catch2/catch.hpp>

#include "rage_support.hpp"
#include "tlscope/exporters/rage/log_redaction.hpp"
#include "tlscope/parser/reader.hpp"

using namespace rage_test;
using namespace tlscope::exporters::rage;

namespace {

// Parses a log with tlscope's own reader; counts events and errors by kind.
struct ParseCounts : tlscope::parser::EventSink {
  long long events = 0, md5_mismatches = 0, other_errors = 0;
  void on_source_begin(const tlscope::parser::SourceInfo&) override {}
  void on_event(const tlscope::parser::Event&) override { ++events; }
  void on_error(const tlscope::parser::ParseError& e) override {
    if (e.kind == tlscope::parser::ErrorKind::kMd5Mismatch)
      ++md5_mismatches;
    else
      ++other_errors;
  }
  void on_source_end(const tlscope::parser::SourceSummary&) override {}
};

ParseCounts parse(const fs::path& path) {
  tlscope::parser::SourceInfo source;
  source.path = path.string();
  ParseCounts counts;
  tlscope::parser::parse_source(source, counts);
  return counts;
}

const char* kHeader = "V1128 10:00:01.000000 4242 torch/_dynamo/x.py:1]";
const char* kToken = "ghp_0123456789abcdefghijABCDEFGHIJ012345";

}  // namespace

TEST_CASE("log redaction: a real log with nothing secret comes out byte-identical") {
  fs::path dir = scratch("log_identity");
  for (const char* name :
       {"simple.log", "multi_rank_schedule/dedicated_log_torch_trace_rank_0_6u3fubwl.log"}) {
    Redactor r;
    LogRedaction out = redact_log(kLogs + "/" + name, (dir / "out.log").string(), r);
    REQUIRE(out.ok);
    CHECK(out.counts.total() == 0);
    CHECK(out.redacted_lines == 0);
    CHECK(slurp(dir / "out.log") == slurp(kLogs + "/" + name));
  }
}

TEST_CASE("log redaction: a secret in a payload and an envelope goes, the MD5 is recomputed") {
  fs::path dir = scratch("log_planted");
  std::string log = slurp(kLogs + "/comp_failure.log");
  std::string planted =
      record(kHeader,
             "{\"artifact\": {\"name\": \"planted\", \"encoding\": \"string\"}, \"frame_id\": 0, "
             "\"frame_compile_id\": 0, \"attempt\": 0}",
             {"first line", std::string("token ") + kToken, "last line"}) +
      kHeader +
      " {\"link\": {\"name\": \"mirror\", \"url\": \"https://bob:hunter2@example.com/\"}}\n";
  spit(dir / "in.log", planted + log);
  ParseCounts before = parse(dir / "in.log");
  REQUIRE(before.md5_mismatches == 0);

  Redactor r;
  LogRedaction out = redact_log((dir / "in.log").string(), (dir / "out.log").string(), r);
  REQUIRE(out.ok);
  std::string text = slurp(dir / "out.log");
  CHECK(text.find(kToken) == std::string::npos);
  CHECK(text.find("hunter2") == std::string::npos);
  CHECK(text.find("bob:") == std::string::npos);
  CHECK(out.counts[SecretKind::kGithubToken] == 1);
  CHECK(out.counts[SecretKind::kUrlCredentials] == 1);
  CHECK(out.payloads_rehashed == 1);
  CHECK(out.payloads_unverified == 0);
  CHECK(out.redacted_lines == 2);
  REQUIRE(out.locations.size() == 2);
  CHECK(out.locations[0] == "line 3: github_token");
  CHECK(out.locations[1] == "line 5: url_credentials");
  // The rest of the file is untouched: the real log follows the planted records unchanged.
  CHECK(text.substr(text.size() - log.size()) == log);
  // And it parses as cleanly as before, with the same number of events.
  ParseCounts after = parse(dir / "out.log");
  CHECK(after.events == before.events);
  CHECK(after.md5_mismatches == 0);
  CHECK(after.other_errors == before.other_errors);
  // The new digest is the MD5 of the redacted payload text.
  std::string expected =
      tlscope::parser::Md5::hex_of("first line\ntoken <redacted:github_token>\nlast line");
  CHECK(text.find(expected) != std::string::npos);
}

TEST_CASE("log redaction: a payload whose MD5 was already wrong keeps it") {
  fs::path dir = scratch("log_bad_md5");
  std::string text =
      std::string(kHeader) +
      " {\"artifact\": {\"name\": \"a\", \"encoding\": \"string\"}, \"has_payload\": "
      "\"00000000000000000000000000000000\"}\n\tsecret " +
      kToken + "\n";
  spit(dir / "in.log", text);
  Redactor r;
  LogRedaction out = redact_log((dir / "in.log").string(), (dir / "out.log").string(), r);
  REQUIRE(out.ok);
  CHECK(out.payloads_unverified == 1);
  CHECK(out.payloads_rehashed == 0);
  std::string result = slurp(dir / "out.log");
  CHECK(result.find("00000000000000000000000000000000") != std::string::npos);
  CHECK(result.find(kToken) == std::string::npos);
}

TEST_CASE("log redaction: --redact-paths on a real log keeps every payload MD5 valid") {
  fs::path dir = scratch("log_paths");
  // simple.log was written under /data/users/xmfan: pretend that is our home.
  RedactionOptions options;
  options.redact_paths = true;
  options.home = "/data/users/xmfan";
  options.user = "xmfan";
  Redactor r(options);
  std::string in = kLogs + "/simple.log";
  LogRedaction out = redact_log(in, (dir / "out.log").string(), r);
  REQUIRE(out.ok);
  std::string text = slurp(dir / "out.log");
  CHECK(text.find("/data/users/xmfan") == std::string::npos);
  CHECK(text.find("xmfan") == std::string::npos);
  CHECK(out.counts[SecretKind::kHomeDirectory] > 0);
  CHECK(out.payloads_rehashed > 0);
  ParseCounts before = parse(in), after = parse(dir / "out.log");
  CHECK(after.events == before.events);
  CHECK(after.md5_mismatches == before.md5_mismatches);
  CHECK(after.other_errors == before.other_errors);
}

TEST_CASE("log redaction: a missing input and an unwritable output name the path") {
  fs::path dir = scratch("log_errors");
  Redactor r;
  std::string missing = (dir / "nope.log").string();
  LogRedaction a = redact_log(missing, (dir / "out.log").string(), r);
  CHECK_FALSE(a.ok);
  CHECK(a.error.find(missing) != std::string::npos);
  std::string bad_out = (dir / "no_dir" / "out.log").string();
  LogRedaction b = redact_log(kLogs + "/links.log", bad_out, r);
  CHECK_FALSE(b.ok);
  CHECK(b.error.find(bad_out) != std::string::npos);
}

TEST_CASE("log redaction: secrets in headers, envelopes and split payload lines go, records stay") {
  // Issue 12 defects 6 and 8: every form below survived, and a token in the header's path turned
  // into a replacement with ':' that broke the header (a bad_header error, one event fewer).
  fs::path dir = scratch("log_planted_forms");
  const std::string gh = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
  const std::vector<std::string> secrets = {gh,
                                            "q8Jd0s9f7KqLm2Zx",
                                            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                                            "dXNlcjpwYXNzd29yZA==",
                                            "hunter2x",
                                            "eyJhbGciOiJIUzI1NiJ9.body.sig",
                                            "0123456789abcdefghijKLMNOPQRST9876"};
  std::string header_with_token = "V1128 10:00:01.000000 4242 /home/a/" + gh + "/utils.py:1288]";
  std::string log =
      record(
          header_with_token,
          "{\"artifact\": {\"name\": \"planted\", \"encoding\": \"string\", \"api_key\": "
          "\"q8Jd0s9f7KqLm2Zx\", \"note\": \"ghp\\u005f0123456789abcdefghijKLMNOPQRST9876\"}, "
          "\"frame_id\": 0, \"frame_compile_id\": 0, \"attempt\": 0}",
          {"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
           "curl -H 'Authorization: Basic dXNlcjpwYXNzd29yZA==' https://x", "db password=hunter2x",
           "headers = {'Authorization': 'Bearer", "    eyJhbGciOiJIUzI1NiJ9.body.sig'}", "done"}) +
      slurp(kLogs + "/comp_failure.log");
  spit(dir / "in.log", log);
  ParseCounts before = parse(dir / "in.log");
  REQUIRE(before.md5_mismatches == 0);

  Redactor r;
  LogRedaction out = redact_log((dir / "in.log").string(), (dir / "out.log").string(), r);
  REQUIRE(out.ok);
  std::string text = slurp(dir / "out.log");
  for (const std::string& s : secrets) {
    INFO(s);
    CHECK(text.find(s) == std::string::npos);
  }
  CHECK(out.counts.total() == 7);
  CHECK(text.find("/home/a/redacted-github_token/utils.py:1288] {") != std::string::npos);
  CHECK(lines_of(text).size() == lines_of(log).size());
  ParseCounts after = parse(dir / "out.log");
  CHECK(after.events == before.events);
  CHECK(after.other_errors == before.other_errors);
  CHECK(after.md5_mismatches == 0);
  CHECK(out.payloads_rehashed == 1);
}

TEST_CASE("log redaction: a FIFO or a device is refused at once, never read") {
  // Issue 12 defect 4: opening a FIFO for reading waited for a writer forever.
  fs::path dir = scratch("log_fifo");
  std::string fifo = (dir / "dedicated_log_torch_trace_rank_1_f.log").string();
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  Redactor r;
  LogRedaction a = redact_log(fifo, (dir / "out.log").string(), r);
  CHECK_FALSE(a.ok);
  CHECK(a.error == fifo + ": a FIFO, not a regular file: not read");
  LogRedaction b = redact_log("/dev/zero", (dir / "out2.log").string(), r);
  CHECK_FALSE(b.ok);
  CHECK(b.error.find("a character device") != std::string::npos);
}
