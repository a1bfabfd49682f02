// Where a report came from, as index.html states it: the tlscope that wrote it and the command
// line that asked for it, the host, the PyTorch version the logs were written by (when they say),
// and each input with its size and the times of its first and last record.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"
#include "tlscope/views/run_environment.hpp"

namespace tlscope::views {

struct InputProvenance {
  std::string path;
  int64_t rank = -1;  // -1: no rank
  int64_t bytes = 0;  // decompressed bytes read
  // Header times of the file's first and last record, "MM-DD HH:MM:SS.uuuuuu" (glog writes no
  // year); "" when the file has no records.
  std::string first_record, last_record;
};

struct ReportProvenance {
  std::string tlscope_version;  // this build
  std::string ingest_version;   // the tlscope that wrote the database (meta), "" if unknown
  std::string command_line;     // as the front end was given it; "" when it was not given
  std::string host;             // where the report was made; "" when not given
  // Distinct PyTorch versions the logs name (run_info: a torch_version record, metrics fields,
  // the `# torch version:` of fx_graph_runnable artifacts), in log order; empty when no log says.
  std::vector<std::string> pytorch_versions;
  std::string pytorch_commit;           // the git commit the logs name, "" when they do not
  std::vector<InputProvenance> inputs;  // the first kMaxProvenanceInputs, in ingest order
  int64_t input_count = 0;              // all inputs
};

inline constexpr size_t kMaxProvenanceInputs = 2000;

// "0728 16:17:28.175000" -> "07-28 16:17:28.175000"; other text comes back unchanged.
std::string glog_time_text(std::string_view glog_time);

// The PyTorch versions a run's logs state, in input order, and its commit: the analysis's
// run_info (`env`, load_run_environment's answer), else, for a database analysed before run_info
// existed, the header of each input's first fx_graph_runnable (no commit then). What
// ReportProvenance::pytorch_versions and ::pytorch_commit hold for a database with a files table.
struct PytorchVersions {
  std::vector<std::string> versions;
  std::string commit;
};
Result<PytorchVersions> load_pytorch_versions(const Database& db,
                                              const Result<RunEnvironment>& env);

// `command_line` and `host` come from the front end (the database cannot know them).
Result<ReportProvenance> load_report_provenance(const Database& db, std::string command_line,
                                                std::string host);

}  // namespace tlscope::views
