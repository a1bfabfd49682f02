// Reading print_readable's node lines (fx_graph_text.hpp). A node line is
//   name: "f32[4, 6][6, 1]cpu" = torch.sin(l_x_);  l_x_ = None
// (the annotation is absent on older graphs and on aliases), placeholders are the arguments of
// `def forward(self, L_x_: "f32[4, 6][6, 1]cpu", ...)`, and `return (...)` is the output.
#include "tlscope/views/fx_graph_text.hpp"

#include <cctype>
#include <set>

namespace tlscope::views {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front()))) return false;
  for (char c : s)
    if (!is_name_char(c)) return false;
  return true;
}

// The annotation's tensor: dtype before the first '[', the sizes inside it. "Sym(s0)", tuples
// and other annotations leave the node without a tensor.
void read_annotation(std::string_view a, FxNode& n) {
  const size_t open = a.find('[');
  if (open == std::string_view::npos || open == 0) return;
  const std::string_view dtype = a.substr(0, open);
  if (!is_identifier(dtype)) return;
  const size_t close = a.find(']', open);
  if (close == std::string_view::npos) return;
  n.dtype = std::string(dtype);
  n.tensor = true;
  std::string_view sizes = a.substr(open + 1, close - open - 1);
  while (!sizes.empty()) {
    const size_t comma = sizes.find(',');
    const std::string_view dim = trim(sizes.substr(0, comma));
    if (!dim.empty()) n.dims.emplace_back(dim);
    if (comma == std::string_view::npos) break;
    sizes.remove_prefix(comma + 1);
  }
}

// Splits a forward() argument list at top-level commas (annotations are quoted and hold commas).
std::vector<std::string_view> split_arguments(std::string_view args) {
  std::vector<std::string_view> out;
  int depth = 0;
  bool quoted = false;
  size_t start = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const char c = args[i];
    if (c == '"') quoted = !quoted;
    if (quoted) continue;
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(args.substr(start, i - start)));
      start = i + 1;
    }
  }
  out.push_back(trim(args.substr(start)));
  return out;
}

void read_forward(std::string_view line, std::vector<FxNode>& nodes) {
  const size_t open = line.find('('), close = line.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return;
  for (std::string_view arg : split_arguments(line.substr(open + 1, close - open - 1))) {
    const size_t colon = arg.find(':');
    std::string_view name = trim(arg.substr(0, colon));
    if (const size_t eq = name.find('='); eq != std::string_view::npos)
      name = trim(name.substr(0, eq));
    if (name.starts_with("*")) name.remove_prefix(name.find_first_not_of('*'));
    if (!is_identifier(name) || name == "self") continue;
    FxNode n;
    n.name = std::string(name);
    n.op = "placeholder";
    if (colon != std::string_view::npos) {
      std::string_view a = trim(arg.substr(colon + 1));
      if (a.size() >= 2 && a.front() == '"') read_annotation(a.substr(1, a.size() - 2), n);
    }
    nodes.push_back(std::move(n));
  }
}

// The callee of `rhs` ("torch.sin(x)" -> "torch.sin"); "" when rhs is not a call.
std::string_view callee(std::string_view rhs) {
  size_t i = 0;
  while (i < rhs.size() && (is_name_char(rhs[i]) || rhs[i] == '.')) ++i;
  if (i == 0 || i >= rhs.size() || rhs[i] != '(') return {};
  return rhs.substr(0, i);
}

}  // namespace

std::vector<FxNode> parse_fx_graph(std::string_view text) {
  std::vector<FxNode> nodes;
  std::set<std::string, std::less<>> names;  // of this graph's nodes, to tell method calls
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = trim(text.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty() || line.front() == '#' || line.starts_with("class ")) continue;
    if (line.starts_with("def forward(")) {
      const size_t before = nodes.size();
      read_forward(line, nodes);
      for (size_t i = before; i < nodes.size(); ++i) names.insert(nodes[i].name);
      continue;
    }
    if (line.starts_with("return")) {
      FxNode n;
      n.name = "output";
      n.op = "output";
      n.target = "output";
      nodes.push_back(std::move(n));
      continue;
    }
    // name[: "annotation"] = rhs[;  dead = None ...]
    size_t i = 0;
    while (i < line.size() && is_name_char(line[i])) ++i;
    const std::string_view name = line.substr(0, i);
    if (!is_identifier(name)) continue;
    std::string_view rest = trim(line.substr(i));
    FxNode n;
    n.name = std::string(name);
    if (rest.starts_with(":")) {
      rest = trim(rest.substr(1));
      if (!rest.starts_with("\"")) continue;
      const size_t close = rest.find('"', 1);
      if (close == std::string_view::npos) continue;
      read_annotation(rest.substr(1, close - 1), n);
      rest = trim(rest.substr(close + 1));
    }
    if (!rest.starts_with("=") || rest.starts_with("==")) continue;
    std::string_view rhs = trim(rest.substr(1));
    if (const size_t semi = rhs.find(";  "); semi != std::string_view::npos)
      rhs = trim(rhs.substr(0, semi));
    const std::string_view call = callee(rhs);
    if (call.empty()) {
      if (rhs.starts_with("self.") && is_identifier(rhs.substr(5))) {
        n.op = "get_attr";
        n.target = std::string(rhs);
      } else if (is_identifier(rhs)) {
        names.insert(n.name);  // an alias of a placeholder (l_x_ = L_x_): not a node of its own
        continue;
      } else {
        continue;
      }
    } else if (call.starts_with("self.")) {
      n.op = "call_module";
      n.target = std::string(call);
    } else if (const size_t dot = call.find('.');
               dot != std::string_view::npos && names.count(call.substr(0, dot)) &&
               call.find('.', dot + 1) == std::string_view::npos) {
      n.op = "call_method";
      n.target = std::string(call.substr(dot));
    } else {
      n.op = "call_function";
      n.target = std::string(call);
    }
    names.insert(n.name);
    nodes.push_back(std::move(n));
  }
  return nodes;
}

std::string tensor_text(const FxNode& n) {
  if (!n.tensor) return "";
  std::string out = n.dtype + "[";
  for (size_t i = 0; i < n.dims.size(); ++i) out += (i ? ", " : "") + n.dims[i];
  return out + "]";
}

bool has_symbolic_dim(const FxNode& n) {
  for (const std::string& d : n.dims) {
    const size_t digits = d.find_first_not_of("0123456789", d.starts_with("-") ? 1 : 0);
    if (digits != std::string::npos) return true;
  }
  return false;
}

}  // namespace tlscope::views
