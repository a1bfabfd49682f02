// Graph, guard and output-code differences of a compile pair (compare_compile_texts.hpp).
#include "compare_compile_texts.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "read_rows.hpp"
#include "tlscope/views/fx_graph_text.hpp"
#include "tlscope/views/guard_set.hpp"
#include "tlscope/views/output_code_kernels.hpp"
#include "tlscope/views/run_text.hpp"

namespace tlscope::views {

namespace {

// A recompile storm after an upgrade can change hundreds of nodes or guards of each compile: a
// comparison lists the first few of each kind per compile and says how many it left out.
constexpr size_t kMaxPerCompile = 12;

bool same_records(const std::vector<TextRecord>& a, const std::vector<TextRecord>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].md5 != b[i].md5 || a[i].md5.empty()) return false;
  return true;
}

std::string payload(const Database& db, int64_t id) {
  std::string text;
  Statement st = db.prepare("SELECT text FROM payloads WHERE id = ?");
  st.bind(1, id);
  if (st.step()) text = st.full_text(0);
  return text;
}

// One compile pair's differences before they get the pair's subject and rank, at most
// kMaxPerCompile of each kind, with how many there were.
class Capped {
 public:
  void add(DifferenceKind kind, const std::string& what, std::optional<std::string> a,
           std::optional<std::string> b, double weight = 0) {
    if (found_.counts[kind]++ >= kMaxPerCompile) return;
    found_.list.push_back({kind, what, std::move(a), std::move(b), weight});
  }
  TextFindings take() { return std::move(found_); }

 private:
  TextFindings found_;
};

std::vector<FxNode> graph_nodes(const Database& db, const std::vector<TextRecord>& records) {
  std::vector<FxNode> nodes;
  for (const TextRecord& r : records) {
    std::vector<FxNode> more = parse_fx_graph(payload(db, r.payload_id));
    nodes.insert(nodes.end(), std::make_move_iterator(more.begin()),
                 std::make_move_iterator(more.end()));
  }
  return nodes;
}

std::string node_key(const FxNode& n) {
  // A placeholder is the input it names; other nodes are what they compute. Object ids baked
  // into targets (PyTorch 2.14 prints a module's id(self)) go through comparable_text.
  return n.op + " " + comparable_text(n.op == "placeholder" ? n.name : n.target);
}

void compare_graphs(const TextSides& dbs, const CompileTexts& a, const CompileTexts& b,
                    Capped& out) {
  if (a.graphs.empty() || b.graphs.empty() || same_records(a.graphs, b.graphs)) return;
  const std::vector<FxNode> na = graph_nodes(dbs.db_a, a.graphs);
  const std::vector<FxNode> nb = graph_nodes(dbs.db_b, b.graphs);
  // Nodes by op and target, counted: what B computes more or less often.
  std::map<std::string, std::pair<int64_t, int64_t>> counts;
  std::vector<std::string> order;
  auto count = [&](const std::vector<FxNode>& nodes, bool in_b) {
    for (const FxNode& n : nodes) {
      if (n.op == "output") continue;
      auto [it, fresh] = counts.try_emplace(node_key(n), 0, 0);
      if (fresh) order.push_back(it->first);
      ++(in_b ? it->second.second : it->second.first);
    }
  };
  count(na, false);
  count(nb, true);
  for (const std::string& key : order) {
    const auto [ca, cb] = counts[key];
    if (ca == cb) continue;
    out.add(cb > ca ? DifferenceKind::graph_node_added : DifferenceKind::graph_node_removed, key,
            std::to_string(ca), std::to_string(cb));
  }
  // The same node (name, op and target) in both: its dtype and sizes.
  std::map<std::pair<std::string, std::string>, const FxNode*> by_name;
  for (const FxNode& n : na) by_name.emplace(std::pair{n.name, node_key(n)}, &n);
  for (const FxNode& n : nb) {
    auto it = by_name.find({n.name, node_key(n)});
    if (it == by_name.end() || !n.tensor || !it->second->tensor) continue;
    const FxNode& m = *it->second;
    const std::string ta = tensor_text(m), tb = tensor_text(n);
    if (ta == tb) continue;
    out.add(m.dtype != n.dtype ? DifferenceKind::graph_dtype_changed
                               : DifferenceKind::graph_shape_changed,
            "node `" + n.name + "`", ta, tb);
  }
}

