// The view models of the multi-rank parity sections and of the report's provenance header, on
// the real multi_rank_schedule logs (facts read off them) and on hand-built runtime estimates.
#include <catch2/catch.hpp>

#include "tlscope/version.hpp"
#include "tlscope/views/collective_parity.hpp"
#include "tlscope/views/graph_runtimes.hpp"
#include "tlscope/views/report_provenance.hpp"
#include "tlscope/views/time_format.hpp"
#include "views/real_db.hpp"

using namespace tlscope;
using namespace tlscope::test;

TEST_CASE("collective parity view of multi_rank_schedule: one graph disagrees, on rank 1") {
  std::string path = analysed_real_log("parity_schedule", {"multi_rank_schedule"});
  views::Database db(path);
  REQUIRE(db.ok());
  auto v = views::load_collective_parity(db);
  INFO(v.error);
  REQUIRE(v.ok());
  // Three ranks, compiles 0/0 and 1/0 each with one schedule.
  CHECK(v->graphs.total == 6);
  CHECK(v->mismatched == 1);
  std::vector<std::string> bad;
  for (const views::ParityGraph& g : v->graphs.rows) {
    CHECK(g.has_code);
    if (!g.agrees) bad.push_back(std::to_string(*g.rank) + " " + g.compile_id);
  }
  CHECK(bad == std::vector<std::string>{"1 0/0"});
  // Rank 0's 0/0: all_reduce_, wait_tensor, all_gather_into_tensor, reduce_scatter_tensor in
  // schedule order; three waits, three issued.
  const views::ParityGraph& first = v->graphs.rows.front();
  CHECK(*first.rank == 0);
  CHECK(first.compile_id == "0/0");
  std::vector<std::string> ops;
  for (const views::ParityOp& op : first.ops)
    ops.push_back(op.op + " " + std::to_string(op.scheduled) + "/" + std::to_string(*op.generated));
  CHECK(ops == std::vector<std::string>{"all_reduce_ 1/1", "wait_tensor 3/3",
                                        "all_gather_into_tensor 1/1", "reduce_scatter_tensor 1/1"});
  CHECK(first.issued == 3);
  CHECK(first.waits == 3);
  // Paging: the second page of two graphs starts at rank 1's 0/0.
  auto page = views::load_collective_parity(db, views::Page{2, 2});
  REQUIRE(page->graphs.rows.size() == 2);
  CHECK(*page->graphs.rows[0].rank == 1);
  CHECK(page->graphs.rows[0].compile_id == "0/0");
  CHECK_FALSE(page->graphs.rows[0].agrees);
  // No runtime estimates in these logs.
  auto rt = views::load_graph_runtimes(db);
  CHECK(rt.ok());
  CHECK(rt->graphs.total == 0);
}

TEST_CASE("provenance header of multi_rank_schedule: versions, inputs, times") {
  std::string path = analysed_real_log("provenance_schedule", {"multi_rank_schedule"});
  views::Database db(path);
  auto p = views::load_report_provenance(db, "tlscope report x", "box");
  INFO(p.error);
  REQUIRE(p.ok());
  CHECK(p->tlscope_version == std::string(kVersion));
  CHECK(p->command_line == "tlscope report x");
  CHECK(p->host == "box");
  // "# torch version: 2.9.0a0+git86df3ff" in every rank's fx_graph_runnable (rank 0 line 462).
  CHECK(p->pytorch_versions == std::vector<std::string>{"2.9.0a0+git86df3ff"});
  REQUIRE(p->inputs.size() == 3);
  CHECK(p->input_count == 3);
  // Rank 1's file: first record "V0728 21:43:59.834000" (line 1), 159443 bytes.
  const views::InputProvenance* rank1 = nullptr;
  for (const auto& in : p->inputs)
    if (in.rank == 1) rank1 = &in;
  REQUIRE(rank1);
  CHECK(rank1->bytes == 159443);
  CHECK(rank1->first_record == "07-28 21:43:59.834000");
  CHECK(rank1->last_record.substr(0, 11) == "07-28 21:44");
  CHECK(views::glog_time_text("not a time") == "not a time");
}

TEST_CASE("graph runtime view: counts per rank and graphs not on every rank") {
  FixtureDb db;
  auto meta = [](int ns) {
    return "{\"ops\": [{\"name\": \"k\", \"type\": \"compute\", \"estimated_runtime_ns\": " +
           std::to_string(ns) + "}]}";
  };
  for (int64_t rank = 0; rank < 2; ++rank) {
    db.add_file("dedicated_log_torch_trace_rank_" + std::to_string(rank) + ".log", rank);
    db.artifact(ctx(0, 0), "inductor_runtime_and_tensor_meta", meta(rank ? 2500000 : 1000), "json",
                0);
    if (rank == 0) db.artifact(ctx(1, 0), "inductor_runtime_and_tensor_meta", meta(7), "json", 0);
  }
  std::string path = fixture_file(db, "graph_runtimes");
  REQUIRE(model::analysis::ensure_analysis(path).ok);
  views::Database vdb(path);
  auto v = views::load_graph_runtimes(vdb);
  INFO(v.error);
  REQUIRE(v.ok());
  REQUIRE(v->graph_counts.size() == 2);
  CHECK(v->graph_counts[0].graphs == 2);
  CHECK(v->graph_counts[1].graphs == 1);
  CHECK(v->counts_differ);
  CHECK(v->uneven_graphs == std::vector<std::string>{"1/0"});
  REQUIRE(v->graphs.rows.size() == 2);
  const views::GraphRuntimeRow& g = v->graphs.rows[0];
  CHECK(g.compile_id == "0/0");
  CHECK(g.fastest_rank == 0);
  CHECK(g.slowest_rank == 1);
  CHECK(g.difference_ns == 2499000);
  CHECK(views::format_duration_us(g.difference_ns / 1e3) == "2.50 ms");
  CHECK(v->graphs.rows[1].missing_ranks == std::vector<int64_t>{1});
}
