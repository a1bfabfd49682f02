// The summary object of docs/json.md, field for field from views::RunSummary.
#include "summary_json.hpp"

namespace tlscope::cli {

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
  w.end_object();
}

std::string summary_json(const views::RunSummary& s) {
  JsonWriter w;
  write_summary_json(w, s);
  return w.finish();
}

}  // namespace tlscope::cli
