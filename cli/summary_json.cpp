// The summary object of docs/json.md, field for field from views::RunSummary.
#include "summary_json.hpp"

namespace tlscope::cli {

namespace {

void opt_member(JsonWriter& w, std::string_view name, const std::optional<int64_t>& v) {
  w.key(name);
  v ? w.value(*v) : w.null();
}

// The fields today's logs add (views/run_records.hpp).
void write_run_records(JsonWriter& w, const views::RunRecords& r) {
  w.key("torch_commit");
  r.torch_commit.empty() ? w.null() : w.value(r.torch_commit);
  w.key("config").begin_object();
  for (const auto& [key, value] : r.config) w.member(key, value);
  w.end_object();
  w.key("compile_phases").begin_array();
  for (const views::PhaseTotal& p : r.compile_phases) {
    w.begin_object().member("name", p.name);
    w.key("parent");
    p.parent.empty() ? w.null() : w.value(p.parent);
    w.member("seconds", p.seconds).member("count", p.count).end_object();
  }
  w.end_array();
  w.key("unknown_record_kinds").begin_object();
  for (const views::KindCount& k : r.unknown_record_kinds) w.member(k.kind, k.count);
  w.end_object();
  w.key("subgraphs").begin_array();
  for (const views::SubgraphSummary& g : r.subgraphs) {
    w.begin_object().member("compile_id", g.compile_id).member("subgraph_name", g.subgraph_name);
    w.member_strings("artifacts", g.artifacts).end_object();
  }
  w.end_array();
  w.key("vllm");
  if (!r.vllm) {
    w.null();
    return;
  }
  w.begin_object().key("config").begin_object();
  for (const auto& [key, value] : r.vllm->config) w.member(key, value);
  w.end_object().key("piecewise").begin_array();
  for (const views::VllmPiecewiseSummary& p : r.vllm->piecewise) {
    w.begin_object();
    opt_member(w, "index", p.index);
    w.member("submod_name", p.submod_name);
    opt_member(w, "range_start", p.range_start);
    opt_member(w, "range_end", p.range_end);
    w.member("is_single_size", p.single_size);
    w.member("is_cudagraph_capture_size", p.cudagraph_capture_size).end_object();
  }
  w.end_array();
  w.member_strings("post_grad_passes", r.vllm->post_grad_passes);
  w.end_object();
}

}  // namespace

void write_summary_json(JsonWriter& w, const views::RunSummary& s) {
  w.begin_object();
  w.member("schema", views::kSummarySchema);
  w.key("torch_version");
  s.torch_version ? w.value(*s.torch_version) : w.null();
  w.member_ints("ranks", s.ranks);
  w.key("compiles").begin_object();
  w.member("attempted", s.compiles.attempted).member("completed", s.compiles.completed);
  w.member("failed", s.compiles.failed).member("unfinished", s.compiles.unfinished);
  w.member("restarts", s.compiles.restarts);
  w.end_object();
  w.member("recompiles", s.recompiles);
  w.key("graph_breaks").begin_object();
  w.member("records", s.graph_break_records).member("distinct", s.graph_breaks_distinct);
  w.end_object();
  w.key("frames").begin_array();
  for (const views::FrameSummary& f : s.frames) {
    w.begin_object();
    w.member("file", f.file);
    w.key("line");
    f.line >= 0 ? w.value(f.line) : w.null();
    w.member("function", f.function);
    w.member("compiles", f.compiles).member("completed", f.completed).member("failed", f.failed);
    w.member_strings("recompile_reasons", f.recompile_reasons);
    w.end_object();
  }
  w.end_array();
  w.key("findings").begin_array();
  for (const views::FindingSummary& f : s.findings) {
    w.begin_object();
    w.member("kind", f.kind).member("severity", f.severity);
    w.member_ints("ranks", f.ranks);
    w.key("compile_id");
    f.compile_id.empty() ? w.null() : w.value(f.compile_id);
    w.key("fields").raw(f.fields_json);
    w.member("text", f.text);
    w.end_object();
  }
  w.end_array();
  w.member("analysed", s.analysed);
  w.key("files").begin_object();
  w.member("count", s.health.files).member("incomplete", s.health.incomplete_files);
  w.end_object();
  write_run_records(w, s.records);
  w.end_object();
}

std::string summary_json(const views::RunSummary& s) {
  JsonWriter w;
  write_summary_json(w, s);
  return w.finish();
}

}  // namespace tlscope::cli
