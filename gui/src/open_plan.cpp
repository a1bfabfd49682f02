// Classifying what to open and keying its cached database.
#include "open_plan.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tlscope/model/input_cache.hpp"
#include "tlscope/model/schema.hpp"

namespace tlscope::gui {
namespace fs = std::filesystem;
namespace {

std::string xdg_dir(const char* variable, const char* home_fallback) {
  const char* v = std::getenv(variable);
  if (v && *v == '/') return (fs::path(v) / "tlscope").string();
  const char* home = std::getenv("HOME");
  if (home && *home) return (fs::path(home) / home_fallback / "tlscope").string();
  return {};
}

void fnv1a(uint64_t& h, std::string_view bytes) {
  for (char c : bytes) h = (h ^ static_cast<uint8_t>(c)) * 1099511628211ull;
  h = (h ^ 0xFF) * 1099511628211ull;  // field separator, so "ab"+"c" != "a"+"bc"
}

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::string user_cache_dir() {
  return xdg_dir("XDG_CACHE_HOME", ".cache");
}

std::string user_config_dir() {
  return xdg_dir("XDG_CONFIG_HOME", ".config");
}

bool is_bundle_name(const std::string& path) {
  return ends_with(path, ".tar.gz") || ends_with(path, ".tgz");
}

std::string inputs_key(const std::vector<std::string>& inputs, std::string* error) {
  struct Entry {
    std::string path;
    uintmax_t size;
    int64_t mtime;
  };
  std::vector<Entry> entries;
  auto add = [&](const fs::path& p) -> bool {
    std::error_code ec;
    auto size = fs::file_size(p, ec);
    auto mtime = fs::last_write_time(p, ec);
    if (ec) {
      if (error) *error = p.string() + ": " + ec.message();
      return false;
    }
    entries.push_back({p.string(), size, static_cast<int64_t>(mtime.time_since_epoch().count())});
    return true;
  };
  for (const auto& input : inputs) {
    std::error_code ec;
    if (fs::is_directory(input, ec)) {
      for (fs::recursive_directory_iterator it(input, ec), end; !ec && it != end;
           it.increment(ec)) {
        if (it->is_regular_file(ec) && !add(it->path())) return {};
      }
      if (ec) {
        if (error) *error = input + ": " + ec.message();
        return {};
      }
    } else if (!add(input)) {
      return {};
    }
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.path < b.path; });
  uint64_t h = 14695981039346656037ull;
  fnv1a(h, model::kSchemaVersion);  // a database of an older schema is never reused
  for (const auto& e : entries) {
    fnv1a(h, e.path);
    fnv1a(h, std::to_string(e.size));
    fnv1a(h, std::to_string(e.mtime));
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

OpenPlan plan_open(const std::vector<std::string>& inputs, const std::string& cache_dir) {
  OpenPlan plan;
  if (inputs.empty()) {
    plan.error = "nothing to open";
    return plan;
  }
  size_t databases = 0, bundles = 0;
  for (const auto& input : inputs) {
    std::error_code ec;
    fs::path abs = fs::absolute(input, ec);
    if (ec || !fs::exists(abs, ec)) {
      plan.error = input + ": no such file or directory";
      return plan;
    }
    if (!fs::is_directory(abs, ec) && !fs::is_regular_file(abs, ec)) {
      plan.error = input + ": not a regular file or a directory";
      return plan;
    }
    plan.inputs.push_back(abs.lexically_normal().string());
    if (model::is_database_file(abs.string())) {
      ++databases;
    } else if (is_bundle_name(abs.string())) {
      ++bundles;
    }
  }
  if ((databases || bundles) && inputs.size() > 1) {
    plan.error = "open one database or one rage bundle at a time, or only logs (got " +
                 std::to_string(inputs.size()) + " paths)";
    return plan;
  }
  plan.title = inputs.size() == 1
                   ? plan.inputs[0]
                   : plan.inputs[0] + " and " + std::to_string(inputs.size() - 1) + " more";
  if (databases) {
    plan.kind = InputKind::kDatabase;
    plan.db_path = plan.inputs[0];
    plan.ready = true;
    plan.ok = true;
    return plan;
  }
  plan.kind = bundles ? InputKind::kBundle : InputKind::kLogs;
  if (cache_dir.empty()) {
    plan.error = "no cache directory for the database (set XDG_CACHE_HOME or HOME)";
    return plan;
  }
  std::string key = inputs_key(plan.inputs, &plan.error);
  if (key.empty()) return plan;
  plan.db_path = (fs::path(cache_dir) / ((bundles ? "bundle-" : "logs-") + key + ".db")).string();
  std::error_code ec;
  plan.ready = fs::is_regular_file(plan.db_path, ec);
  plan.ok = true;
  return plan;
}

}  // namespace tlscope::gui
