#include "run_answers.hpp"

#include <cmath>

#include "mcp_tools.hpp"
#include "tlscope/views/compile_detail.hpp"
#include "tlscope/views/compile_row.hpp"
#include "tlscope/views/database.hpp"

namespace tlscope::cli::mcp {
namespace {

const char* section_key(views::PayloadSection section) {
  switch (section) {
    case views::PayloadSection::kGraphs: return "graphs";
    case views::PayloadSection::kGuards: return "guards";
    case views::PayloadSection::kCode: return "code";
    case views::PayloadSection::kArtifacts: break;
  }
  return "artifacts";
}

json optional_number(int64_t value) { return value < 0 ? json(nullptr) : json(value); }
json optional_text(const std::string& value) { return value.empty() ? json(nullptr) : json(value); }

}  // namespace

json query_cell_json(const views::QueryCell& cell) {
  if (cell.is_null) return nullptr;
  if (cell.is_number) {
    const double n = cell.number;
    // Integers keep their exact text (doubles lose digits past 2^53).
    if (cell.text.find_first_of(".eE") == std::string::npos) {
      try {
        return json(std::stoll(cell.text));
      } catch (const std::exception&) {
      }
    }
    if (std::isfinite(n)) return json(n);
  }
  return json(cell.text);
}

json query_json(const std::string& db, const std::string& sql, size_t max_rows) {
  views::QueryResult r = views::run_read_only_query(db, sql, max_rows);
  if (!r.ok) throw ToolError(r.error);
  json rows = json::array();
  for (const auto& cells : r.rows) {
    json row = json::array();
    for (const views::QueryCell& cell : cells) row.push_back(query_cell_json(cell));
    rows.push_back(std::move(row));
  }
  return json{{"columns", r.columns}, {"rows", std::move(rows)}, {"truncated", r.truncated}};
}

json compile_json(const std::string& db_path, const std::string& compile_id, long rank) {
  views::Database db(db_path);
  if (!db.ok()) throw ToolError(db.error());
  views::Result<std::vector<views::CompileRow>> rows = views::load_compile_rows(db);
  if (!rows.ok()) throw ToolError(rows.error);
  const views::CompileRow* found = nullptr;
  for (const views::CompileRow& row : *rows) {
    if (row.compile_id != compile_id) continue;
    if (rank >= 0 && row.rank != rank) continue;
    found = &row;
    break;
  }
  if (!found) {
    throw ToolError("no compile " + compile_id +
                    (rank >= 0 ? " on rank " + std::to_string(rank) : std::string()) +
                    " in this run");
  }
  views::CompileDetailReader reader(db);
  views::Result<views::CompileDetail> detail = reader.read(*found);
  if (!detail.ok()) throw ToolError(detail.error);
  const views::CompileRow& c = detail->compile;
  json out;
  out["compile"] = json{{"compile_id", c.compile_id},
                        {"rank", optional_number(c.rank)},
                        {"frame_id", optional_number(c.frame_id)},
                        {"frame_compile_id", optional_number(c.frame_compile_id)},
                        {"attempts", c.attempts},
                        {"status", c.status},
                        {"function", optional_text(c.co_name)},
                        {"file", optional_text(c.co_filename)},
                        {"line", c.co_firstlineno > 0 ? json(c.co_firstlineno) : json(nullptr)},
                        {"fail_type", optional_text(c.fail_type)},
                        {"fail_reason", optional_text(c.fail_reason)},
                        {"recompile_reason", optional_text(c.recompile_reason)},
                        {"restarts", c.restart_count},
                        {"graph_ops", optional_number(c.graph_op_count)},
                        {"seconds", c.duration_us < 0 ? json(nullptr) : json(c.duration_us / 1e6)},
                        {"cache", optional_text(c.cache)}};
  json metrics = json::array();
  for (const views::CompileMetrics& m : detail->metrics) {
    json fields = json::object();
    for (const views::MetricsField& f : m.fields) fields[f.name] = f.value;
    metrics.push_back(json{{"kind", m.kind}, {"fields", std::move(fields)}});
  }
  out["metrics"] = std::move(metrics);
  for (const char* key : {"graphs", "guards", "code", "artifacts"}) out[key] = json::array();
  for (const views::PayloadEntry& p : detail->payloads) {
    views::Result<std::string> text = reader.payload_text(p.payload_id, kCompileTextLimit);
    out[section_key(p.section)].push_back(json{{"name", p.title()},
                                               {"attempt", p.attempt},
                                               {"bytes", p.size},
                                               {"text", text.ok() ? json(*text) : json(nullptr)}});
  }
  return out;
}

}  // namespace tlscope::cli::mcp
