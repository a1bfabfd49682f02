// compile/*.html: one page per compile with its metrics, graphs, guards, generated code, other
// artifacts and input tensors, all attempts together. Large payloads get pages of their own.
#include <map>
#include <set>

#include "pages.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

// Payloads up to this size are inlined; past kPageInlineBudget inlined bytes a page frames the
// rest, so no compile page grows huge.
constexpr size_t kInlineBytes = 2048;
constexpr size_t kPageInlineBudget = 256 << 10;

enum class Section { kGraphs, kCode, kGuards, kArtifacts };

struct PayloadEvent {
  int64_t event_id, line, attempt, payload_id, size;
  std::string kind, name, category, metadata;
};

// compile_directory classifies by the real kinds and artifact names (docs/schema.md).
Section section_of(const PayloadEvent& e) {
  if (e.category == "graph") return Section::kGraphs;
  if (e.category == "code") return Section::kCode;
  if (e.category == "guards") return Section::kGuards;
  return Section::kArtifacts;
}

CodeLanguage language_of(const PayloadEvent& e) {
  if (e.kind == "graph_dump" && e.metadata.find("\"cpp\"") != std::string::npos)
    return CodeLanguage::kCpp;
  Section s = section_of(e);
  return s == Section::kGraphs || s == Section::kCode ? CodeLanguage::kPython
                                                      : CodeLanguage::kPlain;
}

class CompilePageWriter {
 public:
  CompilePageWriter(ReportContext& ctx, const TensorSnapshots& snapshots)
      : ctx_(ctx),
        snapshots_(snapshots),
        events_(ctx.db.prepare(
            "SELECT d.event_id, d.line, d.attempt, d.payload_id, coalesce(d.payload_size, 0), "
            "d.kind, coalesce(d.name, ''), d.category, coalesce(e.metadata, '') "
            "FROM compile_directory d JOIN events e ON e.id = d.event_id "
            "WHERE d.compile_row = ? AND d.payload_id IS NOT NULL ORDER BY d.event_id")),
        payload_(ctx.db.prepare("SELECT text FROM payloads WHERE id = ?")),
        metrics_(ctx.db.prepare("SELECT * FROM compilation_metrics WHERE compile_id = ?1 "
                                "AND file_id = ?2 ORDER BY event_id")) {
    if (!events_.ok()) ctx.warnings.push_back("compile pages: " + events_.error());
    load_tensors();
  }

  void write(const CompileInfo& c) {
    std::string title = "Compile " +
                        std::string(c.rank ? "r" + std::to_string(*c.rank) + " " : "") + "[" +
                        c.compile_id + "]";
    std::string h = page_head(title, "compile", 1);
    overview(c, h);
    metrics(c, h);
    payload_sections(c, h);
    tensors(c, h);
    logged_values(c, h);
    h += page_tail(1);
    ctx_.site.write(compile_page(c.file_id, c.compile_id), h);
  }

