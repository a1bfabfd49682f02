// A report written from logs, as most report tests start: the inputs ingested into a fresh
// DIR/tlscope.db and the site written to DIR/site (DIR is removed first, so a rerun starts clean).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "tlscope/exporters/report.hpp"
#include "tlscope/model/ingest.hpp"

namespace tlscope::test {

// `options` may carry the command line, host and the like; its paths are set here.
inline exporters::ReportResult ingest_and_report(const std::vector<std::string>& inputs,
                                                 const std::filesystem::path& dir,
                                                 exporters::ReportOptions options = {}) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  model::ingest((dir / "tlscope.db").string(), inputs);
  options.db_path = (dir / "tlscope.db").string();
  options.out_dir = (dir / "site").string();
  return exporters::write_report(options);
}

}  // namespace tlscope::test
