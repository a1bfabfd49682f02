// compile/*.html: one page per compile with its metrics, graphs, guards, generated code, other
// artifacts and input tensors, all attempts together. Large payloads get pages of their own.
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "pages.hpp"
#include "shapes_html.hpp"
#include "tlscope/exporters/html.hpp"
#include "tlscope/views/compile_detail.hpp"
#include "tlscope/views/compile_runtime.hpp"
#include "tlscope/views/provenance.hpp"
#include "tlscope/views/symbolic_shapes.hpp"

namespace tlscope::exporters {

namespace {

// Payloads up to this size are inlined; past kPageInlineBudget inlined bytes a page frames the
// rest, so no compile page grows huge.
constexpr size_t kInlineBytes = 2048;
constexpr size_t kPageInlineBudget = 256 << 10;

// A payload file a compile page links to, as the first compile that links it asked for it.
struct PayloadFile {
  int64_t payload_id = 0;
  std::string rel;    // payloads/<id>.txt or .html
  std::string title;  // the .html page's title
  CodeLanguage language = CodeLanguage::kPlain;
};

// What the slices of the compile pages share: the provenance links (loaded once, read-only) and
// the payload files each slice asked for, merged in compile order once every slice is done.
struct CompilePlan {
  explicit CompilePlan(const Database& db) : shapes(db), runtime(db) {}
  // Both read their whole table when made, so they are made once here, not once per slice;
  // read() only looks them up.
  const views::CompileShapesReader shapes;
  const views::CompileRuntimeReader runtime;
  std::map<std::pair<int64_t, std::string>, std::vector<views::ProvenanceGraphRow>> provenance;
  std::string provenance_note;                   // a failed load, noted by the first slice
  std::vector<std::vector<PayloadFile>> wanted;  // per slice, in the order its pages link them
  std::once_flag merged;
  std::vector<PayloadFile> files;  // each payload once: its first link wins
};

class CompilePageWriter {
 public:
  CompilePageWriter(ReportContext& ctx, const TensorSnapshots& snapshots, const CompilePlan& plan,
                    std::vector<PayloadFile>& wanted)
      : ctx_(ctx), snapshots_(snapshots), plan_(plan), wanted_(wanted), reader_(ctx.db) {}

  views::CompileDetailReader& reader() { return reader_; }

  void write(const CompileRow& row) {
    views::Result<views::CompileDetail> loaded = reader_.read(row);
    // One note for the whole report: the same statement fails for every compile.
    if (!loaded.ok() && !noted_error_) {
      noted_error_ = true;
      ctx_.warnings.push_back("compile pages: " + loaded.error);
    }
    const views::CompileDetail& d = loaded.value;
    const CompileRow& c = d.compile;
    std::string title = "Compile " +
                        std::string(c.rank >= 0 ? "r" + std::to_string(c.rank) + " " : "") + "[" +
                        c.compile_id + "]";
    std::string h = page_head(title, "compile", 1);
    overview(c, h);
    provenance(c, h);
    metrics(d, h);
    views::Result<views::CompileRuntime> runtime = plan_.runtime.read(c.file_id, c.compile_id);
    views::Result<views::CompileShapes> shapes = plan_.shapes.read(c.file_id, c.compile_id);
    // The readers read once: their failure is the same for every compile, so one note.
    if (!noted_extra_error_ && (!runtime.ok() || !shapes.ok())) {
      noted_extra_error_ = true;
      ctx_.warnings.push_back("compile pages: " + (runtime.ok() ? shapes.error : runtime.error));
    }
    h += compile_runtime_html(runtime.value);
    h += compile_shapes_html(shapes.value);
    payload_sections(d, h);
    other_records(d, h);
    tensors(d, h);
    logged_values(d, h);
    h += page_tail(1);
    ctx_.site.write(compile_page(c.file_id, c.compile_id), h);
  }

