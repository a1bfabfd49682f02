// What one PyTorch process owns: its trace log, rank, compile counters and execution record.
// Rank threads each install their own Process; runtime code reaches it through current().
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tlrt/trace_log.hpp"
#include "tlrt/truth.hpp"

namespace tlrt {

class World;

// The PyTorch this runtime stands in for, as its logs and truth.json name it (PyTorch 2.14 logs
// a torch_version record at the start of each process's log).
inline constexpr const char* kTorchVersion = "2.14.0+tlrt";
inline constexpr const char* kTorchCommit = "7d1e0c5a9b3f42e68a1c0d2e4f6b8a0c1e3d5f79";

struct Process {
  int rank = -1;  // -1: torch.distributed not initialised
  std::unique_ptr<TraceLog> log;
  World* world = nullptr;
  Truth* truth = nullptr;
  int next_frame_id = 0;
  int next_describer_id = 0;
  std::map<std::string, int> fx_graph_cache;  // graph key -> times compiled
  // An earlier run's on-disk FX graph cache holds every graph this process compiles (a warm
  // cache): each lookup hits.
  bool fx_graph_cache_warm = false;
  std::vector<std::string> execution_order;  // compile id per compiled-graph run
  std::optional<CompileCtx> executing;       // compiled graph running now
  bool config_in_truth = false;              // this process's config is in truth.json
  // torch.is_grad_enabled(): false inside torch.no_grad(). A compiled entry remembers the mode
  // it was compiled under (Dynamo's GLOBAL_STATE guard) and fails its guards when it differs.
  bool grad_enabled = true;

  // Opens the log in `dir`; the file name follows PyTorch (rank in the name when distributed).
  Process(const std::string& dir, int rank, World* world, Truth* truth, const std::string& suffix);
  // Writes the graph_execution artifact and flushes.
  void finish();

  static Process* current();
  // Installs `p` (and its log) for the calling thread.
  static void set_current(Process* p);
};

// A random-looking suffix like NamedTemporaryFile's (8 chars of [a-z0-9]).
std::string random_suffix();

}  // namespace tlrt
