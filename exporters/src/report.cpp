// Writes the whole static site: assets, then every page family, then the summary.
#include "tlscope/exporters/report.hpp"

#include <chrono>

#include "assets.hpp"
#include "pages.hpp"
#include "tlscope/model/analysis/analyze.hpp"

namespace tlscope::exporters {

namespace {

// The pages read the analysis tables. A database ingested without analysis gets it now (the
// tables are derived data, rebuilt the same way by `tlscope analyze`).
bool ensure_analysis(const std::string& path, ReportResult& result) {
  {
    Database probe(path);
    result.error = probe.not_tlscope_reason();
    if (!result.error.empty()) return false;
    if (probe.has_table("findings") && probe.has_table("compiles")) return true;
  }
  Database db(path, /*writable=*/true);
  if (!db.ok()) {
    result.error = db.error() + " (the database has no analysis tables; run `tlscope analyze`)";
    return false;
  }
  model::analysis::AnalysisReport a = model::analysis::analyze(db.handle());
  if (!a.ok) {
    result.error = path + ": analysis failed: " + a.error;
    return false;
  }
  result.ran_analysis = true;
  return true;
}

}  // namespace

ReportResult write_report(const ReportOptions& options) {
  ReportResult result;
  if (!ensure_analysis(options.db_path, result)) return result;
  Database db(options.db_path);
  if (!db.ok()) {
    result.error = db.error();
    return result;
  }
  // One read transaction for the whole report: otherwise every statement takes and drops the
  // file lock and probes for a journal (over 300 000 syscalls on the 1 GB benchmark log).
  db.scalar("PRAGMA mmap_size = 1073741824");
  db.scalar("BEGIN");
  db.scalar("SELECT count(*) FROM sqlite_master");  // starts the read transaction now
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
  std::vector<CompileInfo> compiles;
  timed("load compiles", [&] { compiles = load_compiles(db); });
  timed("compile tree", [&] { write_compile_tree(ctx, compiles); });
  TensorSnapshots snapshots;
  timed("tensor values", [&] {
    views::Result<TensorSnapshots> loaded = views::load_tensor_snapshots(db);
    snapshots = std::move(loaded.value);
  });
  timed("compile pages", [&] { write_compile_pages(ctx, compiles, snapshots); });
  timed("failures", [&] { write_failures_page(ctx, compiles); });
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
  timed("summary", [&] { write_index_page(ctx, compiles); });

  db.scalar("COMMIT");
  result.ok = site.error().empty();
  result.error = site.error();
  result.pages = site.pages();
  result.files = site.files();
  result.bytes = site.bytes();
  result.largest_page_bytes = site.largest_page();
  return result;
}

}  // namespace tlscope::exporters
