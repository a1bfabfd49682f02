// Writes the whole static site: assets, then every page family, then the summary.
#include "tlscope/exporters/report.hpp"

#include <chrono>

#include "assets.hpp"
#include "pages.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/views/read_transaction.hpp"

namespace tlscope::exporters {

namespace {

constexpr size_t kMaxTreeFrames = 50000;

}  // namespace

ReportResult write_report(const ReportOptions& options) {
  ReportResult result;
  {
    Database probe(options.db_path);
    result.error = probe.not_tlscope_reason();
    if (!result.error.empty()) return result;
  }
  // The pages read the analysis tables: a database ingested without them gets them now.
  model::analysis::EnsuredAnalysis analysis = model::analysis::ensure_analysis(options.db_path);
  if (!analysis.ok) {
    result.error = analysis.error;
    return result;
  }
  result.ran_analysis = analysis.ran;
  Database db(options.db_path);
  if (!db.ok()) {
    result.error = db.error();
    return result;
  }
  views::ReadTransaction snapshot(db);
  Site site(options.out_dir);
  for (const Asset& asset : report_assets())
    site.write("assets/" + std::string(asset.name), asset.text);
  ReportContext ctx{db, site, options, result.warnings};

  auto timed = [&](const char* family, auto&& write) {
    auto start = std::chrono::steady_clock::now();
    write();
    result.seconds.emplace_back(
        family, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  };
  views::Result<views::CompileTree> tree;
  timed("load compiles", [&] { tree = views::load_compile_tree(db, kMaxTreeFrames); });
  const std::vector<CompileRow>& compiles = noted(ctx, "compiles", tree).compiles;
  timed("compile tree", [&] { write_compile_tree(ctx, tree.value); });
  TensorSnapshots snapshots;
  timed("tensor values", [&] {
    views::Result<TensorSnapshots> loaded = views::load_tensor_snapshots(db);
    snapshots = std::move(loaded.value);
  });
  timed("compile pages", [&] { write_compile_pages(ctx, compiles, snapshots); });
  timed("failures", [&] { write_failures_page(ctx); });
  timed("graph breaks", [&] { write_graph_breaks_page(ctx); });
  timed("recompiles", [&] { write_recompiles_page(ctx); });
  timed("cache", [&] { write_cache_page(ctx); });
  timed("ranks", [&] { write_ranks_page(ctx); });
  timed("collectives", [&] { write_collectives_page(ctx); });
  timed("compile timeline", [&] { write_compile_timeline_page(ctx); });
  timed("tensors", [&] {
    write_tensors_page(ctx, snapshots);
    write_tensor_values_pages(ctx, snapshots);
  });
  timed("errors", [&] { write_errors_page(ctx); });
  timed("summary", [&] { write_index_page(ctx); });

  result.ok = site.error().empty();
  result.error = site.error();
  result.pages = site.pages();
  result.files = site.files();
  result.bytes = site.bytes();
  result.largest_page_bytes = site.largest_page();
  return result;
}

}  // namespace tlscope::exporters
