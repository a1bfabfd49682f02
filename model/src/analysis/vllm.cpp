// vLLM's compile records (vllm/compilation/*.py writes them through trace_structured): the
// compilation config of each vLLM compile call, the piecewise compiles it starts (one per
// submodule and compile range or size) with the graph dumps and artifacts that follow each, and
// the chain of post-grad passes over `before_post_grad_graph` with what each pass changed.
//
// Walked per file in log order, as tlparse reads them: a `vllm_compilation_config` opens the next
// compile call (records before the first config belong to call 0, which that config then
// describes); a `vllm_piecewise_compile_start` opens a piecewise subgraph that owns the records
// after it until the next start or call; `before_post_grad_graph` starts a pass chain, whose
// `vllm_post_grad.N.Pass` dumps each diff against the graph before them.
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "analysis_schema.hpp"
#include "passes.hpp"
#include "tlscope/model/sqlite.hpp"
#include "tlscope/model/analysis/line_diff.hpp"

namespace tlscope::model::analysis {

namespace {

constexpr std::string_view kPostGradPrefix = "vllm_post_grad.";
constexpr std::string_view kPatternsPrefix = "vllm_patterns.";

// What a record is to the vLLM page (vllm_artifacts.role).
std::string_view role_of(std::string_view name) {
  if (name == "vllm_compilation_config") return "config";
  if (name == "vllm_piecewise_compile_start") return "compile_start";
  if (name == "vllm_piecewise_split_graph") return "split_graph";
  if (name == "vllm_compile_event") return "compile_event";
  if (name.starts_with("vllm_subgraph_") || name.starts_with("vllm_submod_")) return "subgraph";
  if (name.starts_with(kPostGradPrefix)) return "post_grad";
  if (name.starts_with(kPatternsPrefix)) return "patterns";
  if (name == "before_post_grad_graph") return "before_post_grad";
  if (name.starts_with("vllm_")) return "vllm";
  return "other";
}

// "vllm_post_grad.3.FusionPass" -> {3, "FusionPass"}; a name without a number keeps it all as
// the pass name and no index.
std::pair<std::optional<int64_t>, std::string> pass_of(std::string_view name) {
  std::string_view rest = name.substr(kPostGradPrefix.size());
  size_t dot = rest.find('.');
  if (dot != std::string_view::npos && dot > 0 && dot <= 9 &&
      rest.substr(0, dot).find_first_not_of("0123456789") == std::string_view::npos)
    return {std::strtoll(std::string(rest.substr(0, dot)).c_str(), nullptr, 10),
            std::string(rest.substr(dot + 1))};
  return {std::nullopt, std::string(rest)};
}

std::string compile_key(std::optional<std::string> id) {
  if (!id) return {};
  size_t u = id->find('_');
  return u == std::string::npos ? *id : id->substr(0, u);
}

// A field of the payload `p.text`, NULL when the payload is not JSON.
std::string field(std::string_view name) {
  return "CASE WHEN json_valid(p.text) THEN json_extract(p.text, '$." + std::string(name) +
         "') END";
}

struct FileState {
  int64_t call = 0;
  bool call_has_config = false;
  std::optional<int64_t> piecewise;   // the open piecewise subgraph's vllm_piecewise.id
  std::optional<int64_t> base_event;  // the graph the next pass is diffed against
  int64_t base_payload = 0;           // and its payload (0: none; payload ids start at 1)
  int64_t chain = -1;                 // pass chains of the file, from 0
};

}  // namespace

void build_vllm(sqlite3* db) {
  const char* kVllmFiles =
      "SELECT file_id FROM artifacts WHERE name LIKE 'vllm\\_%' ESCAPE '\\' UNION "
      "SELECT file_id FROM events WHERE kind = 'graph_dump' AND "
      "json_extract(metadata, '$.name') LIKE 'vllm\\_%' ESCAPE '\\'";
  if (!has_rows(db, std::string("(") + kVllmFiles + ")")) return;
  Statement records(
      db, std::string("SELECT e.id, e.file_id, COALESCE(f.rank, e.rank), e.compile_id, e.kind, "
                      "coalesce(json_extract(e.metadata, '$.name'), e.kind), e.payload_id FROM events "
                      "e JOIN files f ON f.id = e.file_id WHERE e.kind IN ('artifact', "
                      "'graph_dump', 'inductor_output_code') AND "
                      "e.file_id IN (") +
              kVllmFiles + ") AND json_valid(e.metadata) ORDER BY e.id");
  Statement add_artifact(db,
                         "INSERT INTO vllm_artifacts(file_id, rank, call_index, piecewise_id, "
                         "compile_id, kind, name, role, event_id, payload_id) VALUES "
                         "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
  Statement config_ok(db,
                      "SELECT json_valid(text) AND json_type(text) = 'object' FROM payloads "
                      "WHERE id = ?1");
  Statement add_config(
      db,
      "INSERT INTO vllm_config(file_id, rank, call_index, compile_id, key, value, type, "
      "event_id) SELECT ?1, ?2, ?3, ?4, j.key, CASE j.type WHEN 'true' THEN 'true' WHEN "
      "'false' THEN 'false' ELSE tlscope_clip(j.value) END, j.type, ?5 FROM payloads p, "
      "json_each(p.text) j WHERE p.id = ?6 ORDER BY j.id");
  Statement add_bad_config(db,
                           "INSERT INTO vllm_config(file_id, rank, call_index, compile_id, key, "
                           "value, type, event_id) SELECT ?1, ?2, ?3, ?4, NULL, "
                           "tlscope_clip(p.text), 'invalid', ?5 FROM payloads p WHERE p.id = ?6");
  Statement add_piecewise(
      db,
      "INSERT INTO vllm_piecewise(file_id, rank, call_index, compile_id, piecewise_index, "
      "submod_name, total_piecewise_compiles, range_start, range_end, is_single_size, "
      "is_cudagraph_capture_size, event_id) SELECT ?1, ?2, ?3, ?4, " +
          field("piecewise_index") + ", tlscope_clip(" + field("submod_name") + "), " +
          field("total_piecewise_compiles") + ", " + field("compile_range_start") + ", " +
          field("compile_range_end") + ", " + field("is_single_size") + ", " +
          field("is_cudagraph_capture_size") +
          ", ?5 FROM (SELECT ?6 AS pid) q LEFT JOIN payloads p ON p.id = q.pid");
  Statement add_pass(db,
                     "INSERT INTO vllm_post_grad_passes(file_id, rank, call_index, piecewise_id, "
                     "compile_id, chain, pass_index, pass_name, event_id, base_event_id, "
                     "lines_added, lines_removed) VALUES "
                     "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
  Statement payload_text(db, "SELECT text FROM payloads WHERE id = ?1");
  auto text_of = [&](int64_t id) {
    std::string text;
    if (id == 0) return text;
    payload_text.reset();
    payload_text.bind(1, id);
    if (payload_text.step()) text = payload_text.text(0);
    payload_text.reset();
    return text;
  };

  int64_t file = -1;
  FileState st;
  while (records.step()) {
    const int64_t event = records.int64(0);
    if (records.int64(1) != file) {
      file = records.int64(1);
      st = FileState{};
    }
    const std::optional<int64_t> rank = records.opt_int64(2);
    const std::string cid = compile_key(records.opt_text(3));
    const std::optional<std::string> bound_cid =
        cid.empty() ? std::nullopt : std::optional<std::string>(cid);
    const std::string kind = records.text(4), name = records.text(5);
    const std::optional<int64_t> payload = records.opt_int64(6);
    const std::string_view role = role_of(name);

    if (role == "config") {
      if (st.call_has_config) ++st.call;
      st.call_has_config = true;
      st.piecewise.reset();
      st.base_event.reset();
      st.base_payload = 0;
      bool object = false;
      if (payload) {
        config_ok.reset();
        config_ok.bind(1, *payload);
        object = config_ok.step() && config_ok.int64(0) == 1;
        config_ok.reset();
      }
      Statement& add = object ? add_config : add_bad_config;
      add.bind(1, file).bind(2, rank).bind(3, st.call).bind(4, bound_cid).bind(5, event);
      add.bind(6, payload);
      add.run();
    } else if (role == "compile_start") {
      add_piecewise.bind(1, file).bind(2, rank).bind(3, st.call).bind(4, bound_cid);
      add_piecewise.bind(5, event).bind(6, payload);
      add_piecewise.run();
      st.piecewise = sqlite3_last_insert_rowid(db);
    }
    add_artifact.bind(1, file).bind(2, rank).bind(3, st.call).bind(4, st.piecewise);
    add_artifact.bind(5, bound_cid).bind(6, kind).bind_clipped(7, name).bind(8, role);
    add_artifact.bind(9, event).bind(10, payload);
    add_artifact.run();

    if (role == "before_post_grad") {
      ++st.chain;
      st.base_event = event;
      st.base_payload = payload.value_or(0);
    } else if (role == "post_grad") {
      if (!st.base_event) ++st.chain;  // passes without a logged graph before them
      auto [index, pass] = pass_of(name);
      std::optional<int64_t> added, removed;
      if (st.base_event) {
        const std::string before = text_of(st.base_payload), after = text_of(payload.value_or(0));
        const DiffCounts c = count_changes(line_diff(before, after));
        added = static_cast<int64_t>(c.added);
        removed = static_cast<int64_t>(c.removed);
      }
      add_pass.bind(1, file).bind(2, rank).bind(3, st.call).bind(4, st.piecewise);
      add_pass.bind(5, bound_cid).bind(6, st.chain).bind(7, index).bind_clipped(8, pass);
      add_pass.bind(9, event).bind(10, st.base_event).bind(11, added).bind(12, removed);
      add_pass.run();
      st.base_event = event;
      st.base_payload = payload.value_or(0);
    }
  }
  // A pass's pattern dump: the `vllm_patterns.<Pass>` of its compile call, the latest before
  // the pass (vLLM logs a pass's patterns when it registers them, ahead of its runs).
  exec(db,
       "UPDATE vllm_post_grad_passes SET patterns_event_id = (SELECT max(a.event_id) FROM "
       "vllm_artifacts a WHERE a.role = 'patterns' AND a.file_id = vllm_post_grad_passes.file_id "
       "AND a.call_index = vllm_post_grad_passes.call_index AND a.name = 'vllm_patterns.' || "
       "vllm_post_grad_passes.pass_name AND a.event_id < vllm_post_grad_passes.event_id)");
  exec(db,
       "UPDATE vllm_post_grad_passes SET patterns_event_id = (SELECT min(a.event_id) FROM "
       "vllm_artifacts a WHERE a.role = 'patterns' AND a.file_id = vllm_post_grad_passes.file_id "
       "AND a.call_index = vllm_post_grad_passes.call_index AND a.name = 'vllm_patterns.' || "
       "vllm_post_grad_passes.pass_name) WHERE patterns_event_id IS NULL");
}

}  // namespace tlscope::model::analysis
