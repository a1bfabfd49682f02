// Cutting per-process and per-occurrence values out of the log texts of findings
// (finding_facts.hpp). A hand-written scanner rather than std::regex: it runs over every finding of
// a large log.
#include "tlscope/views/finding_facts.hpp"

#include <algorithm>
#include <cctype>

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

// A file name made by a program, not a person: "tmp..." or a run of six or more letters and
// digits mixed (a hash, mkstemp's suffix) before its extension.
bool looks_generated(std::string_view name) {
  const std::string_view stem = name.substr(0, name.find('.'));
  if (stem.substr(0, 3) == "tmp") return true;
  size_t run = 0;
  bool digit = false, letter = false;
  for (char c : stem) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      ++run;
      digit |= is_digit(c);
      letter |= std::isalpha(static_cast<unsigned char>(c)) != 0;
      if (run >= 6 && digit && letter) return true;
    } else {
      run = 0;
      digit = letter = false;
    }
  }
  return false;
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
    end = path_end(s, i);
    // The folders differ run to run; a file name a person wrote (model.py, a checkout under
    // /tmp) stays, so a frame keeps its file. Inductor's and Triton's caches name files by hash.
    const std::string_view path = s.substr(i, end - i);
    const size_t slash = path.rfind('/');
    const bool cache = path.find("/torchinductor_") != std::string_view::npos ||
                       path.find("triton") != std::string_view::npos;
    if (!cache && slash + 1 < path.size() && !looks_generated(path.substr(slash + 1)))
      end = i + slash + 1;
    return kind = SlotKind::temp_path, true;
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

// Compile ids and numbers in their natural order (0/2 before 0/10, 9 before 10), compared in
// place: this runs for every finding of a recurring guard.
bool natural_less(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      size_t ie = digits_from(a, i), je = digits_from(b, j);
      size_t is = i, js = j;  // leading zeros do not make a number bigger
      while (is + 1 < ie && a[is] == '0') ++is;
      while (js + 1 < je && b[js] == '0') ++js;
      if (ie - is != je - js) return ie - is < je - js;
      int c = a.substr(is, ie - is).compare(b.substr(js, je - js));
      if (c != 0) return c < 0;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  if (a.size() - i != b.size() - j) return a.size() - i < b.size() - j;
  return a < b;
}

}  // namespace

Fact fact_of(std::string_view text) {
  Fact f;
  append_fact(f, text, true);
  return f;
}

void append_fact(Fact& f, std::string_view message, bool scan) {
  f.key.reserve(f.key.size() + message.size());
  for (size_t i = 0; i < message.size();) {
    SlotKind kind;
    size_t end = 0;
    // Every slot starts with a digit, '-', or '/' (a temp path): other bytes are text.
    const char c = message[i];
    const bool may_start = scan && (is_digit(c) || c == '-' || c == '/');
    if (may_start && (value_after(message, i, kind, end) || slot_at(message, i, kind, end))) {
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
}

void FactMerge::add(const Fact& fact) {
  if (empty_) {
    key_ = fact.key;
    kinds_ = fact.kinds;
    for (const std::string& v : fact.values) slots_.push_back({v, v, v, false});
    empty_ = false;
    return;
  }
  for (size_t i = 0; i < slots_.size() && i < fact.values.size(); ++i) {
    Slot& slot = slots_[i];
    const std::string& v = fact.values[i];
    if (v == slot.first) continue;
    slot.varies = true;
    if (kinds_[i] != SlotKind::compile_id && kinds_[i] != SlotKind::value) continue;
    if (natural_less(v, slot.low)) slot.low = v;
    if (natural_less(slot.high, v)) slot.high = v;
  }
}

std::string FactMerge::text() const {
  std::string out;
  size_t slot = 0;
  for (size_t i = 0; i < key_.size(); ++i) {
    if (key_[i] != '\x1f') {
      out += key_[i];
      continue;
    }
    ++i;  // the slot's kind marker
    if (i >= key_.size() || key_[i] == '~' || slot >= slots_.size()) {
      out += '\x1f';
      continue;
    }
    const Slot& s = slots_[slot];
    const SlotKind kind = s.varies ? kinds_[slot] : SlotKind::value;
    // A compile id that varies reads as its range ("0/1..0/3"), like a value.
    if (kind == SlotKind::compile_id || kind == SlotKind::value)
      out += s.varies ? s.low + ".." + s.high : s.first;
    else
      out += slot_placeholder(kind);
    ++slot;
  }
  return out;
}

const char* slot_placeholder(SlotKind kind) {
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
      return "<compile id>";
    case SlotKind::value:
      break;
  }
  return "";
}

std::string merged_text(const std::vector<const Fact*>& facts) {
  FactMerge merge;
  for (const Fact* f : facts) merge.add(*f);
  return merge.text();
}

}  // namespace tlscope::views
