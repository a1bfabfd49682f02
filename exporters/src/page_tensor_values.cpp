// tensor_values.html and tensor/values_<k>.html: tensors whose values were logged (tensor_values
// artifacts), drawn as matrix-of-matrices with the numbers in the cells; sharded ones
// (dtensor_placement) assembled from the ranks' blocks, each block coloured and tagged by the
// mesh ranks holding it.
#include <algorithm>

#include "pages.hpp"
#include "tensor_grid_html.hpp"
#include "tlscope/exporters/html.hpp"
#include "tlscope/views/rank_colors.hpp"

namespace tlscope::exporters {

namespace {

// Snapshots past this many get no page of their own (they stay listed).
constexpr size_t kMaxValuePages = 2000;

// The page of the index-th snapshot of the database, "" past the page limit.
std::string snapshot_page(size_t index) {
  return index < kMaxValuePages ? "tensor/values_" + std::to_string(index + 1) + ".html" : "";
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string ranks_text(const views::TensorSnapshot& s) {
  std::string out;
  for (const views::RankValues& r : s.ranks)
    out += (out.empty() ? "" : ", ") + (r.rank < 0 ? std::string("-") : std::to_string(r.rank));
  return out;
}

// "Replicate() on dp, Shard(1) on tp" over "mesh 2x2".
std::string placement_text(const views::LoggedPlacement& p) {
  std::string s = "mesh ";
  for (size_t m = 0; m < p.mesh_shape.size(); ++m)
    s += (m ? "x" : "") + std::to_string(p.mesh_shape[m]);
  s += ": ";
  for (size_t m = 0; m < p.placement_texts.size(); ++m) {
    s += (m ? ", " : "") + p.placement_texts[m] + " on ";
    s += m < p.mesh_dim_names.size() ? p.mesh_dim_names[m] : "mesh dim " + std::to_string(m);
  }
  return s;
}

std::string title_of(const views::TensorSnapshot& s) {
  return "Values of " + (s.name.empty() ? std::string("(unnamed)") : s.name) +
         (s.occurrence > 1 ? " (#" + std::to_string(s.occurrence) + ")" : "");
}

std::string grid_of(const std::vector<int64_t>& shape, const std::vector<double>& values,
                    const std::optional<views::DeviceMesh>& mesh, const std::string& id) {
  views::TensorGridInput in;
  in.shape = shape;
  in.values = values;
  in.mesh = mesh;
  views::TensorGridResult r = views::layout_tensor_grid(in);
  if (!r.grid) return "<p class=\"warn\">No drawing: " + html_escape(r.error) + "</p>\n";
  std::string axes;
  for (const views::GridAxis& a : r.grid->axes) axes += (axes.empty() ? "" : "; ") + a.text;
  return "<p class=\"muted\">" + html_escape(axes) +
         (r.grid->summarized ? " (summarised: first and last " +
                                   std::to_string(r.grid->edge_items) + " items of long dims)"
                             : "") +
         "</p>\n<div class=\"grid-wrap\" id=\"" + id + "\" data-cells=\"" +
         std::to_string(r.grid->cells.size()) + "\" data-summarized=\"" +
         (r.grid->summarized ? "1" : "0") + "\">" +
         tensor_values_grid_html(*r.grid, values, shape) + "</div>\n";
}

std::string legend(const views::TensorSnapshot& s) {
  std::string h = "<table id=\"shard-blocks\" data-count=\"" + std::to_string(s.blocks.size()) +
                  "\"><thead><tr><th>mesh rank</th><th>coordinates</th><th>log rank</th>"
                  "<th>block</th></tr></thead><tbody>\n";
  for (const views::ShardBlock& b : s.blocks) {
    h += "<tr data-mesh-rank=\"" + std::to_string(b.mesh_rank) +
         "\"><td><i class=\"swatch\" "
         "style=\"background:" +
         views::css_color(views::rank_color(b.mesh_rank)) + "\"></i>r" +
         std::to_string(b.mesh_rank) + "</td><td>";
    for (size_t m = 0; m < b.mesh_coords.size(); ++m) {
      const auto& names = s.placement->mesh_dim_names;
      h += (m ? ", " : "");
      append_html_escaped(h, m < names.size() ? names[m] : "dim " + std::to_string(m));
      h += " " + std::to_string(b.mesh_coords[m]);
    }
    h += "</td><td>" +
         (b.rank < 0 ? std::string("<span class=\"warn\">not logged</span>")
                     : std::to_string(b.rank)) +
         "</td><td>";
    for (size_t d = 0; d < b.lo.size(); ++d)
      h += std::string(d ? ", " : "[") + std::to_string(b.lo[d]) + ":" + std::to_string(b.hi[d]);
    h += b.lo.empty() ? "[]" : "]";
    h += "</td></tr>\n";
  }
  return h + "</tbody></table>\n";
}

void write_snapshot_page(ReportContext& ctx, const SnapshotEntry& e, const std::string& page) {
  const views::TensorSnapshot& s = e.snapshot;
  std::string h = page_head(title_of(s), "tensor", 1);
  h += "<table class=\"kv\" id=\"snapshot\" data-shape=\"";
  append_html_escaped(h, shape_text(s.shape));
  h += "\" data-sharded=\"" + std::string(s.mesh ? "1" : "0") + "\"><tr><th>dtype</th><td>";
  append_html_escaped(h, s.dtype);
  h += "</td></tr><tr><th>shape</th><td>" + shape_text(s.shape) + "</td></tr>";
  h += "<tr><th>logged by</th><td>rank " + ranks_text(s) + "</td></tr>";
  if (s.placement) {
    h += "<tr><th>placement</th><td>";
    append_html_escaped(h, placement_text(*s.placement));
    h += "</td></tr>";
  }
  h += "<tr><th>records</th><td>";
  for (size_t i = 0; i < s.ranks.size() && i < 16; ++i) {
    h += i ? ", " : "";
    append_html_escaped(h, s.ranks[i].source);
  }
  h += "</td></tr></table>\n";
  for (const std::string& p : s.problems) {
    h += "<p class=\"warn problem\">";
    append_html_escaped(h, p);
    h += "</p>\n";
  }
  if (s.mesh) {
    h += "<p>The global tensor assembled from each rank's local block (Shard(d) splits dim d "
         "like torch.chunk; Replicate() copies; " +
         std::string(s.partial ? "Partial() blocks are summed, so each cell shows the sum of "
                                 "the ranks' addends"
                               : "Partial() blocks would be summed") +
         "). Cell colour and the r-tag of each outlined block name the mesh ranks that hold "
         "it.</p>\n";
  } else {
    h += "<p>Matrix of matrices: the last dim runs across, the one before it down; outer dims "
         "tile blocks.</p>\n";
  }
  h += grid_of(s.shape, s.values, s.mesh, "tensor-grid");
  if (s.mesh) h += "<h2>Blocks per mesh rank</h2>\n" + legend(s);
  // Unsharded tensors whose ranks disagree: each differing rank's values too.
  size_t shown = 0;
  for (const views::RankValues& r : s.ranks) {
    if (std::find(s.differing_ranks.begin(), s.differing_ranks.end(), r.rank) ==
            s.differing_ranks.end() ||
        shown++ >= 8)
      continue;
    h += "<h2>As logged by rank " + std::to_string(r.rank) + "</h2>\n" +
         grid_of(r.values.shape, r.values.values, std::nullopt,
                 "tensor-grid-rank-" + std::to_string(r.rank));
  }
  ctx.site.write(page, h + page_tail(1));
}

}  // namespace

std::string snapshot_rows_html(const TensorSnapshots& snaps, size_t begin, size_t end, int depth) {
  std::string up = depth ? "../" : "";
  std::string h;
  for (size_t i = begin; i < end && i < snaps.entries.size(); ++i) {
    const views::TensorSnapshot& s = snaps.entries[i].snapshot;
    std::string page = snapshot_page(snaps.first + i);
    h += "<tr><td>";
    if (!page.empty()) h += "<a href=\"" + up + page + "\">";
    append_html_escaped(h, s.name.empty() ? "(unnamed)" : s.name);
    if (!page.empty()) h += "</a>";
    h += "</td><td class=\"num\">" + std::to_string(s.occurrence) + "</td><td>";
    append_html_escaped(h, s.dtype);
    h += "</td><td>" + shape_text(s.shape) + "</td><td>" + ranks_text(s) + "</td><td>";
    if (s.placement) append_html_escaped(h, placement_text(*s.placement));
    h += "</td><td>" +
         (s.problems.empty()
              ? std::string()
              : "<span class=\"warn\">" +
                    plural(static_cast<int64_t>(s.problems.size()), "problem") + "</span>") +
         "</td></tr>\n";
  }
  return h;
}

std::string snapshot_table_head(std::string_view id, size_t total) {
  return "<table id=\"" + std::string(id) + "\" data-count=\"" + std::to_string(total) +
         "\"><thead><tr><th>tensor</th><th class=\"num\">#</th><th>dtype</th><th>shape</th>"
         "<th>ranks</th><th>placement</th><th></th></tr></thead><tbody>\n";
}

void write_tensor_values_pages(ReportContext& ctx, const TensorSnapshots& snaps) {
  for (const std::string& err : snaps.errors) ctx.warnings.push_back(err);
  size_t per_page = std::max<size_t>(ctx.options.rows_per_page, 1);
  size_t total = snaps.total;
  size_t page_count = std::max<size_t>(1, (total + per_page - 1) / per_page);
  for (size_t page = 0; page < page_count; ++page) {
    std::string h = page_head("Logged tensor values", "tensors", 0);
    h += "<p>" + plural(static_cast<int64_t>(total), "tensor snapshot") +
         " from tensor_values records (one per name and occurrence across the ranks); sharded "
         "ones are assembled from the ranks' blocks by their dtensor_placement. Open one for "
         "its values as a matrix of matrices.</p>\n";
    if (!snaps.errors.empty())
      h += "<p class=\"warn\">" + plural(static_cast<int64_t>(snaps.errors.size()), "record") +
           " could not be read (listed on the summary).</p>\n";
    h += pager("tensor_values", page, page_count) + snapshot_table_head("tensor-values", total) +
         snapshot_rows_html(snaps, page * per_page, (page + 1) * per_page, 0) +
         "</tbody></table>\n" + pager("tensor_values", page, page_count) + page_tail(0);
    ctx.site.write(page_file("tensor_values", page), h);
  }
  size_t without = 0;
  for (size_t i = 0; i < snaps.entries.size(); ++i) {
    std::string page = snapshot_page(snaps.first + i);
    if (page.empty())
      ++without;
    else
      write_snapshot_page(ctx, snaps.entries[i], page);
  }
  if (without > 0)
    ctx.warnings.push_back(std::to_string(without) + " tensor snapshots got no page of their own");
}

}  // namespace tlscope::exporters
