// Collectives parity: per rank and graph, the collectives Inductor scheduled
// (`inductor_collective_schedule`) against those its generated wrapper calls
// (`inductor_output_code`), op by op, and the issued collectives no wait_tensor waits on. Each
// schedule is paired with the output code of its compile logged nearest before it (Inductor
// writes the code, then the schedule), else the first after it. Each look-up walks the
// events(kind) index from the schedule outwards and stops at the first match.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis_schema.hpp"
#include "json_text.hpp"
#include "passes.hpp"
#include "tlscope/model/sqlite.hpp"
#include "tlscope/model/analysis/generated_collectives.hpp"
#include "words.hpp"

namespace tlscope::model::analysis {

namespace {

struct OpCounts {
  std::vector<std::string> order;  // first appearance
  std::map<std::string, int64_t> n;
  void add(const std::string& op) {
    if (n[op]++ == 0) order.push_back(op);
  }
};

// Schedule entries are JSON strings; the query hands them over one per line.
OpCounts schedule_counts(std::string_view lines) {
  OpCounts c;
  size_t start = 0;
  while (start < lines.size()) {
    size_t nl = lines.find('\n', start);
    std::string_view entry = lines.substr(start, nl == std::string_view::npos ? nl : nl - start);
    if (!entry.empty()) c.add(collective_op_name(entry));
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return c;
}

}  // namespace

void build_collective_parity(sqlite3* db) {
  // Rows come only from the schedules.
  if (!has_rows(db, "artifacts WHERE name = 'inductor_collective_schedule'")) return;
  const std::string skey = compile_key_sql("a.compile_id"), ekey = compile_key_sql("e.compile_id");
  Statement q(
      db,
      "WITH s AS (SELECT a.event_id AS event_id, a.file_id AS file_id, COALESCE(f.rank, a.rank) "
      "AS rank, " +
          skey +
          " AS cid, CASE WHEN json_valid(p.text) AND json_type(p.text) = 'array' THEN "
          "(SELECT group_concat(j.value, char(10)) FROM json_each(p.text) j WHERE j.type "
          "= 'text') END AS ops FROM artifacts a JOIN files f ON f.id = a.file_id "
          "LEFT JOIN payloads p ON p.id = a.payload_id WHERE a.name = "
          "'inductor_collective_schedule') "
          "SELECT s.event_id, s.file_id, s.rank, s.cid, s.ops, c.id, cp.text FROM s "
          "LEFT JOIN events c ON c.id = COALESCE((SELECT e.id FROM events e WHERE "
          "e.kind = 'inductor_output_code' AND e.file_id = s.file_id AND e.id < "
          "s.event_id AND " +
          ekey +
          " IS s.cid ORDER BY e.id DESC LIMIT 1), (SELECT e.id FROM events e WHERE "
          "e.kind = 'inductor_output_code' AND e.file_id = s.file_id AND e.id > "
          "s.event_id AND " +
          ekey +
          " IS s.cid ORDER BY e.id LIMIT 1)) "
          "LEFT JOIN payloads cp ON cp.id = c.payload_id "
          "ORDER BY s.file_id, s.event_id");
  Statement insert(db,
                   "INSERT INTO collective_parity(file_id, rank, compile_id, graph, op, scheduled, "
                   "generated, unwaited, schedule_event_id, code_event_id) VALUES "
                   "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
  std::map<std::pair<int64_t, std::string>, int64_t> graphs_seen;
  while (q.step()) {
    if (q.is_null(4)) continue;  // an unreadable schedule: nothing to compare
    OpCounts scheduled = schedule_counts(q.text_view(4));
    const bool has_code = !q.is_null(5);
    OpCounts generated;
    std::map<std::string, int64_t> unwaited;
    if (has_code) {
      for (const GeneratedCollective& c : scan_generated_collectives(q.text_view(6))) {
        generated.add(c.op);
        if (!is_wait_op(c.op) && !c.waited) ++unwaited[c.op];
      }
    }
    std::vector<std::string> ops = scheduled.order;
    for (const std::string& op : generated.order)
      if (!scheduled.n.count(op)) ops.push_back(op);
    const std::string cid = q.text(3);
    const int64_t graph = graphs_seen[{q.int64(1), cid}]++;
    for (const std::string& op : ops) {
      insert.bind(1, q.int64(1)).bind(2, q.opt_int64(2)).bind(3, std::string_view(cid));
      insert.bind(4, graph).bind(5, std::string_view(op));
      insert.bind(6, scheduled.n.count(op) ? scheduled.n.at(op) : int64_t{0});
      if (has_code) {
        insert.bind(7, generated.n.count(op) ? generated.n.at(op) : int64_t{0});
        if (is_wait_op(op))
          insert.bind_null(8);
        else
          insert.bind(8, unwaited.count(op) ? unwaited.at(op) : int64_t{0});
      } else {
        insert.bind_null(7).bind_null(8);
      }
      insert.bind(9, q.int64(0)).bind(10, q.opt_int64(5)).run();
    }
  }
}

// One finding per rank and graph whose schedule and code disagree, or whose code issues a
// collective it never waits on, or whose schedule waits fewer times than it issues. detail: graph
// (0-based), ops (each {op, scheduled, generated, unwaited}; generated and unwaited null without
// code, unwaited null for wait ops), issued and waits (the schedule's collectives and waits).
void collective_parity_findings(sqlite3* db) {
  if (!has_rows(db, "collective_parity")) return;
  Statement q(db,
              "SELECT file_id, rank, compile_id, graph, op, scheduled, generated, unwaited, "
              "schedule_event_id, code_event_id FROM collective_parity ORDER BY file_id, "
              "schedule_event_id, id");
  Statement insert(db,
                   "INSERT INTO findings(kind, severity, ranks, other_ranks, compile_id, detail) "
                   "VALUES (?1, ?2, ?3, '[]', ?4, ?5)");
  struct Graph {
    std::optional<int64_t> rank;
    std::string cid;
    int64_t graph = 0;
    std::string ops;
    int64_t issued = 0, waits = 0;
    bool wrong = false;  // a count that differs, or an unwaited collective
  };
  auto flush = [&](const Graph& g) {
    if (!g.wrong && g.waits >= g.issued) return;
    bind_kind(insert, FindingKind::collective_parity);
    insert.bind(3, g.rank ? std::string("[") + std::to_string(*g.rank) + "]" : std::string("[]"));
    insert.bind(4, std::string_view(g.cid));
    insert.bind(5, std::string("{\"graph\":") + std::to_string(g.graph) + ",\"ops\":[" + g.ops +
                       "],\"issued\":" + std::to_string(g.issued) +
                       ",\"waits\":" + std::to_string(g.waits) + "}");
    insert.run();
  };
  std::optional<Graph> current;
  std::pair<int64_t, int64_t> current_key{-1, -1};
  while (q.step()) {
    std::pair<int64_t, int64_t> key{q.int64(0), q.int64(8)};
    if (!current || key != current_key) {
      if (current) flush(*current);
      current = Graph{};
      current_key = key;
      current->rank = q.opt_int64(1);
      current->cid = q.text(2);
      current->graph = q.int64(3);
    }
    Graph& g = *current;
    const std::string op = q.text(4);
    const int64_t scheduled = q.int64(5);
    (is_wait_op(op) ? g.waits : g.issued) += scheduled;
    std::optional<int64_t> generated = q.opt_int64(6), unwaited = q.opt_int64(7);
    auto number = [](std::optional<int64_t> v) { return v ? std::to_string(*v) : "null"; };
    if (!g.ops.empty()) g.ops += ",";
    g.ops += "{\"op\":" + json_string(op) + std::string(",\"scheduled\":") +
             std::to_string(scheduled) + ",\"generated\":" + number(generated) +
             ",\"unwaited\":" + number(unwaited) + "}";
    g.wrong |= (generated && *generated != scheduled) || (unwaited && *unwaited > 0);
  }
  if (current) flush(*current);
}

}  // namespace tlscope::model::analysis
