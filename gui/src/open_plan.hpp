// What `tlscope gui PATH...` (or File > Open, or a drop) is asked to open, and where its database
// is: a database is opened as it is; a rage bundle's database is extracted, and logs are ingested,
// into the user cache dir under a name keyed by the inputs' paths, sizes and mtimes, so an
// unchanged input opens at once the second time.
#pragma once

#include <cstdint>
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
  bool ready = false;               // db_path exists already: nothing to ingest or extract
  std::string title;                // what the window title and the recent list show
};

// $XDG_CACHE_HOME/tlscope, else ~/.cache/tlscope; $XDG_CONFIG_HOME/tlscope, else
// ~/.config/tlscope. Empty when neither variable nor HOME is set.
std::string user_cache_dir();
std::string user_config_dir();

bool is_bundle_name(const std::string& path);  // .tar.gz or .tgz

// Classifies `inputs` and names the database; `cache_dir` is where derived databases go.
OpenPlan plan_open(const std::vector<std::string>& inputs, const std::string& cache_dir);

// The 16-hex-digit key of the inputs (paths, sizes, mtimes of every regular file under them).
std::string inputs_key(const std::vector<std::string>& inputs, std::string* error);

// Extracts the database of a rage bundle (its tlscope.db entry: the first .db in the archive)
// to `db_path`, never to a name taken from the archive; false with `error` naming the bundle.
bool extract_bundle_database(const std::string& bundle, const std::string& db_path,
                             std::string* error);

}  // namespace tlscope::gui
