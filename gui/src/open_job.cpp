// The background open: extract or ingest + analyse into a temporary name, rename when complete,
// so a killed viewer never leaves a half-built database that a later start would reuse.
#include "open_job.hpp"

#include <chrono>
#include <filesystem>

#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/model/sqlite.hpp"

namespace tlscope::gui {
namespace fs = std::filesystem;

OpenJob::~OpenJob() {
  if (thread_.joinable()) thread_.join();
}

void OpenJob::start(const OpenPlan& plan, std::function<void()> wake) {
  if (thread_.joinable()) thread_.join();
  plan_ = plan;
  wake_ = std::move(wake);
  done_ = false;
  bytes_done_ = 0;
  bytes_total_ = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    error_.clear();
    stage_.clear();
  }
  if (plan_.ready || !plan_.ok) {
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

double OpenJob::fraction() const {
  uint64_t total = bytes_total_.load();
  if (done_) return 1.0;
  return total ? static_cast<double>(bytes_done_.load()) / static_cast<double>(total) : 0.0;
}

std::string OpenJob::stage() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stage_;
}

std::string OpenJob::result(std::string* error) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!error_.empty()) {
    if (error) *error = error_;
    return {};
  }
  return plan_.db_path;
}

void OpenJob::set_stage(std::string s) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stage_ = std::move(s);
  }
  if (wake_) wake_();
}

void OpenJob::run() {
  std::string error;
  std::error_code ec;
  fs::create_directories(fs::path(plan_.db_path).parent_path(), ec);
  if (ec) error = fs::path(plan_.db_path).parent_path().string() + ": " + ec.message();
  const std::string building = plan_.db_path + ".building";
  fs::remove(building, ec);
  if (error.empty() && plan_.kind == InputKind::kBundle) {
    set_stage("extracting the bundle's database");
    if (extract_bundle_database(plan_.inputs[0], building, &error)) {
      fs::rename(building, plan_.db_path, ec);
      if (ec) error = plan_.db_path + ": " + ec.message();
    }
  } else if (error.empty()) {
    set_stage("ingesting");
    try {
      model::IngestOptions options;
      options.jobs = std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
      auto last_wake = std::chrono::steady_clock::now();
      options.progress = [&](const model::IngestProgress& p) {
        bytes_done_ = p.bytes_done;
        bytes_total_ = p.bytes_total;
        // At most ten wake-ups a second: the progress bar needs no more.
        auto now = std::chrono::steady_clock::now();
        if (now - last_wake > std::chrono::milliseconds(100) && wake_) {
          last_wake = now;
          wake_();
        }
      };
      model::IngestResult r = model::ingest(building, plan_.inputs, options);
      if (!r.problems.empty() && r.events == 0) {
        error = r.problems.front();
      } else {
        set_stage("analysing");
        model::Connection db(building, model::OpenMode::kReadWrite);
        auto report = model::analysis::analyze(db.handle());
        if (!report.ok) error = plan_.db_path + ": analysis failed: " + report.error;
      }
    } catch (const std::exception& e) {
      error = plan_.db_path + ": " + e.what();
    }
    if (error.empty()) {
      fs::rename(building, plan_.db_path, ec);
      if (ec) error = plan_.db_path + ": " + ec.message();
    }
  }
  if (!error.empty()) fs::remove(building, ec);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = error;
  }
  done_ = true;
  running_ = false;
  if (wake_) wake_();
}

}  // namespace tlscope::gui
