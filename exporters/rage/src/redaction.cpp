// One left-to-right pass per line: each candidate secret starts with a distinctive character
// sequence, so a switch on the current byte finds them all without regular expressions (std::regex
// is slow and recurses per character, which overflows the stack on multi-megabyte payload lines).
#include "tlscope/exporters/rage/redaction.hpp"

#include <algorithm>
#include <cctype>

namespace tlscope::exporters::rage {
namespace {

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_word(char c) {
  return is_alnum(c) || c == '_';
}
bool is_upper_alnum(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_path_char(char c) {
  return is_alnum(c) || c == '.' || c == '_' || c == '-';
}
char upper(char c) {
  return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

bool starts_with(std::string_view s, size_t at, std::string_view prefix) {
  return s.size() >= at + prefix.size() && s.compare(at, prefix.size(), prefix) == 0;
}

bool starts_with_nocase(std::string_view s, size_t at, std::string_view lower_prefix) {
  if (s.size() < at + lower_prefix.size()) return false;
  for (size_t i = 0; i < lower_prefix.size(); ++i) {
    char c = s[at + i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lower_prefix[i]) return false;
  }
  return true;
}

template <typename Pred>
size_t run_end(std::string_view s, size_t from, Pred pred) {
  while (from < s.size() && pred(s[from])) ++from;
  return from;
}

bool contains_secret_word(std::string_view upper_name, bool include_key_words) {
  static constexpr std::string_view kWords[] = {"TOKEN",      "SECRET",      "PASSWORD",
                                                "PASSWD",     "API_KEY",     "APIKEY",
                                                "ACCESS_KEY", "PRIVATE_KEY", "CREDENTIAL"};
  static constexpr std::string_view kEnvOnly[] = {"KEY",     "AUTH",    "COOKIE",
                                                  "SESSION", "PRIVATE", "PASS"};
  for (auto w : kWords)
    if (upper_name.find(w) != std::string_view::npos) return true;
  if (include_key_words)
    for (auto w : kEnvOnly)
      if (upper_name.find(w) != std::string_view::npos) return true;
  return false;
}

// A match: [begin, end) of the line is replaced by `replacement`.
struct Match {
  size_t begin = 0, end = 0;
  SecretKind kind{};
};

std::string marker(SecretKind kind) {
  return "<redacted:" + std::string(to_string(kind)) + ">";
}

constexpr std::string_view kBegin = "-----BEGIN ";
constexpr std::string_view kKeyTail = "PRIVATE KEY-----";
constexpr std::string_view kEnd = "-----END ";

// If a "-----BEGIN <words> PRIVATE KEY-----" marker starts at `at`, returns its end.
size_t private_key_begin_end(std::string_view s, size_t at) {
  if (!starts_with(s, at, kBegin)) return 0;
  size_t i =
      run_end(s, at + kBegin.size(), [](char c) { return (c >= 'A' && c <= 'Z') || c == ' '; });
  // The run swallowed "PRIVATE KEY"; back up to find the tail.
  size_t tail = s.substr(at, i - at + kKeyTail.size()).rfind(kKeyTail);
  if (tail == std::string_view::npos) return 0;
  return at + tail + kKeyTail.size();
}

// End of the first "-----END <words> PRIVATE KEY-----" at or after `from`, or npos.
size_t private_key_end(std::string_view s, size_t from) {
  for (size_t at = s.find(kEnd, from); at != std::string_view::npos; at = s.find(kEnd, at + 1)) {
    size_t tail = s.find(kKeyTail, at);
    if (tail == std::string_view::npos) return std::string_view::npos;
    bool only_words = std::all_of(s.begin() + at + kEnd.size(), s.begin() + tail,
                                  [](char c) { return (c >= 'A' && c <= 'Z') || c == ' '; });
    if (only_words) return tail + kKeyTail.size();
  }
  return std::string_view::npos;
}

// Token shapes that start at `i` (the caller checked the boundary before `i`).
bool match_token(std::string_view s, size_t i, Match& m) {
  auto alnum_run = [&](size_t from) { return run_end(s, from, is_alnum); };
  switch (s[i]) {
    case 'g': {
      if (starts_with(s, i, "github_pat_")) {
        size_t end = run_end(s, i + 11, is_word);
        if (end - i - 11 >= 20) return m = {i, end, SecretKind::kGithubToken}, true;
        return false;
      }
      if (starts_with(s, i, "gh") && s.size() > i + 3 && s[i + 3] == '_' &&
          std::string_view("pousr").find(s[i + 2]) != std::string_view::npos) {
        size_t end = alnum_run(i + 4);
        if (end - i - 4 >= 20) return m = {i, end, SecretKind::kGithubToken}, true;
      }
      return false;
    }
    case 'h': {
      if (!starts_with(s, i, "hf_")) return false;
      size_t end = alnum_run(i + 3);
      if (end - i - 3 >= 30 && (end == s.size() || !is_word(s[end])))
        return m = {i, end, SecretKind::kHuggingFaceToken}, true;
      return false;
    }
    case 'A': {
      if (!starts_with(s, i, "AKIA") && !starts_with(s, i, "ASIA")) return false;
      size_t end = run_end(s, i + 4, is_upper_alnum);
      if (end - i - 4 == 16 && (end == s.size() || !is_alnum(s[end])))
        return m = {i, end, SecretKind::kAwsAccessKey}, true;
      return false;
    }
    case 'x': {
      if (!starts_with(s, i, "xox") || s.size() < i + 5 || s[i + 4] != '-' ||
          std::string_view("abposr").find(s[i + 3]) == std::string_view::npos)
        return false;
      size_t end = run_end(s, i + 5, [](char c) { return is_alnum(c) || c == '-'; });
      if (end - i - 5 >= 10) return m = {i, end, SecretKind::kSlackToken}, true;
      return false;
    }
    case 's': {
      if (!starts_with(s, i, "sk-")) return false;
      size_t end = run_end(s, i + 3, [](char c) { return is_word(c) || c == '-'; });
      size_t digits = std::count_if(s.begin() + i + 3, s.begin() + end,
                                    [](char c) { return c >= '0' && c <= '9'; });
      // Real keys mix digits in; "sk-learn-style-words" does not.
      if (end - i - 3 >= 20 && digits >= 2) return m = {i, end, SecretKind::kOpenAiKey}, true;
      return false;
    }
    case 'B':
    case 'b': {
      if (!starts_with_nocase(s, i, "bearer")) return false;
      size_t tok = run_end(s, i + 6, [](char c) { return c == ' '; });
      if (tok == i + 6) return false;
      size_t end = run_end(s, tok, [](char c) {
        return is_alnum(c) || std::string_view("._~+/=-").find(c) != std::string_view::npos;
      });
      if (end - tok >= 8) return m = {tok, end, SecretKind::kBearerToken}, true;
      return false;
    }
    default:
      return false;
  }
}

// "scheme://user:password@host": the user info (with the ':') is the secret.
bool match_url_credentials(std::string_view s, size_t colon, Match& m) {
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
  if (info.rfind("<redacted", 0) == 0) return false;
  m = {start, end, SecretKind::kUrlCredentials};
  return true;
}

// NAME=value where NAME is an upper-case variable or a --flag whose name says "secret".
bool match_assignment(std::string_view s, size_t eq, Match& m) {
  size_t name = eq;
  while (name > 0 && (is_word(s[name - 1]) || s[name - 1] == '-')) --name;
  if (name == eq) return false;
  std::string_view raw = s.substr(name, eq - name);
  bool flag = raw[0] == '-';
  bool lower = std::any_of(raw.begin(), raw.end(), [](char c) { return c >= 'a' && c <= 'z'; });
  if (!flag && lower) return false;  // keyword arguments in code (num_tokens=...) are not secrets
  std::string upper_name;
  for (char c : raw) upper_name += c == '-' ? '_' : upper(c);
  if (!contains_secret_word(upper_name, false)) return false;
  size_t start = eq + 1;
  size_t end = run_end(s, start, [](char c) {
    return c != ' ' && c != '\t' && c != '"' && c != '\'' && c != ',' && c != ';' && c != '&' &&
           c != ')' && c != ']' && c != '}' && c != '\\' && c != '`';
  });
  if (end == start || s[start] == '=' || s[start] == '$' || s[start] == '<') return false;
  m = {start, end, SecretKind::kSecretAssignment};
  return true;
}

}  // namespace

std::string_view to_string(SecretKind kind) {
  switch (kind) {
    case SecretKind::kGithubToken:
      return "github_token";
    case SecretKind::kHuggingFaceToken:
      return "huggingface_token";
    case SecretKind::kAwsAccessKey:
      return "aws_access_key";
    case SecretKind::kSlackToken:
      return "slack_token";
    case SecretKind::kOpenAiKey:
      return "openai_key";
    case SecretKind::kBearerToken:
      return "bearer_token";
    case SecretKind::kPrivateKey:
      return "private_key";
    case SecretKind::kUrlCredentials:
      return "url_credentials";
    case SecretKind::kSecretAssignment:
      return "secret_assignment";
    case SecretKind::kSecretEnvVar:
      return "secret_env_var";
    case SecretKind::kHomeDirectory:
      return "home_directory";
    case SecretKind::kUserName:
      return "user_name";
    case SecretKind::kCount:
      break;
  }
  return "unknown";
}

void RedactionCounts::merge(const RedactionCounts& other) {
  for (size_t i = 0; i < by_kind.size(); ++i) by_kind[i] += other.by_kind[i];
}

uint64_t RedactionCounts::total() const {
  uint64_t n = 0;
  for (uint64_t v : by_kind) n += v;
  return n;
}

bool is_secret_env_name(std::string_view name) {
  std::string upper_name;
  for (char c : name) upper_name += upper(c);
  return contains_secret_word(upper_name, true);
}

Redactor::Redactor(RedactionOptions options) : options_(std::move(options)) {
  if (options_.home.size() < 2 || options_.home == "/") options_.home.clear();
  while (options_.home.size() > 1 && options_.home.back() == '/') options_.home.pop_back();
  if (options_.user.size() < 2) options_.user.clear();
}

bool Redactor::redact_private_key(std::string& line, RedactionCounts& counts) {
  bool changed = false;
  size_t from = 0;
  if (in_private_key_) {
    size_t end = private_key_end(line, 0);
    if (end == std::string::npos) {
      changed = !line.empty();
      line.clear();  // key material: the whole line goes
      return changed;
    }
    line.erase(0, end);
    in_private_key_ = false;
    changed = true;
  }
  for (size_t at = line.find(kBegin, from); at != std::string::npos; at = line.find(kBegin, at)) {
    size_t begin_end = private_key_begin_end(line, at);
    if (begin_end == 0) {
      ++at;
      continue;
    }
    counts.add(SecretKind::kPrivateKey);
    changed = true;
    std::string repl = marker(SecretKind::kPrivateKey);
    size_t end = private_key_end(line, begin_end);
    if (end == std::string::npos) {
      // Inside a JSON string the block ends at the closing quote; in plain text it runs on.
      size_t quote = line.find('"', begin_end);
      if (quote == std::string::npos) {
        line.replace(at, std::string::npos, repl);
        in_private_key_ = true;
        return true;
      }
      end = quote;
    }
    line.replace(at, end - at, repl);
    at += repl.size();
  }
  return changed;
}

// First letters of the token shapes match_token knows, as a table: the scan tests every byte.
constexpr std::array<bool, 256> kTokenStart = [] {
  std::array<bool, 256> t{};
  for (unsigned char c : std::string_view("ghAxsBb")) t[c] = true;
  return t;
}();

bool Redactor::redact_tokens(std::string& line, RedactionCounts& counts) {
  std::string_view s = line;
  std::string out;
  size_t copied = 0;
  bool changed = false;
  for (size_t i = 0; i < s.size();) {
    char c = s[i];
    Match m;
    bool found = false;
    if (c == ':') {
      found = match_url_credentials(s, i, m);
    } else if (c == '=') {
      found = match_assignment(s, i, m);
    } else if (kTokenStart[static_cast<unsigned char>(c)] && (i == 0 || !is_word(s[i - 1]))) {
      found = match_token(s, i, m);
    }
    if (!found) {
      ++i;
      continue;
    }
    if (!changed) out.reserve(s.size());
    changed = true;
    counts.add(m.kind);
    out.append(s.substr(copied, m.begin - copied));
    out += marker(m.kind);
    copied = m.end;
    i = m.end;
  }
  if (!changed) return false;
  out.append(s.substr(copied));
  line.swap(out);
  return true;
}

bool Redactor::redact_paths(std::string& line, RedactionCounts& counts) {
  bool changed = false;
  const std::string& home = options_.home;
  if (!home.empty()) {
    for (size_t at = line.find(home); at != std::string::npos; at = line.find(home, at)) {
      size_t after = at + home.size();
      bool bounded_before = at == 0 || !(is_path_char(line[at - 1]) || line[at - 1] == '/');
      bool bounded_after = after == line.size() || !is_path_char(line[after]);
      if (bounded_before && bounded_after) {
        line.replace(at, home.size(), "~");
        counts.add(SecretKind::kHomeDirectory);
        changed = true;
        at += 1;
      } else {
        at += 1;
      }
    }
  }
  const std::string& user = options_.user;
  if (!user.empty()) {
    std::string component = "/" + user;
    for (size_t at = line.find(component); at != std::string::npos;
         at = line.find(component, at + 1)) {
      size_t after = at + component.size();
      if (after < line.size() && is_path_char(line[after])) continue;
      line.replace(at + 1, user.size(), "<user>");
      counts.add(SecretKind::kUserName);
      changed = true;
    }
  }
  return changed;
}

bool Redactor::redact_line(std::string& line, RedactionCounts& counts) {
  bool changed = false;
  if (in_private_key_ || line.find(kBegin) != std::string::npos)
    changed |= redact_private_key(line, counts);
  changed |= redact_tokens(line, counts);
  if (options_.redact_paths) changed |= redact_paths(line, counts);
  return changed;
}

bool Redactor::redact_text(std::string& text, RedactionCounts& counts) {
  if (text.find('\n') == std::string::npos) {
    bool changed = redact_line(text, counts);
    end_block();
    return changed;
  }
  std::string out, line;
  out.reserve(text.size());
  bool changed = false;
  size_t start = 0;
  while (true) {
    size_t nl = text.find('\n', start);
    line.assign(text, start, nl == std::string::npos ? std::string::npos : nl - start);
    changed |= redact_line(line, counts);
    out += line;
    if (nl == std::string::npos) break;
    out += '\n';
    start = nl + 1;
  }
  end_block();
  if (changed) text.swap(out);
  return changed;
}

}  // namespace tlscope::exporters::rage
