// Writes the whole static site: assets, then every page family of TLSCOPE_REPORT_PAGES, on a
// pool of threads (report_work.hpp) whose output is merged in the families' order.
#include "tlscope/exporters/report.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>

#include "assets.hpp"
#include "pages.hpp"
#include "tlscope/views/open_run.hpp"
#include "tlscope/views/read_snapshot.hpp"
#include "tlscope/views/screens.hpp"
#include "tlscope/views/store_health.hpp"
#include "tlscope/views/vllm.hpp"

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

// Below this database size the report stays on one thread. Each extra thread opens a connection
// (which reads the whole schema, ~1 M instructions) and the families of a small report take a
// few milliseconds in all, so the second thread costs more than it saves (bench/README.md,
// session 7).
constexpr uintmax_t kParallelFromBytes = 16u << 20;

size_t report_threads(const ReportOptions& options) {
  if (options.threads > 0) return std::min(options.threads, kMaxReportThreads);
  std::error_code ec;
  uintmax_t size = std::filesystem::file_size(options.db_path, ec);
  if (ec || size < kParallelFromBytes) return 1;
  return std::clamp<size_t>(std::thread::hardware_concurrency(), 1, kMaxReportThreads);
}

// Every family but the summary as work items, in TLSCOPE_REPORT_PAGES order. The compile family,
// the largest, is split so the threads balance; the others run whole and start first.
std::vector<WorkItem> family_items(ReportContext& ctx, size_t threads) {
  std::vector<WorkItem> items;
  for (const PageFamily& family : kPageFamilies) {
    if (family.screen == views::ScreenId::summary) continue;
    if (family.screen == views::ScreenId::compile) {
      size_t offset = items.size();  // compile_work's `after` counts from its first item
      for (WorkItem& item : compile_work(ctx, threads == 1 ? 1 : threads * 4)) {
        for (size_t& d : item.after) d += offset;
        items.push_back(std::move(item));
      }
      continue;
    }
    items.push_back({views::screen(family.screen).name, family.write, {}, true});
  }
  return items;
}

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
  views::Result<bool> analysis = views::ensure_run_analysis(db, options.db_path);
  if (!analysis.ok()) {
    result.error = analysis.error;
    return result;
  }
  result.ran_analysis = analysis.value;
  // One read transaction for the whole report (see read_snapshot.hpp).
  std::optional<views::ReadSnapshot> snapshot(std::in_place, db);
  Site site(options.out_dir);
  for (const Asset& asset : report_assets())
    site.write("assets/" + std::string(asset.name), asset.text);
  // Incomplete files and a stale analysis: on index.html and printed by `tlscope report`.
  for (std::string& w : views::store_health(db).warnings(options.db_path))
    result.warnings.push_back(std::move(w));
  // vllm.html is written for every log (a link to it may be kept), but listed only for vLLM's.
  if (!views::load_vllm(db).value.present) site.hide_from_navigation("vllm");
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
  timed("provenance graphs", [&] { shared.provenance_graphs = views::load_provenance_graphs(db); });
  timed("trace runs", [&] { shared.trace_runs = views::load_trace_runs(db); });
  size_t threads = report_threads(options);
  std::vector<WorkItem> items = family_items(ctx, threads);
  // On several threads the summary's loads run beside the other families (its page comes last).
  std::optional<IndexViews> index_views;
  if (threads > 1)
    items.push_back(
        {"summary", [&](ReportContext& c) { index_views = load_index_views(c.db); }, {}, true});
  std::vector<WorkOutcome> outcomes = run_work(items, threads, db, site, options, shared);
  // Merged in item order: the notes and the first error read as in a run on one thread. A
  // family split into slices notes a failing statement once, not once per slice.
  size_t family_start = result.warnings.size();
  for (size_t i = 0; i < items.size(); ++i) {
    if (i == 0 || items[i].family != items[i - 1].family) {
      family_start = result.warnings.size();
      result.seconds.emplace_back(items[i].family, 0.0);
    }
    result.seconds.back().second += outcomes[i].seconds;
    // Compared with the notes of the family's earlier items only: one item's own notes stay
    // as it wrote them.
    auto begin = static_cast<std::ptrdiff_t>(family_start);
    auto end = static_cast<std::ptrdiff_t>(result.warnings.size());
    for (std::string& w : outcomes[i].warnings) {
      if (std::find(result.warnings.begin() + begin, result.warnings.begin() + end, w) ==
          result.warnings.begin() + end)
        result.warnings.push_back(std::move(w));
    }
    site.absorb(outcomes[i].site);
  }
  // The summary last, on this thread: it lists the notes the other families collected.
  for (const PageFamily& family : kPageFamilies) {
    if (family.screen != views::ScreenId::summary) continue;
    timed(views::screen(family.screen).name, [&] {
      if (index_views)
        write_index_page(ctx, *index_views);
      else
        family.write(ctx);
    });
  }

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
