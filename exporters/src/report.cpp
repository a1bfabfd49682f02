// Writes the whole static site: assets, then every page family, then the summary.
#include "tlscope/exporters/report.hpp"

#include "assets.hpp"
#include "pages.hpp"

namespace tlscope::exporters {

ReportResult write_report(const ReportOptions& options) {
  ReportResult result;
  Database db(options.db_path);
  if (!db.ok()) {
    result.error = db.error();
    return result;
  }
  if (!db.has_table("events")) {
    result.error = options.db_path + ": not a tlscope database (no events table)";
    return result;
  }
  Site site(options.out_dir);
  for (const Asset& asset : report_assets()) site.write("assets/" + std::string(asset.name), asset.text);
  ReportContext ctx{db, site, options, {}, result.warnings};

  std::vector<CompileInfo> compiles = load_compiles(db);
  write_compile_tree(ctx, compiles);
  write_compile_pages(ctx, compiles);
  write_failures_page(ctx, compiles);
  write_graph_breaks_page(ctx);
  write_recompiles_page(ctx);
  write_cache_page(ctx);
  write_ranks_page(ctx, compiles);
  write_collectives_page(ctx);
  write_compile_timeline_page(ctx);
  write_tensors_page(ctx);
  write_errors_page(ctx);
  write_index_page(ctx, compiles);

  result.ok = site.error().empty();
  result.error = site.error();
  result.pages = site.pages();
  result.files = site.files();
  result.bytes = site.bytes();
  result.largest_page_bytes = site.largest_page();
  return result;
}

}  // namespace tlscope::exporters
