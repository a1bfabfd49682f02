// Inductor provenance tracking: which pre-grad FX nodes became which post-grad nodes, which
// kernels compute those, and where the kernels are defined and called in the generated code.
//
// One provenance graph is one Inductor graph compile: the artifacts of a compile (pre-grad graph,
// post-grad graph, output code, the mapping artifacts) are taken in log order, and a second
// artifact of a kind already seen starts the next graph (a training compile logs forward and
// backward under one compile id; both share the pre-grad graph). Graphs without any mapping
// artifact are not provenance graphs. The mapping JSON is read with SQLite's json1 and every
// value is type-checked first, so a hostile payload yields a provenance_errors row, never a
// failed analysis.
#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis_schema.hpp"
#include "passes.hpp"
#include "provenance_lines.hpp"
#include "tlscope/model/sqlite.hpp"

namespace tlscope::model::analysis {

namespace {

enum Slot {
  kPreBefore,
  kPreAfter,
  kPostAfter,
  kPostInductor,
  kPostBefore,
  kCode,
  kKernelCode,
  kNodeMappings,
  kKernelNodes,
  kPostToPre,
  kStackTraces,
  kSlotCount
};

std::optional<Slot> slot_of(std::string_view kind, std::string_view name) {
  if (kind == "inductor_output_code") return kCode;
  if (kind == "inductor_post_grad_graph") return kPostInductor;
  if (kind == "graph_dump") {
    if (name == "inductor_aot_wrapper_code") return kCode;
    if (name == "inductor_aot_kernel_code") return kKernelCode;
    return std::nullopt;
  }
  if (name == "before_pre_grad_graph") return kPreBefore;
  if (name == "after_pre_grad_graph" || name == "inductor_pre_grad_graph") return kPreAfter;
  if (name == "after_post_grad_graph") return kPostAfter;
  if (name == "inductor_post_grad_graph") return kPostInductor;
  if (name == "before_post_grad_graph") return kPostBefore;
  if (name == "inductor_provenance_tracking_node_mappings") return kNodeMappings;
  if (name == "inductor_triton_kernel_to_post_grad_nodes") return kKernelNodes;
  if (name == "inductor_post_to_pre_grad_nodes") return kPostToPre;
  if (name == "inductor_provenance_tracking_kernel_stack_traces") return kStackTraces;
  return std::nullopt;
}

struct Unit {
  int64_t file_id = 0;
  std::optional<int64_t> rank;
  std::optional<std::string> compile_id;
  std::array<std::optional<int64_t>, kSlotCount> events;
  std::array<std::string, kSlotCount> names;
  bool aot = false;