 private:
  void overview(const CompileInfo& c, std::string& h) {
    h += "<table class=\"kv\" id=\"compile-overview\" data-status=\"";
    append_html_escaped(h, c.status);
    h += "\">";
    auto row = [&](std::string_view k, const std::string& v_html) {
      h += "<tr><th>" + std::string(k) + "</th><td>" + v_html + "</td></tr>";
    };
    row("rank", rank_label(c.rank));
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

  void metrics(const CompileInfo& c, std::string& h) {
    metrics_.reset();
    metrics_.bind(1, c.compile_id).bind(2, c.file_id);
    while (metrics_.step()) {
      h += "<details><summary>Metrics: ";
      for (int i = 0; i < metrics_.column_count(); ++i)
        if (metrics_.column_name(i) == "kind") append_html_escaped(h, metrics_.text_view(i));
      h += "</summary><table class=\"metrics\">";
      for (int i = 0; i < metrics_.column_count(); ++i) {
        std::string_view name = metrics_.column_name(i);
        if (metrics_.is_null(i) || name == "json" || name == "event_id" || name == "file_id")
          continue;
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
    events_.bind(1, c.row);
    while (events_.step()) {
      events.push_back({events_.int64(0), events_.int64(1), events_.int64(2), events_.int64(3),
                        events_.int64(4), events_.text(5), events_.text(6), events_.text(7),
                        events_.text(8)});
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
    if (!e.name.empty() && e.name != e.kind) append_html_escaped(h, e.kind);
    if (e.attempt > 0) h += " &middot; attempt " + std::to_string(e.attempt);
    h += " &middot; " + std::to_string(e.size) + " bytes &middot; line " + std::to_string(e.line) +
         "</span></summary>\n";
    // Small payloads are inlined. Larger ones are written once per distinct payload (the same
    // graph often recurs in many compiles) as their own page, shown in a lazily loaded frame
    // when the block is opened; beyond highlight_limit they are plain .txt files.
    // The text is read only when it is shown inline or written the first time.
    auto text = [&] {
      payload_.reset();
      payload_.bind(1, e.payload_id);
      return payload_.step() ? payload_.text(0) : std::string();
    };
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

  // One pass over the analysis `tensors` table, so each page needs no query of its own.
  void load_tensors() {
    Statement t = ctx_.db.prepare(
        "SELECT file_id, compile_id, coalesce(tensor_id, -1), coalesce(source, ''), "
        "coalesce(size, ''), coalesce(stride, ''), coalesce(dtype, ''), coalesce(device, ''), "
        "coalesce(attempt, 0), coalesce(input, source, '') FROM tensors ORDER BY id");
    while (t.step()) {
      input_names_[{t.int64(0), t.text(1)}].insert(input_base_name(t.text(9)));
      auto& [count, rows] = tensor_rows_[{t.int64(0), t.text(1)}];
      ++count;
      rows += "<tr><td class=\"num\">" + std::to_string(t.int64(8)) + "</td><td class=\"num\">" +
              std::to_string(t.int64(2)) + "</td><td>";
      append_html_escaped(rows, t.text_view(3));
      rows += "</td><td>";
      append_html_escaped(rows, t.text_view(4));
      rows += "</td><td>";
      append_html_escaped(rows, t.text_view(5));
      rows += "</td><td>";
      append_html_escaped(rows, t.text_view(6));
      rows += "</td><td>";
      append_html_escaped(rows, t.text_view(7));
      rows += "</td><td><a href=\"../" +
              tensor_page(t.text_view(6), t.text_view(4), t.text_view(5)) +
              "\">layout</a></td></tr>\n";
    }
  }

  void tensors(const CompileInfo& c, std::string& h) {
    auto it = tensor_rows_.find({c.file_id, c.compile_id});
    if (it == tensor_rows_.end()) return;
    auto& [count, rows] = it->second;
    h += "<h2>Input tensors (" + std::to_string(count) +
         ")</h2>\n<table id=\"compile-tensors\" data-count=\"" + std::to_string(count) +
         "\"><thead><tr><th>attempt</th><th>id</th><th>source</th><th>size</th><th>stride</th>"
         "<th>dtype</th><th>device</th><th></th></tr></thead><tbody>" +
         rows + "</tbody></table>\n";
    tensor_rows_.erase(it);
  }

  // Logged values (tensor_values) recorded in this compile or named like one of its inputs.
  void logged_values(const CompileInfo& c, std::string& h) {
    constexpr size_t kMaxLinks = 50;
    auto names = input_names_.find({c.file_id, c.compile_id});
    std::vector<size_t> hits = snapshots_.for_compile(
        c.file_id, c.compile_id,
        names == input_names_.end() ? std::set<std::string>{} : names->second);
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
  std::map<std::pair<int64_t, std::string>, std::set<std::string>> input_names_;
  Statement events_, payload_, metrics_;
  std::set<int64_t> written_;
  std::map<std::pair<int64_t, std::string>, std::pair<int64_t, std::string>> tensor_rows_;
};

}  // namespace

void write_compile_pages(ReportContext& ctx, const std::vector<CompileInfo>& compiles,
                         const TensorSnapshots& snapshots) {
  CompilePageWriter writer(ctx, snapshots);
  size_t limit = std::min(compiles.size(), ctx.options.max_compile_pages);
  for (size_t i = 0; i < limit; ++i) writer.write(compiles[i]);
  if (limit < compiles.size())
    ctx.warnings.push_back("only the first " + std::to_string(limit) + " of " +
                           std::to_string(compiles.size()) + " compile pages were written");
}

}  // namespace tlscope::exporters
