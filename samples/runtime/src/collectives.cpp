// The rendezvous backend and the collective_op records (see collectives.hpp).
#include "tlrt/collectives.hpp"

#include <chrono>

#include "tlrt/ops.hpp"
#include "tlrt/process.hpp"
#include "tlrt/rank_scheduler.hpp"
#include "tlrt/trace_log.hpp"
#include "tlrt/tracer.hpp"

namespace tlrt {

int ProcessGroup::group_rank(int global) const {
  for (size_t i = 0; i < ranks.size(); ++i) {
    if (ranks[i] == global) return static_cast<int>(i);
  }
  return -1;
}

World::World(int nranks, int timeout_ms) : nranks_(nranks), timeout_ms_(timeout_ms) {
  std::vector<int> all(static_cast<size_t>(nranks));
  for (int i = 0; i < nranks; ++i) all[i] = i;
  add_group("default_pg", all);
}

World::~World() = default;

const ProcessGroup& World::add_group(const std::string& desc, std::vector<int> ranks) {
  auto g = std::make_unique<Group>();
  g->pg = std::make_unique<ProcessGroup>(
      ProcessGroup{std::to_string(groups_.size()), desc, std::move(ranks)});
  g->next_seq.assign(g->pg->ranks.size(), 0);
  groups_.push_back(std::move(g));
  return *groups_.back()->pg;
}

const ProcessGroup& World::group(const std::string& name) const {
  for (const auto& g : groups_) {
    if (g->pg->name == name || g->pg->desc == name) return *g->pg;
  }
  throw std::invalid_argument("unknown process group '" + name + "'");
}

const ProcessGroup& World::p2p_group(int a, int b) {
  std::string desc = "p2p_" + std::to_string(std::min(a, b)) + "_" + std::to_string(std::max(a, b));
  for (const auto& g : groups_) {
    if (g->pg->desc == desc) return *g->pg;
  }
  return add_group(desc, {std::min(a, b), std::max(a, b)});
}

World::Group& World::find(const ProcessGroup& g) {
  for (auto& grp : groups_) {
    if (grp->pg.get() == &g) return *grp;
  }
  throw std::invalid_argument("process group '" + g.name + "' does not belong to this world");
}

void World::add_straggler(int rank, const std::string& pg, int64_t seq, int delay_ms) {
  stragglers_.push_back({rank, pg, seq, delay_ms});
}

namespace {
// What a rank keeps in thread-locals while it is parked (the fiber that runs next has its own):
// an active tracer (collectives traced into a graph run for real) and the kernel nesting depth.
struct ParkedRank {
  Tracer* tracer = Tracer::active();
  int depth = kernel_depth();
  ~ParkedRank() {
    Tracer::set_active(tracer);
    set_kernel_depth(depth);
  }
};
}  // namespace

static Shape expected_output(const std::string& op, const Tensor& in, int n) {
  Shape s = in.sizes();
  if (op == "all_gather" && !s.empty()) s[0] *= n;
  if (op == "reduce_scatter" && !s.empty()) s[0] /= n;
  return s;
}

void World::complete(Group& grp, Slot& slot) {
  size_t n = slot.contrib.size();
  const Contribution& c0 = *slot.contrib[0];
  bool p2p = c0.op == "send" || c0.op == "recv";
  for (size_t i = 1; i < n && !slot.mismatch; ++i) {
    const Contribution& c = *slot.contrib[i];
    bool op_ok = p2p ? (c.op == "send" || c.op == "recv") && c.op != c0.op : c.op == c0.op;
    if (!op_ok || c.input.sizes() != c0.input.sizes() || c.input.dtype() != c0.input.dtype()) {
      slot.mismatch = true;
    }
  }
  if (c0.op == "reduce_scatter" && !c0.input.sizes().empty() &&
      c0.input.sizes()[0] % static_cast<int64_t>(n)) {
    slot.mismatch = true;
  }
  slot.results.resize(n);
  if (slot.mismatch) {
    // Real NCCL would hang or corrupt memory; the runtime moves nothing and lets each rank go on.
    for (size_t i = 0; i < n; ++i) {
      const Contribution& c = *slot.contrib[i];
      slot.results[i] =
          Tensor::empty(expected_output(c.op, c.input, static_cast<int>(n)), c.input.dtype());
    }
  } else if (c0.op == "all_reduce") {
    Tensor acc = run_kernel(*find_op("clone"), {c0.input}, {});
    for (size_t i = 1; i < n; ++i)
      acc = run_kernel(*find_op("add"), {acc, slot.contrib[i]->input}, {});
    for (size_t i = 0; i < n; ++i) slot.results[i] = run_kernel(*find_op("clone"), {acc}, {});
  } else if (c0.op == "all_gather") {
    std::vector<Tensor> parts;
    for (auto& c : slot.contrib) parts.push_back(c->input);
    Tensor all = run_kernel(*find_op("cat"), parts, {{0}, {}, ""});
    for (size_t i = 0; i < n; ++i) slot.results[i] = all;
  } else if (c0.op == "reduce_scatter") {
    Tensor acc = run_kernel(*find_op("clone"), {c0.input}, {});
    for (size_t i = 1; i < n; ++i)
      acc = run_kernel(*find_op("add"), {acc, slot.contrib[i]->input}, {});
    int64_t chunk = c0.input.sizes()[0] / static_cast<int64_t>(n);
    for (size_t i = 0; i < n; ++i) {
      int64_t s = static_cast<int64_t>(i) * chunk;
      slot.results[i] =
          run_kernel(*find_op("contiguous"),
                     {run_kernel(*find_op("slice"), {acc}, {{0, s, s + chunk, 1}, {}, ""})}, {});
    }
  } else if (c0.op == "broadcast") {
    for (size_t i = 0; i < n; ++i) slot.results[i] = run_kernel(*find_op("clone"), {c0.input}, {});
  } else if (p2p) {
    size_t sender = c0.op == "send" ? 0 : 1;
    for (size_t i = 0; i < n; ++i) {
      slot.results[i] = i == sender
                            ? slot.contrib[i]->input
                            : run_kernel(*find_op("clone"), {slot.contrib[sender]->input}, {});
    }
  } else {  // barrier
    for (size_t i = 0; i < n; ++i) slot.results[i] = c0.input;
  }
  (void)grp;
  slot.started = now_us();
  slot.done = true;
}

static Json sizes_json(const Shape& s) {
  return Json::list(s);
}

CollectiveResult World::run(const ProcessGroup& g, const std::string& op, const Tensor& x, int peer,
                            std::source_location where) {
  Process* proc = Process::current();
  if (!proc) throw std::logic_error("collective " + op + " called outside a rank thread");
  int grank = g.group_rank(proc->rank);
  if (grank < 0) {
    throw std::invalid_argument("rank " + std::to_string(proc->rank) + " is not in process group " +
                                g.name);
  }
  Group& grp = find(g);
  RankScheduler* sched = RankScheduler::active();
  if (!sched) throw std::logic_error("collective " + op + " called outside RankScheduler::run");
  int64_t seq = ++grp.next_seq[grank];
  for (const auto& s : stragglers_) {
    if (s.rank == proc->rank && s.pg == g.name && s.seq == seq) {
      ParkedRank keep;
      sched->sleep_for(std::chrono::milliseconds(s.delay_ms));
    }
  }
  Shape out_sizes = expected_output(op, x, static_cast<int>(g.ranks.size()));
  // The profiler's view of the call (record_param_comms' arguments on the ProcessGroupNCCL span);
  // the span closes after the collective_op record, also when the collective times out.
  Json comm = Json::object();
  comm.set("Collective name", op).set("Process Group Name", g.name);
  // The profiler keeps the first 30 ranks of a larger group (kTruncatLength in PyTorch's
  // profiler/util.cpp): at 1,024 ranks the full list would make up half of every rank's log.
  constexpr size_t kTruncatLength = 30;
  std::vector<int> listed(g.ranks.begin(), g.ranks.begin() + static_cast<std::ptrdiff_t>(std::min(
                                                                 g.ranks.size(), kTruncatLength)));
  comm.set("Process Group Description", g.desc).set("Process Group Ranks", Json::list(listed));
  comm.set("Group size", static_cast<int64_t>(g.ranks.size())).set("Rank", proc->rank);
  comm.set("In msg nelems", x.numel()).set("Out msg nelems", shape_numel(out_sizes));
  comm.set("dtype", dtype_guard_name(x.dtype())).set("Seq", seq);
  RecordFunction span("nccl:" + op, std::move(comm));
  double created = now_us();
  CollectiveResult result;
  result.seq = seq;
  double started = created, completed;
  bool timed_out = false;
  {
    Slot& slot = grp.slots[seq];  // std::map: the reference survives other slots' inserts
    if (slot.contrib.empty()) slot.contrib.resize(g.ranks.size());
    slot.contrib[grank] = std::make_unique<Contribution>(Contribution{op, x, created});
    if (++slot.arrived == static_cast<int>(g.ranks.size())) {
      complete(grp, slot);
      for (int r : slot.waiters) sched->wake(r);
      slot.waiters.clear();
    } else {
      auto deadline = RankScheduler::Clock::now() + std::chrono::milliseconds(timeout_ms_);
      slot.waiters.push_back(proc->rank);
      ParkedRank keep;
      while (!slot.done && !timed_out) timed_out = !sched->block(deadline);
    }
    if (!timed_out) {
      started = slot.started;
      result.out = slot.results[grank];
      result.mismatch = slot.mismatch;
      if (++slot.taken == static_cast<int>(g.ranks.size())) grp.slots.erase(seq);
    }
  }
  completed = now_us();

  Json rec = Json::object();
  rec.set("pg_name", g.name).set("pg_desc", g.desc).set("pg_ranks", Json::list(g.ranks));
  rec.set("pg_size", static_cast<int64_t>(g.ranks.size())).set("collective_seq_id", seq);
  rec.set("op", op).set("profiling_name", "nccl:" + op);
  rec.set("input_sizes", Json(Json::Array{sizes_json(x.sizes())}));
  rec.set("output_sizes", Json(Json::Array{sizes_json(out_sizes)}));
  rec.set("input_dtypes", Json(Json::Array{Json(dtype_plain(x.dtype()))}));
  rec.set("output_dtypes", Json(Json::Array{Json(dtype_plain(x.dtype()))}));
  rec.set("in_msg_nelems", x.numel()).set("out_msg_nelems", shape_numel(out_sizes));
  rec.set("bytes", x.numel() * dtype_itemsize(x.dtype()));
  rec.set("state", timed_out ? "timed_out" : "completed");
  rec.set("time_created_us", created)
      .set("time_started_us", timed_out ? Json(nullptr) : Json(started));
  rec.set("time_completed_us", completed);
  rec.set("timeout_ms", timed_out ? Json(timeout_ms_) : Json(nullptr));
  if (peer >= 0) rec.set("peer", peer);

  EventContext ec;
  if (proc->executing) {
    ec.ctx = proc->executing;
    ec.ctx->attempt = 0;
  } else {
    ec.stack = std::vector<StackFrame>{{static_cast<int>(where.line()),
                                        short_function_name(where.function_name()),
                                        where.file_name(), ""}};
  }
  Json meta = Json::object();
  meta.set("name", "collective_op").set("encoding", "json");
  proc->log->emit("artifact", meta, ec, rec.dump());

  if (proc->truth) {
    Json t = Json::object();
    t.set("rank", proc->rank)
        .set("pg_name", g.name)
        .set("pg_desc", g.desc)
        .set("seq", seq)
        .set("op", op);
    t.set("input_sizes", Json(Json::Array{sizes_json(x.sizes())}));
    t.set("output_sizes", Json(Json::Array{sizes_json(out_sizes)}));
    t.set("dtype", dtype_plain(x.dtype())).set("state", timed_out ? "timed_out" : "completed");
    t.set("created_us", created)
        .set("start_us", timed_out ? Json(nullptr) : Json(started))
        .set("end_us", completed);
    t.set("compile_id", proc->executing ? Json(proc->executing->str()) : Json(nullptr));
    if (peer >= 0) t.set("peer", peer);
    proc->truth->add("collectives", t);
  }
  if (timed_out) {
    // The NCCL watchdog's wording, so the hang reads like a real one.
    std::string text =
        "[Rank " + std::to_string(proc->rank) +
        "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=" + std::to_string(seq) +
        ", OpType=" + op + ", NumelIn=" + std::to_string(x.numel()) +
        ", NumelOut=" + std::to_string(shape_numel(out_sizes)) +
        ", Timeout(ms)=" + std::to_string(timeout_ms_) + ") ran for " +
        std::to_string(timeout_ms_) + " milliseconds before timing out.";
    Json hm = Json::object();
    hm.set("name", "collective_timeout").set("encoding", "string");
    proc->log->emit("artifact", hm, ec, text);
    CollectiveTimeout e(text);
    e.pg_name = g.name;
    e.seq = seq;
    throw e;
  }
  return result;
}

CollectiveResult World::all_reduce(const ProcessGroup& g, const Tensor& x, std::source_location w) {
  return run(g, "all_reduce", x, -1, w);
}
CollectiveResult World::all_gather(const ProcessGroup& g, const Tensor& x, std::source_location w) {
  return run(g, "all_gather", x, -1, w);
}
CollectiveResult World::reduce_scatter(const ProcessGroup& g, const Tensor& x,
                                       std::source_location w) {
  return run(g, "reduce_scatter", x, -1, w);
}
CollectiveResult World::broadcast(const ProcessGroup& g, const Tensor& x, std::source_location w) {
  return run(g, "broadcast", x, -1, w);
}
CollectiveResult World::barrier(const ProcessGroup& g, std::source_location w) {
  return run(g, "barrier", Tensor::empty({0}, DType::f32), -1, w);
}
CollectiveResult World::send(const Tensor& x, int dst, std::source_location w) {
  int me = Process::current()->rank;
  return run(p2p_group(me, dst), "send", x, dst, w);
}
CollectiveResult World::recv(const Tensor& like, int src, std::source_location w) {
  int me = Process::current()->rank;
  return run(p2p_group(me, src), "recv", like, src, w);
}

}  // namespace tlrt
