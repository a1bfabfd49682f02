// The compare object of docs/json.md, field for field from views::Comparison.
#include "compare_json.hpp"

#include "json_writer.hpp"
#include "summary_json.hpp"

namespace tlscope::cli {

namespace {

void line_or_null(JsonWriter& w, const char* name, int64_t line) {
  w.key(name);
  line >= 0 ? w.value(line) : w.null();
}

void text_or_null(JsonWriter& w, const char* name, const std::optional<std::string>& v) {
  w.key(name);
  v ? w.value(*v) : w.null();
}

}  // namespace

std::string compare_json(const views::Comparison& c) {
  JsonWriter w;
  w.begin_object();
  w.member("schema", views::kCompareSchema);
  w.key("a");
  write_summary_json(w, c.a);
  w.key("b");
  write_summary_json(w, c.b);
  w.key("frames").begin_array();
  for (const views::FrameMatch& f : c.frames) {
    w.begin_object();
    w.member("function", f.function).member("file", f.file);
    line_or_null(w, "line_a", f.line_a);
    line_or_null(w, "line_b", f.line_b);
    w.member("status", views::frame_status_name(f.status));
    w.member("compiles_a", f.compiles_a).member("compiles_b", f.compiles_b);
    w.member("completed_a", f.completed_a).member("completed_b", f.completed_b);
    w.member("failed_a", f.failed_a).member("failed_b", f.failed_b);
    w.member("recompiles_a", f.recompiles_a).member("recompiles_b", f.recompiles_b);
    w.end_object();
  }
  w.end_array();
  // The aligned compile lists, one row per compile pair: what the viewer's rows show, and what
  // a difference's compile_rows point into.
  w.key("compiles").begin_array();
  for (const views::CompilePair& p : c.compiles) {
    w.begin_object();
    w.member("frame", p.frame).member("subject", p.subject);
    line_or_null(w, "rank_a", p.rank_a);
    line_or_null(w, "rank_b", p.rank_b);
    text_or_null(w, "compile_a", p.compile_a);
    text_or_null(w, "compile_b", p.compile_b);
    w.member("status", views::frame_status_name(p.status));
    w.member("outcome_a", p.outcome_a).member("outcome_b", p.outcome_b);
    w.member("recompile_a", p.recompile_a).member("recompile_b", p.recompile_b);
    w.end_object();
  }
  w.end_array();
  w.key("differences").begin_array();
  for (const views::Difference& d : c.differences) {
    w.begin_object();
    w.member("kind", views::kind_info(d.kind).name);
    w.member("tag", views::kind_info(d.kind).tag);
    w.member("subject", d.subject);
    text_or_null(w, "a", d.a);
    text_or_null(w, "b", d.b);
    w.member_ints("ranks", d.ranks);
    w.member_ints("compile_rows", d.compile_rows);
    w.member("text", views::difference_text(d));
    w.end_object();
  }
  w.end_array();
  w.key("phases").begin_array();
  for (const views::PhaseDelta& p : c.phases) {
    w.begin_object();
    w.member("phase", p.phase).member("a_us", p.a_us).member("b_us", p.b_us);
    w.end_object();
  }
  w.end_array();
  w.member("timed_compiles", c.timed_compiles).member("same_work", c.same_work);
  w.member_strings("notes", c.notes);
  w.member_strings("verdict", views::verdict(c));
  w.end_object();
  return w.finish();
}

}  // namespace tlscope::cli
