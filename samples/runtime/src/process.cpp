// Per-process state (see process.hpp).
#include "tlrt/process.hpp"

#include <unistd.h>

#include <chrono>
#include <random>

namespace tlrt {

namespace {
thread_local Process* g_process = nullptr;
}

Process::Process(const std::string& dir, int r, World* w, Truth* t, const std::string& suffix)
    : rank(r), world(w), truth(t) {
  log = std::make_unique<TraceLog>(dir, r >= 0 ? std::optional<int>(r) : std::nullopt, suffix);
  Json version = Json::object();
  version.set("version", kTorchVersion).set("git_version", kTorchCommit);
  log->emit("torch_version", version, EventContext{});
  // Every process runs the same PyTorch: one entry.
  if (truth && truth->count("environment") == 0) {
    Json env = Json::object();
    env.set("torch_version", kTorchVersion).set("torch_commit", kTorchCommit);
    truth->add("environment", env);
  }
}

void Process::finish() {
  if (!execution_order.empty()) {
    Json order = Json::array();
    for (const auto& id : execution_order) order.push(Json(Json::Object{{"compile_id", Json(id)}}));
    Json payload = Json::object();
    payload.set("graph_execution_order", order);
    Json meta = Json::object();
    meta.set("name", "graph_execution").set("encoding", "json");
    EventContext ec;
    ec.stack = std::vector<StackFrame>{{__LINE__, "finish", relative_source(__FILE__), ""}};
    log->emit("artifact", meta, ec, payload.dump_indent0());
  }
  log->flush();
}

Process* Process::current() {
  return g_process;
}

void Process::set_current(Process* p) {
  g_process = p;
  TraceLog::set_current(p ? p->log.get() : nullptr);
}

std::string random_suffix() {
  // The suffix only has to be unique per run, like NamedTemporaryFile's; it is not seeded.
  static thread_local std::mt19937_64 gen(
      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
      (static_cast<uint64_t>(::getpid()) << 32) ^ reinterpret_cast<uintptr_t>(&gen));
  static const char* chars = "abcdefghijklmnopqrstuvwxyz0123456789_";
  std::string s;
  for (int i = 0; i < 8; ++i) s += chars[gen() % 36];
  return s;
}

}  // namespace tlrt
