// Reads run_info and run_config (the run_environment analysis pass) into one RunEnvironment.
#include "tlscope/views/run_environment.hpp"

#include <algorithm>

#include "read_rows.hpp"

namespace tlscope::views {

Result<RunEnvironment> load_run_environment(const Database& db) {
  Result<RunEnvironment> out;
  RunEnvironment& env = out.value;
  if (!db.has_table("run_info") || !db.has_table("run_config")) return out;
  env.analysed = true;
  read_rows(db, "SELECT key, value, source FROM run_info ORDER BY file_id, key", out,
            [&](const Statement& s) {
              const std::string key = s.text(0);
              std::string value = s.text(1);
              if (key == "torch_version") {
                if (env.torch_version.empty()) {
                  env.torch_version = value;
                  env.torch_version_source = s.text(2);
                }
                if (std::find(env.torch_versions.begin(), env.torch_versions.end(), value) ==
                    env.torch_versions.end())
                  env.torch_versions.push_back(std::move(value));
              } else if (key == "torch_commit" && env.torch_commit.empty()) {
                env.torch_commit = std::move(value);
              } else if (key == "torch_cuda_version" && env.torch_cuda_version.empty()) {
                env.torch_cuda_version = std::move(value);
              } else if (key == "python_version" && env.python_version.empty()) {
                env.python_version = std::move(value);
              } else if (key == "triton_version" && env.triton_version.empty()) {
                env.triton_version = std::move(value);
              }
            });
  // Per (scope, key): the first input's value, then each other value with the ranks holding it.
  read_rows(db,
            "WITH firsts AS (SELECT scope, key, min(file_id) AS file_id FROM run_config GROUP BY "
            "scope, key) "
            "SELECT c.scope, c.key, c.value, c.source, "
            "(SELECT group_concat(o.who || ': ' || o.value, '; ') FROM (SELECT CASE WHEN "
            "x.rank IS NULL THEN 'file ' || x.file_id ELSE 'rank ' || x.rank END AS who, "
            "x.value FROM run_config x WHERE x.scope = c.scope AND x.key = c.key AND x.value IS "
            "NOT c.value ORDER BY x.file_id LIMIT 8) o) "
            "FROM firsts f JOIN run_config c ON c.scope = f.scope AND c.key = f.key AND "
            "c.file_id = f.file_id ORDER BY c.scope, c.key",
            out, [&](const Statement& s) {
              ConfigValue& v = env.config_values.emplace_back();
              v.scope = s.text(0);
              v.key = s.text(1);
              v.value = s.text(2);
              v.source = s.text(3);
              std::string others = s.text(4);
              for (size_t at = 0; !others.empty() && at <= others.size();) {
                size_t end = others.find("; ", at);
                if (end == std::string::npos) end = others.size();
                v.other_values.push_back(others.substr(at, end - at));
                at = end + 2;
              }
              env.config.emplace(v.scope + "." + v.key, v.value);
            });
  return out;
}

std::string torch_version_text(const RunEnvironment& env) {
  if (env.torch_version.empty()) return "";
  std::string text = env.torch_version;
  // A source build's version already names its short commit ("+git86df3ff").
  if (!env.torch_commit.empty() && text.find("+git") == std::string::npos)
    text += " (commit " + env.torch_commit.substr(0, 12) + ")";
  return text;
}

}  // namespace tlscope::views
