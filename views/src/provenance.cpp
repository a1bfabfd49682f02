// The provenance screen: panes from the logged payloads, items and their highlight sets from the
// provenance_* link tables. Links are followed one step each way (pre <-> post <-> kernel), and a
// pre-grad node reaches kernels (and a kernel pre-grad nodes) through its post-grad nodes.
#include "tlscope/views/provenance.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "read_rows.hpp"
#include "tlscope/views/cell_text.hpp"

namespace tlscope::views {

namespace {

// A mapping record that could not be read, in words from its facts (provenance_errors):
// "inductor_post_to_pre_grad_nodes at rank0.log:5: the payload is not valid JSON".
std::string provenance_error_words(const std::string& artifact, const std::string& path,
                                   std::optional<int64_t> line, const std::string& problem,
                                   const std::string& section, const std::string& json_type) {
  std::string out = artifact;
  out.append(" at ").append(path).append(":").append(line ? std::to_string(*line) : "?");
  out.append(": ");
  if (problem == "no_payload") return out + "the record has no payload";
  if (problem == "invalid_json") return out + "the payload is not valid JSON";
  if (problem == "section_not_object")
    return out + "'" + section + "' is a JSON " + json_type + ", not an object";
  return out + "the payload is a JSON " + json_type + ", not an object";
}

using NameSet = std::set<std::string>;
using Links = std::map<std::string, NameSet>;

std::vector<std::string> sorted(const NameSet& s) {
  return {s.begin(), s.end()};
}

const NameSet& at(const Links& links, const std::string& key) {
  static const NameSet empty;
  auto it = links.find(key);
  return it == links.end() ? empty : it->second;
}

// Splits a payload into pane lines numbered from 1, each clipped like a cell (cell_text.hpp): a
// graph may be large, but no honest line of one is 64 KB.
void append_lines(ProvenancePane& pane, std::string_view text) {
  size_t start = 0;
  int64_t number = 1;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    size_t end = nl == std::string_view::npos ? text.size() : nl;
    pane.lines.push_back({clip_cell_text(text.substr(start, end - start)), number++, {}});
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
}

}  // namespace

std::string ProvenanceGraphRow::label() const {
  std::string s = compile_id.empty() ? "graph " + std::to_string(id) : "[" + compile_id + "]";
  if (!compile_id.empty() && seq > 0) s += " #" + std::to_string(seq + 1);
  if (mode == "aot") s = "AOT " + s;
  return s;
}

const char* provenance_item_kind_name(ProvenanceItemKind kind) {
  switch (kind) {
    case ProvenanceItemKind::kPreNode:
      return "pre";
    case ProvenanceItemKind::kPostNode:
      return "post";
    case ProvenanceItemKind::kKernel:
      return "kernel";
  }
  return "kernel";
}

namespace {

constexpr const char* kGraphColumns =
    "SELECT g.id, g.file_id, coalesce(g.rank, -1), coalesce(g.compile_id, ''), g.seq, "
    "coalesce(g.mode, ''), "
    "(SELECT count(DISTINCT pre_node) FROM provenance_node_links WHERE graph_id = g.id), "
    "(SELECT count(*) FROM (SELECT post_node FROM provenance_node_links WHERE graph_id = g.id "
    "UNION SELECT post_node FROM provenance_kernel_links WHERE graph_id = g.id)), "
    "(SELECT count(DISTINCT kernel_key) FROM provenance_kernel_links WHERE graph_id = g.id), "
    "(SELECT count(*) FROM provenance_errors WHERE graph_id = g.id) FROM provenance_graphs g ";

ProvenanceGraphRow graph_row(const Statement& s) {
  ProvenanceGraphRow r;
  r.id = s.int64(0);
  r.file_id = s.int64(1);
  r.rank = s.int64(2);
  r.compile_id = s.text(3);
  r.seq = s.int64(4);
  r.mode = s.text(5);
  r.pre_nodes = s.int64(6);
  r.post_nodes = s.int64(7);
  r.kernels = s.int64(8);
  r.errors = s.int64(9);
  return r;
}

}  // namespace

Result<std::vector<ProvenanceGraphRow>> load_provenance_graphs(const Database& db) {
  Result<std::vector<ProvenanceGraphRow>> out;
  if (!db.has_table("provenance_graphs")) return out;  // a database analysed before provenance
  // Most logs have no provenance graph: one cheap query shows it, where the listing's four
  // correlated counts cost ~250 k instructions to compile, on each of the report's three calls.
  Statement any = db.prepare("SELECT EXISTS (SELECT 1 FROM provenance_graphs)");
  if (any.ok() && any.step() && any.int64(0) == 0) return out;
  read_rows(db, std::string(kGraphColumns) + "ORDER BY g.id", out,
            [&](const Statement& s) { out.value.push_back(graph_row(s)); });
  return out;
}

ProvenanceReader::ProvenanceReader(const Database& db)
    : db_(db),
      graph_(db.prepare(std::string(kGraphColumns) + "WHERE g.id = ?1")),
      events_(db.prepare(
          "SELECT coalesce(pre_graph_event_id, -1), coalesce(post_graph_event_id, -1), "
          "coalesce(code_event_id, -1), coalesce(kernel_code_event_id, -1) FROM provenance_graphs "
          "WHERE id = ?1")),
      pane_(db.prepare(
          "SELECT CASE WHEN e.kind IN ('artifact', 'graph_dump') AND json_valid(e.metadata) THEN "
          "json_extract(e.metadata, '$.name') ELSE e.kind END, p.text FROM events e JOIN payloads "
          "p ON p.id = e.payload_id WHERE e.id = ?1")),
      node_links_(db.prepare(
          "SELECT DISTINCT pre_node, post_node FROM provenance_node_links WHERE graph_id = "
          "?1 AND pre_node IS NOT NULL AND post_node IS NOT NULL")),
      kernel_links_(
          db.prepare("SELECT DISTINCT kernel_key, post_node FROM provenance_kernel_links WHERE "
                     "graph_id = ?1 AND kernel_key IS NOT NULL AND post_node IS NOT NULL")),
      stacks_(
          db.prepare("SELECT kernel_key, coalesce(stack, '') FROM provenance_kernel_stacks WHERE "
                     "graph_id = ?1 ORDER BY id")),
      node_lines_(db.prepare(
          "SELECT pane, node, event_id, line FROM provenance_node_lines WHERE graph_id = ?1")),
      code_lines_(
          db.prepare("SELECT kernel_key, event_id, line, end_line FROM provenance_code_lines WHERE "
                     "graph_id = ?1")),
      errors_(db.prepare(
          "SELECT coalesce(x.artifact, ''), coalesce(f.path, ''), x.line, coalesce(x.problem, ''), "
          "coalesce(x.section, ''), coalesce(x.json_type, '') FROM provenance_errors x "
          "LEFT JOIN files f ON f.id = x.file_id WHERE x.graph_id = ?1 ORDER BY x.id")) {}

Result<ProvenanceView> ProvenanceReader::read(int64_t graph_id) {
  const Database& db = db_;
  Result<ProvenanceView> out;
  ProvenanceView& v = out.value;
  if (!db.has_table("provenance_graphs")) {
    out.fail(db.path() + ": no provenance tables (run `tlscope analyze`)");
    return out;
  }
  bool found = false;
  std::array<int64_t, 3> event{-1, -1, -1};
  int64_t kernel_code_event = -1;
  rerun_rows(
      graph_, out, [&](Statement& s) { s.bind(1, graph_id); },
      [&](const Statement& s) {
        found = true;
        v.graph = graph_row(s);
      });
  if (!found) {
    out.fail(db.path() + ": no provenance graph " + std::to_string(graph_id));
    return out;
  }
  rerun_rows(
      events_, out, [&](Statement& s) { s.bind(1, graph_id); },
      [&](const Statement& s) {
        for (int i = 0; i < 3; ++i) event[i] = s.int64(i);
        kernel_code_event = s.int64(3);
      });

  // Panes. The code pane holds the AOT kernel file after the wrapper, each under a heading.
  std::map<int64_t, std::pair<int, size_t>> offset;  // event -> (pane, index of its line 1)
  const char* missing[] = {"no pre-grad graph logged", "no post-grad graph logged",
                           "no generated code logged"};
  auto load_pane = [&](int pane, int64_t ev, bool heading) {
    if (ev < 0) return false;
    bool loaded = false;
    rerun_rows(
        pane_, out, [&](Statement& s) { s.bind(1, ev); },
        [&](const Statement& s) {
          loaded = true;
          ProvenancePane& p = v.panes[pane];
          std::string source = s.text(0);
          p.source += (p.source.empty() ? "" : ", ") + source;
          if (heading) p.lines.push_back({"// " + source, 0, {}});
          offset[ev] = {pane, p.lines.size()};
          append_lines(p, s.text_view(1));
        });
    return loaded;
  };
  for (int pane = 0; pane < 3; ++pane) {
    bool two = pane == kCodePane && kernel_code_event >= 0;
    bool any = load_pane(pane, event[pane], two);
    if (pane == kCodePane && kernel_code_event >= 0)
      any |= load_pane(pane, kernel_code_event, true);
    if (!any) v.missing.push_back(missing[pane]);
  }

  // Links, both directions.
  Links pre_to_post, post_to_pre, post_to_kernel, kernel_to_post;
  rerun_rows(
      node_links_, out, [&](Statement& s) { s.bind(1, graph_id); },
      [&](const Statement& s) {
        pre_to_post[s.text(0)].insert(s.text(1));
        post_to_pre[s.text(1)].insert(s.text(0));
      });
  rerun_rows(
      kernel_links_, out, [&](Statement& s) { s.bind(1, graph_id); },
      [&](const Statement& s) {
        kernel_to_post[s.text(0)].insert(s.text(1));
        post_to_kernel[s.text(1)].insert(s.text(0));
      });
  std::map<std::string, std::string> stacks;
  rerun_rows(
      stacks_, out, [&](Statement& s) { s.bind(1, graph_id); },
      [&](const Statement& s) { stacks[s.text(0)] += s.text(1); });

  // Own lines: where each node is defined and each kernel defined or called.
  std::map<std::string, std::vector<int>> own[3];  // per pane: name -> line indexes
  rerun_rows(
      node_lines_, out, [&](Statement& s) { s.bind(1, graph_id); },
      [&](const Statement& s) {
        auto it = offset.find(s.int64(2));
        if (it == offset.end()) return;
        int pane = s.text(0) == "pre" ? kPrePane : kPostPane;
        size_t index = it->second.second + static_cast<size_t>(s.int64(3)) - 1;
        if (it->second.first == pane && index < v.panes[pane].lines.size())
          own[pane][s.text(1)].push_back(static_cast<int>(index));
      });
  rerun_rows(
      code_lines_, out, [&](Statement& s) { s.bind(1, graph_id); },
      [&](const Statement& s) {
        auto it = offset.find(s.int64(1));
        if (it == offset.end()) return;
        const auto& lines = v.panes[kCodePane].lines;
        size_t first = it->second.second + static_cast<size_t>(s.int64(2)) - 1;
        size_t last = it->second.second + static_cast<size_t>(s.int64(3)) - 1;
        for (size_t i = first; i <= last && i < lines.size(); ++i)
          own[kCodePane][s.text(0)].push_back(static_cast<int>(i));
      });

  // Items: every name some link or line mentions.
  NameSet pre_names, post_names, kernel_names;
  for (auto& [k, _] : pre_to_post) pre_names.insert(k);
  for (auto& [k, _] : post_to_pre) post_names.insert(k);
  for (auto& [k, _] : post_to_kernel) post_names.insert(k);
  for (auto& [k, _] : kernel_to_post) kernel_names.insert(k);
  for (auto& [k, _] : stacks) kernel_names.insert(k);
  auto lines_of = [&](int pane, const std::string& name) -> const std::vector<int>& {
    static const std::vector<int> none;
    auto it = own[pane].find(name);
    return it == own[pane].end() ? none : it->second;
  };
  auto add_item = [&](ProvenanceItemKind kind, const std::string& name, const NameSet& pre,
                      const NameSet& post, const NameSet& kernels) {
    ProvenanceItem item;
    item.kind = kind;
    item.name = name;
    item.pre_nodes = sorted(pre);
    item.post_nodes = sorted(post);
    item.kernels = sorted(kernels);
    std::set<int> hl[3];
    for (const auto& n : pre)
      for (int i : lines_of(kPrePane, n)) hl[kPrePane].insert(i);
    for (const auto& n : post)
      for (int i : lines_of(kPostPane, n)) hl[kPostPane].insert(i);
    for (const auto& n : kernels)
      for (int i : lines_of(kCodePane, n)) hl[kCodePane].insert(i);
    for (int p = 0; p < 3; ++p) item.lines[p].assign(hl[p].begin(), hl[p].end());
    if (auto it = stacks.find(name); it != stacks.end()) item.stack = it->second;
    int index = static_cast<int>(v.items.size());
    int own_pane = kind == ProvenanceItemKind::kPreNode    ? kPrePane
                   : kind == ProvenanceItemKind::kPostNode ? kPostPane
                                                           : kCodePane;
    for (int i : lines_of(own_pane, name)) v.panes[own_pane].lines[i].items.push_back(index);
    v.items.push_back(std::move(item));
  };
  for (const std::string& pre : pre_names) {
    const NameSet& post = at(pre_to_post, pre);
    NameSet kernels;
    for (const auto& p : post)
      kernels.insert(at(post_to_kernel, p).begin(), at(post_to_kernel, p).end());
    add_item(ProvenanceItemKind::kPreNode, pre, {pre}, post, kernels);
  }
  for (const std::string& post : post_names)
    add_item(ProvenanceItemKind::kPostNode, post, at(post_to_pre, post), {post},
             at(post_to_kernel, post));
  for (const std::string& kernel : kernel_names) {
    const NameSet& post = at(kernel_to_post, kernel);
    NameSet pre;
    for (const auto& p : post) pre.insert(at(post_to_pre, p).begin(), at(post_to_pre, p).end());
    add_item(ProvenanceItemKind::kKernel, kernel, pre, post, {kernel});
  }
  // Each line lists its items once (a definition block line may be reached twice).
  for (auto& pane : v.panes)
    for (auto& line : pane.lines) {
      std::sort(line.items.begin(), line.items.end());
      line.items.erase(std::unique(line.items.begin(), line.items.end()), line.items.end());
    }

  rerun_rows(
      errors_, out, [&](Statement& s) { s.bind(1, graph_id); },
      [&](const Statement& s) {
        v.errors.push_back(provenance_error_words(s.text(0), s.text(1), s.opt_int64(2), s.text(3),
                                                  s.text(4), s.text(5)));
      });
  return out;
}

Result<ProvenanceView> load_provenance(const Database& db, int64_t graph_id) {
  return ProvenanceReader(db).read(graph_id);
}

}  // namespace tlscope::views