  bool has_mapping() const {
    return events[kNodeMappings] || events[kKernelNodes] || events[kPostToPre] ||
           events[kStackTraces];
  }
};

constexpr const char* kArtifactNames =
    "'before_pre_grad_graph', 'after_pre_grad_graph', 'inductor_pre_grad_graph', "
    "'after_post_grad_graph', 'inductor_post_grad_graph', 'before_post_grad_graph', "
    "'inductor_provenance_tracking_node_mappings', 'inductor_triton_kernel_to_post_grad_nodes', "
    "'inductor_post_to_pre_grad_nodes', 'inductor_provenance_tracking_kernel_stack_traces'";

// The provenance graphs of the log, in log order.
std::vector<Unit> collect_units(sqlite3* db) {
  Statement q(db, "SELECT e.id, e.file_id, COALESCE(f.rank, e.rank), " +
                      compile_key_sql("e.compile_id") +
                      ", e.kind, CASE WHEN e.kind IN ('artifact', 'graph_dump') AND "
                      "json_valid(e.metadata) THEN json_extract(e.metadata, '$.name') END "
                      "FROM events e JOIN files f ON f.id = e.file_id WHERE e.id IN ("
                      "SELECT event_id FROM artifacts WHERE name IN (" +
                      kArtifactNames +
                      ") UNION ALL SELECT id FROM events WHERE kind IN ('inductor_output_code', "
                      "'inductor_post_grad_graph', 'graph_dump')) ORDER BY e.id");
  using Key = std::tuple<int64_t, std::optional<std::string>>;
  std::map<Key, Unit> open;
  std::vector<Unit> done;
  while (q.step()) {
    std::string kind = q.text(4);
    std::string name = q.is_null(5) ? "" : q.text(5);
    std::optional<Slot> slot = slot_of(kind, name);
    if (!slot) continue;
    Key key{q.int64(1), q.opt_text(3)};
    auto it = open.find(key);
    if (it == open.end()) {
      Unit u;
      u.file_id = q.int64(1);
      u.rank = q.opt_int64(2);
      u.compile_id = q.opt_text(3);
      it = open.emplace(key, std::move(u)).first;
    }
    Unit& u = it->second;
    if (u.events[*slot]) {
      // A kind seen twice: the next graph of this compile. It keeps the pre-grad graph unless
      // the new record is a pre-grad graph itself.
      Unit next;
      next.file_id = u.file_id;
      next.rank = u.rank;
      next.compile_id = u.compile_id;
      if (*slot != kPreBefore && *slot != kPreAfter) {
        for (Slot s : {kPreBefore, kPreAfter}) {
          next.events[s] = u.events[s];
          next.names[s] = u.names[s];
        }
      }
      if (u.has_mapping()) done.push_back(std::move(u));
      u = std::move(next);
    }
    u.events[*slot] = q.int64(0);
    u.names[*slot] = kind == "artifact" || kind == "graph_dump" ? name : kind;
    if (kind == "graph_dump") u.aot = true;
  }
  for (auto& [key, u] : open)
    if (u.has_mapping()) done.push_back(std::move(u));
  std::sort(done.begin(), done.end(), [](const Unit& a, const Unit& b) {
    auto first = [](const Unit& u) {
      int64_t m = INT64_MAX;
      for (const auto& e : u.events)
        if (e && *e < m) m = *e;
      return m;
    };
    return first(a) < first(b);
  });
  return done;
}

// The payloads of the graph and code records, read through one prepared statement (a statement
// prepared per read cost more than the read). A log that repeats its compiles repeats their
// payloads (the 1,074 graphs of the 1 GB benchmark log have 8 distinct ones), so what is scanned
// out of a payload is kept for the last few payload ids.
class Payloads {
 public:
  explicit Payloads(sqlite3* db)
      : query_(db,
               "SELECT p.id, p.text FROM events e JOIN payloads p ON p.id = e.payload_id "
               "WHERE e.id = ?1") {}

  struct Read {
    int64_t id = 0;
    std::optional<std::string> text;
  };
  // The payload of an event; nullopt when the event (or its payload) is missing.
  std::optional<Read> of(std::optional<int64_t> event_id, bool with_text = true) {
    if (!event_id) return std::nullopt;
    query_.bind(1, *event_id);
    std::optional<Read> out;
    if (query_.step()) {
      out = Read{query_.int64(0), std::nullopt};
      if (with_text) out->text = query_.opt_text(1);
    }
    query_.reset();
    return out;
  }

 private:
  Statement query_;
};

// A small cache keyed by payload id: a log's repeats come round after round, so the last few
// ids cover them. It is bounded in bytes (the payload sizes) as well as in entries: generated
// code runs to megabytes for a large model, and a log of distinct large payloads must not fill
// memory (one entry, however large, is kept: the one in use).
template <typename Value>
class RecentPayloads {
 public:
  const Value* find(int64_t id) const {
    for (const Entry& e : entries_)
      if (e.id == id) return e.value.get();
    return nullptr;
  }
  const Value& add(int64_t id, std::unique_ptr<Value> value, size_t bytes) {
    while (!entries_.empty() && (entries_.size() == kKeep || bytes_ + bytes > kBudget)) {
      bytes_ -= entries_.front().bytes;
      entries_.erase(entries_.begin());
    }
    bytes_ += bytes;
    entries_.push_back({id, std::move(value), bytes});
    return *entries_.back().value;
  }

