// What `tlscope gui PATH...` (or File > Open, or a drop) is asked to open, and where its database
// is: a database is opened as it is; logs go through model::resolve_input_database, the CLI's
// cache (one database per set of input paths, rebuilt when their sizes or mtimes change), so
// `tlscope summary LOGS` and the viewer ingest the same logs once between them; a rage bundle's
// database is extracted into that cache folder under a name keyed by the bundle's identity.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tlscope::gui {

enum class InputKind { kDatabase, kBundle, kLogs };

struct OpenPlan {
  bool ok = false;
  std::string error;  // names the input at fault when !ok
  InputKind kind = InputKind::kLogs;
  std::vector<std::string> inputs;  // absolute paths
  std::string db_path;              // the database the viewer will read
  // db_path is there to read as it is (a database, a bundle extracted before): no background
  // work. Logs are never ready here: the resolver decides whether the cached copy is current.
  bool ready = false;
  std::string title;  // what the window title and the recent list show
};

// model::user_folder("config"): $XDG_CONFIG_HOME/tlscope, else ~/.config/tlscope. Empty when no
// home is known.
// (The cache folder is model::input_cache_dir(), shared with the CLI.)
std::string user_config_dir();

bool is_bundle_name(const std::string& path);  // .tar.gz or .tgz

// Classifies `inputs` and names the database (logs: model::cached_database_path).
OpenPlan plan_open(const std::vector<std::string>& inputs);

// Extracts the database of a rage bundle (its tlscope.db entry: the first .db in the archive)
// to `db_path`, never to a name taken from the archive: written into a private temporary beside
// it (model::AtomicFile) and renamed into place, unless `cancelled` says so by then. False with
// `error` naming the bundle (or saying it was cancelled).
bool extract_bundle_database(const std::string& bundle, const std::string& db_path,
                             std::string* error, const std::function<bool()>& cancelled = {});

}  // namespace tlscope::gui
