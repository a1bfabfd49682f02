// Writes the collective_op records of a job of many ranks (docs/collectives-format.md), one
// TORCH_TRACE file per rank, for the tests of timelines at 1,000+ ranks until the sample runtime
// runs that many. Every rank issues `collectives` all_reduces on the world group; `desync_rank`
// issues an all_gather at `desync_seq` instead, as the desync scenario's rank 2 does. The
// records leave out pg_ranks: the world group's list of 1,024 ranks would make each record 6 KB
// (49 MB for the job, and seconds of analysis in a test); collectives match by (pg_name, seq)
// among the ranks that logged them either way.
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "tlscope/parser/md5.hpp"

namespace tlscope::test {

inline void write_many_rank_desync_logs(const std::filesystem::path& dir, int ranks,
                                        int collectives, int desync_rank, int desync_seq) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const double t0 = 1764441601000000.0;
  for (int rank = 0; rank < ranks; ++rank) {
    std::string log;
    for (int seq = 1; seq <= collectives; ++seq) {
      const bool desync = rank == desync_rank && seq == desync_seq;
      // Issued a few µs apart per rank (well inside one folded group), 1 ms per collective.
      const double created = t0 + seq * 2000.0 + rank % 13, started = t0 + seq * 2000.0 + 20,
                   completed = started + 1000;
      const char* op = desync ? "all_gather" : "all_reduce";
      char times[160];
      std::snprintf(times, sizeof times,
                    "\"time_created_us\": %.1f, \"time_started_us\": %.1f, "
                    "\"time_completed_us\": %.1f, ",
                    created, started, completed);
      const std::string body =
          "{\"pg_name\": \"0\", \"pg_desc\": \"dp\", \"pg_size\": " + std::to_string(ranks) +
          ", \"collective_seq_id\": " + std::to_string(seq) + ", \"op\": \"" + op +
          "\", \"profiling_name\": \"nccl:" + op +
          "\", \"input_sizes\": [[1024]], \"output_sizes\": [[1024]], "
          "\"input_dtypes\": [\"float32\"], \"output_dtypes\": [\"float32\"], "
          "\"in_msg_nelems\": 1024, \"out_msg_nelems\": 1024, \"bytes\": 4096, "
          "\"state\": \"completed\", " +
          times + "\"timeout_ms\": null}";
      char envelope[512];
      std::snprintf(envelope, sizeof envelope,
                    "V1129 18:40:%02d.%06d %d tests/common/many_rank_logs.hpp:40] "
                    "{\"artifact\": {\"name\": \"collective_op\", \"encoding\": \"json\"}, "
                    "\"rank\": %d, \"has_payload\": \"%s\"}\n",
                    1 + seq / 1000, (seq * 2000) % 1000000, 4000 + rank, rank,
                    parser::Md5::hex_of(body).c_str());
      log += envelope;
      log += '\t' + body + '\n';
    }
    std::ofstream(dir / ("dedicated_log_torch_trace_rank_" + std::to_string(rank) + ".log"),
                  std::ios::binary)
        << log;
  }
}

}  // namespace tlscope::test
