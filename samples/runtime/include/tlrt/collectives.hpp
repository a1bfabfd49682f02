// In-process collective backend: ranks are fibers of one RankScheduler (rank_scheduler.hpp), and
// each collective really moves data between them through a per-group rendezvous keyed by sequence
// number; a rank whose peers have not all arrived parks until the last one completes the slot.
// Every collective writes a collective_op record (docs/collectives-format.md) and a truth entry.
#pragma once
#include <map>
#include <memory>
#include <source_location>
#include <stdexcept>
#include <string>
#include <vector>

#include "tlrt/tensor.hpp"

namespace tlrt {

struct ProcessGroup {
  std::string name;  // "0" = world
  std::string desc;  // dp, tp, mesh_row_0, ...
  std::vector<int> ranks;
  int group_rank(int global) const;  // -1 when not a member
};

struct CollectiveResult {
  Tensor out;
  int64_t seq = 0;
  bool mismatch = false;  // the ranks disagreed (op, shape or dtype): no data was moved
};

// A collective whose peers never arrived; the rank gives up after the timeout.
struct CollectiveTimeout : std::runtime_error {
  using std::runtime_error::runtime_error;
  std::string pg_name;
  int64_t seq = 0;
};

class World {
 public:
  World(int nranks, int timeout_ms);
  ~World();
  int size() const { return nranks_; }
  int timeout_ms() const { return timeout_ms_; }
  // Groups are created before the ranks start, identically for every rank.
  const ProcessGroup& add_group(const std::string& desc, std::vector<int> ranks);
  const ProcessGroup& world_group() const { return *groups_.front()->pg; }
  const ProcessGroup& group(const std::string& name) const;
  // The 2-rank group used for send/recv between a and b (created on demand).
  const ProcessGroup& p2p_group(int a, int b);

  // A rank that sleeps `delay_ms` before issuing its collective number `seq` on group `pg`.
  void add_straggler(int rank, const std::string& pg, int64_t seq, int delay_ms);

  // The calling rank is Process::current()->rank; collectives run inside RankScheduler::run.
  CollectiveResult all_reduce(const ProcessGroup& g, const Tensor& x,
                              std::source_location where = std::source_location::current());
  CollectiveResult all_gather(const ProcessGroup& g, const Tensor& x,
                              std::source_location where = std::source_location::current());
  CollectiveResult reduce_scatter(const ProcessGroup& g, const Tensor& x,
                                  std::source_location where = std::source_location::current());
  CollectiveResult broadcast(const ProcessGroup& g, const Tensor& x,
                             std::source_location where = std::source_location::current());
  CollectiveResult barrier(const ProcessGroup& g,
                           std::source_location where = std::source_location::current());
  CollectiveResult send(const Tensor& x, int dst,
                        std::source_location where = std::source_location::current());
  CollectiveResult recv(const Tensor& like, int src,
                        std::source_location where = std::source_location::current());

 private:
  struct Contribution {
    std::string op;
    Tensor input;
    double created = 0;
  };
  struct Slot {
    std::vector<std::unique_ptr<Contribution>> contrib;
    int arrived = 0, taken = 0;
    bool done = false, mismatch = false;
    double started = 0;
    std::vector<Tensor> results;
    std::vector<int> waiters;  // global ranks parked until the slot is done
  };
  struct Group {
    std::unique_ptr<ProcessGroup> pg;
    std::map<int64_t, Slot> slots;
    std::vector<int64_t> next_seq;  // per group rank
  };
  CollectiveResult run(const ProcessGroup& g, const std::string& op, const Tensor& x, int peer,
                       std::source_location where);
  void complete(Group& grp, Slot& slot);
  Group& find(const ProcessGroup& g);

  int nranks_, timeout_ms_;
  std::vector<std::unique_ptr<Group>> groups_;
  struct Straggler {
    int rank;
    std::string pg;
    int64_t seq;
    int delay_ms;
  };
  std::vector<Straggler> stragglers_;
};

}  // namespace tlrt
