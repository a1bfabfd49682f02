// Collective buckets, overlap schedules and runtime estimates for the front ends
// (collective_scheduling.hpp).
#include "tlscope/views/collective_scheduling.hpp"

#include "read_rows.hpp"
#include "tlscope/views/finding_words.hpp"

namespace tlscope::views {

namespace {

std::optional<double> opt_real(const Statement& s, int col) {
  if (s.is_null(col)) return std::nullopt;
  return s.real(col);
}

}  // namespace

Result<CollectiveScheduling> load_collective_scheduling(const Database& db) {
  Result<CollectiveScheduling> out;
  CollectiveScheduling& c = out.value;
  if (db.has_table("findings")) {
    const int64_t job_ranks =
        db.has_table("files") ? db.scalar("SELECT count(DISTINCT rank) FROM files") : 0;
    read_rows(db,
              "SELECT " + std::string(kFindingFactColumns) +
                  " FROM findings WHERE kind = 'spmd_graph_mismatch' ORDER BY id",
              out, [&](const Statement& s) {
                c.spmd_mismatches.push_back(finding_sentence(read_finding_facts(s), job_ranks));
              });
  }
  if (db.has_table("fx_buckets"))
    read_rows(db,
              "SELECT rank, coalesce(compile_id, ''), collective, bucket_index, size, "
              "coalesce(nodes, '') FROM fx_buckets ORDER BY id",
              out, [&](const Statement& s) {
                c.buckets.push_back(
                    {s.opt_int64(0), s.text(1), s.text(2), s.int64(3), s.int64(4), s.text(5)});
              });
  if (db.has_table("overlap_schedules"))
    read_rows(db,
              "SELECT event_id, rank, coalesce(compile_id, ''), scheduler, stage, lines, "
              "collectives, waits, coalesce(before_event_id, 0), lines_added, lines_removed "
              "FROM overlap_schedules ORDER BY event_id",
              out, [&](const Statement& s) {
                c.schedules.push_back({s.int64(0), s.opt_int64(1), s.text(2), s.text(3), s.text(4),
                                       s.int64(5), s.int64(6), s.int64(7), s.int64(8),
                                       s.opt_int64(9), s.opt_int64(10)});
              });
  if (db.has_table("node_runtime_estimates"))
    read_rows(db,
              "SELECT rank, coalesce(compile_id, ''), coalesce(collective, ''), world_size, "
              "benchmarked_ms, analytical_nccl_ms, analytical_inductor_ms FROM "
              "node_runtime_estimates ORDER BY id",
              out, [&](const Statement& s) {
                c.estimates.push_back({s.opt_int64(0), s.text(1), s.text(2), s.opt_int64(3),
                                       opt_real(s, 4), opt_real(s, 5), opt_real(s, 6)});
              });
  return out;
}

}  // namespace tlscope::views
