// Linear in the number of rank files (issue 27, item 14): a folder of 100,000 empty rank files
// took 325 s to ingest and 32 s for `summary`, because each file's repeat look-up and each file's
// analysis-coverage check scanned a table. Here 2,000 and 20,000 files are ingested, analysed and
// read back as `summary` reads them, in CPU time: ten times the files must cost about ten times as
// much (quadratic steps made it a hundred). bench/many_files.sh measures 100,000.
#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/scratch_files.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/model/sqlite.hpp"
#include "tlscope/views/database.hpp"
#include "tlscope/views/store_health.hpp"

using namespace tlscope;

namespace {

namespace fs = std::filesystem;

double cpu_seconds() {
  struct rusage u {};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// CPU seconds to ingest `n` empty rank files, analyse them and check the store's health.
double cost_of(size_t n) {
  fs::path dir = test::fresh_scratch("views_scratch", "many_files_" + std::to_string(n));
  fs::path logs = dir / "logs";
  fs::create_directories(logs);
  for (size_t i = 0; i < n; ++i)
    std::ofstream(logs / ("dedicated_log_torch_trace_rank_" + std::to_string(i) + "_x.log"));
  std::string db = (dir / "many.db").string();
  double start = cpu_seconds();
  model::IngestResult r = model::ingest(db, {logs.string()});
  CHECK(r.files.size() == n);
  {
    model::Connection c(db, model::OpenMode::kReadWrite);
    REQUIRE(model::analysis::analyze(c.handle()).ok);
  }
  views::Database reader(db);
  REQUIRE(reader.ok());
  views::StoreHealth h = views::store_health(reader);
  CHECK(h.analysis == views::StoreHealth::Analysis::kCurrent);
  double spent = cpu_seconds() - start;
  fs::remove_all(dir);
  return spent;
}

}  // namespace

TEST_CASE("ingest, analysis and store health are linear in the number of rank files",
          "[views][scale]") {
  cost_of(200);  // warm up the allocator and the page cache of the binary
  double small = cost_of(2000);
  double large = cost_of(20000);
  INFO("2,000 files: " << small << " CPU-s; 20,000 files: " << large << " CPU-s");
  // Linear is 10x; the quadratic steps made it well over 40x.
  CHECK(large < 25 * std::max(small, 0.02));
}
