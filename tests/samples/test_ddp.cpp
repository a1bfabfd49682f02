// The ddp scenario as DDP runs it, checked on its logs with the independent reader: one coalesced
// broadcast, gradient buckets of the sizes DDP's assignment gives, profiler spans per step, and
// the record volume per step that docs/runtime.md states (8 ranks x 200 steps: tens of thousands).
#include <catch2/catch.hpp>
#include <filesystem>

#include "scenario_run.hpp"

namespace fs = std::filesystem;
using namespace samples_test;

namespace {

// The model of samples/programs/ddp.cpp: w1 16x32, b1 32, w2..w8 32x32, b2..b8 32, w9 32x4, b9 4.
constexpr double kParamCount = 16 * 32 + 32 + 7 * (32 * 32 + 32) + 32 * 4 + 4;  // 8068
// DDP's bucket assignment by hand: parameters in reverse order, a bucket closes once it holds
// at least bucket_cap_mb = 0.004 MB = 4194 bytes (f32: 4 bytes per element).
// b9+w9+b8+w8 = 4+128+32+1024 = 1188 elements (4752 B); b_i+w_i = 1056 (4224 B) for i = 7..2;
// b1+w1 = 32+512 = 544 (what is left).
const std::vector<double> kBucketSizes = {1188, 1056, 1056, 1056, 1056, 1056, 1056, 544};

double size0(const JValue& rec) {
  const JValue& sizes = rec.get("input_sizes")->items.at(0);
  return sizes.items.empty() ? -1 : sizes.items[0].num;  // -1: a scalar
}

}  // namespace

TEST_CASE("ddp: broadcast once, DDP's gradient buckets per step, training equals full-batch GD") {
  tlrt::ScenarioOptions o;
  o.steps = 5;  // the default is 10; 5 keeps the test quick under sanitizers
  Run r = run("ddp", o);
  REQUIRE(r.result.compiled_matches_eager);
  REQUIRE(r.logs.size() == 4);
  require_well_formed(r);
  for (size_t i = 0; i < r.result.logs.size(); ++i) {
    CHECK(fs::path(r.result.logs[i])
              .filename()
              .string()
              .rfind(with_int("dedicated_log_torch_trace_rank_", static_cast<long long>(i)) + "_",
                     0) == 0);
  }
  check_collectives_match(r);
  const int steps = o.steps;
  // Per rank: the broadcast, per step one all_reduce per bucket and the loss's, the barrier.
  CHECK(section(r, "collectives").items.size() == 4u * (1 + steps * (kBucketSizes.size() + 1) + 1));
  for (const auto& lc : r.logs) {
    std::vector<JValue> recs;
    for (const auto* a : artifacts(lc, "collective_op")) recs.push_back(parse_payload(*a));
    REQUIRE(recs.size() == 1 + steps * (kBucketSizes.size() + 1) + 1);
    CHECK(recs.front().get("op")->str == "broadcast");
    CHECK(size0(recs.front()) == kParamCount);
    CHECK(recs.back().get("op")->str == "barrier");
    size_t i = 1;
    for (int s = 0; s < steps; ++s) {
      INFO("step " << s);
      double bucketed = 0;
      for (double want : kBucketSizes) {
        CHECK(recs[i].get("op")->str == "all_reduce");
        CHECK(size0(recs[i]) == want);
        bucketed += size0(recs[i++]);
      }
      CHECK(bucketed == kParamCount);
      CHECK(recs[i].get("op")->str == "all_reduce");
      CHECK(size0(recs[i++]) == -1);  // the loss
    }
  }
}

