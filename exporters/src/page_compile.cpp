// compile/*.html: one page per compile id with its metrics, graphs, guards, generated code,
// other artifacts and input tensors. Large payloads are linked as .txt files, not inlined.
#include <set>

#include "pages.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

// Past this many bytes of inlined payload a page links the rest, so no page grows huge.
constexpr size_t kPageInlineBudget = 1 << 20;

enum class Section { kGraphs, kCode, kGuards, kArtifacts };

struct PayloadEvent {
  int64_t event_id, line, payload_id, size;
  std::string kind, name, metadata, file;
};

Section section_of(const PayloadEvent& e) {
  if (e.kind == "inductor_output_code" || e.kind == "graph_dump") return Section::kCode;
  if (e.kind == "dynamo_guards" || e.kind == "dynamo_cpp_guards_str") return Section::kGuards;
  if (e.kind.find("graph") != std::string::npos || e.kind == "exported_program" ||
      e.kind == "dump_file")
    return Section::kGraphs;
  if (e.kind == "artifact" && (e.name.find("graph") != std::string::npos ||
                               e.name == "fx_graph_runnable") &&
      e.name.find("cache") == std::string::npos)
    return Section::kGraphs;
  return Section::kArtifacts;
}

CodeLanguage language_of(const PayloadEvent& e) {
  if (e.kind == "graph_dump" && e.metadata.find("\"cpp\"") != std::string::npos)
    return CodeLanguage::kCpp;
  if (e.kind == "dynamo_cpp_guards_str" || e.kind == "dynamo_guards") return CodeLanguage::kPlain;
  if (e.kind == "artifact" && section_of(e) == Section::kArtifacts) return CodeLanguage::kPlain;
  return CodeLanguage::kPython;
}

class CompilePageWriter {
 public:
  explicit CompilePageWriter(ReportContext& ctx)
      : ctx_(ctx),
        events_(ctx.db.prepare(
            "SELECT e.id, e.line, e.payload_id, coalesce(p.size, 0), e.kind, "
            "coalesce(json_extract(e.metadata, '$.name'), ''), coalesce(e.metadata, ''), "
            "coalesce(f.path, '') FROM events e LEFT JOIN payloads p ON p.id = e.payload_id "
            "LEFT JOIN files f ON f.id = e.file_id "
            "WHERE e.compile_id = ?1 AND e.rank IS ?2 AND e.payload_id IS NOT NULL ORDER BY e.id")),
        payload_(ctx.db.prepare("SELECT text FROM payloads WHERE id = ?")),
        metrics_(ctx.db.has_table("compilation_metrics")
                     ? ctx.db.prepare("SELECT * FROM compilation_metrics WHERE compile_id = ?1 "
                                      "AND rank IS ?2 ORDER BY event_id")
                     : ctx.db.prepare("SELECT 1 WHERE 0")),
        tensors_(ctx.db.has_table("describe_tensor")
                     ? ctx.db.prepare(
                           "SELECT t.tensor_id, t.dtype, t.device, t.size, t.stride, "
                           "coalesce(s.source, ''), t.event_id FROM describe_tensor t "
                           "LEFT JOIN describe_source s ON s.file_id = t.file_id AND "
                           "s.compile_id IS t.compile_id AND s.describer_id = t.describer_id AND "
                           "s.tensor_id = t.tensor_id WHERE t.compile_id = ?1 AND t.rank IS ?2 "
                           "GROUP BY t.event_id ORDER BY t.event_id")
                     : ctx.db.prepare("SELECT 1 WHERE 0")) {
    if (!events_.ok()) ctx.warnings.push_back("compile pages: " + events_.error());
  }

  void write(const CompileInfo& c) {
    std::string h = page_head("Compile " + std::string(c.rank ? "r" + std::to_string(*c.rank) + " " : "") +
                                  "[" + c.compile_id + "]",
                              "compile", 1);
    h += overview(c);
    metrics(c, h);
    payload_sections(c, h);
    tensors(c, h);
    h += page_tail(1);
    ctx_.site.write(compile_page(c.rank, c.compile_id), h);
  }

 private:
  std::string overview(const CompileInfo& c) {
    std::string h = "<table class=\"kv\" id=\"compile-overview\">";
    auto row = [&](std::string_view k, const std::string& v_html) {
      h += "<tr><th>" + std::string(k) + "</th><td>" + v_html + "</td></tr>";
    };
    row("rank", rank_label(c.rank));
    row("status", html_escape(c.status()));
    if (!c.co_name.empty())
      row("code", html_escape(c.co_name) + " <span class=\"muted\">" + html_escape(c.co_filename) +
                      ":" + std::to_string(c.co_firstlineno) + "</span>");
    if (!c.user_frame.empty()) row("user frame", html_escape(c.user_frame));
    if (c.duration_us > 0) row("duration", format_us(c.duration_us));
    if (!c.fail_type.empty())
      row("failure", "<span class=\"bad\">" + html_escape(c.fail_type) + "</span> " +
                         html_escape(c.fail_reason));
    if (!c.recompile_reason.empty()) row("recompile reason", html_escape(c.recompile_reason));
    row("log events", std::to_string(c.event_count));
    return h + "</table>\n";
  }

