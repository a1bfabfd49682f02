// Tables of symbolic shapes and of a compile's runtime (see shapes_html.hpp).
#include "shapes_html.hpp"

#include "site.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

// The URL is text, not an anchor: the report links nothing outside itself (it is read offline),
// and a logged "javascript:" URL can never run from it.
std::string link_item_html(const views::CompileLink& l, const std::string& file) {
  std::string h = "<li>" + html_escape(l.name) + ": <code class=\"link-url\">" +
                  html_clipped(l.url, 300) + "</code> <span class=\"muted\">";
  if (!file.empty()) h += html_escape(file) + ":";
  return h + "line " + std::to_string(l.line) + "</span></li>";
}

std::string cell(std::string_view text) {
  return "<td>" + html_clipped(text, 200) + "</td>";
}

std::string code_cell(std::string_view text) {
  return "<td><code>" + html_clipped(text, 300) + "</code></td>";
}

}  // namespace

std::string user_frame_html(const views::UserFrame& at) {
  if (!at.known()) return "<span class=\"muted\">(no user frame)</span>";
  std::string h = html_escape(at.where());
  if (!at.name.empty()) h += " <span class=\"muted\">in " + html_escape(at.name) + "</span>";
  if (!at.code.empty()) h += "<br><code>" + html_clipped(at.code, 200) + "</code>";
  return h;
}

std::string shape_symbols_html(const std::vector<views::ShapeSymbol>& symbols) {
  std::string h = "<table class=\"shape-symbols\" data-count=\"" + std::to_string(symbols.size()) +
                  "\"><thead><tr><th>symbol</th><th>kind</th><th>value</th><th>range</th>"
                  "<th>source</th><th>created at</th></tr></thead><tbody>\n";
  for (const views::ShapeSymbol& s : symbols) {
    h += "<tr data-symbol=\"" + html_escape(s.symbol) + "\">" + code_cell(s.symbol) +
         cell(s.unbacked ? "unbacked" : "backed") + cell(s.value) + cell(s.range) +
         code_cell(s.source) + "<td>" + user_frame_html(s.at) + "</td></tr>\n";
  }
  return h + "</tbody></table>\n";
}

std::string specializations_html(const std::vector<views::ShapeSpecialization>& specs) {
  std::string h =
      "<ul class=\"specializations\" data-count=\"" + std::to_string(specs.size()) + "\">\n";
  for (const views::ShapeSpecialization& s : specs) {
    h += "<li data-symbol=\"" + html_escape(s.symbol) + "\" data-value=\"" + html_escape(s.value) +
         "\">" + html_clipped(s.sentence(), 400);
    if (!s.at.code.empty()) h += "<br><code>" + html_clipped(s.at.code, 200) + "</code>";
    h += "</li>\n";
  }
  return h + "</ul>\n";
}

std::string shape_guards_html(const std::vector<views::ShapeGuard>& guards) {
  std::string h = "<table class=\"shape-guards\" data-count=\"" + std::to_string(guards.size()) +
                  "\"><thead><tr><th>guard</th><th>symbols</th><th>added at</th></tr></thead>"
                  "<tbody>\n";
  for (const views::ShapeGuard& g : guards) {
    std::string symbols;
    for (const std::string& s : g.symbols) {
      std::string source;
      for (const auto& [sym, src] : g.sources)
        if (sym == s) source = src;
      symbols += (symbols.empty() ? "" : ", ") + s + (source.empty() ? "" : " = " + source);
    }
    h += "<tr data-kind=\"" + html_escape(g.kind) + "\">" + code_cell(g.expr) + code_cell(symbols) +
         "<td>" + user_frame_html(g.at) + "</td></tr>\n";
  }
  return h + "</tbody></table>\n";
}

std::string compile_shapes_html(const views::CompileShapes& shapes) {
  if (shapes.empty()) return "";
  std::string h = "<h2>Symbolic shapes</h2>\n<section id=\"compile-shapes\">\n";
  if (!shapes.specializations.empty())
    h += "<h3>Specialized (" + std::to_string(shapes.specializations.size()) + ")</h3>\n" +
         specializations_html(shapes.specializations);
  if (!shapes.symbols.empty())
    h += "<h3>Symbols created (" + std::to_string(shapes.symbols.size()) + ")</h3>\n" +
         shape_symbols_html(shapes.symbols);
  if (!shapes.guards.empty())
    h += "<h3>Guards added (" + std::to_string(shapes.guards.size()) + ")</h3>\n" +
         shape_guards_html(shapes.guards);
  return h + "</section>\n";
}

std::string compile_runtime_html(const views::CompileRuntime& rt) {
  if (rt.empty()) return "";
  std::string h = "<h2>Runtime and autotuning</h2>\n<section id=\"compile-runtime\">\n";
  for (const views::RuntimeMetrics& m : rt.runtime) {
    h += "<h3>" + html_escape(m.kind) + " <span class=\"muted\">line " + std::to_string(m.line) +
         "</span></h3>\n<table class=\"runtime-metrics\">";
    for (const views::NamedValue& f : m.fields)
      h += "<tr><th>" + html_escape(f.name) + "</th>" + cell(f.value) + "</tr>";
    h += "</table>\n";
  }
  if (!rt.autotune.empty()) {
    h += "<h3>Autotuning at compile time</h3>\n<table class=\"autotune-metrics\">";
    for (const views::NamedValue& f : rt.autotune)
      h += "<tr><th>" + html_escape(f.name) + "</th>" + cell(f.value) + "</tr>";
    h += "</table>\n";
  }
  if (!rt.kernels.empty()) {
    h += "<h3>Kernels autotuned (" + std::to_string(rt.kernels.size()) +
         ")</h3>\n<table class=\"autotune-kernels\" data-count=\"" +
         std::to_string(rt.kernels.size()) +
         "\"><thead><tr><th>kernel</th><th>autotune cache</th><th class=\"num\">configs</th>"
         "<th class=\"num\">compile time</th></tr></thead><tbody>\n";
    for (const views::KernelAutotune& k : rt.kernels) {
      h += "<tr>" + code_cell(k.kernel) + cell(k.cache_state) + "<td class=\"num\">" +
           (k.configs >= 0 ? std::to_string(k.configs) : "") + "</td><td class=\"num\">" +
           (k.compile_time_us >= 0 ? format_duration_us(static_cast<double>(k.compile_time_us))
                                   : "") +
           "</td></tr>\n";
    }
    h += "</tbody></table>\n";
  }
  if (!rt.links.empty()) {
    h += "<h3>Links (" + std::to_string(rt.links.size()) + ")</h3>\n<ul class=\"compile-links\">";
    for (const views::CompileLink& l : rt.links) h += link_item_html(l, "");
    h += "</ul>\n";
  }
  return h + "</section>\n";
}

std::string unattached_links_html(
    const std::vector<std::pair<std::string, views::CompileLink>>& links) {
  if (links.empty()) return {};
  std::string h = "<h2 id=\"links\">Links logged outside any compile (" +
                  std::to_string(links.size()) + ")</h2>\n<ul class=\"compile-links\">";
  for (const auto& [file, link] : links) h += link_item_html(link, file);
  return h + "</ul>\n";
}

}  // namespace tlscope::exporters
