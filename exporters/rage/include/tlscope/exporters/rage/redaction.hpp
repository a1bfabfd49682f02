// Finding secrets in text before it leaves the machine: well-known token shapes, credentials in
// URLs, secret-named assignments, private key blocks and, on request, the home directory and user
// name. Replacements are plain ASCII with no quotes or backslashes, so JSON stays JSON.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace tlscope::exporters::rage {

enum class SecretKind : uint8_t {
  kGithubToken,       // ghp_ gho_ ghu_ ghs_ ghr_ github_pat_
  kHuggingFaceToken,  // hf_ + 30 or more letters/digits
  kAwsAccessKey,      // AKIA / ASIA + 16 upper-case letters/digits
  kSlackToken,        // xoxb- xoxp- xoxa- xoxo- xoxr- xoxs-
  kOpenAiKey,         // sk- + 20 or more key characters
  kBearerToken,       // "Bearer <token>"
  kPrivateKey,        // -----BEGIN ... PRIVATE KEY----- block
  kUrlCredentials,    // scheme://user:password@host
  kSecretAssignment,  // HF_TOKEN=..., --password=... (secret-named variable or flag)
  kSecretEnvVar,      // an environment variable whose name looks secret (env.txt only)
  kHomeDirectory,     // --redact-paths: $HOME
  kUserName,          // --redact-paths: the user name as a path component
  kCount
};

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

class Redactor {
 public:
  explicit Redactor(RedactionOptions options = {});

  // Redacts one line (no '\n') in place; returns true when it changed. A private key block that
  // starts on this line and does not end on it stays open: the following lines are wiped until its
  // END line, unless end_block() is called first (the caller knows where a record ends).
  bool redact_line(std::string& line, RedactionCounts& counts);
  // Multi-line text ('\n'-separated), e.g. a database column; block state starts and ends closed.
  bool redact_text(std::string& text, RedactionCounts& counts);
  void end_block() { in_private_key_ = false; }
  bool in_private_key_block() const { return in_private_key_; }

 private:
  bool redact_tokens(std::string& line, RedactionCounts& counts);
  bool redact_private_key(std::string& line, RedactionCounts& counts);
  bool redact_paths(std::string& line, RedactionCounts& counts);

  RedactionOptions options_;
  bool in_private_key_ = false;
};

}  // namespace tlscope::exporters::rage
