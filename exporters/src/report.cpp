// Writes the whole static site: assets, then every page family of TLSCOPE_REPORT_PAGES in order.
#include "tlscope/exporters/report.hpp"

#include <chrono>

#include "assets.hpp"
#include "pages.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/views/read_transaction.hpp"
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

  result.ok = site.error().empty();
  result.error = site.error();
  result.pages = site.pages();
  result.files = site.files();
  result.bytes = site.bytes();
  result.largest_page_bytes = site.largest_page();
  return result;
}

}  // namespace tlscope::exporters
