// Finding secrets in text before it leaves the machine: well-known token shapes, credentials in
// URLs and Authorization values, secret-named assignments and fields, private key blocks and, on
// request, the home directory and user name. Replacements are plain ASCII with no quotes or
// backslashes, so JSON stays JSON; in glog headers and file names they have no ':' either.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tlscope::exporters::rage {

// Every kind of secret, once: (id, name as in <redacted:name>, what is replaced, what it matches).
// docs/rage.md has the same table (a test checks they agree); redaction_rules.cpp has the matchers.
#define TLSCOPE_SECRET_KINDS(X)                                                                   \
  X(kGithubToken, "github_token", "the token",                                                    \
    "`ghp_`/`gho_`/`ghu_`/`ghs_`/`ghr_` + 20 or more letters/digits; `github_pat_` + 20 or more") \
  X(kHuggingFaceToken, "huggingface_token", "the token", "`hf_` + 30 or more letters/digits")     \
  X(kAwsAccessKey, "aws_access_key", "the key id",                                                \
    "`AKIA`/`ASIA` + exactly 16 upper-case letters/digits")                                       \
  X(kSlackToken, "slack_token", "the token",                                                      \
    "`xoxb-`, `xoxp-`, `xoxa-`, `xoxo-`, `xoxr-`, `xoxs-` + 10 or more")                          \
  X(kOpenAiKey, "openai_key", "the key", "`sk-` + 20 or more key characters with two digits")     \
  X(kBearerToken, "bearer_token", "the token",                                                    \
    "the token after `Bearer ` (8 or more token characters), also at the start of the next line") \
  X(kBasicAuth, "basic_auth", "the credentials",                                                  \
    "the base64 credentials after `Basic ` (8 or more, a multiple of 4, mixed case or digits), "  \
    "also at the start of the next line")                                                         \
  X(kPrivateKey, "private_key", "the block",                                                      \
    "a `-----BEGIN ... PRIVATE KEY-----` block to its `END` line, across payload lines")          \
  X(kUrlCredentials, "url_credentials", "`user:password`",                                        \
    "`user:password` in `scheme://user:password@host`, and in `user:password@host` as the value " \
    "of `NAME=` (`MASTER_ADDR=user:pw@host`)")                                                    \
  X(kSecretField, "secret_field", "the string value",                                             \
    "the quoted value of a JSON or dict key that names a secret: `\"api_key\": \"...\"`, "        \
    "`'token': '...'`, `\\\"password\\\": \\\"...\\\"` inside a JSON string")                     \
  X(kSecretAssignment, "secret_assignment", "the value",                                          \
    "the value in `NAME=value`, `name = value`, `--flag=value` or `name: value` (quoted or not) " \
    "whose name names a secret (below); `num_tokens=16` and numbers, `None`, `True`, `False` "    \
    "and type names (`token: str`) are left")                                                     \
  X(kSecretEnvVar, "secret_env_var", "the value",                                                 \
    "env.txt: a variable whose name contains TOKEN, SECRET, PASS, KEY, CREDENTIAL, AUTH, "        \
    "COOKIE, SESSION, PRIVATE or _PWD keeps its name only")                                       \
  X(kGoogleToken, "google_token", "the token",                                                    \
    "`ya29.` + 20 or more token characters (OAuth); `AIza` + 35 key characters (API key)")        \
  X(kGitlabToken, "gitlab_token", "the token", "`glpat-` + 20 or more token characters")          \
  X(kNpmToken, "npm_token", "the token", "`npm_` + 36 letters/digits")                            \
  X(kStripeKey, "stripe_key", "the key",                                                          \
    "`sk_live_`, `sk_test_`, `rk_live_`, `rk_test_` + 16 or more letters/digits")                 \
  X(kJwt, "jwt", "the token",                                                                     \
    "a bare JSON Web Token: `eyJ` + 10 or more, `.`, 4 or more, `.`, its signature (base64url)")  \
  X(kSasSignature, "sas_signature", "the signature",                                              \
    "the value of `sig=` in a URL query (Azure SAS, signed URLs), 8 or more characters")          \
  X(kSecretHeader, "secret_header", "the value",                                                  \
    "the value of a `Cookie:`, `Set-Cookie:`, `X-Api-Key:`, `Api-Key:`, `X-Auth-Token:`, "        \
    "`Private-Token:` or `Authorization:` header (other than Bearer and Basic), to the end of "   \
    "the line or string")                                                                         \
  X(kSecretOption, "secret_option", "the value",                                                  \
    "the value after a secret-named option and a space: `--password X`, `--api-key X`, `-p X` "   \
    "(not a path, number or option), also as `'--password', 'X'` in an argument list; netrc's "   \
    "`password X` after `machine` or `login`")                                                    \
  X(kEncodedSecret, "encoded_secret", "the encoded text",                                         \
    "a base64 run of 16 or more characters whose decoded text holds one of the token shapes "     \
    "above or a private key block")                                                               \
  X(kHomeDirectory, "home_directory", "the directory",                                            \
    "with `--redact-paths`: `$HOME` becomes `~`")                                                 \
  X(kUserName, "user_name", "the name",                                                           \
    "with `--redact-paths`: the user name as a path component becomes `<user>`")

