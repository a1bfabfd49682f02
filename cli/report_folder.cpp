// The report folder: refusing folders that are not tlscope reports, the stamp, opening it.
#include "report_folder.hpp"
#include "progress_line.hpp"
#include "tlscope/version.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "command.hpp"
#include "invocation.hpp"
#include "terminal_text.hpp"
#include "tlscope/exporters/report.hpp"
#include "tlscope/model/safe_output.hpp"

namespace tlscope::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kStampMagic = "tlscope report";

// "folder: <device>:<inode>" of `dir`: the stamp names the folder it was written into, so a
// stamp copied or planted into another folder does not vouch for that one.
std::string folder_identity(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return {};
  return "folder: " + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
}

std::string stamp_text(const std::string& dir, const std::string& db_path) {
  return std::string(kStampMagic) + "\nThis folder is a tlscope report (tlscope " +
         std::string(tlscope::kVersion) + "); tlscope report may replace it whole.\n" +
         folder_identity(dir) + "\ndatabase: " + db_path + "\n";
}

// "" when `dir` holds a stamp tlscope wrote for it: a regular file (not a link) of this user's
// whose text starts with the magic line and names this folder; else why not.
std::string stamp_problem(const std::string& dir) {
  const std::string path = dir + "/" + kReportStamp;
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return errno == ELOOP ? std::string("its ") + kReportStamp + " is a symbolic link"
                          : std::string("it has no ") + kReportStamp;
  struct stat st {};
  std::string text(4096, '\0');
  ssize_t n = -1;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) n = ::read(fd, text.data(), text.size());
  ::close(fd);
  if (n < 0) return std::string("its ") + kReportStamp + " is not a regular file";
  if (st.st_uid != ::geteuid()) return std::string("its ") + kReportStamp + " is another user's";
  text.resize(static_cast<size_t>(n));
  const std::string identity = folder_identity(dir);
  if (text.rfind(std::string(kStampMagic) + "\n", 0) != 0 ||
      text.find("\n" + identity + "\n") == std::string::npos)
    return std::string("its ") + kReportStamp +
           " was not written by tlscope for this folder: planted, copied, or left by an older "
           "tlscope; remove the folder yourself if it is a report";
  return {};
}

// The folder a report named `name` goes to: the default, with a symlink at it resolved (the
// link is the user's; nothing inside the folder is ever followed).
std::string report_target(const std::string& name) {
  return model::resolved_path(name.empty() ? std::string(kDefaultReportDir) : name);
}

}  // namespace

std::string report_folder_refusal(const std::string& name) {
  const std::string dir = report_target(name);
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) return {};
  if (!S_ISDIR(st.st_mode)) return "exists and is not a folder";
  std::error_code ec;
  if (fs::is_empty(dir, ec) && !ec) return {};
  std::string why = stamp_problem(dir);
  if (why.empty()) return {};
  return "is a folder that is not a tlscope report (" + why +
         "); not written over, give another -o";
}

std::string claim_report_folder(const std::string& name, const std::string& db_path) {
  if (std::string why = report_folder_refusal(name); !why.empty()) return why;
  const std::string dir = report_target(name);
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
    return "cannot create the folder: " + std::string(std::strerror(errno));
  if (!stamp_problem(dir).empty()) {
    if (std::string why =
            model::write_file_atomically(dir + "/" + kReportStamp, stamp_text(dir, db_path));
        !why.empty())
      return why;
  }
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
  auto refuse = [&](const std::string& why) {
    std::fprintf(stderr, "tlscope %s: %s: %s\n", o.command, dir.c_str(),
                 terminal_safe(why).c_str());
    return kUsageOrIo;
  };
  if (std::string why = report_folder_refusal(dir.string()); !why.empty()) return refuse(why);
  // The report is built in a private folder beside the target and swapped in whole once
  // complete: no page of an earlier report stays behind, a failed or killed run leaves the
  // earlier report as it was, and no link inside the target is ever followed.
  const std::string target = report_target(dir.string());
  model::PrivateFolder building;
  if (std::string why = building.create(target); !why.empty()) return refuse(why);
  if (std::string why = model::write_file_atomically(building.path() + "/" + kReportStamp,
                                                     stamp_text(building.path(), o.db_path));
      !why.empty())
    return refuse(why);
  note_report(dir.string());
  exporters::ReportOptions options;
  options.db_path = o.db_path;
  options.out_dir = building.path();
  options.rows_per_page = o.rows_per_page;
  options.threads = o.threads;
  options.command_line = invocation_command_line();
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) options.host = host;
  ProgressLine line;
  if (line.enabled())
    options.progress = [&line](size_t done, size_t total) {
      line.show("writing the report", done, total, "parts");
    };
  exporters::ReportResult r = exporters::write_report(options);
  line.clear();
  if (!r.ok) {
    // Messages name the user's folder, not the private one.
    std::string error = r.error;
    if (size_t at = error.find(building.path()); at != std::string::npos)
      error.replace(at, building.path().size(), dir.string());
    std::fprintf(stderr, "tlscope %s: %s\n", o.command, terminal_safe(error).c_str());
    return kUsageOrIo;
  }
  // A database inside the target (`tlscope run`'s DIR/tlscope.db, or `report DIR/x.db -o DIR`)
  // moves with it: a second name for the same file, so a failed swap loses nothing.
  const std::string db = model::resolved_path(o.db_path);
  if (fs::path(db).parent_path() == fs::path(target)) {
    const std::string carried = building.path() + "/" + fs::path(db).filename().string();
    if (::link(db.c_str(), carried.c_str()) != 0)
      return refuse("cannot keep the database " + o.db_path +
                    " in the new report: " + std::strerror(errno));
  }
  if (std::string why = building.publish(0755, [&] { return report_folder_refusal(target); });
      !why.empty())
    return refuse(why);
  std::error_code ec;
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
