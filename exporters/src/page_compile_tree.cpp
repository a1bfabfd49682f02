// compiles.html: every compile id as a tree rank > frame > compile, with status and duration.
#include <algorithm>

#include "pages.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

std::string status_tag(const CompileInfo& c) {
  std::string status = c.status();
  const char* cls = status == "failed" ? "bad" : status == "restarted" ? "warn"
                    : status == "ok"   ? "good" : "";
  return "<span class=\"tag " + std::string(cls) + "\">" + status + "</span>";
}

std::string frame_label(const CompileInfo& c) {
  std::string s;
  if (c.compiled_autograd_id) s += "compiled autograd " + std::to_string(*c.compiled_autograd_id) + " ";
  s += c.frame_id ? "frame " + std::to_string(*c.frame_id) : std::string("no frame");
  if (!c.co_name.empty()) s += ": " + html_escape(c.co_name);
  if (!c.user_frame.empty()) s += " <span class=\"muted\">" + html_escape(c.user_frame) + "</span>";
  return s;
}

}  // namespace

void write_compile_tree(ReportContext& ctx, const std::vector<CompileInfo>& compiles) {
  std::vector<const CompileInfo*> sorted;
  for (const CompileInfo& c : compiles) sorted.push_back(&c);
  auto order = [](const CompileInfo* c) {
    return std::make_tuple(c->rank.value_or(-1), c->compiled_autograd_id.value_or(-1),
                           c->frame_id.value_or(-1), c->frame_compile_id.value_or(-1),
                           c->attempt.value_or(0), c->first_event);
  };
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](auto* a, auto* b) { return order(a) < order(b); });

  size_t per_page = std::max<size_t>(ctx.options.rows_per_page * 5, 1);
  size_t page_count = std::max<size_t>(1, (sorted.size() + per_page - 1) / per_page);
  for (size_t page = 0; page < page_count; ++page) {
    std::string h = page_head("Compiles", "compiles", 0);
    h += "<p>" + plural(static_cast<int64_t>(compiles.size()), "compile id") +
         ". Each compile id links to its graphs, guards, generated code, metrics and tensors.</p>\n";
    h += pager("compiles", page, page_count);
    h += "<div id=\"compile-tree\" data-count=\"" + std::to_string(compiles.size()) + "\">\n";
    std::optional<int64_t> open_rank;
    bool rank_open = false, frame_open = false;
    std::pair<int64_t, int64_t> open_frame{-2, -2};
    size_t end = std::min(sorted.size(), (page + 1) * per_page);
    for (size_t i = page * per_page; i < end; ++i) {
      const CompileInfo& c = *sorted[i];
      if (!rank_open || c.rank != open_rank) {
        if (frame_open) h += "</ul></details></li>\n";
        if (rank_open) h += "</ul></details>\n";
        h += "<details open class=\"rank\"><summary>" + rank_label(c.rank) +
             "</summary><ul class=\"tree\">\n";
        rank_open = true;
        frame_open = false;
        open_rank = c.rank;
        open_frame = {-2, -2};
      }
      std::pair<int64_t, int64_t> frame{c.compiled_autograd_id.value_or(-1), c.frame_id.value_or(-1)};
      if (!frame_open || frame != open_frame) {
        if (frame_open) h += "</ul></details></li>\n";
        h += "<li><details open><summary>" + frame_label(c) + "</summary><ul class=\"tree\">\n";
        frame_open = true;
        open_frame = frame;
      }
      h += "<li class=\"compile\">" + compile_link(c.rank, c.compile_id, 0) + status_tag(c);
      if (c.has_metrics && c.duration_us > 0)
        h += " <span class=\"muted\">" + format_us(c.duration_us) + "</span>";
      if (!c.fail_type.empty()) h += " <span class=\"bad\">" + html_escape(c.fail_type) + "</span>";
      if (!c.recompile_reason.empty())
        h += " <span class=\"muted\">recompile: " + html_escape(c.recompile_reason) + "</span>";
      h += "</li>\n";
    }
    if (frame_open) h += "</ul></details></li>\n";
    if (rank_open) h += "</ul></details>\n";
    h += "</div>\n" + pager("compiles", page, page_count) + page_tail(0);
    ctx.site.write(page_file("compiles", page), h);
  }
}

}  // namespace tlscope::exporters
