// The matchers behind each redaction rule and the table that names their trigger bytes. Each
// matcher looks at one position of a line and says whether a secret of its kind is there; none
// uses regular expressions (std::regex is slow and recurses per character, which overflows the
// stack on multi-megabyte payload lines).
#include "redaction_rules.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace tlscope::exporters::rage {
namespace {

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_word(char c) {
  return is_alnum(c) || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_upper_alnum(char c) {
  return (c >= 'A' && c <= 'Z') || is_digit(c);
}
bool is_lower(char c) {
  return c >= 'a' && c <= 'z';
}
bool is_upper(char c) {
  return c >= 'A' && c <= 'Z';
}
bool is_space(char c) {
  return c == ' ' || c == '\t';
}
char upper(char c) {
  return is_lower(c) ? static_cast<char>(c - 'a' + 'A') : c;
}
char lower(char c) {
  return is_upper(c) ? static_cast<char>(c - 'A' + 'a') : c;
}
bool is_bearer_char(char c) {
  return is_alnum(c) || std::string_view("._~+/=-").find(c) != std::string_view::npos;
}
bool is_base64_char(char c) {
  return is_alnum(c) || c == '+' || c == '/' || c == '=';
}

bool starts_with(std::string_view s, size_t at, std::string_view prefix) {
  return s.size() >= at + prefix.size() && s.compare(at, prefix.size(), prefix) == 0;
}

bool starts_with_nocase(std::string_view s, size_t at, std::string_view lower_prefix) {
  if (s.size() < at + lower_prefix.size()) return false;
  for (size_t i = 0; i < lower_prefix.size(); ++i)
    if (lower(s[at + i]) != lower_prefix[i]) return false;
  return true;
}

template <typename Pred>
size_t run_end(std::string_view s, size_t from, Pred pred) {
  while (from < s.size() && pred(s[from])) ++from;
  return from;
}

bool rest_is_blank(std::string_view s, size_t from) {
  return run_end(s, from, is_space) == s.size();
}

bool already_redacted(std::string_view s, size_t at) {
  return starts_with(s, at, "<redacted") || starts_with(s, at, "redacted-");
}

// A value that is code, not a secret: a number, a Python/JSON literal, or another variable.
bool is_plain_literal(std::string_view v) {
  if (v.empty()) return true;
  if (std::all_of(v.begin(), v.end(), [](char c) { return is_digit(c) || c == '.' || c == '-'; }))
    return true;
  for (std::string_view w : {"None", "True", "False", "null", "true", "false"})
    if (v == w) return true;
  return v[0] == '(' || v[0] == '[' || v[0] == '{';
}

// A value that names another one: $VAR, <placeholder>, ==.
bool is_reference(std::string_view v) {
  return v.empty() || v[0] == '$' || v[0] == '<' || v[0] == '=' || v.rfind("redacted-", 0) == 0;
}

// The end of a quoted value starting after its opening quote at `from`: the next unescaped
// `quote`, or with `escaped` (a JSON string inside a JSON string) the next `\` + quote. npos when
// the line ends first.
size_t quoted_end(std::string_view s, size_t from, char quote, bool escaped) {
  for (size_t i = from; i < s.size(); ++i) {
    if (s[i] == '\\') {
      if (escaped && i + 1 < s.size() && s[i + 1] == quote) return i;
      ++i;
      continue;
    }
    if (!escaped && s[i] == quote) return i;
  }
  return std::string_view::npos;
}

// An unquoted value: up to whitespace, a quote or a delimiter.
size_t bare_end(std::string_view s, size_t from) {
  return run_end(s, from, [](char c) {
    return !is_space(c) && c != '"' && c != '\'' && c != ',' && c != ';' && c != '&' && c != ')' &&
           c != ']' && c != '}' && c != '\\' && c != '`';
  });
}

// The value starting at `at` (after any spaces): a quoted string's contents, or a bare word.
// Also `\"...\"` inside a JSON string.
bool value_at(std::string_view s, size_t at, SecretMatch& m, SecretKind kind, bool literals_ok) {
  at = run_end(s, at, is_space);
  if (at >= s.size()) return false;
  bool escaped = s[at] == '\\' && at + 1 < s.size() && (s[at + 1] == '"' || s[at + 1] == '\'');
  char q = escaped ? s[at + 1] : s[at];
  size_t start, end;
  bool open = false;
  if (q == '"' || q == '\'') {
    start = at + (escaped ? 2 : 1);
    end = quoted_end(s, start, q, escaped);
    open = end == std::string_view::npos;  // a string that runs on: the rest, and the next line
    if (open) end = s.size();
  } else {
    start = at;
    end = bare_end(s, start);
  }
  if (end == start || is_reference(s.substr(start, end - start))) return false;
  std::string_view v = s.substr(start, end - start);
  // Code, when the name is code-like: a literal, or an unquoted expression (`token = toks[i]`,
  // `password = os.environ.get(...)`). A quoted value is always taken.
  bool quoted = q == '"' || q == '\'';
  if (!literals_ok && (is_plain_literal(v) || (!quoted && v.find_first_of("([") != v.npos)))
    return false;
  m = {start, end, kind, false, open};
  return true;
}

// --- token shapes -------------------------------------------------------------------------------

bool match_github(std::string_view s, size_t i, SecretMatch& m) {
  if (starts_with(s, i, "github_pat_")) {
    size_t end = run_end(s, i + 11, is_word);
    if (end - i - 11 < 20) return false;
    return m = {i, end, SecretKind::kGithubToken}, true;
  }
  if (!starts_with(s, i, "gh") || s.size() <= i + 3 || s[i + 3] != '_' ||
      std::string_view("pousr").find(s[i + 2]) == std::string_view::npos)
    return false;
  size_t end = run_end(s, i + 4, is_alnum);
  if (end - i - 4 < 20) return false;
  return m = {i, end, SecretKind::kGithubToken}, true;
}

bool match_huggingface(std::string_view s, size_t i, SecretMatch& m) {
  if (!starts_with(s, i, "hf_")) return false;
  size_t end = run_end(s, i + 3, is_alnum);
  if (end - i - 3 < 30 || (end < s.size() && is_word(s[end]))) return false;
  return m = {i, end, SecretKind::kHuggingFaceToken}, true;
}

bool match_aws_access_key(std::string_view s, size_t i, SecretMatch& m) {
  if (!starts_with(s, i, "AKIA") && !starts_with(s, i, "ASIA")) return false;
  size_t end = run_end(s, i + 4, is_upper_alnum);
  if (end - i - 4 != 16 || (end < s.size() && is_alnum(s[end]))) return false;
  return m = {i, end, SecretKind::kAwsAccessKey}, true;
}

bool match_slack(std::string_view s, size_t i, SecretMatch& m) {
  if (!starts_with(s, i, "xox") || s.size() < i + 5 || s[i + 4] != '-' ||
      std::string_view("abposr").find(s[i + 3]) == std::string_view::npos)
    return false;
  size_t end = run_end(s, i + 5, [](char c) { return is_alnum(c) || c == '-'; });
  if (end - i - 5 < 10) return false;
  return m = {i, end, SecretKind::kSlackToken}, true;
}

bool match_openai(std::string_view s, size_t i, SecretMatch& m) {
  if (!starts_with(s, i, "sk-")) return false;
  size_t end = run_end(s, i + 3, [](char c) { return is_word(c) || c == '-'; });
  auto digits = std::count_if(s.begin() + i + 3, s.begin() + end, is_digit);
  // Real keys mix digits in; "sk-learn-style-words" does not.
  if (end - i - 3 < 20 || digits < 2) return false;
  return m = {i, end, SecretKind::kOpenAiKey}, true;
}

// "Bearer <token>"; "Bearer" ending the line leaves the token to the next one.
bool match_bearer(std::string_view s, size_t i, SecretMatch& m) {
  if (!starts_with_nocase(s, i, "bearer")) return false;
  size_t after = i + 6;
  if (after < s.size() && is_word(s[after])) return false;
  if (rest_is_blank(s, after)) return m = {after, after, SecretKind::kBearerToken, true}, true;
  size_t tok = run_end(s, after, [](char c) { return c == ' '; });
  if (tok == after) return false;
  size_t end = run_end(s, tok, is_bearer_char);
  if (end - tok < 8) return false;
  return m = {tok, end, SecretKind::kBearerToken}, true;
}

// Base64 user:password as an Authorization value carries it; plain words ("Basic Usage") are
// too short, not a multiple of 4 long, or one case only.
bool looks_like_basic_credentials(std::string_view v) {
  if (v.size() < 8 || v.size() % 4 != 0) return false;
  bool digit = false, eq = false, up = false, low = false;
  for (size_t k = 0; k < v.size(); ++k) {
    digit |= is_digit(v[k]);
    eq |= v[k] == '=';
    up |= k > 0 && is_upper(v[k]);
    low |= is_lower(v[k]);
  }
  return digit || eq || (up && low);
}

bool match_basic(std::string_view s, size_t i, SecretMatch& m) {
  if (!starts_with_nocase(s, i, "basic")) return false;
  size_t after = i + 5;
  if (after < s.size() && is_word(s[after])) return false;
  if (s[i] == 'B' && rest_is_blank(s, after))
    return m = {after, after, SecretKind::kBasicAuth, true}, true;
  size_t tok = run_end(s, after, [](char c) { return c == ' '; });
  if (tok == after) return false;
  size_t end = run_end(s, tok, is_base64_char);
  if (!looks_like_basic_credentials(s.substr(tok, end - tok))) return false;
  return m = {tok, end, SecretKind::kBasicAuth}, true;
}

// --- structure: URLs, fields, assignments -------------------------------------------------------

// "scheme://user:password@host": the user info (with the ':') is the secret.
bool match_url_credentials(std::string_view s, size_t colon, SecretMatch& m) {
  if (!starts_with(s, colon, "://") || colon == 0) return false;
  size_t scheme = colon;
  while (scheme > 0 && (is_alnum(s[scheme - 1]) || s[scheme - 1] == '+' || s[scheme - 1] == '.' ||
                        s[scheme - 1] == '-'))
    --scheme;
  if (scheme == colon || !std::isalpha(static_cast<unsigned char>(s[scheme]))) return false;
  size_t start = colon + 3;
  size_t end = run_end(s, start, [](char c) {
    return c != '@' && c != '/' && c != '?' && c != '#' && c != '"' && c != '\'' && c != '\\' &&
           c != '<' && c != '>' && c != ' ' && c != '\t';
  });
  if (end >= s.size() || s[end] != '@' || end == start) return false;
  std::string_view info = s.substr(start, end - start);
  if (info.find(':') == std::string_view::npos || info.find(':') + 1 == info.size()) return false;
  if (already_redacted(info, 0)) return false;
  m = {start, end, SecretKind::kUrlCredentials};
  return true;
}

// `"api_key": "..."`, `'token': '...'`, `\"password\": \"...\"`: the key is quoted and names a
// secret; its quoted value is replaced. A key ending the line leaves the value to the next one.
bool match_secret_field(std::string_view s, size_t colon, SecretMatch& m) {
  size_t j = colon;
  while (j > 0 && is_space(s[j - 1])) --j;
  if (j < 2 || (s[j - 1] != '"' && s[j - 1] != '\'')) return false;
  char q = s[j - 1];
  size_t key_end = j - 1;
  bool escaped = key_end > 0 && s[key_end - 1] == '\\';
  if (escaped) --key_end;
  size_t key_start = key_end;
  while (key_start > 0 && (is_word(s[key_start - 1]) || s[key_start - 1] == '-' ||
                           s[key_start - 1] == '.' || s[key_start - 1] == ' '))
    --key_start;
  if (key_start == key_end || key_start == 0 || s[key_start - 1] != q) return false;
  if (escaped && (key_start < 2 || s[key_start - 2] != '\\')) return false;
  if (!is_secret_word_name(s.substr(key_start, key_end - key_start))) return false;
  if (rest_is_blank(s, colon + 1))
    return m = {colon + 1, colon + 1, SecretKind::kSecretField, true}, true;
  size_t v = run_end(s, colon + 1, is_space);
  bool quoted = s[v] == '"' || s[v] == '\'' || (s[v] == '\\' && v + 1 < s.size());
  return quoted && value_at(s, v, m, SecretKind::kSecretField, false);
}

// NAME=value, name = value, --flag=value: the name says "secret" (upper-case names and flags by
// the words they contain, others by their words); the value, quoted or bare, is replaced.
bool match_assignment(std::string_view s, size_t eq, SecretMatch& m) {
  if (eq + 1 < s.size() && s[eq + 1] == '=') return false;  // ==
  if (eq > 0 && std::string_view("=!<>+-*/%&|^:~").find(s[eq - 1]) != std::string_view::npos)
    return false;  // !=, <=, +=, :=, ...
  size_t name_end = eq;
  while (name_end > 0 && s[name_end - 1] == ' ') --name_end;
  size_t name = name_end;
  while (name > 0 && (is_word(s[name - 1]) || s[name - 1] == '-')) --name;
  if (name == name_end) return false;
  std::string_view raw = s.substr(name, name_end - name);
  bool flag = raw[0] == '-';
  bool has_lower = std::any_of(raw.begin(), raw.end(), is_lower);
  bool secret;
  if (flag || !has_lower) {
    std::string upper_name;
    for (char c : raw) upper_name += c == '-' ? '_' : upper(c);
    secret = contains_secret_word(upper_name, false);
  } else {
    secret = is_secret_word_name(raw);
  }
  if (!secret) return false;
  if (rest_is_blank(s, eq + 1))
    return m = {eq + 1, eq + 1, SecretKind::kSecretAssignment, true}, true;
  // Code such as `num_tokens=16` or `token = None` keeps its literals; upper-case NAME=1234 is a
  // real setting and is redacted.
  return value_at(s, eq + 1, m, SecretKind::kSecretAssignment, !has_lower || flag);
}

// Words of a name, as views of it: split at anything but a letter or digit, and at lower-to-upper
// case changes (apiKey). No allocation: this runs for every quoted key before a ':'.
template <typename F>
void for_each_word(std::string_view name, F&& f) {
  size_t start = 0;
  for (size_t i = 0; i <= name.size(); ++i) {
    bool end = i == name.size() || !is_alnum(name[i]) ||
               (i > start && is_lower(name[i - 1]) && is_upper(name[i]));
    if (!end) continue;
    if (i > start) f(name.substr(start, i - start));
    start = i < name.size() && !is_alnum(name[i]) ? i + 1 : i;
  }
}

bool equals_nocase(std::string_view word, std::string_view lower_literal) {
  return word.size() == lower_literal.size() && starts_with_nocase(word, 0, lower_literal);
}

// Private key blocks (which span lines), env.txt names and paths (which rewrite whole lines) are
// handled around the byte scan in redaction.cpp and environment.cpp.
constexpr std::array<RedactionRule, 10> kRules = {{
    {SecretKind::kGithubToken, "g", true, match_github},
    {SecretKind::kHuggingFaceToken, "h", true, match_huggingface},
    {SecretKind::kAwsAccessKey, "A", true, match_aws_access_key},
    {SecretKind::kSlackToken, "x", true, match_slack},
    {SecretKind::kOpenAiKey, "s", true, match_openai},
    {SecretKind::kBearerToken, "Bb", true, match_bearer},
    {SecretKind::kBasicAuth, "Bb", true, match_basic},
    {SecretKind::kUrlCredentials, ":", false, match_url_credentials},
    {SecretKind::kSecretField, ":", false, match_secret_field},
    {SecretKind::kSecretAssignment, "=", false, match_assignment},
}};

}  // namespace

static_assert(kRules.size() <= 32, "the scanner's byte table holds one bit per rule");

std::span<const RedactionRule> redaction_rules() {
  return kRules;
}

bool match_continued_value(std::string_view s, SecretKind kind, SecretMatch& m) {
  size_t at = run_end(s, 0, is_space);
  if (at >= s.size()) return false;
  size_t end;
  switch (kind) {
    case SecretKind::kBearerToken:
      end = run_end(s, at, is_bearer_char);
      if (end - at < 8) return false;
      break;
    case SecretKind::kBasicAuth:
      end = run_end(s, at, is_base64_char);
      if (!looks_like_basic_credentials(s.substr(at, end - at))) return false;
      break;
    default:
      return value_at(s, at, m, kind, kind != SecretKind::kSecretField);
  }
  m = {at, end, kind};
  return true;
}

bool is_secret_word_name(std::string_view name) {
  // Every word below contains one of these: most keys (frame_id, ts, name) are out in a few
  // compares, before splitting into words.
  static constexpr std::string_view kRoots[] = {"tok", "key", "pass", "secret", "cred"};
  char folded[64];
  if (name.size() <= sizeof folded) {
    for (size_t i = 0; i < name.size(); ++i) folded[i] = lower(name[i]);
    std::string_view f(folded, name.size());
    bool any = false;
    for (auto r : kRoots) any |= f.find(r) != std::string_view::npos;
    if (!any) return false;
  }
  static constexpr std::string_view kSecretWords[] = {
      "password", "passwd", "passphrase", "secret", "token", "credential", "credentials", "apikey"};
  static constexpr std::string_view kKeyOwners[] = {"api", "access", "private", "secret"};
  bool secret = false;
  std::string_view previous;
  for_each_word(name, [&](std::string_view w) {
    if (!secret && w.size() >= 3 && w.size() <= 11) {  // the lengths of the words above
      for (auto s : kSecretWords) secret |= equals_nocase(w, s);
      if (equals_nocase(w, "key"))
        for (auto o : kKeyOwners) secret |= equals_nocase(previous, o);
    }
    previous = w;
  });
  return secret;
}

bool contains_secret_word(std::string_view upper_name, bool env_words) {
  static constexpr std::string_view kWords[] = {"TOKEN",      "SECRET",      "PASSWORD",
                                                "PASSWD",     "API_KEY",     "APIKEY",
                                                "ACCESS_KEY", "PRIVATE_KEY", "CREDENTIAL"};
  static constexpr std::string_view kEnvOnly[] = {"KEY",     "AUTH",    "COOKIE",
                                                  "SESSION", "PRIVATE", "PASS"};
  for (auto w : kWords)
    if (upper_name.find(w) != std::string_view::npos) return true;
  if (env_words)
    for (auto w : kEnvOnly)
      if (upper_name.find(w) != std::string_view::npos) return true;
  return false;
}

}  // namespace tlscope::exporters::rage