 private:
  void overview(const CompileRow& c, std::string& h) {
    h += "<table class=\"kv\" id=\"compile-overview\" data-status=\"";
    append_html_escaped(h, c.status);
    h += "\">";
    auto row = [&](std::string_view k, const std::string& v_html) {
      h += "<tr><th>" + std::string(k) + "</th><td>" + v_html + "</td></tr>";
    };
    row("rank", rank_label(views::rank_opt(c.rank)));
    row("status", html_escape(c.status));
    if (c.attempts > 1) row("attempts", std::to_string(c.attempts));
    if (!c.co_name.empty())
      row("code", html_escape(c.co_name) + " <span class=\"muted\">" + html_escape(c.co_filename) +
                      ":" + std::to_string(c.co_firstlineno) + "</span>");
    if (c.duration_us > 0) row("duration", format_us(c.duration_us));
    if (!c.fail_type.empty())
      row("failure", "<span class=\"bad\">" + html_escape(c.fail_type) + "</span> " +
                         html_escape(c.fail_reason));
    if (!c.recompile_reason.empty()) row("recompile reason", html_escape(c.recompile_reason));
    h += "</table>\n";
  }

  // Links to the compile's Inductor provenance pages, when it logged the mapping artifacts.
  void provenance(const CompileRow& c, std::string& h) {
    auto it = plan_.provenance.find({c.file_id, c.compile_id});
    if (it == plan_.provenance.end()) return;
    h += "<p id=\"compile-provenance\">Inductor provenance (pre-grad nodes, post-grad nodes and "
         "kernels linked): ";
    for (const views::ProvenanceGraphRow& g : it->second) {
      h += "<a href=\"../" + provenance_page(g.id) + "\">";
      append_html_escaped(h, g.label());
      h += "</a> ";
    }
    h += "</p>\n";
  }

  void metrics(const views::CompileDetail& d, std::string& h) {
    if (!d.missing_metrics.empty()) {
      h += "<p class=\"warn\" id=\"compile-missing-metrics\">";
      append_html_escaped(h, d.missing_metrics);
      h += "</p>\n";
    }
    for (const views::CompileMetrics& m : d.metrics) {
      h += "<details><summary>Metrics: ";
      append_html_escaped(h, m.kind);
      if (!m.unknown_fields.empty())
        h += " <span class=\"warn\">(" +
             plural(static_cast<int64_t>(m.unknown_fields.size()), "field") +
             " new to tlscope)</span>";
      h += "</summary><table class=\"metrics\">";
      auto field_row = [&](const views::MetricsField& f, bool unknown) {
        h += unknown ? "<tr class=\"unknown-field\"><th>" : "<tr><th>";
        append_html_escaped(h, f.name);
        if (unknown) h += " <span class=\"warn\">(new)</span>";
        h += "</th><td>";
        append_html_escaped(h, f.value);
        h += "</td></tr>";
      };
      for (const views::MetricsField& f : m.fields) field_row(f, false);
      for (const views::MetricsField& f : m.more_fields)
        field_row(f, std::find(m.unknown_fields.begin(), m.unknown_fields.end(), f.name) !=
                         m.unknown_fields.end());
      h += "</table></details>\n";
    }
  }

  void payload_sections(const views::CompileDetail& d, std::string& h) {
    size_t budget = kPageInlineBudget;
    for (auto [section, title] : views::kPayloadSections) {
      size_t count = 0;
      for (const views::PayloadEntry& e : d.payloads)
        count += e.section == section && e.subgraph.empty();
      if (count == 0) continue;
      h += "<h2>" + std::string(title) + " (" + std::to_string(count) + ")";
      if (section == views::PayloadSection::kGuards && !d.guard_latency.empty()) {
        h += " <span class=\"muted\" id=\"compile-guard-latency\">guard latency ";
        append_html_escaped(h, d.guard_latency);
        h += "</span>";
      }
      h += "</h2>\n";
      for (const views::PayloadEntry& e : d.payloads)
        if (e.section == section && e.subgraph.empty()) payload_block(e, h, budget);
    }
    // Records of a subgraph (an invoke_subgraph body, a partitioned backward), grouped under
    // its name as tlparse does.
    std::vector<views::SubgraphPayloads> subgraphs = views::payloads_by_subgraph(d);
    if (subgraphs.empty()) return;
    h += "<h2 id=\"compile-subgraphs\">Subgraphs (" + std::to_string(subgraphs.size()) + ")</h2>\n";
    for (const views::SubgraphPayloads& s : subgraphs) {
      h += "<div class=\"subgraph\" data-subgraph=\"";
      append_html_escaped(h, s.name);
      h += "\" data-count=\"" + std::to_string(s.payloads.size()) + "\"><h3>";
      append_html_escaped(h, s.name);
      h += " <span class=\"muted\">(" + std::to_string(s.payloads.size()) + ")</span></h3>\n";
      for (size_t i : s.payloads) payload_block(d.payloads[i], h, budget);
      h += "</div>\n";
    }
  }

