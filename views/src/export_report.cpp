// The torch.export screen (see export_report.hpp). The provenance walk follows expression ids,
// which are Python object ids and get reused over a run: each step takes the latest
// expression_created of that id logged before the record that needs it.
#include "tlscope/views/export_report.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "read_rows.hpp"
#include "shape_queries.hpp"

namespace tlscope::views {

namespace {

// A log that loops its expressions back on themselves must not hang or flood the page.
constexpr int kMaxDepth = 32;
constexpr size_t kMaxSteps = 200;

struct Expression {
  int64_t event_id = 0;
  std::string method, result;
  std::vector<std::string> arguments;
  std::vector<int64_t> argument_ids;
  UserFrame at;
};

using FileId = int64_t;

struct ShapeLog {
  // (file, expression id) -> its expression_created records in log order
  std::map<std::pair<FileId, int64_t>, std::vector<Expression>> expressions;
  // (file, node id) -> the unbacked symbol created with that node
  std::map<std::pair<FileId, int64_t>, ShapeSymbol> symbol_nodes;
  // (file, symbol) -> its creations in log order
  std::map<std::pair<FileId, std::string>, std::vector<ShapeSymbol>> symbols;
};

// The last record logged before `event`. The records of one id are read in table order, which
// is log order, so this is a binary search: a log that reuses ids over many runs (the 1 GB
// benchmark log repeats each id hundreds of times) made a linear scan per step quadratic.
template <typename Record>
const Record* last_before(const std::vector<Record>& records, int64_t event) {
  auto end = std::partition_point(records.begin(), records.end(),
                                  [&](const Record& r) { return r.event_id < event; });
  return end == records.begin() ? nullptr : &*(end - 1);
}

const Expression* latest_before(const ShapeLog& log, FileId file, int64_t id, int64_t event) {
  auto it = log.expressions.find({file, id});
  if (it == log.expressions.end()) return nullptr;
  return last_before(it->second, event);
}

const ShapeSymbol* symbol_before(const ShapeLog& log, FileId file, const std::string& symbol,
                                 int64_t event) {
  auto it = log.symbols.find({file, symbol});
  if (it == log.symbols.end()) return nullptr;
  return last_before(it->second, event);
}

std::string symbol_origin_words(const ShapeSymbol& s) {
  std::string w = std::string(s.unbacked ? "unbacked symbol " : "symbol ") + s.symbol;
  if (!s.source.empty()) w += " = " + s.source;
  if (s.at.known()) w += " created at " + s.at.where();
  if (!s.at.code.empty()) w += " (" + s.at.code + ")";
  return w;
}

void walk(const ShapeLog& log, FileId file, int64_t id, int64_t before, int depth,
          std::set<int64_t>& on_path, std::vector<ProvenanceStep>& out) {
  if (depth > kMaxDepth || out.size() >= kMaxSteps || !on_path.insert(id).second) return;
  if (const Expression* e = latest_before(log, file, id, before)) {
    out.push_back({depth, e->method, e->result, e->arguments, e->at, ""});
    for (int64_t arg : e->argument_ids) walk(log, file, arg, e->event_id, depth + 1, on_path, out);
  } else if (auto s = log.symbol_nodes.find({file, id}); s != log.symbol_nodes.end()) {
    ProvenanceStep leaf;
    leaf.depth = depth;
    leaf.result = s->second.symbol;
    leaf.at = s->second.at;
    leaf.origin = symbol_origin_words(s->second);
    out.push_back(std::move(leaf));
  }
  on_path.erase(id);
}

std::vector<int64_t> split_ids(std::string_view joined) {
  std::vector<int64_t> ids;
  for (const std::string& item : split_units(joined)) {
    try {
      ids.push_back(std::stoll(item));
    } catch (const std::exception&) {
      // not an integer id: a hostile or newer record; the step keeps its argument text
    }
  }
  return ids;
}

// Fills an issue's symbol origins: the symbol's creation, else the source the record logged.
void add_origins(const ShapeLog& log, const std::vector<std::string>& symbols,
                 const std::vector<std::pair<std::string, std::string>>& sources,
                 ExportIssue& issue) {
  for (const std::string& name : symbols) {
    SymbolOrigin o;
    o.symbol = name;
    if (const ShapeSymbol* s = symbol_before(log, issue.file_id, name, issue.event_id)) {
      o.created = true;
      o.unbacked = s->unbacked;
      o.source = s->source;
      o.range = s->range;
      o.at = s->at;
    }
    for (const auto& [sym, src] : sources)
      if (sym == name && o.source.empty()) o.source = src;
    issue.symbols.push_back(std::move(o));
  }
}

// True when the database holds none of the rows the screen lists or reads origins from (most
// logs: torch.compile without torch.export). One query shows it, where reading the screen
// compiles eight statements (~1 M instructions of a small job's report). shape_expressions is
// left out: its rows are only walked from an export issue. Any doubt (an error) reads in full.
bool nothing_to_export(const Database& db) {
  std::string sql = "SELECT EXISTS (SELECT 1 FROM events WHERE kind = 'exported_program')";
  for (const char* table :
       {"shape_symbols", "shape_specializations", "shape_guards", "export_issues"})
    if (db.has_table(table)) sql.append(" OR EXISTS (SELECT 1 FROM ").append(table).append(")");
  Statement s = db.prepare(sql);
  return s.ok() && s.step() && s.int64(0) == 0;
}

}  // namespace

std::string SymbolOrigin::words() const {
  std::string w = symbol + ": ";
  if (created && unbacked)
    w += "unbacked (a data-dependent value)";
  else if (created)
    w += "input size";
  else
    w += source.empty() ? "no creation record in the log" : "input size";
  if (!source.empty()) w += " " + source;
  if (!range.empty()) w += ", range " + range;
  if (at.known()) w += ", created at " + at.where();
  if (!at.code.empty()) w += " (" + at.code + ")";
  return w;
}

std::string ExportIssue::title() const {
  if (kind == "data_dependent") return "Data-dependent expression decided on real tensors";
  if (kind == "missing_fake_kernel") return "Missing fake kernel";
  if (kind == "mismatched_fake_kernel") return "Mismatched fake kernel";
  if (kind == "guard_added" || kind == "guard_added_fast") return "Guard added";
  return kind;
}

Result<ExportReport> load_export_report(const Database& db) {
  Result<ExportReport> out;
  if (nothing_to_export(db)) return out;
  ExportReport& r = out.value;
  ShapeLog log;
  Status status;
  read_shape_symbols(db, "", status, [&](int64_t file, ShapeSymbol s) {
    if (s.node_id >= 0) log.symbol_nodes[{file, s.node_id}] = s;
    if (s.compile_id.empty()) r.symbols.push_back(s);
    log.symbols[{file, s.symbol}].push_back(std::move(s));
  });
  read_shape_specializations(
      db, "WHERE compile_id IS NULL", status,
      [&](int64_t, ShapeSpecialization s) { r.specializations.push_back(std::move(s)); });
  if (db.has_table("shape_expressions")) {
    read_rows(db,
              "SELECT file_id, event_id, result_id, coalesce(method, ''), coalesce(result, ''), "
              "(SELECT group_concat(CAST(value AS TEXT), char(31)) FROM json_each(CASE WHEN "
              "json_valid(arguments) THEN arguments ELSE '[]' END)), "
              "(SELECT group_concat(CAST(value AS TEXT), char(31)) FROM json_each(CASE WHEN "
              "json_valid(argument_ids) THEN argument_ids ELSE '[]' END)), " +
                  std::string(kUserFrameColumns) +
                  " FROM shape_expressions WHERE result_id IS NOT NULL ORDER BY id",
              out, [&](const Statement& s) {
                Expression e;
                e.event_id = s.int64(1);
                e.method = s.text(3);
                e.result = s.text(4);
                e.arguments = split_units(s.text_view(5));
                e.argument_ids = split_ids(s.text_view(6));
                e.at = user_frame_at(s, 7);
                log.expressions[{s.int64(0), s.int64(2)}].push_back(std::move(e));
              });
  }
  if (db.has_table("export_issues")) {
    read_rows(db,
              "SELECT event_id, file_id, coalesce(kind, ''), coalesce(op, ''), "
              "coalesce(expr, ''), coalesce(result, ''), coalesce(reason, ''), expr_node_id, " +
                  std::string(kSymbolsList) + ", " + std::string(kSourcesList) +
                  ", (SELECT group_concat(key || char(30) || CAST(value AS TEXT), char(31)) FROM "
                  "json_each(CASE WHEN json_valid(locals) AND json_type(locals) = 'object' THEN "
                  "locals ELSE '{}' END)), " +
                  std::string(kUserFrameColumns) + " FROM export_issues ORDER BY id",
              out, [&](const Statement& s) {
                ExportIssue i;
                i.event_id = s.int64(0);
                i.file_id = s.int64(1);
                i.kind = s.text(2);
                i.op = s.text(3);
                i.expr = s.text(4);
                i.result = s.text(5);
                i.reason = s.text(6);
                i.locals = split_pairs(s.text_view(10));
                i.at = user_frame_at(s, 11);
                add_origins(log, split_units(s.text_view(8)), split_pairs(s.text_view(9)), i);
                if (!s.is_null(7)) {
                  std::set<int64_t> on_path;
                  walk(log, i.file_id, s.int64(7), i.event_id, 0, on_path, i.provenance);
                }
                r.issues.push_back(std::move(i));
              });
  }
  read_shape_guards(db, "WHERE compile_id IS NULL", status, [&](int64_t file, ShapeGuard g) {
    ExportIssue i;
    i.event_id = g.event_id;
    i.file_id = file;
    i.kind = g.kind;
    i.expr = g.expr;
    i.at = g.at;
    add_origins(log, g.symbols, g.sources, i);
    r.assumptions.push_back(std::move(i));
  });
  read_rows(db,
            "SELECT e.id, e.line, coalesce(e.payload_id, -1), coalesce(p.size, 0), "
            "coalesce(f.path, '') FROM events e JOIN files f ON f.id = e.file_id "
            "LEFT JOIN payloads p ON p.id = e.payload_id "
            "WHERE e.kind = 'exported_program' ORDER BY e.id",
            out, [&](const Statement& s) {
              r.programs.push_back({s.int64(0), s.int64(1), s.int64(2), s.int64(3), s.text(4)});
            });
  out.fail(status.error);
  return out;
}

}  // namespace tlscope::views
