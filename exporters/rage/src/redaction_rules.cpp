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

bool equals_nocase(std::string_view word, std::string_view lower_literal);

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

bool is_token_char(char c) {
  return is_alnum(c) || c == '_' || c == '-';
}

// A fixed prefix and then at least `min` (at most `max`, 0 = any) characters of `body`.
template <typename Pred>
bool prefixed_token(std::string_view s, size_t i, std::string_view prefix, size_t min, size_t max,
                    Pred body, SecretKind kind, SecretMatch& m) {
  if (!starts_with(s, i, prefix)) return false;
  size_t end = run_end(s, i + prefix.size(), body);
  size_t n = end - i - prefix.size();
  if (n < min || (max && n > max)) return false;
  m = {i, end, kind};
  return true;
}

bool match_google(std::string_view s, size_t i, SecretMatch& m) {
  return prefixed_token(
             s, i, "ya29.", 20, 0, [](char c) { return is_token_char(c) || c == '.'; },
             SecretKind::kGoogleToken, m) ||
         prefixed_token(s, i, "AIza", 35, 35, is_token_char, SecretKind::kGoogleToken, m);
}

bool match_gitlab(std::string_view s, size_t i, SecretMatch& m) {
  return prefixed_token(s, i, "glpat-", 20, 0, is_token_char, SecretKind::kGitlabToken, m);
}

bool match_npm(std::string_view s, size_t i, SecretMatch& m) {
  return prefixed_token(s, i, "npm_", 36, 36, is_alnum, SecretKind::kNpmToken, m);
}

bool match_stripe(std::string_view s, size_t i, SecretMatch& m) {
  for (std::string_view p : {"sk_live_", "sk_test_", "rk_live_", "rk_test_"})
    if (prefixed_token(s, i, p, 16, 0, is_alnum, SecretKind::kStripeKey, m)) return true;
  return false;
}

// header.payload.signature, each base64url; the header and payload are JSON objects, so both
// start with "eyJ" ('{"').
bool match_jwt(std::string_view s, size_t i, SecretMatch& m) {
  if (!starts_with(s, i, "eyJ")) return false;
  auto b64url = [](char c) { return is_alnum(c) || c == '_' || c == '-'; };
  size_t head = run_end(s, i + 3, b64url);
  if (head - i < 13 || head >= s.size() || s[head] != '.') return false;
  size_t body = run_end(s, head + 1, b64url);
  if (body - head - 1 < 4 || body >= s.size() || s[body] != '.') return false;
  size_t end = run_end(s, body + 1, b64url);
  m = {i, end, SecretKind::kJwt};
  return true;
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

// The signature of a signed URL (`...?sv=2022&sig=abc%2Bdef&se=...`): up to the next `&`.
bool match_sas_signature(std::string_view s, size_t at, SecretMatch& m) {
  size_t end = run_end(s, at, [](char c) {
    return c != '&' && c != '"' && c != '\'' && c != '\\' && c != '#' && !is_space(c) && c != '<' &&
           c != '>';
  });
  if (end - at < 8 || already_redacted(s, at)) return false;
  m = {at, end, SecretKind::kSasSignature};
  return true;
}

// `user:password@host` as a bare value with no scheme (MASTER_ADDR=user:pw@host): the user info.
bool match_userinfo_value(std::string_view s, size_t at, SecretMatch& m) {
  size_t end = bare_end(s, at);
  std::string_view v = s.substr(at, end - at);
  size_t amp = v.find('@');
  if (amp == std::string_view::npos || amp == 0) return false;
  std::string_view info = v.substr(0, amp);
  size_t colon = info.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == info.size() ||
      info.find('/') != std::string_view::npos || already_redacted(info, 0) ||
      already_redacted(info, colon + 1))
    return false;
  m = {at, at + amp, SecretKind::kUrlCredentials};
  return true;
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
  if (equals_nocase(raw, "sig") && name_end == eq &&
      (name == 0 || s[name - 1] == '?' || s[name - 1] == '&' || is_space(s[name - 1])))
    return match_sas_signature(s, eq + 1, m);
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
  if (!secret) return match_userinfo_value(s, eq + 1, m);
  if (rest_is_blank(s, eq + 1))
    return m = {eq + 1, eq + 1, SecretKind::kSecretAssignment, true}, true;
  // Code such as `num_tokens=16` or `token = None` keeps its literals; upper-case NAME=1234 is a
  // real setting and is redacted.
  return value_at(s, eq + 1, m, SecretKind::kSecretAssignment, !has_lower || flag);
}

