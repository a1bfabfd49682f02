// compiles.html: the compile tree (the stack trie of dynamo_start stacks, as tlparse draws it)
// with every compile under the frame that started it, its status and duration.
#include <algorithm>

#include "pages.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

std::string status_tag(const CompileRow& c) {
  const char* cls = c.status == "failed"      ? "bad"
                    : c.status == "restarted" ? "warn"
                    : c.status == "ok"        ? "good"
                                              : "";
  std::string tag =
      "<span class=\"tag " + std::string(cls) + "\">" + html_escape(c.status) + "</span>";
  // The viewer's compile tree colours the same view model field (CompileRow::cache).
  if (c.cache_hit()) tag += " <span class=\"tag hit\">cache hit</span>";
  return tag;
}

std::string compile_item(const CompileRow& c) {
  std::string h = "<li class=\"compile\">" +
                  compile_link(c.file_id, views::rank_opt(c.rank), c.compile_id, 0) + status_tag(c);
  if (!c.co_name.empty()) h += " " + html_escape(c.co_name);
  if (c.duration_us > 0)
    h += " <span class=\"muted\">" + format_duration_us(c.duration_us) + "</span>";
  if (!c.fail_type.empty()) h += " <span class=\"bad\">" + html_escape(c.fail_type) + "</span>";
  if (!c.recompile_reason.empty())
    h += " <span class=\"muted\">recompiled: " + html_escape(c.recompile_reason) + "</span>";
  return h + "</li>\n";
}

// Splits the tree into pages of at most rows_per_page rows (frames and compiles). A page that
// starts inside a frame repeats that frame's ancestors, marked "continued", so every page reads
// as a tree of its own.
class TreePages {
 public:
  explicit TreePages(size_t per_page) : per_page_(std::max<size_t>(per_page, 1)) { start_page(); }

  void open(const std::string& header_html) {
    row();
    cur_ += "<li>" + header_html + "<ul class=\"tree\">\n";
    open_.push_back(header_html);
  }
  void close() {
    cur_ += "</ul></li>\n";
    open_.pop_back();
  }
  size_t depth() const { return open_.size(); }
  void item(const std::string& html, bool is_compile) {
    row();
    cur_ += html;
    compiles_on_page_ += is_compile;
  }
  std::vector<std::pair<std::string, size_t>> finish() {
    end_page();
    return std::move(pages_);
  }

 private:
  void row() {
    if (rows_ == per_page_) {
      end_page();
      start_page();
    }
    ++rows_;
  }
  void start_page() {
    cur_ = "<ul class=\"tree\" id=\"compile-tree-root\">\n";
    for (const std::string& h : open_)
      cur_ += "<li class=\"continued\">" + h +
              " <span class=\"muted\">(continued)</span>"
              "<ul class=\"tree\">\n";
    rows_ = 0;
    compiles_on_page_ = 0;
  }
  void end_page() {
    for (size_t i = 0; i < open_.size(); ++i) cur_ += "</ul></li>\n";
    cur_ += "</ul>\n";
    pages_.push_back({std::move(cur_), compiles_on_page_});
  }

  size_t per_page_, rows_ = 0, compiles_on_page_ = 0;
  std::string cur_;
  std::vector<std::string> open_;
  std::vector<std::pair<std::string, size_t>> pages_;  // (tree html, compiles on the page)
};

}  // namespace

void write_compile_tree(ReportContext& ctx) {
  const views::CompileTree& compile_tree = ctx.shared.compile_tree;
  const std::vector<CompileRow>& compiles = compile_tree.compiles;
  if (compile_tree.frames.size() < compile_tree.frames_total)
    ctx.warnings.push_back("compile tree cut at " + std::to_string(compile_tree.frames.size()) +
                           " of " + std::to_string(compile_tree.frames_total) + " frames");
  TreePages tree(ctx.options.rows_per_page);
  int64_t listed = 0;
  std::vector<int64_t> open;  // depths of the frames still open
  for (const views::CompileTreeFrame& frame : compile_tree.frames) {
    while (!open.empty() && open.back() >= frame.depth) {
      tree.close();
      open.pop_back();
    }
    if (frame.first_of_file)
      tree.item("<li class=\"muted\">" + rank_label(views::rank_opt(frame.rank)) + "</li>\n",
                false);
    std::string header = "<span class=\"frame\">";
    append_html_escaped(header, frame.filename);
    header += ":" + std::to_string(frame.line) + " in <b>";
    append_html_escaped(header, frame.name);
    header += "</b></span>";
    tree.open(header);
    open.push_back(frame.depth);
    for (size_t i : frame.compiles) {
      tree.item(compile_item(compiles[i]), true);
      ++listed;
    }
  }
  while (tree.depth() > 0) tree.close();
  int64_t without_stack = static_cast<int64_t>(compile_tree.without_stack.size());
  if (without_stack > 0) {
    tree.open("<span class=\"frame\">Compiles without a dynamo_start stack (" +
              std::to_string(without_stack) + ")</span>");
    for (size_t i : compile_tree.without_stack) tree.item(compile_item(compiles[i]), true);
    tree.close();
  }
  std::vector<std::pair<std::string, size_t>> pages = tree.finish();
  for (size_t page = 0; page < pages.size(); ++page) {
    std::string h = page_head("Compiles", "compiles", 0);
    h += "<p>" + plural(static_cast<int64_t>(compiles.size()), "compile") +
         ", under the user frames that started them (the stack trie of dynamo_start). Each "
         "compile links to its graphs, guards, generated code, metrics and tensors.</p>\n";
    h += pager("compiles", page, pages.size());
    h += "<div id=\"compile-tree\" data-count=\"" + std::to_string(compiles.size()) +
         "\" data-listed=\"" + std::to_string(listed + without_stack) + "\" data-page-compiles=\"" +
         std::to_string(pages[page].second) + "\">\n" + pages[page].first + "</div>\n";
    h += pager("compiles", page, pages.size()) + page_tail(0);
    ctx.site.write(page_file("compiles", page), h);
  }
}

}  // namespace tlscope::exporters
