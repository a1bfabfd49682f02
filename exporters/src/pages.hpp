// The page writers of the HTML report, one file per page family. Each formats view models of
// views/ (read through ctx.db, or shared in ctx.shared) and writes its pages through ctx.site.
#pragma once

#include <vector>

#include "report_work.hpp"
#include "site.hpp"
#include "tlscope/views/compile_tree.hpp"
#include "tlscope/views/findings.hpp"
#include "tlscope/views/provenance.hpp"
#include "tlscope/views/summary.hpp"
#include "tlscope/views/tensor_screens.hpp"
#include "tlscope/views/timeline_runs.hpp"

namespace tlscope::exporters {

using views::CompileRow;
using views::input_base_name;
using views::SnapshotEntry;
using views::TensorSnapshots;

// View models that several page families draw, loaded once before any page is written.
struct SharedViews {
  views::CompileTree compile_tree;   // compiles.html, and its compiles' pages
  views::TensorSnapshots snapshots;  // tensors.html, tensor_values.html and the compile pages
  // provenance pages, their list on index.html and the compile pages' links to them
  views::Result<std::vector<views::ProvenanceGraphRow>> provenance_graphs;
  // the runs of the two timelines (collectives.html, compile_timeline.html), and why a read failed
  views::Result<views::TraceRuns> trace_runs;
};

// The report's page families, one row each: X(screen, writer). A row declares the family's
// writer (defined in its page_*.cpp) and registers it under its screen (views::kScreens, whose
// report_page gives the navigation entry); report.cpp runs the families on its threads and merges
// their notes and counts in this order. The summary comes last: it lists the notes the other
// pages collected. A writer may run beside any other: it keeps no state outside its context.
#define TLSCOPE_REPORT_PAGES(X)                    \
  X(compile_tree, write_compile_tree)              \
  X(compile, write_compile_pages)                  \
  X(failures, write_failures_page)                 \
  X(graph_breaks, write_graph_breaks_page)         \
  X(recompiles, write_recompiles_page)             \
  X(cache, write_cache_page)                       \
  X(ranks, write_ranks_page)                       \
  X(collectives, write_collectives_page)           \
  X(compile_timeline, write_compile_timeline_page) \
  X(compile_time, write_compile_time_page)         \
  X(tensors, write_tensors_pages)                  \
  X(errors, write_errors_page)                     \
  X(provenance, write_provenance_pages)            \
  X(torch_export, write_export_page)               \
  X(vllm, write_vllm_page)                         \
  X(summary, write_index_page)

#define TLSCOPE_DECLARE_PAGE_WRITER(screen, writer) void writer(ReportContext& ctx);
TLSCOPE_REPORT_PAGES(TLSCOPE_DECLARE_PAGE_WRITER)
#undef TLSCOPE_DECLARE_PAGE_WRITER

// The compile family (write_compile_pages) as work items for the report's threads: `slices`
// slices of the compile pages, then the payload files they link, split as finely.
std::vector<WorkItem> compile_work(ReportContext& ctx, size_t slices);

// The summary's two large loads, which may run beside the other families; only the page itself
// waits for them all, as it lists their notes.
struct IndexViews {
  views::Result<views::Summary> summary;
  views::Result<views::Findings> findings;
};
IndexViews load_index_views(const Database& db);
void write_index_page(ReportContext& ctx, const IndexViews& loaded);

// provenance/provenance_<id>.html, the page of provenance graph `graph_id` (views/provenance.hpp).
std::string provenance_page(int64_t graph_id);
// Rows [begin, end) of the logged-values table and its header (tensors.html, tensor_values.html,
// compile pages).
std::string snapshot_rows_html(const TensorSnapshots& snaps, size_t begin, size_t end, int depth);
std::string snapshot_table_head(std::string_view id, size_t total);
// tensor_values.html and tensor/values_<k>.html, written with tensors.html.
void write_tensor_values_pages(ReportContext& ctx, const TensorSnapshots& snapshots);

}  // namespace tlscope::exporters