// Header names whose whole value is a credential.
bool is_secret_header_name(std::string_view name) {
  static constexpr std::string_view kHeaders[] = {
      "cookie",         "set-cookie",          "x-api-key",     "api-key",
      "x-auth-token",   "private-token",       "authorization", "proxy-authorization",
      "x-goog-api-key", "x-amz-security-token"};
  for (auto h : kHeaders)
    if (equals_nocase(name, h)) return true;
  return false;
}

// A type in an annotation (`token: str`), which is code, not a value.
bool is_type_name(std::string_view v) {
  static constexpr std::string_view kTypes[] = {"str",  "int",    "float",       "bool",  "bytes",
                                                "Any",  "dict",   "list",        "tuple", "object",
                                                "None", "Tensor", "torch.Tensor"};
  for (auto t : kTypes)
    if (v == t) return true;
  return false;
}

// `Cookie: a=b; c=d`, `X-Api-Key: k`, `password: hunter2`: a header or secret-named key, a ':' and
// a space. The key is bare (`"password": "..."` is secret_field's) or, for a header, quoted with
// a quoted value (`{'Cookie': '...'}`). A header's value runs to the end of the line or of the
// string it is in; a secret-named key's value is one word or a quoted string.
bool match_colon_value(std::string_view s, size_t colon, SecretMatch& m) {
  if (colon + 1 < s.size() && !is_space(s[colon + 1])) return false;  // URLs, ports, a:b
  size_t key_end = colon;
  char key_quote = 0;
  if (key_end > 0 && (s[key_end - 1] == '"' || s[key_end - 1] == '\'')) key_quote = s[--key_end];
  size_t key = key_end;
  while (key > 0 && (is_word(s[key - 1]) || s[key - 1] == '-')) --key;
  if (key == key_end) return false;
  if (key_quote && (key == 0 || s[key - 1] != key_quote)) return false;
  std::string_view name = s.substr(key, key_end - key);
  size_t v = run_end(s, colon + 1, is_space);
  if (v >= s.size()) return false;
  if (is_secret_header_name(name)) {
    if (starts_with_nocase(name, 0, "authorization") || starts_with_nocase(name, 0, "proxy-")) {
      size_t w = v + (s[v] == '"' || s[v] == '\'');  // the scheme, inside a quoted value too
      if (starts_with_nocase(s, w, "bearer") || starts_with_nocase(s, w, "basic")) return false;
    }
    if (already_redacted(s, v)) return false;
    if (key_quote || s[v] == '"' || s[v] == '\'')
      return value_at(s, v, m, SecretKind::kSecretHeader, true);
    size_t end = v;
    while (end < s.size() && s[end] != '"' && s[end] != '\'' && s[end] != '\\') ++end;
    while (end > v && is_space(s[end - 1])) --end;
    if (end == v) return false;
    m = {v, end, SecretKind::kSecretHeader};
    return true;
  }
  if (key_quote) return false;  // a quoted secret key is secret_field's
  std::string upper_name;
  for (char c : name) upper_name += c == '-' ? '_' : upper(c);
  bool lower_case = std::any_of(name.begin(), name.end(), is_lower);
  if (!(lower_case ? is_secret_word_name(name) : contains_secret_word(upper_name, false)))
    return false;
  if (!value_at(s, v, m, SecretKind::kSecretAssignment, false)) return false;
  return !is_type_name(s.substr(m.begin, m.end - m.begin));
}

