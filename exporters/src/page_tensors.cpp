// tensors.html and tensor/*.html: every distinct input tensor layout (dtype, size, stride,
// device) with its count, and per layout a matrix-of-matrices drawing of storage offsets.
#include <set>

#include "pages.hpp"
#include "tensor_grid_html.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

constexpr size_t kMaxTensorPages = 5000;

struct TensorLayout {
  std::string dtype, size, stride, device, sources;
  int64_t count = 0, compiles = 0, storage_offset = 0;
  std::optional<int64_t> example_rank;
  std::string example_compile;
};

std::string dims_text(const std::string& json) {
  std::vector<std::string> dims = json_dims(json);
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + dims[i];
  return s + "]";
}

void write_tensor_page(ReportContext& ctx, const TensorLayout& t) {
  std::string title = t.dtype + " " + dims_text(t.size);
  std::string h = page_head("Tensor " + title, "tensor", 1);
  h += "<table class=\"kv\"><tr><th>dtype</th><td>" + html_escape(t.dtype) +
       "</td></tr><tr><th>size</th><td>" + html_escape(dims_text(t.size)) +
       "</td></tr><tr><th>stride</th><td>" + html_escape(dims_text(t.stride)) +
       "</td></tr><tr><th>device</th><td>" + html_escape(t.device) +
       "</td></tr><tr><th>seen</th><td>" + plural(t.count, "time") + " in " +
       plural(t.compiles, "compile") + ", e.g. " +
       compile_link(t.example_rank, t.example_compile, 1) + "</td></tr><tr><th>example source</th><td>" +
       html_escape(t.sources) + "</td></tr></table>\n";
  TensorGridHtml grid = tensor_grid_html(t.size, t.stride, t.storage_offset);
  size_t n = json_dims(t.size).size();
  h += "<h2>Layout</h2>\n<p>Matrix of matrices: dim " + std::to_string(n ? n - 1 : 0) +
       " runs across, dim " + std::to_string(n >= 2 ? n - 2 : 0) +
       " down; outer dims tile blocks, alternating across and down, with wider gaps for outer "
       "levels (labels dK=i). Each cell shows the element's storage offset from the strides.";
  if (grid.summarised) h += " Large dims show their first and last items only.";
  h += "</p>\n<div class=\"grid-wrap\" id=\"tensor-grid\" data-cells=\"" +
       std::to_string(grid.cells) + "\" data-rank=\"" + std::to_string(n) + "\">" + grid.html +
       "</div>\n" + page_tail(1);
  ctx.site.write(tensor_page(t.dtype, t.size, t.stride), h);
}

}  // namespace

void write_tensors_page(ReportContext& ctx) {
  std::vector<TensorLayout> layouts;
  int64_t total = 0;
  if (ctx.db.has_table("describe_tensor")) {
    total = ctx.db.scalar("SELECT count(*) FROM describe_tensor");
    Statement s = ctx.db.prepare(
        "SELECT coalesce(t.dtype, ''), coalesce(t.size, '[]'), coalesce(t.stride, '[]'), "
        "coalesce(t.device, ''), count(DISTINCT t.event_id), count(DISTINCT coalesce(t.rank, -1) || ' ' || "
        "t.compile_id), min(coalesce(t.storage_offset, 0)), min(t.rank), min(t.compile_id), "
        "coalesce(min(s.source), '') "
        "FROM describe_tensor t LEFT JOIN describe_source s ON s.file_id = t.file_id AND "
        "s.compile_id IS t.compile_id AND s.describer_id = t.describer_id AND "
        "s.tensor_id = t.tensor_id GROUP BY 1, 2, 3, 4 ORDER BY 5 DESC");
    while (s.step()) {
      layouts.push_back({s.text(0), s.text(1), s.text(2), s.text(3), s.text(9), s.int64(4),
                         s.int64(5), s.int64(6), s.opt_int64(7), s.text(8)});
    }
  }
  size_t per_page = std::max<size_t>(ctx.options.rows_per_page, 1);
  size_t page_count = std::max<size_t>(1, (layouts.size() + per_page - 1) / per_page);
  for (size_t page = 0; page < page_count; ++page) {
    std::string h = page_head("Tensors", "tensors", 0);
    h += "<p>" + plural(total, "input tensor description") + " in " +
         plural(static_cast<int64_t>(layouts.size()), "distinct layout") +
         " (dtype, size, stride, device). Open a layout for its matrix-of-matrices drawing.</p>\n";
    h += pager("tensors", page, page_count);
    h += "<table id=\"tensor-layouts\" data-count=\"" + std::to_string(layouts.size()) +
         "\" data-tensors=\"" + std::to_string(total) +
         "\"><thead><tr><th class=\"num\">count</th><th>dtype</th><th>size</th><th>stride</th>"
         "<th>device</th><th class=\"num\">compiles</th><th>example</th><th></th></tr></thead><tbody>\n";
    size_t end = std::min(layouts.size(), (page + 1) * per_page);
    for (size_t i = page * per_page; i < end; ++i) {
      const TensorLayout& t = layouts[i];
      h += "<tr><td class=\"num\">" + std::to_string(t.count) + "</td><td>" + html_escape(t.dtype) +
           "</td><td>" + html_escape(dims_text(t.size)) + "</td><td>" +
           html_escape(dims_text(t.stride)) + "</td><td>" + html_escape(t.device) +
           "</td><td class=\"num\">" + std::to_string(t.compiles) + "</td><td>" +
           compile_link(t.example_rank, t.example_compile, 0) + "</td><td>" +
           (i < kMaxTensorPages ? "<a href=\"" + tensor_page(t.dtype, t.size, t.stride) +
                                      "\">layout</a>"
                                : std::string()) +
           "</td></tr>\n";
    }
    h += "</tbody></table>\n" + pager("tensors", page, page_count) + page_tail(0);
    ctx.site.write(page_file("tensors", page), h);
  }
  std::set<std::string> written;
  for (size_t i = 0; i < layouts.size() && i < kMaxTensorPages; ++i) {
    const TensorLayout& t = layouts[i];
    if (written.insert(tensor_page(t.dtype, t.size, t.stride)).second) write_tensor_page(ctx, t);
  }
}

}  // namespace tlscope::exporters
