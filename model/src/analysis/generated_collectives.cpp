// Reading collective calls off generated wrapper code. Real Inductor output writes them as
//   torch.ops._c10d_functional.all_reduce_.default(buf0, 'sum', '0')
//   buf5 = torch.ops._c10d_functional.all_gather_into_tensor.default(buf0, 2, '0')
//   torch.ops._c10d_functional.wait_tensor.default(buf5)
// and mentions the same names in comments and assert messages, which are not calls.
#include "tlscope/model/analysis/generated_collectives.hpp"

#include <cctype>

namespace tlscope::model::analysis {

namespace {

// Calls are written through torch.ops; schedules and comments may name the op without it.
constexpr std::string_view kCallNamespaces[] = {"torch.ops._c10d_functional.",
                                                "torch.ops.c10d_functional."};
constexpr std::string_view kNamespaces[] = {"torch.ops._c10d_functional.",
                                            "torch.ops.c10d_functional.", "_c10d_functional.",
                                            "c10d_functional."};

bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// `buf3[0]` waits on what `buf3` holds.
std::string_view base_name(std::string_view arg) {
  arg = trim(arg);
  size_t n = 0;
  while (n < arg.size() && ident_char(arg[n])) ++n;
  return arg.substr(0, n);
}

// The position where code stops on this line: a '#' outside quotes starts a comment. Also
// reports, per position, whether it is inside a string literal.
size_t code_end(std::string_view line, std::vector<bool>& quoted) {
  quoted.assign(line.size(), false);
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote) {
      quoted[i] = true;
      if (c == '\\') {
        if (i + 1 < line.size()) quoted[++i] = true;
      } else if (c == quote) {
        quote = 0;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      quoted[i] = true;
    } else if (c == '#') {
      return i;
    }
  }
  return line.size();
}

// The top-level arguments of the call whose '(' is at `open`.
std::vector<std::string_view> call_args(std::string_view line, size_t open) {
  std::vector<std::string_view> args;
  int depth = 0;
  char quote = 0;
  size_t start = open + 1;
  for (size_t i = open; i < line.size(); ++i) {
    char c = line[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) {
        if (i > start || !args.empty()) args.push_back(trim(line.substr(start, i - start)));
        return args;
      }
    } else if (c == ',' && depth == 1) {
      args.push_back(trim(line.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (start < line.size()) args.push_back(trim(line.substr(start)));  // call cut short
  return args;
}

void scan_line(std::string_view line, int64_t line_no, std::vector<bool>& quoted,
               std::vector<GeneratedCollective>& out) {
  size_t end = code_end(line, quoted);
  for (std::string_view ns : kCallNamespaces) {
    size_t pos = 0;
    while ((pos = line.find(ns, pos)) != std::string_view::npos && pos < end) {
      size_t at = pos;
      pos += ns.size();
      if (quoted[at] || (at > 0 && (ident_char(line[at - 1]) || line[at - 1] == '.'))) continue;
      size_t op_end = pos;
      while (op_end < end && ident_char(line[op_end])) ++op_end;
      if (op_end == pos) continue;
      size_t open = op_end;
      if (open < end && line[open] == '.') {  // the overload
        ++open;
        while (open < end && ident_char(line[open])) ++open;
      }
      if (open >= end || line[open] != '(') continue;  // a name, not a call
      GeneratedCollective c;
      c.op = std::string(line.substr(pos, op_end - pos));
      c.line = line_no;
      std::vector<std::string_view> args = call_args(line.substr(0, end), open);
      std::string_view lhs = trim(line.substr(0, at));
      if (!is_wait_op(c.op)) {
        for (std::string_view a : args)
          if (a.substr(0, 4) == "out=") c.tensor = std::string(base_name(a.substr(4)));
        if (c.tensor.empty() && lhs.size() > 1 && lhs.back() == '=' && lhs[lhs.size() - 2] != '=')
          c.tensor = std::string(base_name(trim(lhs.substr(0, lhs.size() - 1))));
      }
      if (c.tensor.empty() && !args.empty()) c.tensor = std::string(base_name(args.front()));
      out.push_back(std::move(c));
      pos = open;
    }
  }
}

}  // namespace

std::string collective_op_name(std::string_view q) {
  q = trim(q);
  for (std::string_view ns : kNamespaces) {
    if (q.substr(0, ns.size()) == ns) {
      q.remove_prefix(ns.size());
      size_t dot = q.find('.');
      return std::string(dot == std::string_view::npos ? q : q.substr(0, dot));
    }
  }
  return std::string(q);
}

std::vector<GeneratedCollective> scan_generated_collectives(std::string_view code) {
  std::vector<GeneratedCollective> out;
  std::vector<bool> quoted;
  int64_t line_no = 0;
  size_t start = 0;
  while (start <= code.size()) {
    size_t nl = code.find('\n', start);
    std::string_view line =
        code.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    ++line_no;
    if (line.find("c10d_functional.") != std::string_view::npos)
      scan_line(line, line_no, quoted, out);
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  // A wait counts for the latest earlier collective on the same buffer still unwaited.
  for (size_t i = 0; i < out.size(); ++i) {
    if (!is_wait_op(out[i].op) || out[i].tensor.empty()) continue;
    for (size_t j = i; j-- > 0;) {
      if (!is_wait_op(out[j].op) && !out[j].waited && out[j].tensor == out[i].tensor) {
        out[j].waited = true;
        break;
      }
    }
  }
  return out;
}

}  // namespace tlscope::model::analysis