  void metrics(const CompileInfo& c, std::string& h) {
    metrics_.reset();
    metrics_.bind(1, c.compile_id);
    bind_rank(metrics_, c.rank);
    while (metrics_.step()) {
      h += "<details><summary>Metrics: ";
      for (int i = 0; i < metrics_.column_count(); ++i)
        if (metrics_.column_name(i) == "kind") append_html_escaped(h, metrics_.text_view(i));
      h += "</summary><table class=\"metrics\">";
      for (int i = 0; i < metrics_.column_count(); ++i) {
        std::string_view name = metrics_.column_name(i);
        if (metrics_.is_null(i) || name == "json" || name == "event_id" || name == "file_id") continue;
        h += "<tr><th>";
        append_html_escaped(h, name);
        h += "</th><td>";
        append_html_escaped(h, metrics_.text_view(i));
        h += "</td></tr>";
      }
      h += "</table></details>\n";
    }
  }

  void payload_sections(const CompileInfo& c, std::string& h) {
    std::vector<PayloadEvent> events;
    events_.reset();
    events_.bind(1, c.compile_id);
    bind_rank(events_, c.rank);
    while (events_.step()) {
      events.push_back({events_.int64(0), events_.int64(1), events_.int64(2), events_.int64(3),
                        events_.text(4), events_.text(5), events_.text(6), events_.text(7)});
    }
    size_t budget = kPageInlineBudget;
    static constexpr std::pair<Section, const char*> kSections[] = {
        {Section::kGraphs, "Graphs"},
        {Section::kGuards, "Guards"},
        {Section::kCode, "Generated code"},
        {Section::kArtifacts, "Other artifacts"}};
    for (auto [section, title] : kSections) {
      size_t count = 0;
      for (const PayloadEvent& e : events) count += section_of(e) == section;
      if (count == 0) continue;
      h += "<h2>" + std::string(title) + " (" + std::to_string(count) + ")</h2>\n";
      for (const PayloadEvent& e : events)
        if (section_of(e) == section) payload_block(e, h, budget);
    }
  }

  void payload_block(const PayloadEvent& e, std::string& h, size_t& budget) {
    h += "<details class=\"payload\" data-kind=\"";
    append_html_escaped(h, e.kind);
    h += "\"><summary><b>";
    append_html_escaped(h, e.name.empty() ? e.kind : e.name);
    h += "</b> <span class=\"muted\">";
    if (!e.name.empty()) append_html_escaped(h, e.kind);
    h += " &middot; " + std::to_string(e.size) + " bytes &middot; ";
    append_html_escaped(h, e.file);
    h += ":" + std::to_string(e.line) + "</span></summary>\n";
    std::string text;
    payload_.reset();
    payload_.bind(1, e.payload_id);
    if (payload_.step()) text = payload_.text(0);
    if (text.size() > ctx_.options.max_inline_payload || text.size() > budget) {
      std::string rel = "payloads/" + std::to_string(e.payload_id) + ".txt";
      if (written_.insert(e.payload_id).second) ctx_.site.write(rel, text);
      h += "<p>Too large to show inline: <a href=\"../" + rel + "\">open the payload as text</a>.</p>";
    } else {
      budget -= text.size();
      h += "<pre class=\"code\">" + highlight_code(text, language_of(e)) + "</pre>";
    }
    h += "</details>\n";
  }

  void tensors(const CompileInfo& c, std::string& h) {
    tensors_.reset();
    tensors_.bind(1, c.compile_id);
    bind_rank(tensors_, c.rank);
    std::string rows;
    size_t n = 0;
    while (tensors_.step()) {
      ++n;
      rows += "<tr><td class=\"num\">" + std::to_string(tensors_.int64(0)) + "</td><td>";
      append_html_escaped(rows, tensors_.text_view(5));
      rows += "</td><td>";
      append_html_escaped(rows, tensors_.text_view(3));
      rows += "</td><td>";
      append_html_escaped(rows, tensors_.text_view(4));
      rows += "</td><td>";
      append_html_escaped(rows, tensors_.text_view(1));
      rows += "</td><td>";
      append_html_escaped(rows, tensors_.text_view(2));
      rows += "</td><td><a href=\"../" +
              tensor_page(tensors_.text_view(1), tensors_.text_view(3), tensors_.text_view(4)) +
              "\">view</a></td></tr>\n";
    }
    if (n == 0) return;
    h += "<h2>Input tensors (" + std::to_string(n) + ")</h2>\n<table id=\"compile-tensors\" "
         "data-count=\"" + std::to_string(n) + "\"><thead><tr><th>id</th><th>source</th>"
         "<th>size</th><th>stride</th><th>dtype</th><th>device</th><th></th></tr></thead><tbody>" +
         rows + "</tbody></table>\n";
  }

  static void bind_rank(Statement& s, std::optional<int64_t> rank) {
    if (rank) s.bind(2, *rank);
    else s.bind_null(2);
  }

  ReportContext& ctx_;
  Statement events_, payload_, metrics_, tensors_;
  std::set<int64_t> written_;
};

}  // namespace

void write_compile_pages(ReportContext& ctx, const std::vector<CompileInfo>& compiles) {
  CompilePageWriter writer(ctx);
  size_t limit = std::min(compiles.size(), ctx.options.max_compile_pages);
  for (size_t i = 0; i < limit; ++i) writer.write(compiles[i]);
  if (limit < compiles.size())
    ctx.warnings.push_back("only the first " + std::to_string(limit) + " of " +
                           std::to_string(compiles.size()) + " compile pages were written");
}

}  // namespace tlscope::exporters