// `--password X`, `--api-key X`, `-p X`: a secret-named option, a space and its value; also the
// argument-list form `'--password', 'X'`. `-p` (mysql, psql, sshpass) takes no path, number or
// option, so `mkdir -p /tmp/x` and `-p 8080` stay.
bool match_secret_option(std::string_view s, size_t i, SecretMatch& m) {
  bool two = starts_with(s, i, "--");
  size_t name = i + (two ? 2 : 1);
  size_t name_end = run_end(s, name, [](char c) { return is_alnum(c) || c == '-' || c == '_'; });
  if (name_end == name) return false;
  std::string_view n = s.substr(name, name_end - name);
  if (two) {
    std::string upper_name;
    for (char c : n) upper_name += c == '-' ? '_' : upper(c);
    if (!contains_secret_word(upper_name, false) && !is_secret_word_name(n)) return false;
  } else if (n != "p") {
    return false;
  }
  size_t v = name_end;
  if (v < s.size() && (s[v] == '"' || s[v] == '\'')) {  // '--password', 'X'
    char q = s[v];
    v = run_end(s, v + 1, is_space);
    if (v >= s.size() || s[v] != ',') return false;
    v = run_end(s, v + 1, is_space);
    if (v >= s.size() || s[v] != q) return false;
  } else {
    if (v >= s.size() || !is_space(s[v])) return false;
    v = run_end(s, v, is_space);
  }
  if (v >= s.size() || s[v] == '-' || s[v] == '/' || s[v] == '.' || s[v] == '~') return false;
  if (!value_at(s, v, m, SecretKind::kSecretOption, false)) return false;
  return true;
}

// netrc: `machine host login user password secret` (also `passwd`), the value after the word.
bool match_netrc_password(std::string_view s, size_t i, SecretMatch& m) {
  size_t after;
  if (starts_with(s, i, "password"))
    after = i + 8;
  else if (starts_with(s, i, "passwd"))
    after = i + 6;
  else
    return false;
  if (after >= s.size() || !is_space(s[after])) return false;
  std::string_view before = s.substr(0, i);
  if (before.find("machine ") == std::string_view::npos &&
      before.find("login ") == std::string_view::npos)
    return false;
  size_t v = run_end(s, after, is_space);
  size_t end = bare_end(s, v);
  if (end == v || already_redacted(s, v)) return false;
  m = {v, end, SecretKind::kSecretOption};
  return true;
}

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

bool match_token_shape(std::string_view s, size_t i, SecretMatch& m);

