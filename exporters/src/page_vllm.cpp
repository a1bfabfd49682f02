// vllm.html: vLLM's compile records (views/vllm.hpp). Per compile call its compilation config,
// its piecewise compiles grouped by compile size or range (cudagraph capture sizes marked) with
// the records each owns, and the post-grad passes in order, each with the line diff it made
// against the graph before it and its pattern dump. A log without vLLM records says so.
#include "pages.hpp"
#include "tlscope/exporters/html.hpp"
#include "tlscope/views/cell_text.hpp"
#include "tlscope/views/compile_detail.hpp"
#include "tlscope/views/vllm.hpp"

namespace tlscope::exporters {

namespace {

// A pass's pattern dump is shown inline up to this size (the report's inline limit applies too).
constexpr size_t kPatternsLimit = 64 * 1024;

std::string esc(std::string_view s) {
  return html_escape(s);
}

std::string diff_html(const std::vector<views::VllmDiffLine>& lines) {
  std::string h = "<pre class=\"diff\">";
  for (const views::VllmDiffLine& l : lines) {
    const char* cls = l.op == '+' ? "add" : l.op == '-' ? "del" : l.op == '@' ? "gap" : "";
    h += "<span class=\"";
    h += cls;
    h += "\">";
    h += l.op == '@' ? std::string("...") : std::string(1, l.op) + " " + esc(l.text);
    h += "</span>";
    h += "\n";
  }
  return h + "</pre>\n";
}

std::string artifact_list(const std::vector<views::VllmArtifact>& artifacts) {
  if (artifacts.empty()) return {};
  std::string h = "<ul class=\"vllm-records\">";
  for (const views::VllmArtifact& a : artifacts)
    h += "<li><span class=\"cid\">" + esc(a.name) + "</span> <span class=\"muted\">" + esc(a.kind) +
         ", event " + std::to_string(a.event_id) + "</span></li>";
  return h + "</ul>\n";
}

std::string call_html(ReportContext& ctx, const views::VllmCall& c, size_t n) {
  std::string h =
      "<h2 id=\"call-" + std::to_string(n) + "\">Compile call " + std::to_string(c.index) + " " +
      (c.compile_id.empty() ? std::string() : compile_link(c.file_id, c.rank, c.compile_id, 0)) +
      "</h2>\n";
  if (c.config.empty()) {
    h += "<p class=\"muted\">No vllm_compilation_config record for this call.</p>\n";
  } else {
    h += "<h3>Compilation config</h3>\n<table class=\"vllm-config\"><tbody>\n";
    for (const views::VllmConfigEntry& e : c.config)
      h += "<tr><th>" + esc(e.key) + "</th><td>" + esc(e.value) + "</td><td class=\"muted\">" +
           esc(e.type) + "</td></tr>\n";
    h += "</tbody></table>\n";
  }
  if (!c.before_piecewise.empty()) h += "<h3>Records</h3>\n" + artifact_list(c.before_piecewise);
  if (!c.groups.empty()) {
    h += "<h3>Piecewise compiles by size or range</h3>\n";
    for (const views::VllmSizeGroup& g : c.groups) {
      h += "<details open><summary><b>" + esc(g.label) + "</b>";
      if (g.cudagraph_capture_size) h += " <span class=\"tag good\">cudagraph capture size</span>";
      h += " " + plural(static_cast<int64_t>(g.piecewise.size()), "submodule") + "</summary>\n";
      h += "<table class=\"vllm-piecewise\"><thead><tr><th>#</th><th>submodule</th><th>"
           "records</th></tr></thead><tbody>\n";
      for (const views::VllmPiecewise& p : g.piecewise) {
        h += "<tr><td class=\"num\">" + (p.index ? std::to_string(*p.index) : "?") +
             (p.total ? " of " + std::to_string(*p.total) : "") + "</td><td class=\"cid\">" +
             esc(p.submod_name) + "</td><td>" + artifact_list(p.artifacts) + "</td></tr>\n";
      }
      h += "</tbody></table></details>\n";
    }
  }
  if (!c.passes.empty()) {
    h += "<h3>Post-grad passes</h3>\n<ol class=\"vllm-passes\">\n";
    for (const views::VllmPass& p : c.passes) {
      h += "<li><b>" + esc(p.name) + "</b>";
      if (p.index) h += " <span class=\"muted\">(pass " + std::to_string(*p.index) + ")</span>";
      if (p.lines_added)
        h += " <span class=\"good\">+" + std::to_string(*p.lines_added) +
             "</span> <span class=\"bad\">-" + std::to_string(p.lines_removed.value_or(0)) +
             "</span>";
      if (p.base_event_id != 0) {
        auto texts = views::load_pass_texts(ctx.db, p);
        if (!texts.ok()) ctx.warnings.push_back("vllm: " + texts.error);
        h += "<details><summary>diff against the graph before it</summary>" +
             diff_html(views::pass_diff(texts->before, texts->after)) + "</details>";
      } else {
        h += " <span class=\"muted\">no graph logged before it</span>";
      }
      if (p.patterns_payload_id != 0) {
        // Through views/ (CompileDetailReader::payload_text clips it), not SQL of the page's own.
        views::CompileDetailReader payloads(ctx.db);
        views::Result<std::string> patterns =
            payloads.payload_text(p.patterns_payload_id, kPatternsLimit);
        if (!patterns.ok()) ctx.warnings.push_back("vllm: " + patterns.error);
        const std::string& text = *patterns;
        h += "<details><summary>patterns (vllm_patterns." + esc(p.name) + ")</summary><pre>" +
             esc(text) + "</pre></details>";
      }
      h += "</li>\n";
    }
    h += "</ol>\n";
  }
  if (!c.patterns.empty()) h += "<h3>Pattern dumps</h3>\n" + artifact_list(c.patterns);
  return h;
}

}  // namespace

void write_vllm_page(ReportContext& ctx) {
  // Held here: noted() returns a reference into the loaded result.
  const views::Result<views::VllmReport> loaded = views::load_vllm(ctx.db);
  const views::VllmReport& v = noted(ctx, "vllm", loaded);
  std::string h = page_head("vLLM", "vllm", 0);
  if (!v.present) {
    h += "<p class=\"muted\">This log has no vLLM records.</p>\n";
  } else {
    for (size_t i = 0; i < v.calls.size(); ++i) h += call_html(ctx, v.calls[i], i);
  }
  ctx.site.write("vllm.html", h + page_tail(0));
}

}  // namespace tlscope::exporters
