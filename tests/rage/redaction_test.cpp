// Secret shapes found in a line, and lookalikes left alone.
#include <catch2/catch.hpp>

#include "tlscope/exporters/rage/redaction.hpp"

using namespace tlscope::exporters::rage;

namespace {

// Redacts `line` and returns it; `kind` must be the one counted, exactly once.
std::string redacted(std::string line, SecretKind kind, RedactionOptions options = {}) {
  Redactor r(options);
  RedactionCounts counts;
  CHECK(r.redact_line(line, counts));
  CHECK(counts[kind] == 1);
  CHECK(counts.total() == 1);
  return line;
}

bool untouched(std::string line) {
  Redactor r;
  RedactionCounts counts;
  std::string before = line;
  bool changed = r.redact_line(line, counts);
  return !changed && line == before && counts.total() == 0;
}

}  // namespace

TEST_CASE("redaction: token shapes are replaced by their kind") {
  CHECK(redacted("push with ghp_0123456789abcdefghijABCDEFGHIJ012345 now",
                 SecretKind::kGithubToken) == "push with <redacted:github_token> now");
  CHECK(redacted("t=github_pat_11ABCDEFG0123456789_abcdefghijklmnop", SecretKind::kGithubToken) ==
        "t=<redacted:github_token>");
  CHECK(redacted("{\"hub\": \"hf_abcdefghijklmnopqrstuvwxyzABCDEFGH\"}",
                 SecretKind::kHuggingFaceToken) == "{\"hub\": \"<redacted:huggingface_token>\"}");
  CHECK(redacted("key AKIAIOSFODNN7EXAMPLE used", SecretKind::kAwsAccessKey) ==
        "key <redacted:aws_access_key> used");
  CHECK(redacted("xoxb-1234567890-abcdefghij", SecretKind::kSlackToken) ==
        "<redacted:slack_token>");
  CHECK(redacted("sk-proj-abc123DEF456ghi789JKL0", SecretKind::kOpenAiKey) ==
        "<redacted:openai_key>");
  CHECK(redacted("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig",
                 SecretKind::kBearerToken) == "Authorization: Bearer <redacted:bearer_token>");
  CHECK(redacted("git clone https://alice:s3cr3t@example.com/repo.git",
                 SecretKind::kUrlCredentials) ==
        "git clone https://<redacted:url_credentials>@example.com/repo.git");
  CHECK(redacted("env HF_TOKEN=abc123secret python train.py", SecretKind::kSecretAssignment) ==
        "env HF_TOKEN=<redacted:secret_assignment> python train.py");
  CHECK(redacted("--password=hunter2 --lr=3", SecretKind::kSecretAssignment) ==
        "--password=<redacted:secret_assignment> --lr=3");
}

TEST_CASE("redaction: lookalikes are left alone") {
  CHECK(untouched("from huggingface_hub import hf_hub_download"));
  CHECK(untouched("ghp_short"));
  CHECK(untouched("AKIAIOSFODNN7EXAMPLEX"));  // 17 characters after AKIA: not an access key
  CHECK(untouched("def forward(self, num_tokens=16, max_tokens=32):"));
  CHECK(untouched("see https://example.com/a@b and user@example.com"));
  CHECK(untouched("import sklearn; sk-learn-is-a-nice-library-name"));
  CHECK(
      untouched("V1206 15:18:16.845000 1500233 torch/_dynamo/utils.py:1288] {\"chromium_event\": "
                "{}, \"has_payload\": \"6762d47fdbf80071626529f25dc69013\"}"));
  CHECK(untouched("the bearer of bad news"));
  CHECK(untouched("HF_TOKEN=$HF_TOKEN"));
}

TEST_CASE("redaction: JSON stays valid around a replacement") {
  std::string line =
      "{\"link\": {\"name\": \"repo\", \"url\": \"https://bob:pw123@github.com/x?t=1\"}}";
  Redactor r;
  RedactionCounts counts;
  REQUIRE(r.redact_line(line, counts));
  CHECK(line ==
        "{\"link\": {\"name\": \"repo\", \"url\": "
        "\"https://<redacted:url_credentials>@github.com/x?t=1\"}}");
}

TEST_CASE("redaction: a private key block is wiped across lines, then redaction stops") {
  Redactor r;
  RedactionCounts counts;
  std::string l1 = "key = '''-----BEGIN OPENSSH PRIVATE KEY-----";
  std::string l2 = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ";
  std::string l3 = "-----END OPENSSH PRIVATE KEY-----'''";
  std::string l4 = "print('after')";
  CHECK(r.redact_line(l1, counts));
  CHECK(r.in_private_key_block());
  CHECK(r.redact_line(l2, counts));
  CHECK(r.redact_line(l3, counts));
  CHECK_FALSE(r.in_private_key_block());
  CHECK_FALSE(r.redact_line(l4, counts));
  CHECK(l1 == "key = '''<redacted:private_key>");
  CHECK(l2.empty());
  CHECK(l3 == "'''");
  CHECK(l4 == "print('after')");
  CHECK(counts[SecretKind::kPrivateKey] == 1);

  // In a JSON envelope the block is one line with escaped newlines.
  std::string json =
      "{\"k\": \"-----BEGIN RSA PRIVATE KEY-----\\nMIIEow\\n-----END RSA PRIVATE "
      "KEY-----\\n\", \"n\": 1}";
  RedactionCounts c2;
  Redactor r2;
  REQUIRE(r2.redact_line(json, c2));
  CHECK(json == "{\"k\": \"<redacted:private_key>\\n\", \"n\": 1}");
  CHECK_FALSE(r2.in_private_key_block());

  // Multi-line text (a database cell) closes the block at its end.
  std::string text = "a\n-----BEGIN PRIVATE KEY-----\nMIIB\nstill key";
  Redactor r3;
  RedactionCounts c3;
  REQUIRE(r3.redact_text(text, c3));
  CHECK(text == "a\n<redacted:private_key>\n\n");
  CHECK_FALSE(r3.in_private_key_block());
}

TEST_CASE("redaction: --redact-paths hides the home directory and the user name") {
  RedactionOptions options;
  options.redact_paths = true;
  options.home = "/home/alice";
  options.user = "alice";
  Redactor r(options);
  RedactionCounts counts;
  std::string line = "\"/home/alice/proj/train.py\" and /data/users/alice/x.py, not /home/alice2/y";
  REQUIRE(r.redact_line(line, counts));
  CHECK(line == "\"~/proj/train.py\" and /data/users/<user>/x.py, not /home/alice2/y");
  CHECK(counts[SecretKind::kHomeDirectory] == 1);
  CHECK(counts[SecretKind::kUserName] == 1);

  // Off by default.
  Redactor plain;
  std::string same = "/home/alice/proj";
  CHECK_FALSE(plain.redact_line(same, counts));
}

TEST_CASE("redaction: secret-looking environment variable names") {
  for (const char* name : {"HF_TOKEN", "AWS_SECRET_ACCESS_KEY", "WANDB_API_KEY", "DB_PASSWORD",
                           "GITHUB_AUTH", "my_credentials", "SSH_PRIVATE"})
    CHECK(is_secret_env_name(name));
  for (const char* name :
       {"TORCH_LOGS", "CUDA_VISIBLE_DEVICES", "NCCL_DEBUG", "PYTHONPATH", "PATH"})
    CHECK_FALSE(is_secret_env_name(name));
}
