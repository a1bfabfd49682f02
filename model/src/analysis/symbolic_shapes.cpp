// Symbolic shapes: the symbols the shape environment created (backed `create_symbol`, unbacked
// `create_unbacked_symbol`), the symbols specialized to a constant, the guards and runtime
// asserts it added, the expressions it built (dtrace `expression_created`, the links of the
// provenance trie), and what torch.export could not trace exactly (data-dependent expressions
// decided from real tensors, missing or mismatched fake kernels). Each row carries the user frame
// that caused it. Compile records carry a compile id; export records carry none.
#include <cctype>
#include <string>
#include <vector>

#include "analysis_schema.hpp"
#include "json_text.hpp"
#include "passes.hpp"
#include "shape_user_frames.hpp"
#include "tlscope/model/sqlite.hpp"

namespace tlscope::model::analysis {

namespace {

// A sympy symbol the shape environment names: a prefix of symbolic_shapes' SymT (s: size, u:
// unbacked int, zf / zuf: backed / unbacked float, ps: precomputed size) and a number.
bool is_shape_symbol(std::string_view token) {
  size_t digits = token.find_first_of("0123456789");
  if (digits == 0 || digits == std::string_view::npos) return false;
  std::string_view prefix = token.substr(0, digits);
  if (prefix != "s" && prefix != "u" && prefix != "zf" && prefix != "zuf" && prefix != "ps")
    return false;
  for (char c : token.substr(digits))
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// tlscope_expr_symbols(expr): the distinct symbols of a guard expression, in order of first
// appearance, as a JSON array ("Ne(((-u0)//3) + 5, s0)" -> ["u0","s0"]).
void expr_symbols_function(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_text(ctx, "[]", 2, SQLITE_STATIC);
    return;
  }
  auto* data = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  std::string_view expr(data, static_cast<size_t>(sqlite3_value_bytes(argv[0])));
  std::vector<std::string_view> seen;
  for (size_t i = 0; i < expr.size();) {
    auto word = [&](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    if (!word(expr[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < expr.size() && word(expr[end])) ++end;
    std::string_view token = expr.substr(i, end - i);
    bool known = false;
    for (std::string_view s : seen) known |= s == token;
    if (!known && is_shape_symbol(token)) seen.push_back(token);
    i = end;
  }
  std::string out = "[";
  for (size_t k = 0; k < seen.size(); ++k) {
    if (k) out += ',';
    out += json_string(seen[k]);
  }
  out += "]";
  sqlite3_result_text(ctx, out.data(), static_cast<int>(out.size()), SQLITE_TRANSIENT);
}

constexpr const char* kShapeKinds =
    "('create_symbol', 'create_unbacked_symbol', 'symbolic_shape_specialization', "
    "'guard_added', 'guard_added_fast', 'expression_created', "
    "'propagate_real_tensors_provenance', 'missing_fake_kernel', 'mismatched_fake_kernel')";

std::string with_kinds(std::string sql) {
  size_t at = sql.find("%KINDS%");
  if (at != std::string::npos) sql.replace(at, 7, kShapeKinds);
  return sql;
}

// The columns every table shares, from events e, files f and the user frame u.
constexpr const char* kCommonColumns = "e.file_id, COALESCE(f.rank, e.rank), ";
constexpr const char* kUserColumns = "u.file, u.line, u.name, u.loc, e.id";
constexpr const char* kFrom =
    " FROM events e JOIN files f ON f.id = e.file_id "
    "LEFT JOIN temp.shape_user_frames u ON u.event_id = e.id "
    "WHERE json_valid(e.metadata) AND e.kind ";

// A field of the record's metadata; `field` is a key written here (SqlName), never a log's text.
std::string md(SqlName field) {
  return "json_extract(e.metadata, '$." + std::string(field.name) + "')";
}

}  // namespace

void build_symbolic_shapes(sqlite3* db) {
  sqlite3_create_function(db, "tlscope_expr_symbols", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                          nullptr, expr_symbols_function, nullptr, nullptr);
  // Every table below is filled from records of these kinds only.
  if (!has_rows(db, with_kinds("events WHERE kind IN %KINDS%"))) return;
  // Each record's user frame, from the stacks in its metadata (shape_user_frames.cpp).
  build_shape_user_frames(db, kShapeKinds);
  const std::string common = std::string(kCommonColumns) + compile_key_sql("e.compile_id") + ", ";
  const std::string user = ", " + std::string(kUserColumns);

  exec(db,
       "INSERT INTO shape_symbols(file_id, rank, compile_id, symbol, unbacked, value, "
       "value_range, source, node_id, user_file, user_line, user_name, user_code, event_id) "
       "SELECT " +
           common + md("symbol") + ", e.kind = 'create_unbacked_symbol', " + md("val") + ", " +
           md("vr") + ", " + md("source") + ", " + md("node_id") + user + kFrom +
           "IN ('create_symbol', 'create_unbacked_symbol') ORDER BY e.id");
  // `sources` is a list in the format's source; a single string is kept as a one-item list.
  exec(db,
       "INSERT INTO shape_specializations(file_id, rank, compile_id, symbol, sources, value, "
       "reason, user_file, user_line, user_name, user_code, event_id) "
       "SELECT " +
           common + md("symbol") +
           ", CASE json_type(e.metadata, '$.sources') "
           "WHEN 'array' THEN json_extract(e.metadata, '$.sources') WHEN 'text' THEN "
           "json_array(json_extract(e.metadata, '$.sources')) ELSE '[]' END, " +
           md("value") + ", " + md("reason") + user + kFrom +
           "= 'symbolic_shape_specialization' ORDER BY e.id");
  // Where each symbol of a guard came from, as the record says: frame_locals.symbols, overridden
  // by symbol_to_sources.
  const std::string sources =
      "json_patch(CASE WHEN json_type(e.metadata, '$.frame_locals.symbols') = 'object' THEN "
      "json_extract(e.metadata, '$.frame_locals.symbols') ELSE '{}' END, "
      "CASE WHEN json_type(e.metadata, '$.symbol_to_sources') = 'object' THEN "
      "json_extract(e.metadata, '$.symbol_to_sources') ELSE '{}' END)";
  exec(db,
       "INSERT INTO shape_guards(file_id, rank, compile_id, kind, expr, symbols, sources, "
       "expr_node_id, user_file, user_line, user_name, user_code, event_id) "
       "SELECT " +
           common + "e.kind, " + md("expr") + ", tlscope_expr_symbols(" + md("expr") + "), " +
           sources + ", " + md("expr_node_id") + user + kFrom +
           "IN ('guard_added', 'guard_added_fast') ORDER BY e.id");
  exec(db,
       "INSERT INTO shape_expressions(file_id, rank, compile_id, method, result, result_id, "
       "arguments, argument_ids, user_file, user_line, user_name, user_code, event_id) "
       "SELECT " +
           common + md("method") + ", " + md("result") + ", " + md("result_id") +
           ", CASE WHEN json_type(e.metadata, '$.arguments') = 'array' THEN "
           "json_extract(e.metadata, '$.arguments') ELSE '[]' END, "
           "CASE WHEN json_type(e.metadata, '$.argument_ids') = 'array' THEN "
           "json_extract(e.metadata, '$.argument_ids') ELSE '[]' END" +
           user + kFrom + "= 'expression_created' ORDER BY e.id");
  // What export decided without exact information. propagate_real_tensors_provenance: a
  // data-dependent expression that draft_export evaluated on the real tensors (`result`) instead
  // of failing; the fake-kernel records name an operator export had no (or a wrong) fake for.
  exec(db,
       "INSERT INTO export_issues(file_id, rank, compile_id, kind, op, expr, result, reason, "
       "symbols, sources, locals, expr_node_id, user_file, user_line, user_name, user_code, "
       "event_id) "
       "SELECT " +
           common +
           "CASE e.kind WHEN 'propagate_real_tensors_provenance' THEN 'data_dependent' "
           "ELSE e.kind END, " +
           md("op") + ", " + md("expr") + ", " + md("result") + ", " + md("reason") +
           ", tlscope_expr_symbols(" + md("expr") + "), " + sources +
           ", CASE WHEN json_type(e.metadata, '$.frame_locals.locals') = 'object' THEN "
           "json_extract(e.metadata, '$.frame_locals.locals') END, " +
           md("expr_node_id") + user + kFrom +
           "IN ('propagate_real_tensors_provenance', 'missing_fake_kernel', "
           "'mismatched_fake_kernel') ORDER BY e.id");
  exec(db, "DROP TABLE temp.shape_user_frames");
}

void shape_findings(sqlite3* db) {
  if (!has_rows(db, "shape_specializations")) return;
  // A dim dynamo made dynamic that the compiled code nevertheless fixed, so another size
  // recompiles: the symbol, the value it was fixed to, its sources and why, at the user's line.
  insert_findings(
      db, FindingKind::shape_specialized,
      "INSERT INTO findings(kind, severity, ranks, other_ranks, compile_id, file, line, detail) "
      "SELECT ?1, ?2"
      ", CASE WHEN rank IS NULL THEN '[]' ELSE json_array(rank) END, '[]', compile_id, "
      "user_file, user_line, json_object('symbol', symbol, 'value', value, 'sources', "
      "json(sources), 'reason', reason) "
      "FROM shape_specializations ORDER BY id")
      .run();
}

}  // namespace tlscope::model::analysis
