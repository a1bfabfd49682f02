// Writes the whole static site: assets, then every page family of TLSCOPE_REPORT_PAGES in order.
#include "tlscope/exporters/report.hpp"

#include <chrono>
#include <optional>

#include "assets.hpp"
#include "pages.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/views/read_snapshot.hpp"
#include "tlscope/views/store_health.hpp"
#include "tlscope/views/screens.hpp"

namespace tlscope::exporters {

namespace {

constexpr size_t kMaxTreeFrames = 50000;

struct PageFamily {
  views::ScreenId screen;
  void (*write)(ReportContext&);
};

constexpr PageFamily kPageFamilies[] = {
#define TLSCOPE_PAGE_FAMILY(screen, writer) {views::ScreenId::screen, writer},
    TLSCOPE_REPORT_PAGES(TLSCOPE_PAGE_FAMILY)
#undef TLSCOPE_PAGE_FAMILY
};

// Every screen with a report page (a navigation entry) has a family that writes it.
constexpr bool every_report_page_written() {
  for (const views::Screen& s : views::kScreens) {
    bool written = false;
    for (const PageFamily& f : kPageFamilies) written |= f.screen == s.id;
    if (!s.report_page.empty() && !written) return false;
  }
  return true;
}
static_assert(every_report_page_written(),
              "a screen's report page has no TLSCOPE_REPORT_PAGES row");

}  // namespace

ReportResult write_report(const ReportOptions& options) {
  ReportResult result;
  // One connection for the checks and the pages: each open reads the whole schema again (~100
  // tables, views and indexes), a fixed cost that small reports felt.
  Database db(options.db_path);
  result.error = db.not_tlscope_reason();
  if (!result.error.empty()) return result;
  // The pages read the analysis tables: a database ingested without them gets them now, written
  // through a connection of its own (this one has no transaction open, so its next statement
  // reads the new schema).
  if (!model::analysis::has_analysis_tables(db.handle())) {
    model::analysis::EnsuredAnalysis analysis = model::analysis::ensure_analysis(options.db_path);
    if (!analysis.ok) {
      result.error = analysis.error;
      return result;
    }
    result.ran_analysis = analysis.ran;
  }
  // One read transaction for the whole report (see read_snapshot.hpp).
  std::optional<views::ReadSnapshot> snapshot(std::in_place, db);
#include "tlscope/views/screens.hpp"
  Site site(options.out_dir);
  for (const Asset& asset : report_assets())
    site.write("assets/" + std::string(asset.name), asset.text);
  // Incomplete files and a stale analysis: on index.html and printed by `tlscope report`.
  for (std::string& w : views::store_health(db).warnings(options.db_path))
    result.warnings.push_back(std::move(w));
  SharedViews shared;
  ReportContext ctx{db, site, options, result.warnings, shared};

  auto timed = [&](std::string_view family, auto&& write) {
    auto start = std::chrono::steady_clock::now();
    write();
    result.seconds.emplace_back(
        family, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  };
  timed("load compiles", [&] {
    shared.compile_tree = noted(ctx, "compiles", views::load_compile_tree(db, kMaxTreeFrames));
  });
  timed("tensor values", [&] {
    // Unreadable records are listed by the tensor values pages.
    shared.snapshots = std::move(views::load_tensor_snapshots(db).value);
  });
  for (const PageFamily& family : kPageFamilies)
    timed(views::screen(family.screen).name, [&] { family.write(ctx); });

  snapshot.reset();
  result.ok = site.error().empty();
  result.error = site.error();
  result.pages = site.pages();
  result.files = site.files();
  result.bytes = site.bytes();
  result.largest_page_bytes = site.largest_page();
  return result;
}

}  // namespace tlscope::exporters
