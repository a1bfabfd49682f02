// The written site: file output with size accounting, the shared page shell (navigation,
// stylesheet, error hook), pagination and links to per-compile pages.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "tlscope/exporters/report.hpp"
#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"
#include "tlscope/views/time_format.hpp"

namespace tlscope::exporters {

using views::Database;
using views::Statement;

// The report's page families run on several threads: each work item writes through a branch()
// of the one Site, with counters and a first error of its own that absorb() adds back in item
// order, so the totals and the error named do not depend on which thread ran what. Only the set
// of folders made is shared (under a lock).
class Site {
 public:
  explicit Site(std::filesystem::path root)
      : root_(std::move(root)), folders_(std::make_shared<Folders>()) {}
  // Writes `content` to root/rel, creating folders; false (and error()) on I/O failure.
  bool write(const std::string& rel, std::string_view content);
  // A Site over the same folder, sharing the folders made, with zero counts and no error.
  Site branch() const;
  // Leaves `page` ("vllm") out of every page's navigation: a screen with nothing to show for
  // this log (vLLM's, for a log without vLLM records). Called before any page is written.
  void hide_from_navigation(std::string page) { folders_->hidden_nav.push_back(std::move(page)); }
  // Adds `other`'s counts; its error becomes this Site's when this one has none yet.
  void absorb(const Site& other);
  const std::string& error() const { return error_; }
  size_t pages() const { return pages_; }
  size_t files() const { return files_; }
  uint64_t bytes() const { return bytes_; }
  uint64_t largest_page() const { return largest_page_; }

 private:
  struct Folders {
    std::mutex mutex;
    std::set<std::string> made;
    std::vector<std::string> hidden_nav;  // set before the families start, then only read
  };
  std::filesystem::path root_;
  std::shared_ptr<Folders> folders_;
  std::string error_;
  size_t pages_ = 0, files_ = 0;
  uint64_t bytes_ = 0, largest_page_ = 0;
};

struct SharedViews;  // pages.hpp

// Everything a page writer needs.
struct ReportContext {
  const Database& db;
  Site& site;
  const ReportOptions& options;
  std::vector<std::string>& warnings;
  const SharedViews& shared;  // the view models several page families draw
};

// The view model of `loaded`; a failed read becomes a report note ("what: message") on the summary
// page, and the page shows what did load.
template <typename T>
const T& noted(ReportContext& ctx, std::string_view what, const views::Result<T>& loaded) {
  if (!loaded.ok()) ctx.warnings.push_back(std::string(what) + ": " + loaded.error);
  return loaded.value;
}

// The page shell. `depth` is how many folders below the root the page lives (for relative links).
std::string page_head(std::string_view title, std::string_view page_id, int depth);
std::string page_tail(int depth, const std::vector<std::string>& scripts = {});

// Paginated tables: page 0 is base.html, page k is base_k+1.html.
std::string page_file(std::string_view base, size_t page);
std::string pager(std::string_view base, size_t page, size_t page_count);

// The full list behind a section that shows only its first rows: writes `rows` into base.html,
// base_2.html, ... (rows_per_page each) as `table_open` + rows + "</tbody></table>", and returns
// the section's "all N" link ("" when every row fits the section).
std::string write_row_pages(ReportContext& ctx, std::string_view base, std::string_view title,
                            std::string_view page_id, const std::string& intro_html,
                            const std::string& table_open, const std::vector<std::string>& rows);

// Per-compile pages live in compile/; the name encodes the log file and the compile id (without
// attempt), the key of the analysis tables.
std::string compile_page(int64_t file_id, std::string_view compile_id);
// <a> to a compile page, e.g. "[0/1]" or "r2 [0/0]" when rank is set. An attempt suffix
// ("0/1_2") is dropped from the link target but kept in the text.
std::string compile_link(int64_t file_id, std::optional<int64_t> rank, std::string_view compile_id,
                         int depth);
// Tensor views are per distinct (dtype, size, stride): tensor/s<hash>.html.
std::string tensor_page(std::string_view dtype, std::string_view size, std::string_view stride);
std::string rank_label(std::optional<int64_t> rank);

// "1.23 ms", "3.40 s" from microseconds: the one duration format of every front end.
using views::format_duration_us;
std::string plural(int64_t n, std::string_view noun);

}  // namespace tlscope::exporters
