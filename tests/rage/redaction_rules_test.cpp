// The secret forms issue 12 found surviving (defect 6), one by one, in the places a log line can
// hold them; the lookalikes that must stay; and the kinds table against docs/rage.md.
#include <catch2/catch.hpp>

#include <set>

#include "rage_support.hpp"
#include "tlscope/exporters/rage/redaction.hpp"

using namespace tlscope::exporters::rage;

namespace {

struct Redacted {
  std::string text;
  RedactionCounts counts;
};

Redacted redact(std::string line) {
  Redactor r;
  Redacted out;
  r.redact_line(line, out.counts);
  out.text = line;
  return out;
}

// Each planted form: the line, the secret that must go, the kind that must be counted once, and
// the exact result.
struct Planted {
  std::string line, secret;
  SecretKind kind;
  std::string expected;
};

const std::vector<Planted>& planted_forms() {
  static const std::vector<Planted> forms = {
      {R"({"api_key": "q8Jd0s9f7KqLm2Zx"})", "q8Jd0s9f7KqLm2Zx", SecretKind::kSecretField,
       R"({"api_key": "<redacted:secret_field>"})"},
      {R"({"token": "tok-abc123def456"})", "tok-abc123def456", SecretKind::kSecretField,
       R"({"token": "<redacted:secret_field>"})"},
      {"cfg = {'hf_token': 'abc123secretvalue', 'lr': 3}", "abc123secretvalue",
       SecretKind::kSecretField, "cfg = {'hf_token': '<redacted:secret_field>', 'lr': 3}"},
      {R"({"args": "{\"password\": \"s3cretPw!\"}"})", "s3cretPw!", SecretKind::kSecretField,
       R"({"args": "{\"password\": \"<redacted:secret_field>\"}"})"},
      {"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
       "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", SecretKind::kSecretAssignment,
       "aws_secret_access_key = <redacted:secret_assignment>"},
      {"Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA==", SecretKind::kBasicAuth,
       "Authorization: Basic <redacted:basic_auth>"},
      {"db password=hunter2x and more", "hunter2x", SecretKind::kSecretAssignment,
       "db password=<redacted:secret_assignment> and more"},
      {"login(api_key=\"k3y-v4lue-123\")", "k3y-v4lue-123", SecretKind::kSecretAssignment,
       "login(api_key=\"<redacted:secret_assignment>\")"},
      {R"({"msg": "push ghp\u005f0123456789abcdefghijABCDEFGHIJ012345 now"})",
       R"(ghp\u005f0123456789abcdefghijABCDEFGHIJ012345)", SecretKind::kGithubToken,
       R"({"msg": "push <redacted:github_token> now"})"},
      {R"({"url": "https:\/\/alice:pw12345@example.com\/x"})", "alice:pw12345",
       SecretKind::kUrlCredentials,
       R"({"url": "https:\/\/<redacted:url_credentials>@example.com\/x"})"},
  };
  return forms;
}

}  // namespace

TEST_CASE("redaction rules: every planted form is replaced, counted once, the rest kept") {
  for (const Planted& p : planted_forms()) {
    INFO(p.line);
    Redacted r = redact(p.line);
    CHECK(r.text.find(p.secret) == std::string::npos);
    CHECK(r.counts[p.kind] == 1);
    CHECK(r.counts.total() == 1);
    CHECK(r.text == p.expected);
  }
}

TEST_CASE("redaction rules: a value on the next line is redacted until the record ends") {
  Redactor r;
  RedactionCounts counts;
  std::string l1 = "headers = {'Authorization': 'Bearer", l2 = "  eyJhbGciOiJIUzI1NiJ9.body.sig'}";
  CHECK_FALSE(r.redact_line(l1, counts));
  CHECK(r.redact_line(l2, counts));
  CHECK(l2 == "  <redacted:bearer_token>'}");
  CHECK(counts[SecretKind::kBearerToken] == 1);

  std::string k1 = "\"api_key\":", k2 = "    \"Zm9vYmFyYmF6cXV4\",";
  CHECK_FALSE(r.redact_line(k1, counts));
  CHECK(r.redact_line(k2, counts));
  CHECK(k2 == "    \"<redacted:secret_field>\",");

  // end_block() (a new record) forgets the open value.
  // (b2 is no JWT: a bare one is redacted wherever it is.)
  std::string b1 = "Authorization: Bearer", b2 = "abcdefgh12345678.body.sig";
  r.redact_line(b1, counts);
  r.end_block();
  CHECK_FALSE(r.redact_line(b2, counts));

  // A database cell: the same across its lines.
  std::string cell = "curl -H 'Authorization: Basic\n dXNlcjpwYXNzd29yZA==' x";
  Redactor db;
  RedactionCounts c2;
  CHECK(db.redact_text(cell, c2));
  CHECK(cell == "curl -H 'Authorization: Basic\n <redacted:basic_auth>' x");
}

