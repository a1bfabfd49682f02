// The page writers of the HTML report, one file per page family. Each reads the database through
// ctx.db (ingest and analysis tables, docs/schema.md) and writes its pages through ctx.site.
#pragma once

#include <vector>

#include "compile_index.hpp"
#include "site.hpp"
#include "tlscope/views/tensor_screens.hpp"

namespace tlscope::exporters {

using views::input_base_name;
using views::SnapshotEntry;
using views::TensorSnapshots;

void write_compile_pages(ReportContext& ctx, const std::vector<CompileInfo>& compiles,
                         const TensorSnapshots& snapshots);
void write_compile_tree(ReportContext& ctx, const std::vector<CompileInfo>& compiles);
void write_graph_breaks_page(ReportContext& ctx);
void write_recompiles_page(ReportContext& ctx);
void write_failures_page(ReportContext& ctx, const std::vector<CompileInfo>& compiles);
void write_cache_page(ReportContext& ctx);
void write_ranks_page(ReportContext& ctx);
void write_collectives_page(ReportContext& ctx);
void write_compile_timeline_page(ReportContext& ctx);
void write_tensors_page(ReportContext& ctx, const TensorSnapshots& snapshots);
void write_tensor_values_pages(ReportContext& ctx, const TensorSnapshots& snapshots);
// Rows [begin, end) of the logged-values table and its header (tensors.html, tensor_values.html).
std::string snapshot_rows_html(const TensorSnapshots& snaps, size_t begin, size_t end, int depth);
std::string snapshot_table_head(std::string_view id, size_t total);
void write_errors_page(ReportContext& ctx);
// Last: the summary shows the findings the other pages collected.
void write_index_page(ReportContext& ctx, const std::vector<CompileInfo>& compiles);

}  // namespace tlscope::exporters
