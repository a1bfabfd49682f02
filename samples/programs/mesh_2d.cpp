// Sample program "mesh-2d": a 2-D device mesh (dp x tp, tp = 2, dp = ranks / 2). The MLP's first
// weight is column-sharded and the second row-sharded over tp (Megatron style), so the forward pass
// ends in a tp all_reduce (Partial -> Replicate) inside the compiled graph; gradients are
// synchronised over dp inside the same graph (reduce_scatter + all_gather for w1, all_reduce for
// the rest). The gathered final weights must equal full-batch gradient descent in one process.
#include <mutex>

#include "tlrt/compiler.hpp"
#include "tlrt/dtensor.hpp"
#include "tlrt/ops.hpp"
#include "tlrt/scenario.hpp"

namespace tlrt {

namespace {

constexpr int kMeshHidden = 32, kMeshOut = 4, kMeshLocalBatch = 8;

// Input features: 16, or the next multiple of dp above it, since w1's gradient is reduce_scattered
// over dp along its rows (a 512 x 2 mesh has 512-feature inputs).
int input_features(int dp) {
  return (16 + dp - 1) / dp * dp;
}
constexpr double kMeshLr = 0.1;

Program tp_train_step() {
  Program p("tp_train_step", __FILE__, __LINE__);
  TLRT_STMT(p, env.set("h", relu(matmul(env.t("x"), env.t("w1")) + env.t("b1"))));
  TLRT_STMT(p, env.set("o_partial", matmul(env.t("h"), env.t("w2"))));
  TLRT_STMT(p, env.set("o", all_reduce(env.t("o_partial"), env.str("tp")) + env.t("b2")));
  TLRT_STMT(p, env.set("loss", mean(pow(env.t("o") - env.t("y"), 2.0))));
  TLRT_STMT(p, env.set("d_o", mul(env.t("o") - env.t("y"),
                                  2.0 / static_cast<double>(env.t("o").numel()))));
  TLRT_STMT(p, env.set("g_b2", all_reduce(sum(env.t("d_o"), {0}), env.str("dp"))));
  TLRT_STMT(p, env.set("g_w2", all_reduce(matmul(transpose(env.t("h"), 0, 1), env.t("d_o")),
                                          env.str("dp"))));
  TLRT_STMT(p, env.set("d_h", matmul(env.t("d_o"), transpose(env.t("w2"), 0, 1)) *
                                  to(gt(env.t("h"), 0.0), DType::f32)));
  TLRT_STMT(p, env.set("g_w1",
                       all_gather(reduce_scatter(matmul(transpose(env.t("x"), 0, 1), env.t("d_h")),
                                                 env.str("dp")),
                                  env.str("dp"))));
  TLRT_STMT(p, env.set("g_b1", all_reduce(sum(env.t("d_h"), {0}), env.str("dp"))));
  return p;
}

// The same model unsharded, for the single-process reference.
Program full_train_step() {
  Program p("full_train_step", __FILE__, __LINE__);
  TLRT_STMT(p, env.set("h", relu(matmul(env.t("x"), env.t("w1")) + env.t("b1"))));
  TLRT_STMT(p, env.set("o", matmul(env.t("h"), env.t("w2")) + env.t("b2")));
  TLRT_STMT(p, env.set("d_o", mul(env.t("o") - env.t("y"),
                                  2.0 / static_cast<double>(env.t("o").numel()))));
  TLRT_STMT(p, env.set("g_b2", sum(env.t("d_o"), {0})));
  TLRT_STMT(p, env.set("g_w2", matmul(transpose(env.t("h"), 0, 1), env.t("d_o"))));
  TLRT_STMT(p, env.set("d_h", matmul(env.t("d_o"), transpose(env.t("w2"), 0, 1)) *
                                  to(gt(env.t("h"), 0.0), DType::f32)));
  TLRT_STMT(p, env.set("g_w1", matmul(transpose(env.t("x"), 0, 1), env.t("d_h"))));
  TLRT_STMT(p, env.set("g_b1", sum(env.t("d_h"), {0})));
  return p;
}

Env full_params(uint64_t seed, int in) {
  Rng rng(seed + 17);
  Env p;
  p.set("w1", rng.randn({in, kMeshHidden}, 0.3));
  p.set("b1", rng.randn({kMeshHidden}, 0.05));
  p.set("w2", rng.randn({kMeshHidden, kMeshOut}, 0.2));
  p.set("b2", rng.randn({kMeshOut}, 0.05));
  return p;
}

// The batch shard of data-parallel index di (both tp ranks of a mesh row read the same one),
// drawn from its own stream so the cost per rank does not grow with the mesh.
std::pair<Tensor, Tensor> local_batch(uint64_t seed, int step, int di, int in) {
  Rng rng(seed * 104729 + static_cast<uint64_t>(step) + 3 + (static_cast<uint64_t>(di) << 32));
  Tensor x = rng.randn({kMeshLocalBatch, in});
  Tensor y = sigmoid(slice(x, 1, 2, 2 + kMeshOut) * 2.0);
  return {x, y};
}

std::pair<Tensor, Tensor> batch(uint64_t seed, int step, int dp, int in) {
  std::vector<Tensor> xs, ys;
  for (int d = 0; d < dp; ++d) {
    auto [x, y] = local_batch(seed, step, d, in);
    xs.push_back(x);
    ys.push_back(y);
  }
  return {cat(xs, 0), cat(ys, 0)};
}

const char* kNames[] = {"w1", "b1", "w2", "b2"};

}  // namespace

ScenarioResult scenario_mesh_2d(const ScenarioOptions& o) {
  int n = o.ranks;
  const int tp = 2;
  if (n % tp != 0) {
    throw std::invalid_argument("mesh-2d needs an even rank count (got " + std::to_string(n) + ")");
  }
  int dp = n / tp;
  const int kIn = input_features(dp);
  std::vector<Env> finals(static_cast<size_t>(n));
  std::mutex mu;
  std::vector<std::string> tp_names(static_cast<size_t>(dp)), dp_names(static_cast<size_t>(tp));
  return run_ranks(
      o, "mesh-2d", n,
      [&](World& w) {
        for (int d = 0; d < dp; ++d)
          tp_names[d] = w.add_group("mesh_row_" + std::to_string(d), {d * tp, d * tp + 1}).name;
        for (int t = 0; t < tp; ++t) {
          std::vector<int> col;
          for (int d = 0; d < dp; ++d) col.push_back(d * tp + t);
          dp_names[t] = w.add_group("mesh_col_" + std::to_string(t), col).name;
        }
        for (int d = 0; d < dp; ++d) w.p2p_group(d * tp, d * tp + 1);
      },
      [&](Process& proc, World& world) {
        int rank = proc.rank, di = rank / tp, ti = rank % tp;
        Env full = full_params(o.seed, kIn);
        int64_t hs = kMeshHidden / tp;
        Env params;
        params.set("w1", contiguous(slice(full.t("w1"), 1, ti * hs, (ti + 1) * hs)));
        params.set("b1", contiguous(slice(full.t("b1"), 0, ti * hs, (ti + 1) * hs)));
        params.set("w2", contiguous(slice(full.t("w2"), 0, ti * hs, (ti + 1) * hs)));
        params.set("b2", full.t("b2"));
        auto place = [&](const std::string& name, std::vector<std::string> pl, Shape global,
                         const Tensor& local) {
          log_placement({name,
                         {dp, tp},
                         {"dp", "tp"},
                         std::move(pl),
                         std::move(global),
                         local.sizes(),
                         {di, ti}});
          log_tensor_values(name, local);
        };
        place("w1", {"Replicate()", "Shard(1)"}, {kIn, kMeshHidden}, params.t("w1"));
        place("w2", {"Replicate()", "Shard(0)"}, {kMeshHidden, kMeshOut}, params.t("w2"));
        Program prog = tp_train_step();
        CompiledFunction step_fn(prog);
        for (int s = 0; s < o.steps; ++s) {
          auto [x, y] = local_batch(o.seed, s, di, kIn);
          Env env = params;
          env.set("x", x);
          env.set("y", y);
          env.set("tp", tp_names[di]);
          env.set("dp", dp_names[ti]);
          step_fn(env);
          if (s == 0) {
            place("x", {"Shard(0)", "Replicate()"}, {dp * kMeshLocalBatch, kIn}, env.t("x"));
            place("o_partial", {"Shard(0)", "Partial(sum)"}, {dp * kMeshLocalBatch, kMeshOut},
                  env.t("o_partial"));
          }
          for (const char* name : kNames) {
            params.set(name, params.t(name) - mul(env.t(std::string("g_") + name), kMeshLr / dp));
          }
        }
        // Reassemble the sharded weights over tp to compare with the reference.
        const ProcessGroup& row = world.group(tp_names[di]);
        Env gathered;
        gathered.set(
            "w1", transpose(world.all_gather(row, contiguous(transpose(params.t("w1"), 0, 1))).out,
                            0, 1));
        gathered.set("b1", world.all_gather(row, params.t("b1")).out);
        gathered.set("w2", world.all_gather(row, params.t("w2")).out);
        gathered.set("b2", params.t("b2"));
        // The row's first rank hands its final b2 to its neighbour (send/recv).
        if (ti == 0) {
          world.send(params.t("b2"), rank + 1);
        } else {
          Tensor got = world.recv(Tensor::empty({kMeshOut}, DType::f32), rank - 1).out;
          if (!allclose(got, params.t("b2")))
            throw std::runtime_error("b2 differs between tp ranks");
        }
        world.barrier(world.world_group());
        std::lock_guard<std::mutex> lock(mu);
        finals[static_cast<size_t>(rank)] = gathered;
      },
      [&](Truth&, ScenarioResult& r) {
        Env params = full_params(o.seed, kIn);
        Program ref = full_train_step();
        for (int s = 0; s < o.steps; ++s) {
          auto [x, y] = batch(o.seed, s, dp, kIn);
          Env env = params;
          env.set("x", x);
          env.set("y", y);
          ref.run_eager(env);
          for (const char* name : kNames)
            params.set(name, params.t(name) - mul(env.t(std::string("g_") + name), kMeshLr));
        }
        for (int rank = 0; rank < n; ++rank) {
          std::string detail;
          if (!same_tensors(params, finals[static_cast<size_t>(rank)], detail, 1e-4, 1e-5)) {
            r.compiled_matches_eager = false;
            r.detail = "rank " + std::to_string(rank) + ": " + detail;
          }
        }
      });
}

}  // namespace tlrt
