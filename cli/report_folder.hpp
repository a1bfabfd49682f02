// Writing the HTML report into a folder the way `tlscope report` and `tlscope run` both do: the
// default ./tlscope-report, a stamp file that marks the folder as a tlscope report (so a folder
// that is not one is never written over), the "wrote ..." line, and --open.
#pragma once

#include <string>

namespace tlscope::cli {

inline constexpr const char* kDefaultReportDir = "tlscope-report";
inline constexpr const char* kReportStamp = ".tlscope-report";

struct ReportFolderOptions {
  const char* command = "report";  // for messages: "tlscope <command>: ..."
  std::string db_path;
  std::string out_dir = kDefaultReportDir;
  bool open = false;
  size_t rows_per_page = 200;
  size_t threads = 0;  // page-writing threads; 0: one per core for a large database
};

// "" when a report may be written into `dir` (missing, empty, or a tlscope report), else why not.
std::string report_folder_refusal(const std::string& dir);

// Checks `dir` as above, creates it and writes the stamp: "" or why not (then nothing is written).
std::string claim_report_folder(const std::string& dir, const std::string& db_path);

// Exit code: kOk, or kUsageOrIo after printing what went wrong.
int write_report_folder(const ReportFolderOptions& options);

// Runs $TLSCOPE_OPEN_COMMAND (default xdg-open) on `file` without waiting for it; the path never
// passes through a shell.
void open_in_browser(const std::string& file);

}  // namespace tlscope::cli