  void payload_block(const views::PayloadEntry& e, std::string& h, size_t& budget) {
    h += "<details class=\"payload\" data-kind=\"";
    append_html_escaped(h, e.kind);
    h += "\"><summary><b>";
    append_html_escaped(h, e.name.empty() ? e.kind : e.name);
    h += "</b> <span class=\"muted\">";
    if (!e.name.empty() && e.name != e.kind) append_html_escaped(h, e.kind);
    if (e.attempt > 0) h += " &middot; attempt " + std::to_string(e.attempt);
    h += " &middot; " + std::to_string(e.size) + " bytes &middot; line " + std::to_string(e.line) +
         "</span></summary>\n";
    // Small payloads are inlined. Larger ones are written once per distinct payload (the same
    // graph often recurs in many compiles) as their own page, shown in a lazily loaded frame
    // when the block is opened; beyond highlight_limit they are plain .txt files. Those files
    // are asked for here and written after every slice is done (write_payload_files).
    size_t size = static_cast<size_t>(e.size);
    if (size <= kInlineBytes && size <= budget) {
      budget -= size;
      // The size column may understate (a damaged or hostile file): the text is read clipped.
      h += "<pre class=\"code\">" +
           highlight_code(reader_.payload_text(e.payload_id, ctx_.options.max_inline_payload).value,
                          e.language) +
           "</pre>";
    } else if (size > ctx_.options.max_inline_payload || e.language == CodeLanguage::kPlain) {
      // Plain text (JSON artifacts, guard lists) needs no highlighting: the raw .txt is framed.
      std::string rel = "payloads/" + std::to_string(e.payload_id) + ".txt";
      want(e, rel);
      h += "<iframe class=\"payload\" loading=\"lazy\" src=\"../" + rel +
           "\"></iframe>"
           "<p class=\"muted\"><a href=\"../" +
           rel + "\">open as text</a></p>";
    } else {
      std::string rel = "payloads/" + std::to_string(e.payload_id) + ".html";
      want(e, rel);
      h += "<iframe class=\"payload\" loading=\"lazy\" src=\"../" + rel + "\" title=\"";
      append_html_escaped(h, e.name.empty() ? e.kind : e.name);
      h += "\"></iframe><p class=\"muted\"><a href=\"../" + rel + "\">open on its own page</a></p>";
    }
    h += "</details>\n";
  }

  void want(const views::PayloadEntry& e, const std::string& rel) {
    if (asked_.insert(e.payload_id).second)
      wanted_.push_back({e.payload_id, rel, e.name.empty() ? e.kind : e.name, e.language});
  }

