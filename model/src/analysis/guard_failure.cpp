// Parsing guard-failure text into a structure. The messages come from dynamo's guard code (and the
// sample runtime, which writes the same forms); anything unrecognised keeps property "other" and
// its text, so nothing is lost.
#include <cctype>
#include <charconv>

#include "tlscope/model/analysis/recompiles.hpp"

namespace tlscope::model::analysis {

namespace {

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// A compile id as a recompile_reasons prefix: digits, '/', '_', '!' and '-' only.
bool looks_like_compile_id(std::string_view s) {
  if (s.empty()) return false;
  if (s.find('/') == std::string_view::npos && s.front() != '!') return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != '/' && c != '_' && c != '!' &&
        c != '-')
      return false;
  return true;
}

// Reads `expected X, actual Y` (or `Expected ... to be X, actual Y`) from a message tail.
void read_expected_actual(std::string_view tail, GuardFailure& g) {
  size_t e = tail.find("expected ");
  if (e == std::string_view::npos) e = tail.find("Expected ");
  if (e == std::string_view::npos) return;
  std::string_view rest = tail.substr(e + 9);
  size_t a = rest.find(", actual ");
  if (a == std::string_view::npos) a = rest.find(" actual ");
  if (a == std::string_view::npos) {
    g.expected = std::string(trim_spaces(rest));
    return;
  }
  std::string_view expected = trim_spaces(rest.substr(0, a));
  if (size_t be = expected.rfind(" to be "); be != std::string_view::npos)
    expected = expected.substr(be + 7);
  g.expected = std::string(expected);
  std::string_view actual = rest.substr(a + (rest[a] == ',' ? 9 : 8));
  g.actual = std::string(trim_spaces(actual));
}

std::string property_of(std::string_view what) {
  static constexpr std::string_view known[] = {"size", "stride", "dtype",
                                               "rank", "device", "requires_grad"};
  for (auto k : known)
    if (what.find(k) != std::string_view::npos) return std::string(k);
  if (what.find("dispatch key") != std::string_view::npos) return "dtype";
  return "other";
}

// The argument list of `fn(a, b)` starting at `open` (the '(' position): the first argument.
std::string_view first_argument(std::string_view s, size_t open) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == '(' || s[i] == '[') ++depth;
    if (s[i] == ')' || s[i] == ']') --depth;
    if ((s[i] == ',' && depth == 1) || depth == 0)
      return trim_spaces(s.substr(open + 1, i - open - 1));
  }
  return {};
}

}  // namespace

std::string input_name(std::string_view source) {
  source = trim_spaces(source);
  std::string out;
  size_t i = 0;
  // L['x'] / G['x'] style: the local or global dictionary access.
  if ((source.starts_with("L[") || source.starts_with("G[")) && source.size() > 4) {
    char quote = source[2];
    size_t close = source.find(quote, 3);
    if (close != std::string_view::npos && close + 1 < source.size() && source[close + 1] == ']') {
      out = std::string(source.substr(3, close - 3));
      i = close + 2;
    }
  }
  if (out.empty()) return std::string(source);
  out += source.substr(i);
  return out;
}

GuardFailure parse_guard_failure(std::string_view reason) {
  GuardFailure g;
  reason = trim_spaces(reason);
  if (size_t colon = reason.find(": ");
      colon != std::string_view::npos && looks_like_compile_id(reason.substr(0, colon))) {
    g.prev_compile_id = std::string(reason.substr(0, colon));
    reason = trim_spaces(reason.substr(colon + 2));
  }
  g.text = std::string(reason);
  std::string_view t = reason;

  // tensor 'x' size mismatch at index 0. expected 4, actual 8
  if (t.starts_with("tensor '")) {
    size_t close = t.find("' ", 8);
    if (close != std::string_view::npos) {
      g.input = input_name(t.substr(8, close - 8));
      std::string_view rest = t.substr(close + 2);
      size_t mismatch = rest.find("mismatch");
      std::string_view what = rest.substr(0, mismatch);
      g.property = property_of(what);
      if (size_t at = rest.find("at index "); at != std::string_view::npos) {
        int64_t index = 0;
        std::string_view n = rest.substr(at + 9);
        auto [p, ec] = std::from_chars(n.data(), n.data() + n.size(), index);
        if (ec == std::errc()) g.index = index;
        (void)p;
      }
      read_expected_actual(rest, g);
      return g;
    }
  }
  // ___check_obj_id(L['m'], 140...) / ___check_type_id(L['x'], 9...) / id(type(L['x'])) == ...
  for (auto [fn, property] :
       {std::pair{"___check_obj_id(", "identity"}, std::pair{"check_obj_id(", "identity"},
        std::pair{"___check_type_id(", "type"}, std::pair{"check_type_id(", "type"}}) {
    if (size_t at = t.find(fn); at != std::string_view::npos) {
      size_t open = at + std::string_view(fn).size() - 1;
      g.input = input_name(first_argument(t, open));
      g.property = property;
      std::string_view args = t.substr(open + 1);
      if (size_t comma = args.rfind(','); comma != std::string_view::npos) {
        std::string_view v = trim_spaces(args.substr(comma + 1));
        if (!v.empty() && v.back() == ')') v.remove_suffix(1);
        g.expected = std::string(trim_spaces(v));
      }
      return g;
    }
  }
  // len(L['xs']) == 3
  if (t.starts_with("len(")) {
    g.input = input_name(first_argument(t, 3));
    g.property = "length";
    if (size_t eq = t.find("=="); eq != std::string_view::npos)
      g.expected = std::string(trim_spaces(t.substr(eq + 2)));
    return g;
  }
  // L['n'] == 3  (a specialised scalar); also "value of 'n' changed. expected 3, actual 4"
  if (size_t eq = t.find(" == ");
      eq != std::string_view::npos && t.find_first_of("()") == std::string_view::npos) {
    g.input = input_name(t.substr(0, eq));
    g.property = "value";
    std::string_view v = trim_spaces(t.substr(eq + 4));
    if (size_t hash = v.find("  #"); hash != std::string_view::npos)
      v = trim_spaces(v.substr(0, hash));
    g.expected = std::string(v);
    return g;
  }
  if (t.find("value") != std::string_view::npos && t.find("expected") != std::string_view::npos) {
    size_t q1 = t.find('\'');
    size_t q2 = q1 == std::string_view::npos ? q1 : t.find('\'', q1 + 1);
    if (q2 != std::string_view::npos) g.input = input_name(t.substr(q1 + 1, q2 - q1 - 1));
    g.property = "value";
    read_expected_actual(t, g);
    return g;
  }
  // Symbolic-shape guards: Eq(s0, 4), Ne(L['x'].size()[0], 1), s0 <= 8 ...
  if (t.starts_with("Eq(") || t.starts_with("Ne(") || t.find(".size()") != std::string_view::npos ||
      t.find("<=") != std::string_view::npos || t.find(">=") != std::string_view::npos) {
    g.property = "shape";
    if (size_t l = t.find("L['"); l != std::string_view::npos) {
      size_t close = t.find("']", l);
      if (close != std::string_view::npos) g.input = input_name(t.substr(l, close + 2 - l));
    }
    return g;
  }
  return g;
}

}  // namespace tlscope::model::analysis