// A base64 run that decodes to text holding a token shape or a private key (`Z2hwX...` is
// `ghp_...`). Tried only where the encoding of a known prefix can start (the rule's triggers);
// the whole run is the secret.
bool match_encoded(std::string_view s, size_t i, SecretMatch& m) {
  size_t end = run_end(s, i, [](char c) { return base64_value(c) >= 0; });
  if (end - i < 16) return false;
  std::string decoded;
  decoded.reserve((end - i) * 3 / 4);
  uint32_t bits = 0;
  int have = 0;
  for (size_t k = i; k < end; ++k) {
    bits = (bits << 6) | static_cast<uint32_t>(base64_value(s[k]));
    have += 6;
    if (have >= 8) {
      have -= 8;
      decoded += static_cast<char>((bits >> have) & 0xff);
    }
  }
  size_t tail = run_end(s, end, [](char c) { return c == '='; });
  if (decoded.find("-----BEGIN ") != std::string::npos &&
      decoded.find("PRIVATE KEY") != std::string::npos)
    return m = {i, tail, SecretKind::kEncodedSecret}, true;
  SecretMatch inner;
  for (size_t k = 0; k < decoded.size(); ++k) {
    if (k > 0 && is_alnum(decoded[k - 1])) continue;
    if (match_token_shape(decoded, k, inner))
      return m = {i, tail, SecretKind::kEncodedSecret}, true;
  }
  return false;
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
// handled around the byte scan in redaction.cpp and environment.cpp. Each row carries its test
// case (a line, and the secret in it that must go), checked by tests/rage/redaction_rules_test.cpp.
constexpr std::array<RedactionRule, 20> kRules = {{
    {SecretKind::kGithubToken, "g", RuleStart::kToken, match_github,
     "push run_ghp_0123456789abcdefghijABCDEFGHIJ.log", "ghp_0123456789abcdefghijABCDEFGHIJ"},
    {SecretKind::kHuggingFaceToken, "h", RuleStart::kToken, match_huggingface,
     "login hf_abcdefghijklmnopqrstuvwxyzABCDEF12", "hf_abcdefghijklmnopqrstuvwxyzABCDEF12"},
    {SecretKind::kAwsAccessKey, "A", RuleStart::kToken, match_aws_access_key,
     "key AKIAIOSFODNN7EXAMPLE used", "AKIAIOSFODNN7EXAMPLE"},
    {SecretKind::kSlackToken, "x", RuleStart::kToken, match_slack,
     "post xoxb-123456789012-abcdefghij", "xoxb-123456789012-abcdefghij"},
    {SecretKind::kOpenAiKey, "s", RuleStart::kToken, match_openai,
     "use sk-proj1234567890abcdefghijk", "sk-proj1234567890abcdefghijk"},
    {SecretKind::kGoogleToken, "yA", RuleStart::kToken, match_google,
     "oauth ya29.a0AfH6SMBx3kLq9Zt7Wm2pQ_rS-uVw", "ya29.a0AfH6SMBx3kLq9Zt7Wm2pQ_rS-uVw"},
    {SecretKind::kGitlabToken, "g", RuleStart::kToken, match_gitlab,
     "clone with glpat-xY7zK9mN2pQ4rS6tU8vW", "glpat-xY7zK9mN2pQ4rS6tU8vW"},
    {SecretKind::kNpmToken, "n", RuleStart::kToken, match_npm,
     "//registry/:_authToken npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
     "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"},
    {SecretKind::kStripeKey, "sr", RuleStart::kToken, match_stripe,
     "stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"},
    {SecretKind::kJwt, "e", RuleStart::kToken, match_jwt,
     "session eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.SflKxwRJSMeKKF2QT4fwpM",
     "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.SflKxwRJSMeKKF2QT4fwpM"},
    {SecretKind::kEncodedSecret, "ZaQecbL", RuleStart::kToken, match_encoded,
     "blob Z2hwXzAxMjM0NTY3ODlhYmNkZWZnaGlqQUJDREVGR0hJSg== end",
     "Z2hwXzAxMjM0NTY3ODlhYmNkZWZnaGlqQUJDREVGR0hJSg=="},
    {SecretKind::kBearerToken, "Bb", RuleStart::kWord, match_bearer,
     "Authorization: Bearer abcdef123456", "abcdef123456"},
    {SecretKind::kBasicAuth, "Bb", RuleStart::kWord, match_basic,
     "Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA=="},
    {SecretKind::kSecretOption, "-", RuleStart::kWord, match_secret_option,
     "train.py --api-key k3yV4lue99 -p hunter2pw", "k3yV4lue99"},
    {SecretKind::kSecretOption, "p", RuleStart::kWord, match_netrc_password,
     "machine example.com login alice password n3trcPw", "n3trcPw"},
    {SecretKind::kUrlCredentials, ":", RuleStart::kAnywhere, match_url_credentials,
     "fetch https://alice:pw12345@example.com/x", "alice:pw12345"},
    {SecretKind::kSecretField, ":", RuleStart::kAnywhere, match_secret_field,
     R"({"api_key": "q8Jd0s9f7KqLm2Zx"})", "q8Jd0s9f7KqLm2Zx"},
    {SecretKind::kSecretHeader, ":", RuleStart::kAnywhere, match_colon_value,
     "Cookie: session=abc123; csrftoken=xyz789", "session=abc123; csrftoken=xyz789"},
    {SecretKind::kSecretAssignment, "=", RuleStart::kAnywhere, match_assignment,
     "MASTER_ADDR=alice:pw9876@node1 NCCL_IB_PWD=ibpw4321", "ibpw4321"},
    // Found through match_assignment (`sig` is the name before '='); the row carries its case.
    {SecretKind::kSasSignature, "", RuleStart::kAnywhere, match_sas_signature,
     "https://acct.blob.core.windows.net/c?sv=2022&sig=AbC%2BdEf123%3D&se=1", "AbC%2BdEf123%3D"},
}};

// The token shapes alone, for what base64 decodes to.
bool match_token_shape(std::string_view s, size_t i, SecretMatch& m) {
  for (const RedactionRule& r : kRules) {
    if (r.start != RuleStart::kToken || r.match == match_encoded) continue;
    if (r.triggers.find(s[i]) != std::string_view::npos && r.match(s, i, m)) return true;
  }
  return false;
}

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
  static constexpr std::string_view kWords[] = {"TOKEN",      "SECRET", "PASSWORD",   "PASSWD",
                                                "API_KEY",    "APIKEY", "ACCESS_KEY", "PRIVATE_KEY",
                                                "CREDENTIAL", "_PWD"};
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