  // Records of kinds no other section reads, as their metadata: a kind a newer PyTorch writes is
  // seen under its compile rather than nowhere. A record's metadata is shown up to
  // kOtherRecordBytes (it is log text: any length, any content).
  void other_records(const views::CompileDetail& d, std::string& h) {
    constexpr size_t kOtherRecordBytes = 8192;
    if (d.other_records.empty()) return;
    h += "<h2>Other records (" + std::to_string(d.other_records.size()) +
         ")</h2>\n<table id=\"compile-other-records\"><thead><tr><th>line</th><th>attempt</th>"
         "<th>kind</th><th>metadata</th></tr></thead><tbody>";
    for (const views::OtherRecord& r : d.other_records) {
      h += "<tr><td class=\"num\">" + std::to_string(r.line) + "</td><td class=\"num\">" +
           std::to_string(r.attempt) + "</td><td>";
      append_html_escaped(h, r.kind);
      h += "</td><td><pre>";
      size_t cut = std::min(r.metadata.size(), kOtherRecordBytes);
      // Not inside a UTF-8 sequence.
      while (cut < r.metadata.size() && cut > 0 && (r.metadata[cut] & 0xC0) == 0x80) --cut;
      append_html_escaped(h, std::string_view(r.metadata).substr(0, cut));
      if (r.metadata.size() > kOtherRecordBytes)
        h += "</pre><span class=\"muted\">(first " + std::to_string(kOtherRecordBytes) + " of " +
             std::to_string(r.metadata.size()) + " bytes)</span></td></tr>\n";
      else
        h += "</pre></td></tr>\n";
    }
    h += "</tbody></table>\n";
  }

  void tensors(const views::CompileDetail& d, std::string& h) {
    if (d.tensors.empty()) return;
    h += "<h2>Input tensors (" + std::to_string(d.tensors.size()) +
         ")</h2>\n<table id=\"compile-tensors\" data-count=\"" + std::to_string(d.tensors.size()) +
         "\"><thead><tr><th>attempt</th><th>id</th><th>source</th><th>size</th><th>stride</th>"
         "<th>dtype</th><th>device</th><th></th></tr></thead><tbody>";
    for (const views::InputTensorRow& t : d.tensors) {
      h += "<tr><td class=\"num\">" + std::to_string(t.attempt) + "</td><td class=\"num\">" +
           std::to_string(t.tensor_id) + "</td><td>";
      append_html_escaped(h, t.source);
      h += "</td><td>";
      append_html_escaped(h, t.size);
      h += "</td><td>";
      append_html_escaped(h, t.stride);
      h += "</td><td>";
      append_html_escaped(h, t.dtype);
      h += "</td><td>";
      append_html_escaped(h, t.device);
      h += "</td><td><a href=\"../" + tensor_page(t.dtype, t.size, t.stride) +
           "\">layout</a></td></tr>\n";
    }
    h += "</tbody></table>\n";
  }

  // Logged values (tensor_values) recorded in this compile or named like one of its inputs.
  void logged_values(const views::CompileDetail& d, std::string& h) {
    constexpr size_t kMaxLinks = 50;
    std::set<std::string> names;
    for (const std::string& input : d.inputs) names.insert(input_base_name(input));
    std::vector<size_t> hits =
        snapshots_.for_compile(d.compile.file_id, d.compile.compile_id, names);
    if (hits.empty()) return;
    h += "<h2>Logged tensor values (" + std::to_string(hits.size()) + ")</h2>\n" +
         snapshot_table_head("compile-values", hits.size());
    for (size_t i = 0; i < hits.size() && i < kMaxLinks; ++i)
      h += snapshot_rows_html(snapshots_, hits[i], hits[i] + 1, 1);
    h += "</tbody></table>\n";
    if (hits.size() > kMaxLinks)
      h += "<p class=\"muted\">The first " + std::to_string(kMaxLinks) +
           " are listed; all are on <a href=\"../tensor_values.html\">the values index</a>.</p>\n";
  }

