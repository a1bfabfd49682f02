// tensors.html and tensor/*.html: every distinct input tensor layout (dtype, size, stride) with
// counts and shape changes between compiles; per layout a matrix-of-matrices drawing of storage
// offsets; and sharding pictures of the tensors that all_gather / reduce_scatter split by rank.
#include <algorithm>

#include "pages.hpp"
#include "tensor_grid_html.hpp"
#include "tlscope/exporters/html.hpp"
#include "tlscope/views/tensor_screens.hpp"

namespace tlscope::exporters {

namespace {

constexpr size_t kMaxTensorPages = 2000;
constexpr size_t kMaxShardPages = 20;

using views::dims_text;
using views::json_dims;

std::string grid_section(const views::TensorGridResult& r, const std::vector<std::string>& text,
                         size_t rank) {
  if (!r.grid) return "<p class=\"warn\">No drawing: " + html_escape(r.error) + "</p>\n";
  std::string axes;
  for (const views::GridAxis& a : r.grid->axes) axes += (axes.empty() ? "" : "; ") + a.text;
  return "<p class=\"muted\">" + html_escape(axes) + (r.grid->summarized ? " (summarised)" : "") +
         "</p>\n<div class=\"grid-wrap\" id=\"tensor-grid\" data-cells=\"" +
         std::to_string(r.grid->cells.size()) + "\" data-rank=\"" + std::to_string(rank) + "\">" +
         tensor_grid_html(*r.grid, text) + "</div>\n";
}

void write_tensor_page(ReportContext& ctx, const views::TensorLayout& t) {
  std::string h = page_head("Tensor " + t.dtype + " " + dims_text(t.size), "tensor", 1);
  h += "<table class=\"kv\"><tr><th>dtype</th><td>" + html_escape(t.dtype) +
       "</td></tr><tr><th>size</th><td>" + html_escape(dims_text(t.size)) +
       "</td></tr><tr><th>stride</th><td>" + html_escape(dims_text(t.stride)) +
       "</td></tr><tr><th>device</th><td>" + html_escape(t.device) +
       "</td></tr><tr><th>seen</th><td>" + plural(t.count, "time") + " in " +
       plural(t.compiles, "compile") + ", e.g. " +
       compile_link(t.file_id, t.rank, t.compile_id, 1) +
       "</td></tr><tr><th>example source</th><td>" + html_escape(t.source) + "</td></tr></table>\n";
  views::TensorGridInput in = views::layout_grid_input(t.size);
  views::TensorGridResult r = views::layout_tensor_grid(in);
  h += "<h2>Layout</h2>\n<p>Matrix of matrices: the last dim runs across, the one before it down; "
       "outer dims tile blocks, alternating across and down, with wider gaps for outer levels. "
       "Each cell shows the element's offset in storage (from the strides), so transposed, "
       "sliced or broadcast (stride 0) layouts show at a glance.</p>\n";
  std::vector<std::string> text;
  if (r.grid) text = views::storage_offsets(*r.grid, json_dims(t.stride), t.storage_offset);
  h += grid_section(r, text, in.shape.size()) + page_tail(1);
  ctx.site.write(tensor_page(t.dtype, t.size, t.stride), h);
}

// Sharding pictures: the full tensor of an all_gather (its output) or reduce_scatter (its input)
// split over the group's ranks along dim 0, as the collective's sizes show.
std::string shard_pictures(ReportContext& ctx) {
  views::Result<std::vector<views::CollectiveShard>> shards =
      views::load_collective_shards(ctx.db, kMaxShardPages);
  if (!shards.ok()) ctx.warnings.push_back(shards.error);
  std::string list;
  size_t n = 0;
  for (const views::CollectiveShard& shard : *shards) {
    views::TensorGridInput in = views::shard_grid_input(shard);
    views::TensorGridResult r = views::layout_tensor_grid(in);
    std::string rel = "tensor/shard_" + std::to_string(++n) + ".html";
    std::string title = shard.op + " of " + dims_text(shard.full_size) + " over " +
                        std::to_string(shard.ranks) + " ranks";
    std::string h = page_head("Sharding: " + title, "tensor", 1);
    h += "<p>" + html_escape(shard.op) + " in group " + html_escape(shard.group_desc) + " (" +
         plural(shard.records, "record") + "): each of the " + std::to_string(shard.ranks) +
         " ranks holds one chunk of dim 0 (Shard(0) over a 1-D mesh). Cell colour and the r-tag "
         "name the rank that holds the element; cell text is its flat index.</p>\n";
    h += grid_section(r, {}, in.shape.size()) + page_tail(1);
    ctx.site.write(rel, h);
    list += "<li><a href=\"" + rel + "\">" + html_escape(title) + "</a> <span class=\"muted\">" +
            plural(shard.records, "record") + "</span></li>\n";
  }
  if (list.empty()) return "";
  return "<h2>Sharded tensors (" + std::to_string(n) + ")</h2>\n<ul id=\"shard-pictures\">\n" +
         list + "</ul>\n";
}

// A cell of the shape-change table: the value, or "previous -> now" marked when it changed.
std::string change(const std::string& before, const std::string& now) {
  return before == now ? html_escape(now)
                       : "<span class=\"bad\">" + html_escape(before) + " \xE2\x86\x92 " +
                             html_escape(now) + "</span>";
}

std::string shape_changes(ReportContext& ctx) {
  views::Result<views::Paged<views::TensorShapeChange>> changes =
      views::load_tensor_shape_changes(ctx.db);
  if (!changes.ok()) ctx.warnings.push_back(changes.error);
  size_t n = changes->total;
  if (n == 0) return "";
  std::string table_open = "<table id=\"shape-changes\" data-count=\"" + std::to_string(n) +
                           "\"><thead><tr><th>compile</th><th>previous</th><th>input</th>"
                           "<th>size</th><th>stride</th><th>dtype</th></tr></thead><tbody>\n";
  std::vector<std::string> rows;
  for (const views::TensorShapeChange& c : changes->rows) {
    rows.push_back("<tr><td>" + compile_link(c.file_id, c.rank, c.compile_id, 0) + "</td><td>" +
                   html_escape(c.prev_compile_id) + "</td><td>" + html_escape(c.input) +
                   "</td><td>" + change(c.prev_size, c.size) + "</td><td>" +
                   change(c.prev_stride, c.stride) + "</td><td>" + change(c.prev_dtype, c.dtype) +
                   "</td></tr>\n");
  }
  std::string h =
      "<h2>Shape changes between compiles (" + std::to_string(n) + ")</h2>\n" + table_open;
  for (size_t i = 0; i < rows.size() && i < ctx.options.rows_per_page; ++i) h += rows[i];
  return h + "</tbody></table>\n" +
         write_row_pages(ctx, "shape_changes", "Shape changes between compiles", "tensors",
                         "<p>Inputs whose size, stride or dtype changed from the frame's previous "
                         "compile (<a href=\"tensors.html\">Tensors</a>).</p>\n",
                         table_open, rows);
}

// The first logged-value snapshots, with a link to the full (paginated) list.
std::string logged_values(const TensorSnapshots& snaps) {
  constexpr size_t kShown = 20;
  size_t n = snaps.total;
  if (n == 0 && snaps.errors.empty()) return "";
  std::string h = "<h2>Logged tensor values (" + std::to_string(n) +
                  ")</h2>\n<p>Tensors whose values the log records (tensor_values), drawn with "
                  "their numbers; sharded ones assembled from every rank's block. <a "
                  "href=\"tensor_values.html\">All logged values</a>.</p>\n";
  return h + snapshot_table_head("tensor-values-first", n) +
         snapshot_rows_html(snaps, 0, kShown, 0) + "</tbody></table>\n";
}

}  // namespace

void write_tensors_pages(ReportContext& ctx) {
  const TensorSnapshots& snapshots = ctx.shared.snapshots;
  views::Result<views::TensorLayouts> view = views::load_tensor_layouts(ctx.db);
  if (!view.ok()) ctx.warnings.push_back(view.error);
  const std::vector<views::TensorLayout>& layouts = view->layouts.rows;
  int64_t total = view->tensors;
  std::string extra = logged_values(snapshots) + shape_changes(ctx) + shard_pictures(ctx);
  size_t per_page = std::max<size_t>(ctx.options.rows_per_page, 1);
  size_t page_count = std::max<size_t>(1, (layouts.size() + per_page - 1) / per_page);
  for (size_t page = 0; page < page_count; ++page) {
    std::string h = page_head("Tensors", "tensors", 0);
    h += "<p>" + plural(total, "input tensor") + " in " +
         plural(static_cast<int64_t>(layouts.size()), "distinct layout") +
         " (dtype, size, stride). Open a layout for its matrix-of-matrices drawing.</p>\n";
    if (page == 0) h += extra;
    h += "<h2>Layouts</h2>\n" + pager("tensors", page, page_count);
    h += "<table id=\"tensor-layouts\" data-count=\"" + std::to_string(layouts.size()) +
         "\" data-tensors=\"" + std::to_string(total) +
         "\"><thead><tr><th class=\"num\">count</th><th>dtype</th><th>size</th><th>stride</th>"
         "<th>device</th><th class=\"num\">compiles</th><th>example</th><th></th></tr></thead>"
         "<tbody>\n";
    size_t end = std::min(layouts.size(), (page + 1) * per_page);
    for (size_t i = page * per_page; i < end; ++i) {
      const views::TensorLayout& t = layouts[i];
      h += "<tr><td class=\"num\">" + std::to_string(t.count) + "</td><td>" + html_escape(t.dtype) +
           "</td><td>" + html_escape(dims_text(t.size)) + "</td><td>" +
           html_escape(dims_text(t.stride)) + "</td><td>" + html_escape(t.device) +
           "</td><td class=\"num\">" + std::to_string(t.compiles) + "</td><td>" +
           compile_link(t.file_id, t.rank, t.compile_id, 0) + "</td><td>" +
           (i < kMaxTensorPages
                ? "<a href=\"" + tensor_page(t.dtype, t.size, t.stride) + "\">layout</a>"
                : std::string()) +
           "</td></tr>\n";
    }
    h += "</tbody></table>\n" + pager("tensors", page, page_count) + page_tail(0);
    ctx.site.write(page_file("tensors", page), h);
  }
  for (size_t i = 0; i < layouts.size() && i < kMaxTensorPages; ++i)
    write_tensor_page(ctx, layouts[i]);
  write_tensor_values_pages(ctx, snapshots);
}

}  // namespace tlscope::exporters
