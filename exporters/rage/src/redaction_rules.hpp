// The redaction rules as data: which bytes trigger which matcher, for which kind of secret. The
// scanner (redaction.cpp) builds its byte table from this list, so a new secret shape is one
// matcher and one row here, plus its row in TLSCOPE_SECRET_KINDS (redaction.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "tlscope/exporters/rage/redaction.hpp"

namespace tlscope::exporters::rage {

// [begin, end) of the line is the secret. With `continues`, nothing is replaced: the secret's
// name ended the line and its value is expected at the start of the next one. With `open`, the
// range is replaced and the value (a quoted string not closed on this line) goes on at the
// start of the next one.
struct SecretMatch {
  size_t begin = 0, end = 0;
  SecretKind kind{};
  bool continues = false;
  bool open = false;
};

using SecretMatcher = bool (*)(std::string_view line, size_t at, SecretMatch& m);

// Where a rule may start: anywhere, after a byte that is not a letter, digit or '_' (a word
// start), or after one that is not a letter or digit (a token shape may follow '_', as in a file
// name `trace_ghp_...`).
enum class RuleStart : uint8_t { kAnywhere, kWord, kToken };

struct RedactionRule {
  SecretKind kind;
  std::string_view triggers;  // bytes at which `match` is tried
  RuleStart start;
  SecretMatcher match;
  // The rule's test case: a line holding a secret this rule (and only it) finds, and that secret.
  // tests/rage/redaction_rules_test.cpp checks every row.
  std::string_view example, secret;
};

// Every rule, in the order they are tried at a byte.
std::span<const RedactionRule> redaction_rules();

// The value at the start of `line` of a secret (`kind`) whose name ended the previous line.
bool match_continued_value(std::string_view line, SecretKind kind, SecretMatch& m);

// Whether a lower- or mixed-case name (a JSON key, `name = value`) names a secret, by its words:
// password, passwd, passphrase, secret, token, credential(s), apikey, api/access/private/secret
// key. (An Authorization value is left to the Bearer and Basic rules.) `num_tokens`, `tokenizer`
// and `max_len` are not.
bool is_secret_word_name(std::string_view name);
// Upper-case NAME or --flag: contains TOKEN, SECRET, PASSWORD, PASSWD, API_KEY, APIKEY,
// ACCESS_KEY, PRIVATE_KEY or CREDENTIAL; with `env_words` also KEY, AUTH, COOKIE, SESSION,
// PRIVATE, PASS (environment variable names).
bool contains_secret_word(std::string_view upper_name, bool env_words);

}  // namespace tlscope::exporters::rage
