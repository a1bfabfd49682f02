// Page shell, file output and shared link helpers of the HTML report.
#include "site.hpp"

#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <cstdio>
#include <system_error>

#include "tlscope/exporters/html.hpp"
#include "tlscope/views/safe_output.hpp"
#include "tlscope/views/screens.hpp"

namespace tlscope::exporters {

namespace {

std::string up(int depth) {
  std::string s;
  for (int i = 0; i < depth; ++i) s += "../";
  return s;
}

}  // namespace

bool Site::write(const std::string& rel, std::string_view content) {
  std::filesystem::path path = root_ / rel;
  {
    // One create_directories per folder, not per file: the report writes thousands of files.
    // Held while the folder is made, so no other thread writes into it before it exists.
    std::lock_guard<std::mutex> lock(folders_->mutex);
    if (folders_->made.insert(path.parent_path().string()).second) {
      std::error_code ec;
      std::filesystem::create_directories(path.parent_path(), ec);
    }
  }
  // A hidden screen's link is cut out of the navigation (page_head writes every screen's).
  std::string_view page = content;
  std::string without_link;
  if (!folders_->hidden_nav.empty() && path.extension() == ".html") {
    const size_t nav_end = page.find("</nav>");
    for (const std::string& hidden : folders_->hidden_nav) {
      const size_t link = page.substr(0, nav_end).find(hidden + ".html\"");
      if (nav_end == std::string_view::npos || link == std::string_view::npos) continue;
      const size_t open = page.rfind("<a ", link), close = page.find("</a>", link);
      if (open == std::string_view::npos || close == std::string_view::npos) continue;
      without_link.assign(page.data(), open);
      without_link.append(page.substr(close + 4));
      page = without_link;
      break;  // one hidden screen at a time is all the report has
    }
  }
  // A new file, never through a link: the report is written into a fresh private folder
  // (cli/report_folder.cpp), and here a name already taken is unlinked, not opened.
  int fd = views::create_new_file(path.string());
  if (fd < 0 && errno == EEXIST && ::unlink(path.c_str()) == 0)
    fd = views::create_new_file(path.string());
  bool written = fd >= 0 && views::write_all(fd, page);
  int err = errno;
  if (fd >= 0 && ::close(fd) != 0 && written) {
    written = false;
    err = errno;
  }
  if (!written) {
    if (error_.empty()) error_ = path.string() + ": cannot write: " + views::write_error_text(err);
    return false;
  }
  ++files_;
  bytes_ += content.size();
  if (path.extension() == ".html") {
    ++pages_;
    largest_page_ = std::max<uint64_t>(largest_page_, content.size());
  }
  return true;
}

Site Site::branch() const {
  Site b(root_);
  b.folders_ = folders_;
  return b;
}

void Site::absorb(const Site& other) {
  if (error_.empty()) error_ = other.error_;
  pages_ += other.pages_;
  files_ += other.files_;
  bytes_ += other.bytes_;
  largest_page_ = std::max(largest_page_, other.largest_page_);
}

std::string page_head(std::string_view title, std::string_view page_id, int depth) {
  std::string base = up(depth);
  std::string h;
  h.reserve(4096);
  h += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  // No network at all: everything the page loads is in the report folder.
  // Scripts only from the report's own files, never inline: even a log string that slipped
  // through escaping could not run. Inline styles are allowed (the tensor grid positions cells).
  h += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'; "
       "script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'none'\">\n";
  h += "<title>";
  append_html_escaped(h, title);
  h += " - tlscope</title>\n<link rel=\"stylesheet\" href=\"" + base + "assets/report.css\">\n";
  // Loaded first and synchronously so errors in later scripts are caught and shown.
  h += "<script src=\"" + base + "assets/report.js\"></script>\n</head>\n<body data-page=\"";
  append_html_escaped(h, page_id);
  h += "\">\n<nav><span class=\"brand\">tlscope</span>";
  // The navigation is the screens list: every screen the report has a page for, in its order.
  for (const views::Screen& s : views::kScreens) {
    if (s.report_page.empty()) continue;
    h += "<a href=\"" + base + std::string(s.report_page) + ".html\"";
    if (s.report_page == page_id) h += " class=\"active\"";
    h += ">" + std::string(s.label) + "</a>";
  }
  h += "</nav>\n<main>\n<h1>";
  append_html_escaped(h, title);
  h += "</h1>\n";
  return h;
}

std::string page_tail(int depth, const std::vector<std::string>& scripts) {
  std::string t = "</main>\n";
  for (const std::string& s : scripts) t += "<script src=\"" + up(depth) + s + "\"></script>\n";
  t += "</body></html>\n";
  return t;
}

std::string page_file(std::string_view base, size_t page) {
  if (page == 0) return std::string(base) + ".html";
  return std::string(base) + "_" + std::to_string(page + 1) + ".html";
}

std::string pager(std::string_view base, size_t page, size_t page_count) {
  if (page_count <= 1) return {};
  std::string p = "<p class=\"pager\">Page " + std::to_string(page + 1) + " of " +
                  std::to_string(page_count) + ": ";
  // Show first, last and a window around the current page so the pager stays small.
  size_t last_shown = SIZE_MAX;
  for (size_t i = 0; i < page_count; ++i) {
    bool show = i == 0 || i + 1 == page_count || (i + 3 > page && i < page + 3);
    if (!show) continue;
    if (last_shown != SIZE_MAX && i != last_shown + 1) p += " &hellip; ";
    if (i == page) {
      p += "<b>" + std::to_string(i + 1) + "</b> ";
    } else {
      p += "<a href=\"" + page_file(base.substr(base.rfind('/') + 1), i) + "\">" +
           std::to_string(i + 1) + "</a> ";
    }
    last_shown = i;
  }
  return p + "</p>\n";
}

std::string write_row_pages(ReportContext& ctx, std::string_view base, std::string_view title,
                            std::string_view page_id, const std::string& intro_html,
                            const std::string& table_open, const std::vector<std::string>& rows) {
  size_t per_page = std::max<size_t>(ctx.options.rows_per_page, 1);
  if (rows.size() <= per_page) return {};
  size_t page_count = (rows.size() + per_page - 1) / per_page;
  for (size_t page = 0; page < page_count; ++page) {
    std::string h = page_head(title, page_id, 0) + intro_html + pager(base, page, page_count);
    h += table_open;
    for (size_t i = page * per_page; i < rows.size() && i < (page + 1) * per_page; ++i)
      h += rows[i];
    h += "</tbody></table>\n" + pager(base, page, page_count) + page_tail(0);
    ctx.site.write(page_file(base, page), h);
  }
  return "<p class=\"more\">The first " + std::to_string(per_page) + " of " +
         std::to_string(rows.size()) + " are shown here; <a href=\"" + page_file(base, 0) +
         "\">all " + std::to_string(rows.size()) + "</a> on " + std::to_string(page_count) +
         " pages.</p>\n";
}

std::string compile_page(int64_t file_id, std::string_view compile_id) {
  std::string name = "compile/f" + std::to_string(file_id) + "_";
  compile_id = compile_id.substr(0, compile_id.find('_'));
  for (char c : compile_id) {
    if (c == '/')
      name += '-';
    else if (c == '!')
      name += "ca";
    else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_')
      name += c;
    else
      name += 'x';
  }
  return name + ".html";
}

std::string tensor_page(std::string_view dtype, std::string_view size, std::string_view stride) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a: stable across runs, so links stay valid
  for (std::string_view part : {dtype, size, stride}) {
    for (unsigned char c : part) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xFF) * 1099511628211ull;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "tensor/s%016llx.html", static_cast<unsigned long long>(h));
  return buf;
}

std::string rank_label(std::optional<int64_t> rank) {
  return rank ? "rank " + std::to_string(*rank) : std::string("no rank");
}

std::string compile_link(int64_t file_id, std::optional<int64_t> rank, std::string_view compile_id,
                         int depth) {
  if (compile_id.empty()) return rank_label(rank);
  std::string a =
      "<a class=\"cid\" href=\"" + up(depth) + compile_page(file_id, compile_id) + "\">";
  if (rank) a += "r" + std::to_string(*rank) + " ";
  a += "[";
  append_html_escaped(a, compile_id);
  return a + "]</a>";
}

std::string plural(int64_t n, std::string_view noun) {
  std::string s = std::to_string(n) + " " + std::string(noun);
  if (n != 1) s += noun.ends_with('s') ? "es" : "s";
  return s;
}

}  // namespace tlscope::exporters
