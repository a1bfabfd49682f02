// Functional collectives (all_reduce, all_gather, reduce_scatter) as graph ops, so compiled graphs
// can contain them. While tracing they only compute the output shape; running, they call the
// backend of the current process.
#include <stdexcept>

#include "tlrt/collectives.hpp"
#include "tlrt/ops.hpp"
#include "tlrt/process.hpp"
#include "tlrt/tracer.hpp"

namespace tlrt {
namespace {

const ProcessGroup& group_of(const OpAttrs& at) {
  Process* p = Process::current();
  if (!p || !p->world) throw std::logic_error("functional collective outside a distributed rank");
  return p->world->group(at.str);
}

Tensor k_all_reduce(const std::vector<Tensor>& in, const OpAttrs& at) {
  const ProcessGroup& g = group_of(at);
  if (Tracer::active()) return run_kernel(*find_op("clone"), {in.at(0)}, {});
  return Process::current()->world->all_reduce(g, in.at(0)).out;
}

Tensor k_all_gather(const std::vector<Tensor>& in, const OpAttrs& at) {
  const ProcessGroup& g = group_of(at);
  if (Tracer::active()) {
    std::vector<Tensor> parts(g.ranks.size(), in.at(0));
    return run_kernel(*find_op("cat"), parts, {{0}, {}, ""});
  }
  return Process::current()->world->all_gather(g, in.at(0)).out;
}

Tensor k_reduce_scatter(const std::vector<Tensor>& in, const OpAttrs& at) {
  const ProcessGroup& g = group_of(at);
  if (Tracer::active()) {
    int64_t chunk = in.at(0).sizes().at(0) / static_cast<int64_t>(g.ranks.size());
    return run_kernel(*find_op("contiguous"),
                      {run_kernel(*find_op("slice"), {in.at(0)}, {{0, 0, chunk, 1}, {}, ""})}, {});
  }
  return Process::current()->world->reduce_scatter(g, in.at(0)).out;
}

}  // namespace

void register_collective_ops(std::vector<OpInfo>& ops) {
  ops.push_back(make_op("all_reduce", "torch.ops._c10d_functional.all_reduce",
                        "torch.ops._c10d_functional.all_reduce.default", OpKind::collective,
                        k_all_reduce));
  ops.push_back(make_op("all_gather", "torch.ops._c10d_functional.all_gather_into_tensor",
                        "torch.ops._c10d_functional.all_gather_into_tensor.default",
                        OpKind::collective, k_all_gather));
  ops.push_back(make_op("reduce_scatter", "torch.ops._c10d_functional.reduce_scatter_tensor",
                        "torch.ops._c10d_functional.reduce_scatter_tensor.default",
                        OpKind::collective, k_reduce_scatter));
}

}  // namespace tlrt

namespace tlrt {
Tensor all_reduce(const Tensor& x, const std::string& group) {
  return call_op("all_reduce", {x}, {{}, {}, group});
}
Tensor all_gather(const Tensor& x, const std::string& group) {
  return call_op("all_gather", {x}, {{}, {}, group});
}
Tensor reduce_scatter(const Tensor& x, const std::string& group) {
  return call_op("reduce_scatter", {x}, {{}, {}, group});
}
}  // namespace tlrt
