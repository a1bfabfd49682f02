// Rank timelines and collective matches read back from the collective analysis tables (tests and
// the collective timeline use them). Every other read of the analysis tables lives in views/.
#include "sql.hpp"
#include "tlscope/model/analysis/collectives.hpp"
#include "words.hpp"

namespace tlscope::model::analysis {

std::vector<RankTimeline> load_rank_timelines(sqlite3* db) {
  std::vector<RankTimeline> out;
  Statement q(db,
              "SELECT rank, pg_name, COALESCE(pg_desc, ''), seq, COALESCE(op, ''), "
              "COALESCE(input_sizes, ''), COALESCE(dtype, ''), COALESCE(state, ''), "
              "COALESCE(bytes, 0), COALESCE(created_us, 0), started_us, completed_us "
              "FROM collectives WHERE rank IS NOT NULL ORDER BY rank, pg_name, seq");
  while (q.step()) {
    int64_t rank = q.int64(0);
    if (out.empty() || out.back().rank != rank) out.push_back({rank, {}});
    CollectiveOp op;
    op.rank = rank;
    op.pg_name = q.text(1);
    op.pg_desc = q.text(2);
    op.seq = q.int64(3);
    op.op = q.text(4);
    op.input_sizes = q.text(5);
    op.dtype = q.text(6);
    op.state = q.text(7);
    op.bytes = q.int64(8);
    op.created_us = q.real(9);
    op.started_us = q.opt_real(10);
    op.completed_us = q.opt_real(11);
    out.back().ops.push_back(std::move(op));
  }
  return out;
}

std::vector<CollectiveMatch> load_collective_matches(sqlite3* db) {
  std::vector<CollectiveMatch> out;
  Statement q(db,
              "SELECT pg_name, COALESCE(pg_desc, ''), seq, COALESCE(op, ''), present_ranks, "
              "missing_ranks, ops_agree, sizes_agree, dtypes_agree, "
              "COALESCE(arrival_skew_us, 0), COALESCE(last_rank, 0), COALESCE(wait_us, 0), "
              "duration_us, bandwidth_gbps FROM collective_matches ORDER BY pg_name, seq");
  while (q.step()) {
    CollectiveMatch m;
    m.pg_name = q.text(0);
    m.pg_desc = q.text(1);
    m.seq = q.int64(2);
    m.op = q.text(3);
    m.present_ranks = int_list(q.text(4));
    m.missing_ranks = int_list(q.text(5));
    m.ops_agree = q.int64(6) != 0;
    m.sizes_agree = q.int64(7) != 0;
    m.dtypes_agree = q.int64(8) != 0;
    m.arrival_skew_us = q.real(9);
    m.last_rank = q.int64(10);
    m.wait_us = q.real(11);
    m.duration_us = q.opt_real(12);
    m.bandwidth_gbps = q.opt_real(13);
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace tlscope::model::analysis
