// provenance/provenance_<id>.html: one page per Inductor provenance graph (views::ProvenanceView),
// written whenever the log holds the provenance artifacts. Three panes - pre-grad graph,
// post-grad graph, generated code - whose lines carry the items they define; assets/provenance.js
// highlights, on a click, every line the item maps to in the other panes (the sets are computed in
// views/ and written as data attributes: the report runs no inline script).
#include <map>

#include "pages.hpp"
#include "tlscope/exporters/html.hpp"
#include "tlscope/views/provenance.hpp"

namespace tlscope::exporters {

namespace {

// A pane past this many lines is cut (the page would not stay usable); the cut is stated.
constexpr size_t kMaxPaneLines = 60000;

// "3 4 5 9" as "3-5 9": kernel definition blocks are long runs.
std::string ranges(const std::vector<int>& v) {
  std::string s;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    if (!s.empty()) s += ' ';
    s += std::to_string(v[i]);
    if (j > i) s += "-" + std::to_string(v[j]);
    i = j + 1;
  }
  return s;
}

std::string names(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& n : v) {
    if (!s.empty()) s += ", ";
    s += n;
  }
  return s;
}

constexpr const char* kStyle = R"css(<style>
#provenance{display:grid;grid-template-columns:1fr 1fr 1.3fr;gap:8px;margin-top:8px}
.prov-pane{border:1px solid #ccc;min-width:0}
.prov-pane h3{margin:0;padding:4px 6px;background:#f2f2f2;font-size:13px}
.prov-lines{height:70vh;overflow:auto;font:12px/1.35 monospace;white-space:pre}
.pl{padding:0 6px}
.pl[data-items]{cursor:pointer}
.pl[data-items]:hover{background:#eef}
.pl.hl{background:#fff2a8}
.pl.sel{background:#ffd54a}
.pl.head{color:#777;font-style:italic}
.prov-item{margin:1px;font:12px monospace}
#prov-detail{border:1px solid #ccc;padding:4px 8px;margin-top:8px;min-height:2em}
#prov-stack{max-height:12em;overflow:auto}
</style>
)css";

void pane_html(const views::ProvenanceView& v, int pane, std::string& h) {
  const views::ProvenancePane& p = v.panes[pane];
  h += "<section class=\"prov-pane\" data-pane=\"" + std::to_string(pane) + "\"><h3>" +
       views::kProvenancePaneTitles[pane] + " <span class=\"muted\">";
  append_html_escaped(h, p.source.empty() ? "not logged" : p.source);
  h += "</span></h3><div class=\"prov-lines\" id=\"pane-" + std::to_string(pane) + "\">";
  size_t shown = std::min(p.lines.size(), kMaxPaneLines);
  for (size_t i = 0; i < shown; ++i) {
    const views::ProvenanceLine& l = p.lines[i];
    h += "<div class=\"pl" + std::string(l.number == 0 ? " head" : "") + "\" id=\"l" +
         std::to_string(pane) + "-" + std::to_string(i) + "\"";
    if (!l.items.empty()) {
      h += " data-items=\"";
      for (size_t k = 0; k < l.items.size(); ++k) h += (k ? " " : "") + std::to_string(l.items[k]);
      h += "\"";
    }
    h += ">";
    if (l.text.empty())
      h += " ";
    else
      append_html_escaped(h, l.text);
    h += "</div>";
  }
  if (shown < p.lines.size())
    h += "<div class=\"pl head\">(" + std::to_string(p.lines.size() - shown) +
         " more lines not shown)</div>";
  h += "</div></section>\n";
}

void items_html(const views::ProvenanceView& v, std::string& h) {
  h += "<ol hidden id=\"prov-items\">";
  for (size_t i = 0; i < v.items.size(); ++i) {
    const views::ProvenanceItem& it = v.items[i];
    h += "<li data-kind=\"" + std::string(views::provenance_item_kind_name(it.kind)) +
         "\" data-name=\"";
    append_html_escaped(h, it.name);
    for (int p = 0; p < 3; ++p) h += "\" data-l" + std::to_string(p) + "=\"" + ranges(it.lines[p]);
    h += "\" data-pre=\"";
    append_html_escaped(h, names(it.pre_nodes));
    h += "\" data-post=\"";
    append_html_escaped(h, names(it.post_nodes));
    h += "\" data-kernels=\"";
    append_html_escaped(h, names(it.kernels));
    h += "\">";
    append_html_escaped(h, it.stack);
    h += "</li>";
  }
  h += "</ol>\n";
}

void write_page(ReportContext& ctx, views::ProvenanceReader& reader,
                const views::ProvenanceGraphRow& row) {
  views::Result<views::ProvenanceView> loaded = reader.read(row.id);
  const views::ProvenanceView& v = noted(ctx, "provenance " + row.label(), loaded);
  std::string h = page_head("Provenance " + row.label(), "provenance", 1);
  h += kStyle;
  h += "<p>";
  if (!row.compile_id.empty())
    h +=
        "Compile " + compile_link(row.file_id, views::rank_opt(row.rank), row.compile_id, 1) + ", ";
  h += std::string(row.mode == "aot"   ? "AOT Inductor"
                   : row.mode == "jit" ? "JIT Inductor"
                                       : "Inductor") +
       " graph: " + plural(row.pre_nodes, "pre-grad node") + ", " +
       plural(row.post_nodes, "post-grad node") + ", " + plural(row.kernels, "kernel") +
       ". Click a node or kernel line (or a kernel below) to highlight what it maps to in the "
       "other panes.</p>\n";
  if (!v.errors.empty() || !v.missing.empty()) {
    h += "<ul id=\"prov-notes\">";
    for (const std::string& e : v.errors) h += "<li class=\"bad\">" + html_escape(e) + "</li>";
    for (const std::string& m : v.missing) h += "<li class=\"muted\">" + html_escape(m) + "</li>";
    h += "</ul>\n";
  }
  h += "<div id=\"prov-kernels\">";
  for (size_t i = 0; i < v.items.size(); ++i) {
    if (v.items[i].kind != views::ProvenanceItemKind::kKernel) continue;
    h += "<button class=\"prov-item\" data-item=\"" + std::to_string(i) + "\">";
    append_html_escaped(h, v.items[i].name);
    h += "</button>";
  }
  h +=
      "</div>\n<div id=\"prov-detail\"><b id=\"prov-name\">Nothing selected</b> "
      "<span id=\"prov-links\" class=\"muted\"></span><pre id=\"prov-stack\" hidden></pre></div>\n";
  h += "<div id=\"provenance\" data-items=\"" + std::to_string(v.items.size()) + "\">\n";
  for (int pane = 0; pane < 3; ++pane) pane_html(v, pane, h);
  h += "</div>\n";
  items_html(v, h);
  h += page_tail(1, {"assets/provenance.js"});
  ctx.site.write(provenance_page(row.id), h);
}

}  // namespace

std::string provenance_page(int64_t graph_id) {
  return "provenance/provenance_" + std::to_string(graph_id) + ".html";
}

void write_provenance_pages(ReportContext& ctx) {
  const auto& graphs = noted(ctx, "provenance graphs", ctx.shared.provenance_graphs);
  if (graphs.empty()) return;  // most logs: no statements to prepare
  views::ProvenanceReader reader(ctx.db);
  for (const views::ProvenanceGraphRow& row : graphs) write_page(ctx, reader, row);
}

}  // namespace tlscope::exporters