TEST_CASE("ddp: profiler spans per step wrap the step's collectives, nccl spans carry comm args") {
  tlrt::ScenarioOptions o;
  o.steps = 4;
  o.ranks = 2;
  Run r = run("ddp", o);
  require_well_formed(r);
  for (const auto& lc : r.logs) {
    std::vector<JValue> chromium = chromium_events(lc);
    std::vector<JValue> colls;
    for (const auto* a : artifacts(lc, "collective_op")) colls.push_back(parse_payload(*a));
    std::map<std::string, int> begins;
    std::vector<std::pair<double, double>> step_spans;
    size_t nccl = 0;
    for (const auto& ev : chromium) {
      const std::string& name = ev.get("name")->str;
      bool runtime = ev.get("cat")->str == "user_annotation";
      // Runtime spans are outside any compile, so tlscope never counts them as compile phases.
      CHECK((ev.get("args")->get("compile_id")->str == "None") == runtime);
      if (ev.get("ph")->str != "B") {
        if (name.rfind("ProfilerStep#", 0) == 0) step_spans.back().second = ev.get("ts")->num;
        continue;
      }
      ++begins[name];
      if (name.rfind("ProfilerStep#", 0) == 0) step_spans.push_back({ev.get("ts")->num, 0});
      if (name.rfind("nccl:", 0) == 0) {
        // The record_param_comms arguments agree with the Flight Recorder record of the same call.
        REQUIRE(nccl < colls.size());
        const JValue& c = colls[nccl++];
        const JValue* args = ev.get("args");
        CHECK(name == "nccl:" + c.get("op")->str);
        CHECK(args->get("Collective name")->str == c.get("op")->str);
        CHECK(args->get("Seq")->num == c.get("collective_seq_id")->num);
        CHECK(args->get("In msg nelems")->num == c.get("in_msg_nelems")->num);
        CHECK(args->get("Group size")->num == c.get("pg_size")->num);
        CHECK(args->get("Process Group Name")->str == c.get("pg_name")->str);
      }
    }
    CHECK(nccl == colls.size());
    for (int s = 0; s < o.steps; ++s) CHECK(begins[with_int("ProfilerStep#", s)] == 1);
    CHECK(begins["Torch-Compiled Region: 0/0"] == o.steps);
    CHECK(begins["Optimizer.step#SGD.step"] == o.steps);
    // Step s issues collectives 2 .. 10 of its 9 (after the broadcast), all inside its span.
    REQUIRE(step_spans.size() == static_cast<size_t>(o.steps));
    const size_t per_step = kBucketSizes.size() + 1;
    for (size_t s = 0; s < step_spans.size(); ++s) {
      for (size_t k = 0; k < per_step; ++k) {
        const JValue& c = colls.at(1 + s * per_step + k);
        CHECK(c.get("time_created_us")->num >= step_spans[s].first);
        CHECK(c.get("time_completed_us")->num <= step_spans[s].second);
      }
    }
  }
}

TEST_CASE("ddp: records grow by the documented count per step, 8 ranks x 200 steps >= 40000") {
  auto records = [](int steps) {
    tlrt::ScenarioOptions o;
    o.ranks = 8;
    o.steps = steps;
    o.seed = static_cast<uint64_t>(100 + steps);
    Run r = run("ddp", o);
    require_well_formed(r);
    int64_t n = 0;
    for (const auto& lc : r.logs) n += static_cast<int64_t>(lc.records.size());
    CHECK(n == r.result.records);  // the reader counts what the writer says it wrote
    return n;
  };
  int64_t at1 = records(1), at2 = records(2);
  // docs/runtime.md: per rank and step, 3 records per collective (collective_op and the nccl span's
  // B/E) for the 8 buckets and the loss, and the B/E of ProfilerStep#N, Torch-Compiled Region and
  // Optimizer.step.
  const int64_t per_rank_step = 3 * (static_cast<int64_t>(kBucketSizes.size()) + 1) + 2 * 3;
  CHECK(at2 - at1 == 8 * per_rank_step);
  int64_t at200 = at1 + 199 * 8 * per_rank_step;
  INFO("8 ranks x 200 steps: " << at200 << " records");
  CHECK(at200 >= 40000);
}

TEST_CASE("ddp-compiled: the bucket all_reduces run inside the compiled graph and its schedule") {
  tlrt::ScenarioOptions o;
  o.steps = 3;
  Run r = run("ddp-compiled", o);
  REQUIRE(r.result.compiled_matches_eager);
  require_well_formed(r);
  check_collectives_match(r);
  for (const auto& lc : r.logs) {
    auto sched = artifacts(lc, "inductor_collective_schedule");
    REQUIRE(sched.size() == 1);
    CHECK(compile_id(*sched[0]) == "0/0");
    JValue list = parse_payload(*sched[0]);
    // One all_reduce and its wait per bucket, in bucket order.
    REQUIRE(list.items.size() == 2 * kBucketSizes.size());
    for (size_t i = 0; i < list.items.size(); i += 2) {
      CHECK(list.items[i].str == "torch.ops._c10d_functional.all_reduce_.default");
      CHECK(list.items[i + 1].str == "torch.ops._c10d_functional.wait_tensor.default");
    }
    CHECK(artifacts(lc, "inductor_runtime_and_tensor_meta").size() == 1);
    // Per step: the buckets inside graph 0/0 (its compile id on the envelope), the loss outside.
    auto recs = artifacts(lc, "collective_op");
    REQUIRE(recs.size() == 1 + o.steps * (kBucketSizes.size() + 1) + 1);
    size_t i = 1;
    for (int s = 0; s < o.steps; ++s) {
      for (double want : kBucketSizes) {
        INFO("step " << s << " record " << i);
        REQUIRE(recs[i]->envelope.has("frame_id"));
        CHECK(compile_id(*recs[i]) == "0/0");
        CHECK(size0(parse_payload(*recs[i++])) == want);
      }
      CHECK(recs[i++]->envelope.has("stack"));  // the loss, eager
    }
  }
  size_t in_graph = 0;
  for (const auto& c : section(r, "collectives").items)
    in_graph += c.get("compile_id")->kind == JValue::string ? 1 : 0;
  CHECK(in_graph == r.logs.size() * o.steps * kBucketSizes.size());
}
