// Cutting per-process and per-occurrence values out of finding messages (finding_facts.hpp).
// A hand-written scanner rather than std::regex: it runs over every finding of a large log.
#include "tlscope/views/finding_facts.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace tlscope::views {

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_word(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool is_hex(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

size_t digits_from(std::string_view s, size_t i) {
  while (i < s.size() && is_digit(s[i])) ++i;
  return i;
}

// Where a path token ends: paths in guard and break text stop at quotes, brackets, commas,
// whitespace or a ':' line suffix.
size_t path_end(std::string_view s, size_t i) {
  while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i])) &&
         std::string_view("'\"(),[]:;").find(s[i]) == std::string_view::npos)
    ++i;
  return i;
}

// Object ids (CPython's id(), an address as a decimal) are long: shorter numbers are sizes,
// line numbers and counts, which are part of the fact.
constexpr size_t kObjectIdDigits = 8;
constexpr size_t kAddressHexDigits = 4;

// A slot starting at `i`, or false. `end` is one past it.
bool slot_at(std::string_view s, size_t i, SlotKind& kind, size_t& end) {
  const bool word_before = i > 0 && is_word(s[i - 1]);
  if (!word_before && s.substr(i, 2) == "0x") {
    size_t j = i + 2;
    while (j < s.size() && is_hex(s[j])) ++j;
    if (j - i - 2 >= kAddressHexDigits && (j == s.size() || !is_word(s[j])))
      return kind = SlotKind::address, end = j, true;
  }
  if (s[i] == '/' && (s.substr(i, 5) == "/tmp/" || s.substr(i, 9) == "/var/tmp/")) {
    return kind = SlotKind::temp_path, end = path_end(s, i), true;
  }
  if (!word_before && is_digit(s[i])) {
    size_t j = digits_from(s, i);
    if (j - i >= kObjectIdDigits && (j == s.size() || !is_word(s[j])))
      return kind = SlotKind::object_id, end = j, true;
    // A compile id: frame/count, with an optional attempt (0/1, 2/0/1).
    if (j < s.size() && s[j] == '/' && j + 1 < s.size() && is_digit(s[j + 1])) {
      size_t k = digits_from(s, j + 1);
      if (k + 1 < s.size() && s[k] == '/' && is_digit(s[k + 1])) k = digits_from(s, k + 1);
      if (k == s.size() || (!is_word(s[k]) && s[k] != '/'))
        return kind = SlotKind::compile_id, end = k, true;
    }
  }
  return false;
}

// The words before a value slot: a recurring guard's numbers ("expected 4, actual 6", a Python
// number baked in as "L['step'] == 3.0") and a pid.
bool value_after(std::string_view s, size_t i, SlotKind& kind, size_t& end) {
  static constexpr std::pair<std::string_view, SlotKind> kLeads[] = {
      {"expected ", SlotKind::value}, {"actual ", SlotKind::value}, {"pid ", SlotKind::pid},
      {"pid=", SlotKind::pid},        {"pid: ", SlotKind::pid},     {"== ", SlotKind::value}};
  for (const auto& [lead, k] : kLeads) {
    if (i < lead.size() || s.substr(i - lead.size(), lead.size()) != lead) continue;
    size_t j = i;
    if (j < s.size() && s[j] == '-') ++j;
    size_t d = digits_from(s, j);
    if (d == j) return false;
    if (d + 1 < s.size() && s[d] == '.' && is_digit(s[d + 1])) d = digits_from(s, d + 1);
    if (d < s.size() && is_word(s[d])) return false;
    return kind = k, end = d, true;
  }
  return false;
}

// Compile ids and numbers in their natural order, so a range reads first..last.
std::vector<int64_t> number_parts(const std::string& v) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < v.size();) {
    if (is_digit(v[i])) {
      size_t j = digits_from(v, i);
      out.push_back(std::stoll(v.substr(i, std::min<size_t>(j - i, 18))));
      i = j;
    } else {
      ++i;
    }
  }
  return out;
}

std::string summarise(SlotKind kind, const std::vector<std::string>& values) {
  std::vector<std::string> distinct;
  std::set<std::string> seen;
  for (const std::string& v : values)
    if (seen.insert(v).second) distinct.push_back(v);
  if (distinct.size() == 1) return distinct[0];
  switch (kind) {
    case SlotKind::object_id:
      return "<object id>";
    case SlotKind::address:
      return "<address>";
    case SlotKind::temp_path:
      return "<temp path>";
    case SlotKind::pid:
      return "<pid>";
    case SlotKind::compile_id:
    case SlotKind::value:
      break;
  }
  std::sort(distinct.begin(), distinct.end(), [](const std::string& a, const std::string& b) {
    auto x = number_parts(a), y = number_parts(b);
    return x != y ? x < y : a < b;
  });
  return distinct.front() + ".." + distinct.back();
}

}  // namespace

Fact fact_of(std::string_view message) {
  Fact f;
  f.key.reserve(message.size());
  for (size_t i = 0; i < message.size();) {
    SlotKind kind;
    size_t end = 0;
    if (value_after(message, i, kind, end) || slot_at(message, i, kind, end)) {
      f.key += '\x1f';
      f.key += static_cast<char>('0' + static_cast<int>(kind));
      f.kinds.push_back(kind);
      f.values.emplace_back(message.substr(i, end - i));
      i = end;
    } else if (message[i] == '\x1f') {
      f.key += "\x1f~";  // the marker byte in log text itself stays literal
      ++i;
    } else {
      f.key += message[i++];
    }
  }
  return f;
}

std::string merged_text(const std::vector<const Fact*>& facts) {
  if (facts.empty()) return "";
  const Fact& first = *facts.front();
  std::string out;
  size_t slot = 0;
  for (size_t i = 0; i < first.key.size(); ++i) {
    if (first.key[i] != '\x1f') {
      out += first.key[i];
      continue;
    }
    ++i;  // the slot's kind marker
    if (i >= first.key.size() || first.key[i] == '~' || slot >= first.kinds.size()) {
      out += '\x1f';
      continue;
    }
    std::vector<std::string> values;
    for (const Fact* f : facts) values.push_back(f->values[slot]);
    out += summarise(first.kinds[slot], values);
    ++slot;
  }
  return out;
}

}  // namespace tlscope::views
