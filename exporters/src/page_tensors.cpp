// tensors.html and tensor/*.html: every distinct input tensor layout (dtype, size, stride) with
// counts and shape changes between compiles; per layout a matrix-of-matrices drawing of storage
// offsets; and sharding pictures of the tensors that all_gather / reduce_scatter split by rank.
#include <algorithm>
#include <set>

#include "pages.hpp"
#include "tensor_grid_html.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

constexpr size_t kMaxTensorPages = 2000;
constexpr size_t kMaxShardPages = 20;

struct TensorLayout {
  std::string dtype, size, stride, device, source;
  int64_t count = 0, compiles = 0, storage_offset = 0, file_id = 0;
  std::optional<int64_t> rank;
  std::string compile_id;
};

std::string dims_text(const std::string& json) {
  std::vector<std::string> dims = json_dims(json);
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + dims[i];
  return s + "]";
}

bool is_int(const std::string& s) {
  return !s.empty() && s.size() < 16 &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Symbolic dims are drawn with 3 items and named by their symbol.
views::TensorGridInput grid_input(const std::string& size_json) {
  views::TensorGridInput in;
  bool symbolic = false;
  for (const std::string& d : json_dims(size_json)) {
    in.shape.push_back(is_int(d) ? std::stoll(d) : 3);
    in.names.push_back(is_int(d) ? "" : d);
    symbolic |= !is_int(d);
  }
  if (!symbolic) in.names.clear();
  return in;
}

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

void write_tensor_page(ReportContext& ctx, const TensorLayout& t) {
  std::string h = page_head("Tensor " + t.dtype + " " + dims_text(t.size), "tensor", 1);
  h += "<table class=\"kv\"><tr><th>dtype</th><td>" + html_escape(t.dtype) +
       "</td></tr><tr><th>size</th><td>" + html_escape(dims_text(t.size)) +
       "</td></tr><tr><th>stride</th><td>" + html_escape(dims_text(t.stride)) +
       "</td></tr><tr><th>device</th><td>" + html_escape(t.device) +
       "</td></tr><tr><th>seen</th><td>" + plural(t.count, "time") + " in " +
       plural(t.compiles, "compile") + ", e.g. " +
       compile_link(t.file_id, t.rank, t.compile_id, 1) +
       "</td></tr><tr><th>example source</th><td>" + html_escape(t.source) + "</td></tr></table>\n";
  views::TensorGridInput in = grid_input(t.size);
  views::TensorGridResult r = views::layout_tensor_grid(in);
  h += "<h2>Layout</h2>\n<p>Matrix of matrices: the last dim runs across, the one before it down; "
       "outer dims tile blocks, alternating across and down, with wider gaps for outer levels. "
       "Each cell shows the element's offset in storage (from the strides), so transposed, "
       "sliced or broadcast (stride 0) layouts show at a glance.</p>\n";
  std::vector<std::string> text;
  if (r.grid) text = storage_offsets(*r.grid, json_dims(t.stride), t.storage_offset);
  h += grid_section(r, text, in.shape.size()) + page_tail(1);
  ctx.site.write(tensor_page(t.dtype, t.size, t.stride), h);
}

// Sharding pictures: the full tensor of an all_gather (its output) or reduce_scatter (its input)
// split over the group's ranks along dim 0, as the collective's sizes show.
std::string shard_pictures(ReportContext& ctx) {
  Statement s = ctx.db.prepare(
      "SELECT op, CASE WHEN op = 'all_gather' THEN json_extract(output_sizes, '$[0]') "
      "ELSE json_extract(input_sizes, '$[0]') END AS full, pg_size, coalesce(pg_desc, ''), "
      "coalesce(dtype, ''), count(*) FROM collectives WHERE op IN ('all_gather', 'reduce_scatter') "
      "AND pg_size > 1 GROUP BY 1, 2, 3 ORDER BY count(*) DESC");
  std::string list;
  size_t n = 0;
  while (s.step() && n < kMaxShardPages) {
    std::string op = s.text(0), full = s.text(1);
    int64_t parts = s.int64(2);
    views::TensorGridInput in = grid_input(full);
    if (in.shape.empty()) continue;
    in.mesh = views::DeviceMesh{{parts}, {{views::MeshPlacement::Kind::kShard, 0}}};
    in.flat_index_values = true;
    views::TensorGridResult r = views::layout_tensor_grid(in);
    std::string rel = "tensor/shard_" + std::to_string(++n) + ".html";
    std::string title = op + " of " + dims_text(full) + " over " + std::to_string(parts) + " ranks";
    std::string h = page_head("Sharding: " + title, "tensor", 1);
    h += "<p>" + html_escape(op) + " in group " + html_escape(s.text_view(3)) + " (" +
         plural(s.int64(5), "record") + "): each of the " + std::to_string(parts) +
         " ranks holds one chunk of dim 0 (Shard(0) over a 1-D mesh). Cell colour and the r-tag "
         "name the rank that holds the element; cell text is its flat index.</p>\n";
    h += grid_section(r, {}, in.shape.size()) + page_tail(1);
    ctx.site.write(rel, h);
    list += "<li><a href=\"" + rel + "\">" + html_escape(title) + "</a> <span class=\"muted\">" +
            plural(s.int64(5), "record") + "</span></li>\n";
  }
  if (list.empty()) return "";
  return "<h2>Sharded tensors (" + std::to_string(n) + ")</h2>\n<ul id=\"shard-pictures\">\n" +
         list + "</ul>\n";
}

std::string shape_changes(ReportContext& ctx) {
  int64_t n = ctx.db.scalar("SELECT count(*) FROM tensor_shape_changes");
  if (n == 0) return "";
  std::string table_open = "<table id=\"shape-changes\" data-count=\"" + std::to_string(n) +
                           "\"><thead><tr><th>compile</th><th>previous</th><th>input</th>"
                           "<th>size</th><th>stride</th><th>dtype</th></tr></thead><tbody>\n";
  Statement s = ctx.db.prepare(
      "SELECT file_id, rank, coalesce(compile_id, ''), coalesce(prev_compile_id, ''), "
      "coalesce(input, source, ''), coalesce(prev_size, ''), coalesce(size, ''), "
      "coalesce(prev_stride, ''), coalesce(stride, ''), coalesce(prev_dtype, ''), "
      "coalesce(dtype, '') FROM tensor_shape_changes ORDER BY id");
  auto change = [&](int a, int b) {
    std::string x = s.text(a), y = s.text(b);
    return x == y ? html_escape(y)
                  : "<span class=\"bad\">" + html_escape(x) + " \xE2\x86\x92 " + html_escape(y) +
                        "</span>";
  };
  std::vector<std::string> rows;
  while (s.step()) {
    rows.push_back("<tr><td>" + compile_link(s.int64(0), s.opt_int64(1), s.text(2), 0) +
                   "</td><td>" + html_escape(s.text_view(3)) + "</td><td>" +
                   html_escape(s.text_view(4)) + "</td><td>" + change(5, 6) + "</td><td>" +
                   change(7, 8) + "</td><td>" + change(9, 10) + "</td></tr>\n");
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
  size_t n = snaps.entries.size();
  if (n == 0 && snaps.errors.empty()) return "";
  std::string h = "<h2>Logged tensor values (" + std::to_string(n) +
                  ")</h2>\n<p>Tensors whose values the log records (tensor_values), drawn with "
                  "their numbers; sharded ones assembled from every rank's block. <a "
                  "href=\"tensor_values.html\">All logged values</a>.</p>\n";
  return h + snapshot_table_head("tensor-values-first", n) +
         snapshot_rows_html(snaps, 0, kShown, 0) + "</tbody></table>\n";
}

}  // namespace

void write_tensors_page(ReportContext& ctx, const TensorSnapshots& snapshots) {
  std::vector<TensorLayout> layouts;
  int64_t total = ctx.db.scalar("SELECT count(*) FROM tensors");
  Statement s = ctx.db.prepare(
      "SELECT coalesce(dtype, ''), coalesce(size, '[]'), coalesce(stride, '[]'), "
      "coalesce(min(device), ''), coalesce(min(source), ''), count(*), "
      "count(DISTINCT file_id || ' ' || compile_id), min(coalesce(storage_offset, 0)), "
      "min(file_id), min(rank), min(compile_id) FROM tensors GROUP BY 1, 2, 3 ORDER BY 6 DESC");
  while (s.step()) {
    layouts.push_back({s.text(0), s.text(1), s.text(2), s.text(3), s.text(4), s.int64(5),
                       s.int64(6), s.int64(7), s.int64(8), s.opt_int64(9), s.text(10)});
  }
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
      const TensorLayout& t = layouts[i];
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
}

}  // namespace tlscope::exporters