enum class SecretKind : uint8_t {
#define TLSCOPE_SECRET_KIND_ID(id, name, replaced, what) id,
  TLSCOPE_SECRET_KINDS(TLSCOPE_SECRET_KIND_ID)
#undef TLSCOPE_SECRET_KIND_ID
      kCount
};

struct SecretKindInfo {
  std::string_view name, replaced, what;
};

// The row of TLSCOPE_SECRET_KINDS for `kind`.
const SecretKindInfo& info(SecretKind kind);
std::string_view to_string(SecretKind kind);

struct RedactionCounts {
  std::array<uint64_t, static_cast<size_t>(SecretKind::kCount)> by_kind{};
  void add(SecretKind kind, uint64_t n = 1) { by_kind[static_cast<size_t>(kind)] += n; }
  uint64_t operator[](SecretKind kind) const { return by_kind[static_cast<size_t>(kind)]; }
  void merge(const RedactionCounts& other);
  uint64_t total() const;
};

struct RedactionOptions {
  bool redact_paths = false;
  std::string home;  // e.g. /home/alice; ignored when shorter than 2 characters or "/"
  std::string user;  // e.g. alice; ignored when shorter than 2 characters
};

// Whether an environment variable's name says its value is a secret (TOKEN, SECRET, PASSWORD,
// KEY, CREDENTIAL, AUTH, ...). Case-insensitive.
bool is_secret_env_name(std::string_view name);

// Where redacted text goes decides how a replacement reads: `<redacted:KIND>` in text, and
// `redacted-KIND` where ':' '<' '>' would break the grammar (a glog header's `path:line]`) or the
// name (a file name inside the bundle).
enum class MarkerStyle : uint8_t { kText, kName };

class Redactor {
 public:
  explicit Redactor(RedactionOptions options = {});

  // Redacts one line (no '\n') in place; returns true when it changed. A secret that runs on past
  // the line stays open for the next one: a private key block is wiped to its END line, and a
  // `Bearer`, `Basic`, `"token":` or `PASSWORD=` that ends the line takes the start of the next
  // line as its value, until end_block() is called (the caller knows where a record ends).
  bool redact_line(std::string& line, RedactionCounts& counts);
  // A record line whose first `header_end` bytes are its glog prefix ("V1206 15:18:16.845000
  // 1500 /path/x.py:12] "): a replacement there uses MarkerStyle::kName, one in the envelope
  // after it MarkerStyle::kText. Nothing open from earlier lines continues into it.
  bool redact_record(std::string& line, size_t header_end, RedactionCounts& counts);
  // A glog header prefix alone: as redact_record with the whole text as header, and no state
  // carried to or from other lines.
  bool redact_header(std::string& header, RedactionCounts& counts);
  // A file name (no '/'), for the bundle: MarkerStyle::kName, paths left alone.
  bool redact_file_name(std::string& name, RedactionCounts& counts);
  // Multi-line text ('\n'-separated), e.g. a database column; state starts and ends closed.
  bool redact_text(std::string& text, RedactionCounts& counts);
  // Closes whatever a line left open (a private key block, a value expected on the next line).
  void end_block() {
    in_private_key_ = false;
    pending_.reset();
  }
  bool in_private_key_block() const { return in_private_key_; }

 private:
  // Replacements that start before `name_until` use MarkerStyle::kName.
  bool redact_tokens(std::string& line, RedactionCounts& counts, size_t name_until);
  bool redact_private_key(std::string& line, RedactionCounts& counts);
  bool redact_paths(std::string& line, RedactionCounts& counts);

  RedactionOptions options_;
  bool in_private_key_ = false;
  std::optional<SecretKind> pending_;  // a secret whose value is expected at the next line's start
};

}  // namespace tlscope::exporters::rage
