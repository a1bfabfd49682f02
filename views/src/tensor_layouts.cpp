// Reads the input-tensor screens: layouts grouped from the analysis `tensors` table, the inputs
// whose layout changed between compiles, the tensors collectives split over ranks, and what draws
// each of them.
#include <algorithm>

#include "tlscope/views/tensor_screens.hpp"

namespace tlscope::views {

namespace {

bool is_int(const std::string& s) {
  return !s.empty() && s.size() < 16 &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// LIMIT/OFFSET values for a page (-1: no limit).
int64_t sql_limit(Page page) {
  return page.limit == Page::kAll ? -1 : static_cast<int64_t>(page.limit);
}

}  // namespace

Result<TensorLayouts> load_tensor_layouts(const Database& db, Page page) {
  Result<TensorLayouts> out;
  if (!db.has_table("tensors")) return out;
  out->tensors = db.scalar("SELECT count(*) FROM tensors");
  out->layouts.total = static_cast<size_t>(
      db.scalar("SELECT count(*) FROM (SELECT 1 FROM tensors GROUP BY dtype, size, stride)"));
  // The texts are clipped as the rows are read (cell_text.hpp): the grouping sort would copy a
  // huge cell whole, several times.
  Statement s = db.prepare(
      "WITH t AS MATERIALIZED (SELECT dtype, size, stride, tlscope_clip(device) AS device, "
      "tlscope_clip(source) AS source, file_id, compile_id, storage_offset, rank FROM tensors) "
      "SELECT coalesce(dtype, ''), coalesce(size, '[]'), coalesce(stride, '[]'), "
      "coalesce(min(device), ''), coalesce(min(source), ''), count(*), "
      "count(DISTINCT file_id || ' ' || compile_id), min(coalesce(storage_offset, 0)), "
      "min(file_id), min(rank), min(compile_id) FROM t GROUP BY 1, 2, 3 ORDER BY 6 DESC "
      "LIMIT ? OFFSET ?");
  s.bind(1, sql_limit(page)).bind(2, static_cast<int64_t>(page.offset));
  s.for_each(
      [&](const Statement& r) {
        out->layouts.rows.push_back({r.text(0), r.text(1), r.text(2), r.text(3), r.text(4),
                                     r.int64(5), r.int64(6), r.int64(7), r.int64(8), r.opt_int64(9),
                                     r.text(10)});
      },
      out);
  return out;
}

Result<Paged<TensorShapeChange>> load_tensor_shape_changes(const Database& db, Page page) {
  Result<Paged<TensorShapeChange>> out;
  if (!db.has_table("tensor_shape_changes")) return out;
  out->total = static_cast<size_t>(db.scalar("SELECT count(*) FROM tensor_shape_changes"));
  Statement s = db.prepare(
      "SELECT file_id, rank, coalesce(compile_id, ''), coalesce(prev_compile_id, ''), "
      "coalesce(input, source, ''), coalesce(prev_size, ''), coalesce(size, ''), "
      "coalesce(prev_stride, ''), coalesce(stride, ''), coalesce(prev_dtype, ''), "
      "coalesce(dtype, '') FROM tensor_shape_changes ORDER BY id LIMIT ? OFFSET ?");
  s.bind(1, sql_limit(page)).bind(2, static_cast<int64_t>(page.offset));
  s.for_each(
      [&](const Statement& r) {
        out->rows.push_back({r.int64(0), r.opt_int64(1), r.text(2), r.text(3), r.text(4), r.text(5),
                             r.text(6), r.text(7), r.text(8), r.text(9), r.text(10)});
      },
      out);
  return out;
}

Result<std::vector<CollectiveShard>> load_collective_shards(const Database& db, size_t limit) {
  Result<std::vector<CollectiveShard>> out;
  if (!db.has_table("collectives")) return out;
  Statement s = db.prepare(
      "SELECT op, CASE WHEN op = 'all_gather' THEN json_extract(output_sizes, '$[0]') "
      "ELSE json_extract(input_sizes, '$[0]') END AS full, pg_size, coalesce(pg_desc, ''), "
      "coalesce(dtype, ''), count(*) FROM collectives WHERE op IN ('all_gather', 'reduce_scatter') "
      "AND pg_size > 1 GROUP BY 1, 2, 3 ORDER BY count(*) DESC");
  while (out->size() < limit && s.step()) {
    CollectiveShard shard{s.text(0), s.text(1), s.int64(2), s.text(3), s.text(4), s.int64(5)};
    if (!layout_grid_input(shard.full_size).shape.empty()) out->push_back(std::move(shard));
  }
  if (!s.error().empty()) out.fail(s.error());
  return out;
}

std::vector<std::string> json_dims(const std::string& json) {
  std::vector<std::string> out;
  std::string cur;
  bool any = false;
  for (char c : json) {
    if (c == '[' || c == ']' || c == ' ' || c == '"') continue;
    any = true;
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (any && !cur.empty()) out.push_back(cur);
  return out;
}

std::string dims_text(const std::string& json) {
  std::vector<std::string> dims = json_dims(json);
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + dims[i];
  return s + "]";
}

TensorGridInput layout_grid_input(const std::string& size_json) {
  TensorGridInput in;
  bool symbolic = false;
  for (const std::string& d : json_dims(size_json)) {
    in.shape.push_back(is_int(d) ? std::stoll(d) : 3);
    in.names.push_back(is_int(d) ? "" : d);
    symbolic |= !is_int(d);
  }
  if (!symbolic) in.names.clear();
  return in;
}

TensorGridInput shard_grid_input(const CollectiveShard& shard) {
  TensorGridInput in = layout_grid_input(shard.full_size);
  in.mesh = DeviceMesh{{shard.ranks}, {{MeshPlacement::Kind::kShard, 0}}};
  in.flat_index_values = true;
  return in;
}

std::vector<std::string> storage_offsets(const TensorGrid& grid,
                                         const std::vector<std::string>& strides,
                                         int64_t storage_offset) {
  std::vector<int64_t> st;
  for (const std::string& s : strides) {
    if (s.empty() ||
        !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        s.size() > 15)
      return std::vector<std::string>(grid.cells.size());
    st.push_back(std::stoll(s));
  }
  std::vector<std::string> out;
  out.reserve(grid.cells.size());
  for (const GridCell& c : grid.cells) {
    if (c.ellipsis || c.index.size() != st.size()) {
      out.push_back(c.text);
      continue;
    }
    int64_t off = storage_offset;
    bool skipped = false;
    for (size_t k = 0; k < st.size(); ++k) {
      if (c.index[k] < 0)
        skipped = true;
      else
        off += c.index[k] * st[k];
    }
    out.push_back(skipped ? c.text : std::to_string(off));
  }
  return out;
}

}  // namespace tlscope::views
