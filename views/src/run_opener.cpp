// The background open. Logs go through open_logs (whose resolver builds under a temporary name and
// renames when complete, so a killed or cancelled viewer never leaves a half-built database that
// a later start would reuse); a bundle's database is extracted the same way.
#include "tlscope/views/run_opener.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "tlscope/model/safe_output.hpp"

namespace tlscope::views {
namespace fs = std::filesystem;

RunOpener::~RunOpener() {
  stop();
}

void RunOpener::stop() {
  cancel_ = true;
  if (thread_.joinable()) thread_.join();
}

void RunOpener::start(const OpenPlan& plan, std::function<void()> wake, AfterOpen after) {
  if (thread_.joinable()) thread_.join();
  plan_ = plan;
  after_ = std::move(after);
  wake_ = std::move(wake);
  done_ = false;
  cancel_ = false;
  ingested_ = false;
  bytes_done_ = bytes_total_ = 0;
  files_done_ = files_total_ = events_ = errors_ = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    error_.clear();
    stage_.clear();
  }
  if ((plan_.ready && !after_.run) || !plan_.ok) {
    if (!plan_.ok) {
      std::lock_guard<std::mutex> lock(mutex_);
      error_ = plan_.error;
    }
    done_ = true;
    return;
  }
  running_ = true;
  thread_ = std::thread([this] { run(); });
}

OpenProgress RunOpener::progress() const {
  OpenProgress p;
  const uint64_t total = bytes_total_.load();
  p.fraction =
      done_   ? 1.0
      : total ? std::min(1.0, static_cast<double>(bytes_done_.load()) / static_cast<double>(total))
              : 0.0;
  p.bytes_done = bytes_done_.load();
  p.bytes_total = total;
  p.files_done = files_done_.load();
  p.files_total = files_total_.load();
  p.events = events_.load();
  p.errors = errors_.load();
  std::lock_guard<std::mutex> lock(mutex_);
  p.stage = stage_;
  return p;
}

Result<std::string> RunOpener::result() const {
  Result<std::string> out;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!error_.empty())
    out.fail(error_);
  else
    out.value = plan_.db_path;
  return out;
}

void RunOpener::set_stage(std::string s) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stage_ = std::move(s);
  }
  if (wake_) wake_();
}

void RunOpener::run() {
  // The open yields to the window: this thread and the ingest's parse threads (which inherit
  // the niceness) run at nice 10, so on a busy machine the UI thread gets a core first.
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);
  std::string error;
  if (!plan_.ready) run_open(error);
  if (error.empty() && after_.run) {
    set_stage(after_.stage);
    error = after_.run(plan_.db_path);
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = error;
  }
  done_ = true;
  running_ = false;
  if (wake_) wake_();
}

void RunOpener::run_open(std::string& error) {
  if (plan_.kind == InputKind::kBundle) {
    set_stage("extracting the bundle's database");
    // The bundle cache is the input cache: this user's folder only, a link or another user's
    // folder refused (model::ensure_private_folder).
    const std::string folder = fs::path(plan_.db_path).parent_path().string();
    if (std::string why = model::ensure_private_folder(folder); !why.empty()) {
      error = why;
    } else if (Result<bool> extracted = extract_bundle_database(
                   plan_.inputs[0], plan_.db_path,
                   [this] { return cancel_.load(std::memory_order_relaxed); });
               !extracted.ok()) {
      error = extracted.error;
    }
  } else {
    set_stage("ingesting");
    OpenLogsOptions options;
    options.jobs = std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
    auto last_wake = std::chrono::steady_clock::now();
    bool analysing = false;
    options.progress = [&](const OpenProgress& p) {
      bytes_done_ = p.bytes_done;
      bytes_total_ = p.bytes_total;
      files_done_ = p.files_done;
      files_total_ = p.files_total;
      events_ = p.events;
      errors_ = p.errors;
      if (!analysing && p.stage == "analysing") {
        analysing = true;  // the last batch is written: indexes, then the analyses
        set_stage("analysing");
        return;
      }
      // At most ten wake-ups a second: the progress bar needs no more.
      auto now = std::chrono::steady_clock::now();
      if (now - last_wake > std::chrono::milliseconds(100) && wake_) {
        last_wake = now;
        wake_();
      }
    };
    options.cancelled = [this] { return cancel_.load(std::memory_order_relaxed); };
    Result<OpenedRun> r = open_logs(plan_.inputs, options);
    if (!r.ok()) {
      error = r.error;
    } else if (r->path != plan_.db_path) {
      // The plan named the cache's own path; a mismatch would open the wrong file.
      error = r->path + ": the resolver chose another database than " + plan_.db_path;
    }
    ingested_ = r->ingested;
  }
}

}  // namespace tlscope::views
