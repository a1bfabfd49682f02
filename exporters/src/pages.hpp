// The page writers of the HTML report, one file per page family. Each formats view models of
// views/ (read through ctx.db) and writes its pages through ctx.site.
#pragma once

#include <vector>

#include "site.hpp"
#include "tlscope/views/compile_tree.hpp"
#include "tlscope/views/tensor_screens.hpp"

namespace tlscope::exporters {

using views::CompileRow;
using views::input_base_name;
using views::SnapshotEntry;
using views::TensorSnapshots;

void write_compile_pages(ReportContext& ctx, const std::vector<CompileRow>& compiles,
                         const TensorSnapshots& snapshots);
void write_compile_tree(ReportContext& ctx, const views::CompileTree& tree);
void write_graph_breaks_page(ReportContext& ctx);
void write_recompiles_page(ReportContext& ctx);
void write_failures_page(ReportContext& ctx);
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
void write_index_page(ReportContext& ctx);

}  // namespace tlscope::exporters