std::vector<std::string> guards_of(const Database& db, const std::vector<TextRecord>& records,
                                   const std::string& kind) {
  std::vector<std::string> out;
  for (const TextRecord& r : records)
    if (r.kind == kind) {
      std::vector<std::string> g = guard_set(kind, payload(db, r.payload_id));
      out.insert(out.end(), g.begin(), g.end());
    }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void compare_guards(const TextSides& dbs, const CompileTexts& a, const CompileTexts& b,
                    Capped& out) {
  if (a.guards.empty() || b.guards.empty() || same_records(a.guards, b.guards)) return;
  // The JSON list when both runs logged it, else the C++ tree when both did: two forms of one
  // guard set differ in wording, not in guards.
  auto has = [](const std::vector<TextRecord>& v, const char* kind) {
    return std::any_of(v.begin(), v.end(), [&](const TextRecord& r) { return r.kind == kind; });
  };
  std::string kind;
  if (has(a.guards, "dynamo_guards") && has(b.guards, "dynamo_guards"))
    kind = "dynamo_guards";
  else if (has(a.guards, "dynamo_cpp_guards_str") && has(b.guards, "dynamo_cpp_guards_str"))
    kind = "dynamo_cpp_guards_str";
  else
    return;
  const std::vector<std::string> ga = guards_of(dbs.db_a, a.guards, kind);
  const std::vector<std::string> gb = guards_of(dbs.db_b, b.guards, kind);
  std::vector<std::string> only_a, only_b;
  std::set_difference(ga.begin(), ga.end(), gb.begin(), gb.end(), std::back_inserter(only_a));
  std::set_difference(gb.begin(), gb.end(), ga.begin(), ga.end(), std::back_inserter(only_b));
  for (const std::string& g : only_b) out.add(DifferenceKind::guard_added, "", std::nullopt, g);
  for (const std::string& g : only_a) out.add(DifferenceKind::guard_removed, "", g, std::nullopt);
}

std::string code_size_text(size_t kernels, int64_t bytes) {
  char text[64];
  std::snprintf(text, sizeof text, "%zu kernel(s), %.1f KB", kernels,
                static_cast<double>(bytes) / 1024);
  return text;
}

void compare_code(const TextSides& dbs, const CompileTexts& a, const CompileTexts& b, Capped& out) {
  if (a.code.empty() || b.code.empty() || same_records(a.code, b.code)) return;
  auto kernels = [](const Database& db, const std::vector<TextRecord>& records, int64_t& bytes) {
    std::multiset<std::string> k;
    for (const TextRecord& r : records) {
      bytes += r.size;
      for (std::string& name : output_code_kernels(payload(db, r.payload_id))) k.insert(name);
    }
    return k;
  };
  int64_t bytes_a = 0, bytes_b = 0;
  const std::multiset<std::string> ka = kernels(dbs.db_a, a.code, bytes_a);
  const std::multiset<std::string> kb = kernels(dbs.db_b, b.code, bytes_b);
  std::vector<std::string> only_a, only_b;
  std::set_difference(ka.begin(), ka.end(), kb.begin(), kb.end(), std::back_inserter(only_a));
  std::set_difference(kb.begin(), kb.end(), ka.begin(), ka.end(), std::back_inserter(only_b));
  for (const std::string& k : only_b) out.add(DifferenceKind::kernel_added, "", std::nullopt, k);
  for (const std::string& k : only_a) out.add(DifferenceKind::kernel_removed, "", k, std::nullopt);
  // Size: a change of a tenth and at least 1 KB (hashes and temp paths in the code change its
  // bytes a little from run to run; that is not a difference).
  const double delta = static_cast<double>(bytes_b - bytes_a);
  if (ka.size() != kb.size() ||
      (std::abs(delta) >= 1024 &&
       std::abs(delta) >= 0.1 * static_cast<double>(std::max(bytes_a, bytes_b))))
    out.add(DifferenceKind::output_code_size, "", code_size_text(ka.size(), bytes_a),
            code_size_text(kb.size(), bytes_b), delta);
}

}  // namespace

Result<CompileTextIndex> read_compile_texts(const Database& db) {
  Result<CompileTextIndex> out;
  if (!db.has_table("events") || !db.has_table("payloads")) return out;
  read_rows(db,
            "SELECT e.file_id, e.frame_id, e.frame_compile_id, COALESCE(e.attempt, 0), e.kind, "
            "p.md5, e.payload_id, p.size FROM events e JOIN payloads p ON p.id = e.payload_id "
            "WHERE e.kind IN ('dynamo_output_graph', 'dynamo_guards', 'dynamo_cpp_guards_str', "
            "'inductor_output_code') AND e.frame_id IS NOT NULL AND e.compiled_autograd_id IS NULL "
            "ORDER BY e.id",
            out, [&](const Statement& s) {
              CompileTexts& c = out.value[{s.int64(0), s.int64(1), s.int64_or(2, -1)}];
              const int64_t attempt = s.int64(3);
              if (attempt < c.attempt) return;
              if (attempt > c.attempt) c = CompileTexts{attempt, {}, {}, {}};
              TextRecord r{s.text(4), s.text(5), s.int64(6), s.int64_or(7, 0)};
              if (r.kind == "dynamo_output_graph")
                c.graphs.push_back(std::move(r));
              else if (r.kind == "inductor_output_code")
                c.code.push_back(std::move(r));
              else
                c.guards.push_back(std::move(r));
            });
  return out;
}

void compare_compile_texts(const TextSides& dbs, const CompileTexts* a, const CompileTexts* b,
                           const std::string& subject, int64_t rank, DifferenceList& diffs,
                           std::vector<std::string>& notes, CompileTextMemo& memo) {
  if (!a || !b) return;
  // The same records on another rank (every rank of a data-parallel job compiles the same
  // graph) give the same findings: parsed once.
  std::string key;
  for (const auto* records : {&a->graphs, &a->guards, &a->code, &b->graphs, &b->guards, &b->code}) {
    for (const TextRecord& r : *records)
      key += r.md5.empty() ? std::to_string(r.payload_id) : r.md5;
    key += '|';
  }
  auto [it, fresh] = memo.try_emplace(key);
  if (fresh) {
    Capped out;
    compare_graphs(dbs, *a, *b, out);
    compare_guards(dbs, *a, *b, out);
    compare_code(dbs, *a, *b, out);
    it->second = out.take();
  }
  for (const TextFinding& f : it->second.list)
    diffs.add(f.kind, subject + (f.what.empty() ? "" : ": " + f.what), f.a, f.b, rank, f.weight);
  for (const auto& [kind, n] : it->second.counts)
    if (n > kMaxPerCompile)
      notes.push_back(subject + ": " + std::to_string(n - kMaxPerCompile) + " more " +
                      std::string(kind_info(kind).name) + " difference(s) not listed");
}

}  // namespace tlscope::views
