// Kernel and node lines in logged code and graphs (see provenance_lines.hpp). The code is
// Inductor's own output, but it arrives through a log, so every scan is bounded and tolerates
// text that is not code at all.
#include "provenance_lines.hpp"

#include <cctype>

namespace tlscope::model::analysis {

namespace {

// A definition block longer than this is not followed to its end (the start line is kept).
constexpr size_t kMaxBlockLines = 20000;

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Positions of `name` in `line` as a whole identifier (a dotted name counts as one). AOT's CUDA
// wrapper launches kernel K through a function call_K, so that prefix is allowed.
std::vector<size_t> occurrences(std::string_view line, std::string_view name) {
  std::vector<size_t> out;
  if (name.empty()) return out;
  for (size_t pos = line.find(name); pos != std::string_view::npos;
       pos = line.find(name, pos + 1)) {
    size_t end = pos + name.size();
    bool left_ok = pos == 0 || (!ident_char(line[pos - 1]) && line[pos - 1] != '.');
    if (!left_ok && pos >= 5 && line.substr(pos - 5, 5) == "call_" &&
        (pos == 5 || !ident_char(line[pos - 6])))
      left_ok = true;
    bool right_ok = end == line.size() || !ident_char(line[end]);
    if (left_ok && right_ok) out.push_back(pos);
  }
  return out;
}

bool is_comment(std::string_view trimmed) {
  return trimmed.starts_with("#") || trimmed.starts_with("//");
}

// "name:123" with the digits not followed by another digit.
bool mentions_handle(std::string_view line, size_t end, int64_t handle) {
  std::string digits = std::to_string(handle);
  if (end >= line.size() || line[end] != ':') return false;
  std::string_view rest = line.substr(end + 1);
  return rest.starts_with(digits) &&
         (rest.size() == digits.size() ||
          !std::isdigit(static_cast<unsigned char>(rest[digits.size()])));
}

bool any_handle(std::string_view line, size_t end) {
  return end + 1 < line.size() && line[end] == ':' &&
         std::isdigit(static_cast<unsigned char>(line[end + 1]));
}

// The last line of a Python definition `K = async_compile.x(..., '''` : the line that closes the
// triple-quoted source it opens.
int python_block_end(const std::vector<std::string_view>& lines, size_t first) {
  std::string_view l = lines[first];
  for (std::string_view q : {std::string_view("'''"), std::string_view("\"\"\"")}) {
    size_t open = l.find(q);
    if (open == std::string_view::npos) continue;
    if (l.find(q, open + 3) != std::string_view::npos) return static_cast<int>(first + 1);
    for (size_t i = first + 1; i < lines.size() && i - first < kMaxBlockLines; ++i)
      if (lines[i].find(q) != std::string_view::npos) return static_cast<int>(i + 1);
    return static_cast<int>(first + 1);
  }
  // A definition on one line, or one whose arguments continue up to the closing parenthesis.
  return static_cast<int>(first + 1);
}

// A C++ function starting at `first`: a declaration when ';' comes before '{', else the
// definition up to its matching '}'.
KernelLine cpp_function(const std::vector<std::string_view>& lines, size_t first, size_t from) {
  KernelLine k{static_cast<int>(first + 1), static_cast<int>(first + 1), "definition"};
  int depth = 0;
  bool opened = false;
  for (size_t i = first; i < lines.size() && i - first < kMaxBlockLines; ++i) {
    std::string_view l = i == first ? lines[i].substr(from) : lines[i];
    for (char c : l) {
      if (c == ';' && !opened) {
        k.end_line = static_cast<int>(i + 1);
        k.role = "declaration";
        return k;
      }
      if (c == '{') {
        ++depth;
        opened = true;
      } else if (c == '}' && opened && --depth == 0) {
        k.end_line = static_cast<int>(i + 1);
        return k;
      }
    }
  }
  return k;  // unterminated: the first line only
}

}  // namespace

CodeText::CodeText(std::string_view code) : lines_(split_lines(code)) {
  for (size_t i = 0; i < lines_.size(); ++i) {
    std::string_view l = lines_[i];
    for (size_t p = 0; p < l.size();) {
      if (!ident_char(l[p])) {
        ++p;
        continue;
      }
      size_t e = p;
      while (e < l.size() && ident_char(l[e])) ++e;
      std::string_view token = l.substr(p, e - p);
      for (std::string_view t : {token, token.starts_with("call_") ? token.substr(5) : ""}) {
        if (t.empty()) continue;
        std::vector<size_t>& at = token_lines_[t];
        if (at.empty() || at.back() != i) at.push_back(i);
      }
      p = e;
    }
  }
}

std::vector<size_t> CodeText::candidates(std::string_view kernel) const {
  std::string_view head = kernel.substr(0, kernel.find('.'));
  auto it = token_lines_.find(head);
  return it == token_lines_.end() ? std::vector<size_t>{} : it->second;
}

std::vector<KernelLine> find_kernel_lines(const CodeText& code, std::string_view kernel,
                                          std::optional<int64_t> debug_handle) {
  const std::vector<std::string_view>& lines = code.lines();
  std::vector<KernelLine> found;
  bool code_has_handles = false;
  size_t skip_until = 0;  // inside a definition block already recorded
  for (size_t i : code.candidates(kernel)) {
    if (i < skip_until) continue;
    std::string_view line = lines[i];
    std::vector<size_t> at = occurrences(line, kernel);
    if (at.empty()) continue;
    std::string_view t = trim(line);
    if (is_comment(t)) {
      for (size_t pos : at) {
        size_t end = pos + kernel.size();
        if (any_handle(line, end)) code_has_handles = true;
        if (debug_handle && mentions_handle(line, end, *debug_handle)) {
          found.push_back({static_cast<int>(i + 1), static_cast<int>(i + 1), "handle"});
          break;
        }
      }
      continue;
    }
    for (size_t pos : at) {
      size_t end = pos + kernel.size();
      std::string_view before =
          trim(line.substr(0, pos >= 5 && line.substr(pos - 5, 5) == "call_" ? pos - 5 : pos));
      std::string_view after = line.substr(end);
      std::string_view after_t = trim(after);
      if (before.empty() && after_t.starts_with("=") && !after_t.starts_with("==")) {
        // `K = async_compile.cpp_pybinding(..., '''` (or any assignment defining the kernel).
        KernelLine k{static_cast<int>(i + 1), python_block_end(lines, i), "definition"};
        skip_until = static_cast<size_t>(k.end_line);
        found.push_back(k);
        break;
      }
      bool word_before = !before.empty() && ident_char(before.back());
      if (word_before) {
        size_t w = before.size();
        while (w > 0 && ident_char(before[w - 1])) --w;
        std::string_view word = before.substr(w);
        if (word == "return" || word == "await" || word == "yield") word_before = false;
      }
      if (word_before && after_t.starts_with("(")) {
        if (before.size() >= 3 && before.substr(before.size() - 3) == "def") {
          found.push_back({static_cast<int>(i + 1), static_cast<int>(i + 1), "definition"});
        } else {
          // `extern "C" void K(` or `static inline void call_K(`: a C++ function.
          KernelLine k = cpp_function(lines, i, end);
          skip_until = static_cast<size_t>(k.end_line);
          found.push_back(k);
        }
        break;
      }
      if (after_t.starts_with(".run(") || after_t.starts_with("(")) {
        found.push_back({static_cast<int>(i + 1), static_cast<int>(i + 1), "call"});
        break;
      }
    }
  }
  if (!debug_handle || !code_has_handles) {
    std::vector<KernelLine> out;
    for (KernelLine& k : found)
      if (k.role != "handle") out.push_back(std::move(k));
    return out;
  }
  // With handles in the code, a kernel key owns the call that follows its own handle comment.
  std::vector<KernelLine> out;
  for (size_t i = 0; i < found.size(); ++i) {
    const KernelLine& k = found[i];
    if (k.role == "definition" || k.role == "declaration" || k.role == "handle") {
      out.push_back(k);
      if (k.role == "handle" && i + 1 < found.size() && found[i + 1].role == "call" &&
          found[i + 1].line - k.line <= 5)
        out.push_back(found[i + 1]);
    }
  }
  return out;
}

std::vector<NodeLine> find_node_lines(std::string_view graph) {
  std::vector<std::string_view> lines = split_lines(graph);
  std::vector<NodeLine> out;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = trim(lines[i]);
    int line = static_cast<int>(i + 1);
    if (t.starts_with("def forward(")) {
      // Parameters: split on commas outside quotes and brackets; the name leads each piece.
      std::string_view params = t.substr(12);
      char quote = 0;
      int depth = 0;
      size_t piece = 0;
      for (size_t j = 0; j <= params.size(); ++j) {
        char c = j < params.size() ? params[j] : ',';
        if (quote) {
          if (c == quote) quote = 0;
          continue;
        }
        if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '[' || c == '(') {
          ++depth;
        } else if ((c == ']' || c == ')') && depth > 0) {
          --depth;
        } else if ((c == ',' || (c == ')' && depth == 0)) && depth == 0) {
          std::string_view p = trim(params.substr(piece, j - piece));
          size_t n = 0;
          while (n < p.size() && ident_char(p[n])) ++n;
          if (n > 0 && p.substr(0, n) != "self" && !std::isdigit(static_cast<unsigned char>(p[0])))
            out.push_back({std::string(p.substr(0, n)), line});
          piece = j + 1;
          if (c == ')') break;
        }
      }
      continue;
    }
    if (t.empty() || !(std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_')) continue;
    size_t n = 0;
    while (n < t.size() && ident_char(t[n])) ++n;
    std::string_view name = t.substr(0, n);
    if (name == "class" || name == "def" || name == "return" || name == "import" || name == "from")
      continue;
    std::string_view rest = trim(t.substr(n));
    bool annotated = rest.starts_with(":");
    bool assigned = rest.starts_with("=") && !rest.starts_with("==");
    if (annotated || assigned) out.push_back({std::string(name), line});
  }
  return out;
}

std::optional<int64_t> printed_graph_id(std::string_view graph) {
  constexpr std::string_view kTag = "# graph id: ";
  size_t at = graph.rfind(kTag);
  if (at == std::string_view::npos) return std::nullopt;
  int64_t id = 0;
  size_t digits = 0;
  for (size_t i = at + kTag.size(); i < graph.size() && digits < 18; ++i, ++digits) {
    if (!std::isdigit(static_cast<unsigned char>(graph[i]))) break;
    id = id * 10 + (graph[i] - '0');
  }
  if (digits == 0) return std::nullopt;
  return id;
}

std::pair<std::string, std::optional<int64_t>> split_kernel_key(std::string_view key) {
  size_t colon = key.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 >= key.size() ||
      key.size() - colon - 1 > 18)
    return {std::string(key), std::nullopt};
  int64_t handle = 0;
  for (size_t i = colon + 1; i < key.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(key[i]))) return {std::string(key), std::nullopt};
    handle = handle * 10 + (key[i] - '0');
  }
  return {std::string(key.substr(0, colon)), handle};
}

}  // namespace tlscope::model::analysis
