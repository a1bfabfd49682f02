// dtensor_placement and tensor_values artifacts.
#include "tlrt/dtensor.hpp"

#include "tlrt/process.hpp"

namespace tlrt {

static EventContext here(std::source_location w) {
  EventContext ec;
  ec.stack = std::vector<StackFrame>{
      {static_cast<int>(w.line()), short_function_name(w.function_name()), w.file_name(), ""}};
  return ec;
}

void log_placement(const Placement& p, std::source_location where) {
  Process* proc = Process::current();
  if (!proc) return;
  Json j = Json::object();
  j.set("tensor", p.tensor).set("mesh_shape", Json::list(p.mesh_shape));
  j.set("mesh_dim_names", Json::list(p.mesh_dim_names)).set("placements", Json::list(p.placements));
  j.set("global_shape", Json::list(p.global_shape)).set("local_shape", Json::list(p.local_shape));
  j.set("rank_coords", Json::list(p.rank_coords));
  Json meta = Json::object();
  meta.set("name", "dtensor_placement").set("encoding", "json");
  proc->log->emit("artifact", meta, here(where), j.dump());
}

void log_tensor_values(const std::string& name, const Tensor& t, std::source_location where) {
  Process* proc = Process::current();
  if (!proc || t.numel() > 4096) return;
  Json j = Json::object();
  j.set("name", name).set("shape", Json::list(t.sizes())).set("dtype", dtype_plain(t.dtype()));
  j.set("values", Json::list(t.values()));
  Json meta = Json::object();
  meta.set("name", "tensor_values").set("encoding", "json");
  proc->log->emit("artifact", meta, here(where), j.dump());
}

}  // namespace tlrt
