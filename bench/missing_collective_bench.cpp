// The hung-rank case: one rank's log whose group peer never logged, so every collective it ran is
// missing on the other side. Writes such a log for each count, ingests it and times `analyze`
// (the missing-collective finding once grew with the square of the count).
// Usage: missing_collective_bench [--counts 2500,5000,...] [--dir DIR]
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_args.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/model/sqlite.hpp"
#include "tlscope/parser/md5.hpp"

namespace {

namespace fs = std::filesystem;

// Rank 0 of a two-rank group runs `count` all_reduces; rank 1 never writes a line.
bool write_rank0_log(const std::string& path, int count) {
  FILE* out = std::fopen(path.c_str(), "wb");
  if (!out) return false;
  double t0 = 1764441601123000.0;
  for (int seq = 1; seq <= count; ++seq) {
    double created = t0 + seq * 1000.0;
    char payload[640];
    std::snprintf(payload, sizeof payload,
                  "{\"pg_name\": \"0\", \"pg_desc\": \"dp\", \"pg_ranks\": [0, 1], \"pg_size\": 2, "
                  "\"collective_seq_id\": %d, \"op\": \"all_reduce\", \"profiling_name\": "
                  "\"nccl:all_reduce\", \"input_sizes\": [[1024]], \"output_sizes\": [[1024]], "
                  "\"input_dtypes\": [\"float32\"], \"output_dtypes\": [\"float32\"], "
                  "\"in_msg_nelems\": 1024, \"out_msg_nelems\": 1024, \"bytes\": 4096, "
                  "\"state\": \"completed\", \"time_created_us\": %.1f, \"time_started_us\": %.1f, "
                  "\"time_completed_us\": %.1f, \"timeout_ms\": null}",
                  seq, created, created + 50, created + 900);
    std::string md5 = tlscope::parser::Md5::hex_of(payload);
    std::fprintf(out,
                 "V1129 18:40:01.123000 4242 samples/runtime/collectives.cpp:88] {\"artifact\": "
                 "{\"name\": \"collective_op\", \"encoding\": \"json\"}, \"rank\": 0, "
                 "\"has_payload\": \"%s\"}\n\t%s\n",
                 md5.c_str(), payload);
  }
  return std::fclose(out) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> counts{2500, 5000, 10000, 20000, 60000};
  std::string dir = "/tmp/tlscope-missing-bench";
  CLI::App app{"Times tlscope analyze on one rank's log whose group peer never logged"};
  app.add_option("--counts", counts, "Collective counts to measure")->delimiter(',');
  app.add_option("--dir", dir, "Scratch directory for the logs and databases");
  if (auto rc = tlscope::bench::parse_args(app, argc, argv)) return *rc;

  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "%s: %s\n", dir.c_str(), ec.message().c_str());
    return 2;
  }
  std::printf("%10s %12s %12s %10s\n", "collectives", "analyze s", "missing rows", "findings");
  for (int count : counts) {
    std::string log = dir + "/dedicated_log_torch_trace_rank_0.log";
    std::string db_path = dir + "/missing_" + std::to_string(count) + ".db";
    fs::remove(db_path, ec);
    if (!write_rank0_log(log, count)) {
      std::fprintf(stderr, "%s: cannot write\n", log.c_str());
      return 2;
    }
    tlscope::model::ingest(db_path, {log});
    tlscope::model::Connection db(db_path, tlscope::model::OpenMode::kReadWrite);
    auto start = std::chrono::steady_clock::now();
    auto report = tlscope::model::analysis::analyze(db.handle());
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!report.ok) {
      std::fprintf(stderr, "analyze failed: %s\n", report.error.c_str());
      return 1;
    }
    auto missing =
        db.scalar_int("SELECT count(*) FROM collective_matches WHERE missing_ranks <> '[]'");
    auto findings =
        db.scalar_int("SELECT count(*) FROM findings WHERE kind = 'missing_collective'");
    std::printf("%10d %12.2f %12lld %10lld\n", count, secs,
                static_cast<long long>(missing.value_or(-1)),
                static_cast<long long>(findings.value_or(-1)));
    std::fflush(stdout);
  }
  return 0;
}
