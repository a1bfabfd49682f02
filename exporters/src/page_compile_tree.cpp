// compiles.html: the compile tree (the stack trie of dynamo_start stacks, as tlparse draws it)
// with every compile under the frame that started it, its status and duration.
#include <algorithm>
#include <map>

#include "pages.hpp"
#include "tlscope/exporters/html.hpp"
#include "tlscope/model/analysis/compiles.hpp"

namespace tlscope::exporters {

namespace {

constexpr size_t kMaxTreeNodes = 50000;

std::string status_tag(const CompileInfo& c) {
  const char* cls = c.status == "failed" ? "bad" : c.status == "restarted" ? "warn"
                    : c.status == "ok"   ? "good" : "";
  return "<span class=\"tag " + std::string(cls) + "\">" + html_escape(c.status) + "</span>";
}

std::string compile_item(const CompileInfo& c) {
  std::string h = "<li class=\"compile\">" + compile_link(c.file_id, c.rank, c.compile_id, 0) +
                  status_tag(c);
  if (!c.co_name.empty()) h += " " + html_escape(c.co_name);
  if (c.duration_us > 0) h += " <span class=\"muted\">" + format_us(c.duration_us) + "</span>";
  if (!c.fail_type.empty()) h += " <span class=\"bad\">" + html_escape(c.fail_type) + "</span>";
  if (!c.recompile_reason.empty())
    h += " <span class=\"muted\">recompiled: " + html_escape(c.recompile_reason) + "</span>";
  return h + "</li>\n";
}

}  // namespace

void write_compile_tree(ReportContext& ctx, const std::vector<CompileInfo>& compiles) {
  std::map<int64_t, const CompileInfo*> by_row;
  for (const CompileInfo& c : compiles) by_row[c.row] = &c;
  std::vector<model::analysis::CompileTreeNode> nodes =
      model::analysis::load_compile_tree(ctx.db.handle());
  if (nodes.size() > kMaxTreeNodes) {
    ctx.warnings.push_back("compile tree cut at " + std::to_string(kMaxTreeNodes) + " of " +
                           std::to_string(nodes.size()) + " frames");
    nodes.resize(kMaxTreeNodes);
  }
  int64_t listed = 0;
  std::string tree = "<ul class=\"tree\" id=\"compile-tree-root\">\n";
  std::vector<int64_t> open;  // depths of the <li> elements still open
  std::optional<int64_t> file_shown;
  for (const auto& node : nodes) {
    while (!open.empty() && open.back() >= node.depth) {
      tree += "</ul></li>\n";
      open.pop_back();
    }
    if (node.depth == 0 && (!file_shown || *file_shown != node.file_id)) {
      tree += "<li class=\"muted\">" + rank_label(node.rank) + "</li>\n";
      file_shown = node.file_id;
    }
    tree += "<li><span class=\"frame\">";
    append_html_escaped(tree, node.filename);
    tree += ":" + std::to_string(node.line) + " in <b>";
    append_html_escaped(tree, node.name);
    tree += "</b></span><ul class=\"tree\">\n";
    for (const auto& row : node.compiles) {
      auto it = by_row.find(row.id);
      if (it == by_row.end()) continue;
      tree += compile_item(*it->second);
      ++listed;
    }
    open.push_back(node.depth);
  }
  while (!open.empty()) {
    tree += "</ul></li>\n";
    open.pop_back();
  }
  tree += "</ul>\n";
  std::string rest;
  int64_t without_stack = 0;
  for (const CompileInfo& c : compiles) {
    if (c.tree_node_id) continue;
    rest += compile_item(c);
    ++without_stack;
  }
  std::string h = page_head("Compiles", "compiles", 0);
  h += "<p>" + plural(static_cast<int64_t>(compiles.size()), "compile") +
       ", under the user frames that started them (the stack trie of dynamo_start). Each "
       "compile links to its graphs, guards, generated code, metrics and tensors.</p>\n";
  h += "<div id=\"compile-tree\" data-count=\"" + std::to_string(compiles.size()) +
       "\" data-listed=\"" + std::to_string(listed + without_stack) + "\">\n" + tree;
  if (without_stack > 0)
    h += "<h2>Compiles without a dynamo_start stack (" + std::to_string(without_stack) +
         ")</h2>\n<ul class=\"tree\">\n" + rest + "</ul>\n";
  h += "</div>\n" + page_tail(0);
  ctx.site.write("compiles.html", h);
}

}  // namespace tlscope::exporters
