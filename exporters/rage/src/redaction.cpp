// One left-to-right pass per line: each rule (redaction_rules.hpp) starts at a distinctive byte,
// so a byte table says which matchers to try where, without regular expressions. A line with
// JSON escapes (ghp\u005f..., https:\/\/...) is scanned decoded and the matches are mapped back,
// so an escaped token is found where it is written.
#include "tlscope/exporters/rage/redaction.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include "redaction_rules.hpp"
#include "tlscope/exporters/percent_encoding.hpp"

namespace tlscope::exporters::rage {
namespace {

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
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

template <typename Pred>
size_t run_end(std::string_view s, size_t from, Pred pred) {
  while (from < s.size() && pred(s[from])) ++from;
  return from;
}

std::string marker(SecretKind kind, MarkerStyle style) {
  if (style == MarkerStyle::kName) return "redacted-" + std::string(to_string(kind));
  return "<redacted:" + std::string(to_string(kind)) + ">";
}

constexpr SecretKindInfo kKindInfo[] = {
#define TLSCOPE_SECRET_KIND_INFO(id, name, replaced, what) {name, replaced, what},
    TLSCOPE_SECRET_KINDS(TLSCOPE_SECRET_KIND_INFO)
#undef TLSCOPE_SECRET_KIND_INFO
};
static_assert(std::size(kKindInfo) == static_cast<size_t>(SecretKind::kCount));

// For each byte, the rules (bit i = redaction_rules()[i]) to try there.
const std::array<uint32_t, 256>& rule_table() {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    auto rules = redaction_rules();
    for (size_t i = 0; i < rules.size(); ++i)
      for (unsigned char c : rules[i].triggers) t[c] |= 1u << i;
    return t;
  }();
  return table;
}

// The printable ASCII byte a URL escape (%XX) at `i` stands for, or -1.
int url_escape_at(std::string_view line, size_t i) {
  if (line[i] != '%' || i + 2 >= line.size()) return -1;
  int a = hex_digit_value(line[i + 1]), b = hex_digit_value(line[i + 2]);
  if (a < 0 || b < 0) return -1;
  int v = a * 16 + b;
  return v >= 0x20 && v < 0x7f ? v : -1;
}

// `line` with JSON's \uXXXX (ASCII) and \/ escapes and URL escapes (%5F, %3D) decoded; from[k]
// is where decoded byte k starts in `line` (from[size] == line.size()). False when the line has
// no such escape.
bool decode_json_escapes(std::string_view line, std::string& text, std::vector<size_t>& from) {
  auto hex = hex_digit_value;
  size_t first = line.find('\\');
  bool any = false;
  for (size_t i = first; i != std::string_view::npos && i + 1 < line.size();
       i = line.find('\\', i + 2)) {
    if (line[i + 1] == '/' || line[i + 1] == 'u') {
      any = true;
      break;
    }
  }
  for (size_t i = line.find('%'); !any && i != std::string_view::npos; i = line.find('%', i + 1))
    any = url_escape_at(line, i) >= 0;
  if (!any) return false;
  text.clear();
  from.clear();
  for (size_t i = 0; i < line.size();) {
    from.push_back(i);
    if (int v = url_escape_at(line, i); v >= 0) {
      text += static_cast<char>(v);
      i += 3;
      continue;
    }
    if (line[i] == '\\' && i + 1 < line.size()) {
      if (line[i + 1] == '/') {
        text += '/';
        i += 2;
        continue;
      }
      if (line[i + 1] == 'u' && i + 5 < line.size()) {
        int v = 0;
        bool ok = true;
        for (size_t k = i + 2; k < i + 6; ++k) {
          int h = hex(line[k]);
          ok &= h >= 0;
          v = v * 16 + std::max(h, 0);
        }
        if (ok && v >= 0x20 && v < 0x7f) {
          text += static_cast<char>(v);
          i += 6;
          continue;
        }
      }
      // Any other escape stays as written (two bytes), so \\u005f is not a \u escape.
      text += line[i];
      from.push_back(i + 1);
      text += line[i + 1];
      i += 2;
      continue;
    }
    text += line[i];
    ++i;
  }
  from.push_back(line.size());
  return true;
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

}  // namespace

const SecretKindInfo& info(SecretKind kind) {
  static const SecretKindInfo kUnknown{"unknown", "", ""};
  size_t k = static_cast<size_t>(kind);
  return k < std::size(kKindInfo) ? kKindInfo[k] : kUnknown;
}

std::string_view to_string(SecretKind kind) {
  return info(kind).name;
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
    std::string repl = marker(SecretKind::kPrivateKey, MarkerStyle::kText);
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

bool Redactor::redact_tokens(std::string& line, RedactionCounts& counts, size_t name_until) {
  // Scan the decoded text when the line has JSON escapes; matches map back through `from`.
  std::string decoded;
  std::vector<size_t> from;
  bool mapped = decode_json_escapes(line, decoded, from);
  std::string_view s = mapped ? std::string_view(decoded) : std::string_view(line);
  auto original = [&](size_t k) { return mapped ? from[k] : k; };

  std::vector<SecretMatch> found;
  size_t i = 0;
  if (pending_) {
    SecretMatch m;
    SecretKind kind = *pending_;
    pending_.reset();
    if (match_continued_value(s, kind, m)) {
      found.push_back(m);
      if (m.open) pending_ = m.kind;
      i = m.end;
    }
  }
  const uint32_t* table = rule_table().data();
  const RedactionRule* rules = redaction_rules().data();
  const char* p = s.data();
  const size_t n = s.size();
  while (i < n) {
    // Most bytes trigger nothing: skip them in a tight loop.
    while (i < n && table[static_cast<unsigned char>(p[i])] == 0) ++i;
    if (i == n) break;
    uint32_t candidates = table[static_cast<unsigned char>(p[i])];
    bool after_alnum = i > 0 && is_alnum(p[i - 1]);
    bool after_word = after_alnum || (i > 0 && p[i - 1] == '_');
    bool matched = false;
    for (; candidates; candidates &= candidates - 1) {
      const RedactionRule& rule = rules[__builtin_ctz(candidates)];
      if (rule.start == RuleStart::kWord && after_word) continue;
      if (rule.start == RuleStart::kToken && after_alnum) continue;
      SecretMatch m;
      if (!rule.match(s, i, m)) continue;
      if (m.continues) {
        pending_ = m.kind;
        break;
      }
      found.push_back(m);
      if (m.open) pending_ = m.kind;
      i = m.end;
      matched = true;
      break;
    }
    if (!matched) ++i;
  }
  if (found.empty()) return false;
  std::string out;
  out.reserve(line.size());
  size_t copied = 0;
  for (const SecretMatch& m : found) {
    size_t begin = original(m.begin), end = original(m.end);
    counts.add(m.kind);
    out.append(line, copied, begin - copied);
    out += marker(m.kind, begin < name_until ? MarkerStyle::kName : MarkerStyle::kText);
    copied = end;
  }
  out.append(line, copied, std::string::npos);
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
  changed |= redact_tokens(line, counts, 0);
  if (options_.redact_paths) changed |= redact_paths(line, counts);
  return changed;
}

bool Redactor::redact_record(std::string& line, size_t header_end, RedactionCounts& counts) {
  // A record line starts a record: nothing from the previous one continues into it, and what
  // its envelope leaves open ends with it (the caller calls end_block() after).
  end_block();
  bool changed = false;
  // A key block on a record line itself (an envelope's JSON string with escaped newlines, or a
  // line that is not a record at all): the same rule as on payload lines.
  if (line.find(kBegin) != std::string::npos) {
    changed |= redact_private_key(line, counts);
    if (in_private_key_) end_block();  // a record line never opens a block for the next one
  }
  changed |= redact_tokens(line, counts, header_end);
  if (options_.redact_paths) changed |= redact_paths(line, counts);
  return changed;
}

bool Redactor::redact_header(std::string& header, RedactionCounts& counts) {
  std::optional<SecretKind> pending = pending_;  // a header neither ends nor continues a value
  pending_.reset();
  bool changed = redact_tokens(header, counts, header.size());
  if (options_.redact_paths) changed |= redact_paths(header, counts);
  pending_ = pending;
  return changed;
}

bool Redactor::redact_file_name(std::string& name, RedactionCounts& counts) {
  std::optional<SecretKind> pending = pending_;
  pending_.reset();
  bool changed = redact_tokens(name, counts, name.size());
  pending_ = pending;
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