TEST_CASE("redaction rules: lookalikes in code and logs are left alone") {
  for (const char* line : {
           "def f(num_tokens=16, max_tokens=32, token=None, password=True):",
           R"({"max_tokens": 512, "tokenizer": "gpt2", "num_tokens": "16"})",
           "if token == other_token and key != 3: x += 1",
           "Basic usage: see the Basic Tutorial",
           R"({"s": "a\\u005fb", "t": "ghp\\u005fshort"})",
           "os.environ['HF_TOKEN'] = os.environ.get('X', '')",
           "secret_sauce: 3",
           "token = tokens[i]; password = os.environ.get('PW')",
       }) {
    INFO(line);
    Redacted r = redact(line);
    CHECK(r.text == line);
    CHECK(r.counts.total() == 0);
  }
}

TEST_CASE("redaction rules: a glog header keeps its grammar, a file name stays a name") {
  Redactor r;
  RedactionCounts counts;
  std::string header =
      "V1206 15:18:16.845000 1500233 /home/a/ghp_0123456789abcdefghijABCDEFGHIJ/utils.py:1288] ";
  REQUIRE(r.redact_header(header, counts));
  CHECK(header == "V1206 15:18:16.845000 1500233 /home/a/redacted-github_token/utils.py:1288] ");
  // One ':' (the line number) after the time, no new ']'.
  CHECK(header.find(':', 22) == header.rfind(':'));
  CHECK(header.find(']') == header.size() - 2);

  std::string name = "dedicated_log_torch_trace_rank_0_x.ghp_0123456789abcdefghijABCDEFGHIJ.log";
  REQUIRE(r.redact_file_name(name, counts));
  CHECK(name == "dedicated_log_torch_trace_rank_0_x.redacted-github_token.log");
  CHECK(counts[SecretKind::kGithubToken] == 2);
}

TEST_CASE("redaction rules: docs/rage.md's table lists every kind, and only those") {
  std::string doc = rage_test::slurp(std::string(TLSCOPE_SOURCE_DIR) + "/docs/rage.md");
  REQUIRE_FALSE(doc.empty());
  std::set<std::string> documented;
  bool in_redaction = false;
  for (const std::string& line : rage_test::lines_of(doc)) {
    if (line.rfind("## ", 0) == 0) in_redaction = line == "## Redaction";
    // Rows of the kinds table: | `name` | replaced | what |
    if (!in_redaction || line.rfind("| `", 0) != 0) continue;
    size_t end = line.find('`', 3);
    if (end == std::string::npos || line.find("| ", end) != end + 2) continue;
    documented.insert(line.substr(3, end - 3));
  }
  std::set<std::string> kinds;
  for (size_t k = 0; k < static_cast<size_t>(SecretKind::kCount); ++k) {
    const SecretKindInfo& i = info(static_cast<SecretKind>(k));
    kinds.insert(std::string(i.name));
    INFO(i.name);
    CHECK(doc.find("| `" + std::string(i.name) + "` | " + std::string(i.replaced) + " | " +
                   std::string(i.what) + " |") != std::string::npos);
  }
  CHECK(documented == kinds);
}

TEST_CASE("redaction rules: random lines of trigger-rich fragments neither crash nor grow lines") {
  // The matchers index around the trigger byte and the JSON-escape map translates positions:
  // thousands of lines glued from the fragments they look for (run under ASan/UBSan in CI).
  static const char* kFragments[] = {"ghp_",
                                     "0123456789abcdefghijKLMN",
                                     "\\u005f",
                                     "\\u00",
                                     "\\/",
                                     "\\\\",
                                     "\\\"",
                                     "\"",
                                     "'",
                                     ":",
                                     "=",
                                     " ",
                                     "\t",
                                     "Bearer",
                                     "Basic",
                                     "dXNlcjpwYXNzd29yZA==",
                                     "token",
                                     "api_key",
                                     "password",
                                     "://",
                                     "@",
                                     "a:b@",
                                     "-----BEGIN RSA PRIVATE KEY-----",
                                     "-----END RSA PRIVATE KEY-----",
                                     "hf_",
                                     "AKIA",
                                     "xoxb-",
                                     "sk-",
                                     "<redacted",
                                     "redacted-",
                                     "=="};
  uint32_t state = 12345;
  auto next = [&] {
    state = state * 1103515245u + 12345u;
    return state >> 8;
  };
  Redactor r;
  RedactionCounts counts;
  for (int i = 0; i < 20000; ++i) {
    std::string line;
    for (uint32_t n = next() % 12; n > 0; --n) line += kFragments[next() % std::size(kFragments)];
    std::string before = line;
    r.redact_line(line, counts);
    INFO(before);
    REQUIRE(line.find('\n') == std::string::npos);
    if (next() % 4 == 0) r.end_block();
  }
  CHECK(counts.total() > 0);
}