 private:
  struct Entry {
    int64_t id;
    std::unique_ptr<Value> value;
    size_t bytes;
  };
  static constexpr size_t kKeep = 16;
  static constexpr size_t kBudget = size_t{4} << 20;
  std::vector<Entry> entries_;
  size_t bytes_ = 0;
};

void insert_graphs(sqlite3* db, const std::vector<Unit>& units) {
  Statement ins(db,
                "INSERT INTO provenance_graphs(id, file_id, rank, compile_id, seq, mode, "
                "pre_graph_event_id, pre_graph_id, post_graph_event_id, code_event_id, "
                "kernel_code_event_id, node_mappings_event_id, kernel_nodes_event_id, "
                "post_to_pre_event_id, stack_traces_event_id) "
                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)");
  std::map<std::tuple<int64_t, std::optional<std::string>>, int64_t> seq;
  int64_t id = 0;
  Payloads payloads(db);
  for (const Unit& u : units) {
    ++id;
    auto pre = u.events[kPreBefore] ? u.events[kPreBefore] : u.events[kPreAfter];
    auto post = u.events[kPostAfter]      ? u.events[kPostAfter]
                : u.events[kPostInductor] ? u.events[kPostInductor]
                                          : u.events[kPostBefore];
    std::optional<int64_t> graph_id;
    if (auto read = payloads.of(pre); read && read->text) graph_id = printed_graph_id(*read->text);
    std::optional<std::string> mode;
    if (u.aot)
      mode = "aot";
    else if (u.events[kCode])
      mode = "jit";
    ins.bind(1, id)
        .bind(2, u.file_id)
        .bind(3, u.rank)
        .bind(4, u.compile_id)
        .bind(5, seq[{u.file_id, u.compile_id}]++)
        .bind(6, mode)
        .bind(7, pre)
        .bind(8, graph_id)
        .bind(9, post)
        .bind(10, u.events[kCode])
        .bind(11, u.events[kKernelCode])
        .bind(12, u.events[kNodeMappings])
        .bind(13, u.events[kKernelNodes])
        .bind(14, u.events[kPostToPre])
        .bind(15, u.events[kStackTraces]);
    ins.run();
  }
}

// SQL that never hands json_each text it would refuse: the payload when it is valid JSON, else
// an empty object; a member's value when it has the expected type, else an empty container.
constexpr const char* kSafePayload = "(CASE WHEN json_valid(p.text) THEN p.text ELSE '{}' END)";
std::string object_of(const std::string& t) {
  return "(CASE WHEN " + t + ".type = 'object' THEN " + t + ".value ELSE '{}' END)";
}
// Lists as written; a single name (an older or hand-written shape) as a list of one.
std::string list_of(const std::string& t) {
  return "(CASE WHEN " + t + ".type = 'array' THEN " + t + ".value WHEN " + t +
         ".type IN ('text', 'integer') THEN json_array(" + t + ".value) ELSE '[]' END)";
}
std::string from_payload(const char* event_column) {
  return std::string(" FROM provenance_graphs g JOIN events e ON e.id = g.") + event_column +
         " JOIN payloads p ON p.id = e.payload_id, json_each(" + kSafePayload + ") t";
}
constexpr const char* kNameValue = "v.type IN ('text', 'integer')";
constexpr const char* kBackendOfName =
    "CASE WHEN tlscope_kernel_name(m.key) LIKE 'cpp\\_%' ESCAPE '\\' THEN 'cpp' "
    "WHEN tlscope_kernel_name(m.key) LIKE 'triton\\_%' ESCAPE '\\' THEN 'triton' "
    "WHEN tlscope_kernel_name(m.key) LIKE 'extern\\_kernels.%' ESCAPE '\\' "
    "OR tlscope_kernel_name(m.key) LIKE 'aoti\\_torch\\_%' ESCAPE '\\' THEN 'extern' END";

void insert_links(sqlite3* db) {
  // Node mappings: preToPost and postToPre, each a {node: [nodes]} object.
  for (auto [section, pre, post] :
       {std::tuple{"preToPost", "m.key", "v.value"}, std::tuple{"postToPre", "v.value", "m.key"}}) {
    // The section is bound (?1); pre and post are fixed expressions of this file.
    Statement insert(
        db, std::string("INSERT INTO provenance_node_links(graph_id, pre_node, "
                        "post_node, source, event_id) SELECT g.id, ") +
                pre + ", " + post + ", ?1, e.id" + from_payload("node_mappings_event_id") +
                ", json_each(" + object_of("t") + ") m, json_each(" + list_of("m") +
                ") v WHERE t.key = ?1 AND " + kNameValue + " ORDER BY g.id, t.id, m.id, v.id");
    insert.bind(1, section).run();
  }
  // inductor_post_to_pre_grad_nodes: {post: [{name, graph_id, from_node: [...]}, ...]}. The
  // pre-grad node is the entry, at any depth of the from_node chain, whose graph_id is the
  // pre-grad graph's; without that id (or no such entry), the entries of the first level.
  const std::string post_to_pre =
      "INSERT INTO provenance_node_links(graph_id, pre_node, post_node, source, event_id) "
      "SELECT DISTINCT g.id, CASE WHEN v.type = 'object' THEN json_extract(v.value, '$.name') "
      "ELSE v.value END, t.key, 'post_to_pre_grad_nodes', e.id" +
      from_payload("post_to_pre_event_id") + ", json_tree(" + list_of("t") + ") v WHERE ";
  const char* named_entry =
      "(v.type = 'object' AND json_type(v.value, '$.name') IN ('text', 'integer'))";
  exec(db, post_to_pre + named_entry +
               " AND g.pre_graph_id IS NOT NULL AND json_extract(v.value, '$.graph_id') = "
               "g.pre_graph_id ORDER BY g.id, t.id, v.id");
  // The post nodes the statement above linked, keyed: provenance_node_links has no index until
  // every pass has run, and probing it unindexed per entry was quadratic (4.1 s of the 1 GB log).
  exec(db,
       "CREATE TEMP TABLE linked_post_nodes(graph_id INTEGER, post_node TEXT, "
       "PRIMARY KEY(graph_id, post_node)) WITHOUT ROWID;"
       "INSERT OR IGNORE INTO linked_post_nodes SELECT graph_id, post_node FROM "
       "provenance_node_links WHERE source = 'post_to_pre_grad_nodes'");
  exec(db, post_to_pre + "v.path = '$' AND (" + named_entry +
               " OR v.type IN ('text', 'integer')) AND NOT EXISTS (SELECT 1 FROM "
               "temp.linked_post_nodes l WHERE l.graph_id = g.id AND l.post_node = t.key) "
               "ORDER BY g.id, t.id, v.id");
  exec(db, "DROP TABLE temp.linked_post_nodes");

  // Kernel mappings: {backend}CodeToPost {kernel: [post]} and postTo{Backend}Code {post:
  // [kernel]} of the node mappings, and the older inductor_triton_kernel_to_post_grad_nodes.
  const std::string kernel_insert =
      "INSERT INTO provenance_kernel_links(graph_id, kernel_key, kernel, debug_handle, backend, "
      "post_node, source, event_id) ";
  exec(db, kernel_insert +
               "SELECT g.id, m.key, tlscope_kernel_name(m.key), tlscope_kernel_handle(m.key), "
               "lower(substr(t.key, 1, length(t.key) - 10)), v.value, t.key, e.id" +
               from_payload("node_mappings_event_id") + ", json_each(" + object_of("t") +
               ") m, json_each(" + list_of("m") + ") v WHERE t.key LIKE '%CodeToPost' AND " +
               kNameValue + " ORDER BY g.id, t.id, m.id, v.id");
  exec(db, kernel_insert +
               "SELECT g.id, v.value, tlscope_kernel_name(v.value), "
               "tlscope_kernel_handle(v.value), lower(substr(t.key, 7, length(t.key) - 10)), "
               "m.key, t.key, e.id" +
               from_payload("node_mappings_event_id") + ", json_each(" + object_of("t") +
               ") m, json_each(" + list_of("m") + ") v WHERE t.key LIKE 'postTo%Code' AND " +
               kNameValue + " ORDER BY g.id, t.id, m.id, v.id");
  exec(db, kernel_insert + "SELECT g.id, m.key, tlscope_kernel_name(m.key), " +
               "tlscope_kernel_handle(m.key), " + kBackendOfName +
               ", v.value, 'kernel_to_post_grad_nodes', e.id FROM provenance_graphs g JOIN events "
               "e ON e.id = g.kernel_nodes_event_id JOIN payloads p ON p.id = e.payload_id, "
               "json_each(" +
               kSafePayload + ") m, json_each(" + list_of("m") + ") v WHERE " + kNameValue +
               " ORDER BY g.id, m.id, v.id");

  // Stack traces: {kernel: [lines]} or {kernel: "text"}.
  exec(db, std::string("INSERT INTO provenance_kernel_stacks(graph_id, kernel_key, kernel, stack, "
                       "event_id) SELECT g.id, m.key, tlscope_kernel_name(m.key), "
                       "CASE WHEN m.type = 'array' THEN (SELECT group_concat(CASE WHEN s.type = "
                       "'text' THEN s.value ELSE json_quote(s.value) END, char(10)) FROM "
                       "json_each(m.value) s) WHEN m.type = 'text' THEN m.value END, e.id "
                       "FROM provenance_graphs g JOIN events e ON e.id = g.stack_traces_event_id "
                       "JOIN payloads p ON p.id = e.payload_id, json_each(") +
               kSafePayload + ") m WHERE m.type IN ('array', 'text') ORDER BY g.id, m.id");
}

// Mapping records that could not be read, as facts: the record (event, artifact, its log line)
// and the problem (no_payload, invalid_json, not_object with the JSON type found, or
// section_not_object with the section and its type). views/provenance.cpp words them.
void insert_errors(sqlite3* db) {
  for (const char* column : {"node_mappings_event_id", "kernel_nodes_event_id",
                             "post_to_pre_event_id", "stack_traces_event_id"}) {
    exec(db, std::string("INSERT INTO provenance_errors(graph_id, file_id, rank, compile_id, "
                         "event_id, artifact, line, problem, json_type) SELECT g.id, g.file_id, "
                         "g.rank, g.compile_id, e.id, a.name, e.line, "
                         "CASE WHEN p.id IS NULL THEN 'no_payload' WHEN NOT json_valid(p.text) "
                         "THEN 'invalid_json' ELSE 'not_object' END, CASE WHEN p.id IS NOT NULL "
                         "AND json_valid(p.text) THEN json_type(p.text) END "
                         "FROM provenance_graphs g JOIN events e ON e.id = g.") +
                 column +
                 " JOIN artifacts a ON a.event_id = e.id "
                 "LEFT JOIN payloads p ON p.id = e.payload_id "
                 "WHERE p.id IS NULL OR NOT json_valid(p.text) OR json_type(p.text) <> 'object' "
                 "ORDER BY g.id");
  }
  // Sections of the node mappings that have the wrong shape.
  exec(db, std::string("INSERT INTO provenance_errors(graph_id, file_id, rank, compile_id, "
                       "event_id, artifact, line, problem, section, json_type) SELECT g.id, "
                       "g.file_id, g.rank, g.compile_id, e.id, a.name, e.line, "
                       "'section_not_object', t.key, t.type "
                       "FROM provenance_graphs g JOIN events e ON e.id = g.node_mappings_event_id "
                       "JOIN artifacts a ON a.event_id = e.id "
                       "JOIN payloads p ON p.id = e.payload_id, json_each(") +
               kSafePayload +
               ") t WHERE (t.key IN ('preToPost', 'postToPre') OR t.key LIKE '%CodeToPost' OR "
               "t.key LIKE 'postTo%Code') AND t.type <> 'object' ORDER BY g.id, t.id");
}

// A generated-code payload and its identifier index (which points into the text).
struct IndexedCode {
  explicit IndexedCode(std::string code) : text(std::move(code)), index(text) {}
  std::string text;
  CodeText index;
};

// Kernel lines in the generated code and node lines in the graphs, scanned in C++.
void insert_lines(sqlite3* db) {
  Statement graphs(db,
                   "SELECT g.id, g.pre_graph_event_id, g.post_graph_event_id, g.code_event_id, "
                   "g.kernel_code_event_id FROM provenance_graphs g ORDER BY g.id");
  // Every graph's distinct kernel keys, read once: the link tables have no index until every
  // pass has run, and a query per graph scanned them whole each time (0.43 s for the 1,074
  // graphs of the 1 GB log).
  std::map<int64_t, std::vector<std::string>> keys_of_graph;
  {
    Statement keys(db,
                   "SELECT graph_id, kernel_key FROM provenance_kernel_links UNION "
                   "SELECT graph_id, kernel_key FROM provenance_kernel_stacks ORDER BY 1, 2");
    while (keys.step()) keys_of_graph[keys.int64(0)].push_back(keys.text(1));
  }
  Statement code_name(db,
                      "SELECT CASE WHEN kind = 'graph_dump' AND json_valid(metadata) THEN "
                      "json_extract(metadata, '$.name') ELSE kind END FROM events WHERE id = ?1");
  Statement ins_code(db,
                     "INSERT INTO provenance_code_lines(graph_id, kernel_key, kernel, event_id, "
                     "code, line, end_line, role) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
  Statement ins_node(db,
                     "INSERT INTO provenance_node_lines(graph_id, pane, node, event_id, line) "
                     "VALUES (?1, ?2, ?3, ?4, ?5)");
  Payloads payloads(db);
  RecentPayloads<std::vector<NodeLine>> node_lines;
  RecentPayloads<IndexedCode> codes;
  while (graphs.step()) {
    int64_t gid = graphs.int64(0);
    for (auto [pane, col] : {std::pair{"pre", 1}, std::pair{"post", 2}}) {
      auto ev = graphs.opt_int64(col);
      auto read = payloads.of(ev, false);
      if (!read) continue;
      const std::vector<NodeLine>* lines = node_lines.find(read->id);
      if (!lines) {
        auto text = payloads.of(ev)->text;
        if (!text) continue;
        lines = &node_lines.add(read->id,
                                std::make_unique<std::vector<NodeLine>>(find_node_lines(*text)),
                                text->size());
      }
      for (const NodeLine& n : *lines) {
        ins_node.bind(1, gid).bind(2, pane).bind(3, n.node).bind(4, *ev).bind(5, int64_t{n.line});
        ins_node.run();
      }
    }
    static const std::vector<std::string> kNoKeys;
    auto found = keys_of_graph.find(gid);
    const std::vector<std::string>& kernel_keys =
        found == keys_of_graph.end() ? kNoKeys : found->second;
    for (int col : {3, 4}) {
      auto ev = graphs.opt_int64(col);
      auto read = payloads.of(ev, false);
      if (!read) continue;
      const IndexedCode* indexed = codes.find(read->id);
      if (!indexed) {
        auto text = payloads.of(ev)->text;
        if (!text) continue;
        const size_t bytes = text->size();
        indexed = &codes.add(read->id, std::make_unique<IndexedCode>(std::move(*text)), bytes);
      }
      const CodeText& code_text = indexed->index;
      code_name.bind(1, *ev);
      std::string code = code_name.step() ? code_name.text(0) : "";
      code_name.reset();
      for (const std::string& key : kernel_keys) {
        auto [kernel, handle] = split_kernel_key(key);
        for (const KernelLine& k : find_kernel_lines(code_text, kernel, handle)) {
          ins_code.bind(1, gid)
              .bind(2, key)
              .bind(3, kernel)
              .bind(4, *ev)
              .bind(5, code)
              .bind(6, int64_t{k.line})
              .bind(7, int64_t{k.end_line})
              .bind(8, k.role);
          ins_code.run();
        }
      }
    }
  }
}

void kernel_name_function(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  auto [name, handle] =
      split_kernel_key(std::string_view(text, static_cast<size_t>(sqlite3_value_bytes(argv[0]))));
  sqlite3_result_text(ctx, name.data(), static_cast<int>(name.size()), SQLITE_TRANSIENT);
}

void kernel_handle_function(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  auto [name, handle] =
      split_kernel_key(std::string_view(text, static_cast<size_t>(sqlite3_value_bytes(argv[0]))));
  if (handle)
    sqlite3_result_int64(ctx, *handle);
  else
    sqlite3_result_null(ctx);
}

}  // namespace

void build_provenance(sqlite3* db) {
  sqlite3_create_function(db, "tlscope_kernel_name", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                          kernel_name_function, nullptr, nullptr);
  sqlite3_create_function(db, "tlscope_kernel_handle", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                          nullptr, kernel_handle_function, nullptr, nullptr);
  std::vector<Unit> units = collect_units(db);
  // Everything below reads provenance_graphs: without a graph there is nothing to link.
  if (units.empty()) return;
  insert_graphs(db, units);
  insert_links(db);
  insert_errors(db);
  insert_lines(db);
}

}  // namespace tlscope::model::analysis