  ReportContext& ctx_;
  const TensorSnapshots& snapshots_;
  const CompilePlan& plan_;
  std::vector<PayloadFile>& wanted_;
  views::CompileDetailReader reader_;
  std::set<int64_t> asked_;  // this slice's, so `wanted_` lists each payload once
  bool noted_error_ = false, noted_extra_error_ = false;
};

// Payload files [begin, end) of plan.files, with the text read through this item's connection.
void write_payload_files(ReportContext& ctx, views::CompileDetailReader& reader,
                         const CompilePlan& plan, size_t begin, size_t end) {
  for (size_t i = begin; i < end && i < plan.files.size(); ++i) {
    const PayloadFile& f = plan.files[i];
    if (f.rel.ends_with(".txt")) {
      // Written from SQLite's copy of the text: a payload of hundreds of MB is held once.
      std::string error;
      if (!reader.with_payload_text(
              f.payload_id, [&](std::string_view text) { ctx.site.write(f.rel, text); }, error))
        ctx.site.write(f.rel, "");
      continue;
    }
    // Highlighted pages are for payloads up to max_inline_payload; one whose size column
    // understated it is highlighted that far, with the clip note.
    std::string text = reader.payload_text(f.payload_id, ctx.options.max_inline_payload).value;
    std::string page = page_head(f.title, "payload", 1);
    page += "<pre class=\"code\">" + highlight_code(text, f.language) + "</pre>\n";
    ctx.site.write(f.rel, page + page_tail(1));
  }
}

void merge_wanted(CompilePlan& plan) {
  std::set<int64_t> seen;
  for (const std::vector<PayloadFile>& slice : plan.wanted)
    for (const PayloadFile& f : slice)
      if (seen.insert(f.payload_id).second) plan.files.push_back(f);
}

}  // namespace

std::vector<WorkItem> compile_work(ReportContext& ctx, size_t slices) {
  const std::vector<CompileRow>& compiles = ctx.shared.compile_tree.compiles;
  size_t limit = std::min(compiles.size(), ctx.options.max_compile_pages);
  auto plan = std::make_shared<CompilePlan>(ctx.db);
  const auto& loaded = ctx.shared.provenance_graphs;
  if (!loaded.ok()) plan->provenance_note = "provenance graphs: " + loaded.error;
  for (const views::ProvenanceGraphRow& g : loaded.value)
    plan->provenance[{g.file_id, g.compile_id}].push_back(g);
  slices = std::clamp<size_t>(slices, 1, std::max<size_t>(limit, 1));
  plan->wanted.resize(slices);
  // Payload files [n k / slices, n (k + 1) / slices) of the merged list.
  auto write_payloads = [plan, slices](ReportContext& c, views::CompileDetailReader& reader,
                                       size_t k) {
    std::call_once(plan->merged, [&] { merge_wanted(*plan); });
    size_t n = plan->files.size();
    write_payload_files(c, reader, *plan, n * k / slices, n * (k + 1) / slices);
  };
  std::vector<WorkItem> items;
  std::vector<size_t> all_slices;
  for (size_t k = 0; k < slices; ++k) {
    size_t begin = limit * k / slices, end = limit * (k + 1) / slices;
    all_slices.push_back(items.size());
    auto slice = [plan, k, begin, end, limit, write_payloads](ReportContext& c) {
      if (k == 0 && !plan->provenance_note.empty()) c.warnings.push_back(plan->provenance_note);
      CompilePageWriter writer(c, c.shared.snapshots, *plan, plan->wanted[k]);
      for (size_t i = begin; i < end; ++i) writer.write(c.shared.compile_tree.compiles[i]);
      size_t total = c.shared.compile_tree.compiles.size();
      if (k + 1 == plan->wanted.size() && limit < total)
        c.warnings.push_back("only the first " + std::to_string(limit) + " of " +
                             std::to_string(total) + " compile pages were written");
      // One slice (one thread) writes the payload files itself, through its writer's reader:
      // a reader of their own would prepare its statements again, a cost small reports feel.
      if (plan->wanted.size() == 1) write_payloads(c, writer.reader(), 0);
    };
    items.push_back({"compile", slice, {}});
  }
  if (slices == 1) return items;
  // The payload files come after every slice (each is written by its first link, in compile
  // order), split as finely as the pages.
  for (size_t k = 0; k < slices; ++k) {
    auto payloads = [k, write_payloads](ReportContext& c) {
      views::CompileDetailReader reader(c.db);
      write_payloads(c, reader, k);
    };
    items.push_back({"compile", payloads, all_slices});
  }
  return items;
}

void write_compile_pages(ReportContext& ctx) {
  for (const WorkItem& item : compile_work(ctx, 1)) item.run(ctx);
}

}  // namespace tlscope::exporters
