// The report folder: refusing folders that are not tlscope reports, the stamp, opening it.
#include "report_folder.hpp"
#include "tlscope/version.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "command.hpp"
#include "invocation.hpp"
#include "terminal_text.hpp"
#include "tlscope/exporters/report.hpp"

namespace tlscope::cli {
namespace {

namespace fs = std::filesystem;

bool write_stamp(const fs::path& dir, const std::string& db_path) {
  std::ofstream stamp(dir / kReportStamp, std::ios::trunc);
  stamp << "This folder is a tlscope report (tlscope " << tlscope::kVersion
        << "); tlscope report may write over it.\ndatabase: " << db_path << "\n";
  return static_cast<bool>(stamp);
}

}  // namespace

std::string report_folder_refusal(const std::string& name) {
  fs::path dir = name.empty() ? fs::path(kDefaultReportDir) : fs::path(name);
  std::error_code ec;
  fs::file_status status = fs::symlink_status(dir, ec);
  if (!fs::exists(status)) return {};
  if (!fs::is_directory(fs::status(dir, ec))) return "exists and is not a folder";
  if (fs::exists(fs::symlink_status(dir / kReportStamp, ec))) return {};
  if (fs::is_empty(dir, ec) && !ec) return {};
  return std::string("is a folder that is not a tlscope report (it has no ") + kReportStamp +
         "); not written over, give another -o";
}

std::string claim_report_folder(const std::string& name, const std::string& db_path) {
  if (std::string why = report_folder_refusal(name); !why.empty()) return why;
  fs::path dir = name.empty() ? fs::path(kDefaultReportDir) : fs::path(name);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return "cannot create the folder: " + ec.message();
  if (!write_stamp(dir, db_path)) return std::string("cannot write ") + kReportStamp;
  return {};
}

void open_in_browser(const std::string& file) {
  const char* opener = std::getenv("TLSCOPE_OPEN_COMMAND");
  if (!opener || !*opener) opener = "xdg-open";
  std::fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    execlp(opener, opener, file.c_str(), static_cast<char*>(nullptr));
    std::fprintf(stderr, "tlscope: cannot run %s to open %s\n", opener, file.c_str());
    _exit(127);
  }
  if (pid < 0) std::fprintf(stderr, "tlscope: cannot run %s: fork failed\n", opener);
}

int write_report_folder(const ReportFolderOptions& o) {
  fs::path dir = o.out_dir.empty() ? fs::path(kDefaultReportDir) : fs::path(o.out_dir);
  if (std::string why = claim_report_folder(dir.string(), o.db_path); !why.empty()) {
    std::fprintf(stderr, "tlscope %s: %s: %s\n", o.command, dir.c_str(), why.c_str());
    return kUsageOrIo;
  }
  std::error_code ec;
  note_report(dir.string());
  exporters::ReportOptions options;
  options.db_path = o.db_path;
  options.out_dir = dir.string();
  options.rows_per_page = o.rows_per_page;
  options.threads = o.threads;
  options.command_line = invocation_command_line();
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) options.host = host;
  exporters::ReportResult r = exporters::write_report(options);
  if (!r.ok) {
    std::fprintf(stderr, "tlscope %s: %s\n", o.command, terminal_safe(r.error).c_str());
    return kUsageOrIo;
  }
  for (const std::string& w : r.warnings)
    std::fprintf(stderr, "tlscope %s: note: %s\n", o.command, terminal_safe(w).c_str());
  fs::path index = fs::absolute(dir, ec) / "index.html";
  std::printf("wrote %zu pages (%zu files, %.1f MB, largest page %.1f KB) to %s\n", r.pages,
              r.files, static_cast<double>(r.bytes) / 1e6,
              static_cast<double>(r.largest_page_bytes) / 1e3, index.lexically_normal().c_str());
  if (std::getenv("TLSCOPE_REPORT_TIMES"))
    for (const auto& [family, sec] : r.seconds)
      std::printf("  %-18s %.2f s\n", family.c_str(), sec);
  if (o.open) open_in_browser(index.lexically_normal().string());
  return kOk;
}

}  // namespace tlscope::cli
