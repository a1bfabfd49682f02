// Classifying what to open and naming its database.
#include "open_plan.hpp"

#include <cstdlib>
#include <filesystem>

#include "tlscope/model/input_cache.hpp"
#include "tlscope/model/safe_output.hpp"
#include "tlscope/model/schema.hpp"

namespace tlscope::gui {
namespace fs = std::filesystem;
namespace {

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::string user_config_dir() {
  return model::user_folder("config");
}

bool is_bundle_name(const std::string& path) {
  return ends_with(path, ".tar.gz") || ends_with(path, ".tgz");
}

OpenPlan plan_open(const std::vector<std::string>& inputs) {
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
  // The identity the CLI's resolver uses: what it refuses (an unreadable file in a rank
  // directory) is refused here, before any window or thread starts.
  model::InputIdentity identity = model::identify_inputs(plan.inputs);
  if (!identity.problems.empty()) {
    plan.error = identity.problems.front();
    return plan;
  }
  // The viewer keeps what it opens in the input cache: it must be this user's private folder.
  const std::string cache = model::input_cache_dir();
  if (std::string why = cache.empty() ? std::string("no cache folder: HOME and XDG_CACHE_HOME "
                                                    "are unset")
                                      : model::ensure_private_folder(cache);
      !why.empty()) {
    plan.error = why;
    return plan;
  }
  if (bundles) {
    // Keyed by content (path, size, mtime): a changed bundle is extracted afresh.
    plan.db_path = cache + "/bundle-" + identity.content_key + ".db";
    std::error_code ec;
    plan.ready = fs::is_regular_file(plan.db_path, ec);
  } else {
    plan.db_path = model::cached_database_path(identity);
  }
  plan.ok = true;
  return plan;
}

}  // namespace tlscope::gui
