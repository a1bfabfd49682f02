// compile/*.html: one page per compile with its metrics, graphs, guards, generated code, other
// artifacts and input tensors, all attempts together. Large payloads get pages of their own.
#include <map>
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

CodeLanguage language_of(const views::PayloadEntry& e) {
  switch (e.language) {
    case views::PayloadLanguage::kPython:
      return CodeLanguage::kPython;
    case views::PayloadLanguage::kCpp:
      return CodeLanguage::kCpp;
    case views::PayloadLanguage::kPlain:
      return CodeLanguage::kPlain;
  }
  return CodeLanguage::kPlain;
}

class CompilePageWriter {
 public:
  CompilePageWriter(ReportContext& ctx, const TensorSnapshots& snapshots)
      : ctx_(ctx), snapshots_(snapshots), reader_(ctx.db), shapes_(ctx.db), runtime_(ctx.db) {
    auto loaded = views::load_provenance_graphs(ctx.db);
    for (const views::ProvenanceGraphRow& g : noted(ctx, "provenance graphs", loaded))
      provenance_[{g.file_id, g.compile_id}].push_back(g);
  }

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
    views::Result<views::CompileRuntime> runtime = runtime_.read(c.file_id, c.compile_id);
    views::Result<views::CompileShapes> shapes = shapes_.read(c.file_id, c.compile_id);
    // The readers read once: their failure is the same for every compile, so one note.
    if (!noted_extra_error_ && (!runtime.ok() || !shapes.ok())) {
      noted_extra_error_ = true;
      ctx_.warnings.push_back("compile pages: " + (runtime.ok() ? shapes.error : runtime.error));
    }
    h += compile_runtime_html(runtime.value);
    h += compile_shapes_html(shapes.value);
    payload_sections(d, h);
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
    auto it = provenance_.find({c.file_id, c.compile_id});
    if (it == provenance_.end()) return;
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
    for (const views::CompileMetrics& m : d.metrics) {
      h += "<details><summary>Metrics: ";
      append_html_escaped(h, m.kind);
      h += "</summary><table class=\"metrics\">";
      for (const views::MetricsField& f : m.fields) {
        h += "<tr><th>";
        append_html_escaped(h, f.name);
        h += "</th><td>";
        append_html_escaped(h, f.value);
        h += "</td></tr>";
      }
      h += "</table></details>\n";
    }
  }

  void payload_sections(const views::CompileDetail& d, std::string& h) {
    size_t budget = kPageInlineBudget;
    for (auto [section, title] : views::kPayloadSections) {
      size_t count = 0;
      for (const views::PayloadEntry& e : d.payloads) count += e.section == section;
      if (count == 0) continue;
      h += "<h2>" + std::string(title) + " (" + std::to_string(count) + ")</h2>\n";
      for (const views::PayloadEntry& e : d.payloads)
        if (e.section == section) payload_block(e, h, budget);
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
    // when the block is opened; beyond highlight_limit they are plain .txt files.
    // The text is read only when it is shown inline or written the first time.
    auto text = [&] { return reader_.payload_text(e.payload_id).value; };
    size_t size = static_cast<size_t>(e.size);
    if (size <= kInlineBytes && size <= budget) {
      budget -= size;
      h += "<pre class=\"code\">" + highlight_code(text(), language_of(e)) + "</pre>";
    } else if (size > ctx_.options.max_inline_payload || language_of(e) == CodeLanguage::kPlain) {
      // Plain text (JSON artifacts, guard lists) needs no highlighting: the raw .txt is framed.
      std::string rel = "payloads/" + std::to_string(e.payload_id) + ".txt";
      if (written_.insert(e.payload_id).second) ctx_.site.write(rel, text());
      h += "<iframe class=\"payload\" loading=\"lazy\" src=\"../" + rel +
           "\"></iframe>"
           "<p class=\"muted\"><a href=\"../" +
           rel + "\">open as text</a></p>";
    } else {
      std::string rel = "payloads/" + std::to_string(e.payload_id) + ".html";
      if (written_.insert(e.payload_id).second) {
        std::string page = page_head(e.name.empty() ? e.kind : e.name, "payload", 1);
        page += "<pre class=\"code\">" + highlight_code(text(), language_of(e)) + "</pre>\n";
        ctx_.site.write(rel, page + page_tail(1));
      }
      h += "<iframe class=\"payload\" loading=\"lazy\" src=\"../" + rel + "\" title=\"";
      append_html_escaped(h, e.name.empty() ? e.kind : e.name);
      h += "\"></iframe><p class=\"muted\"><a href=\"../" + rel + "\">open on its own page</a></p>";
    }
    h += "</details>\n";
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
  views::CompileDetailReader reader_;
  views::CompileShapesReader shapes_;
  views::CompileRuntimeReader runtime_;
  std::set<int64_t> written_;
  std::map<std::pair<int64_t, std::string>, std::vector<views::ProvenanceGraphRow>> provenance_;
  bool noted_error_ = false, noted_extra_error_ = false;
};

}  // namespace

void write_compile_pages(ReportContext& ctx) {
  const std::vector<CompileRow>& compiles = ctx.shared.compile_tree.compiles;
  CompilePageWriter writer(ctx, ctx.shared.snapshots);
  size_t limit = std::min(compiles.size(), ctx.options.max_compile_pages);
  for (size_t i = 0; i < limit; ++i) writer.write(compiles[i]);
  if (limit < compiles.size())
    ctx.warnings.push_back("only the first " + std::to_string(limit) + " of " +
                           std::to_string(compiles.size()) + " compile pages were written");
}

}  // namespace tlscope::exporters
