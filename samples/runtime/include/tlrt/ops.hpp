// The operator set. Every public op goes through call_op, which runs the kernel and, when a
// tracer is active on this thread, records a graph node: that is how compile() sees a program.
#pragma once
#include <string>
#include <vector>

#include "tlrt/tensor.hpp"

namespace tlrt {

struct OpAttrs {
  std::vector<int64_t> ints;
  std::vector<double> floats;
  std::string str;
};

enum class OpKind { pointwise, reduction, extern_call, view, collective, factory };
// Result dtype of a pointwise op.
enum class DtypeRule { promote, to_bool, to_float, from_attr, where };

using Kernel = Tensor (*)(const std::vector<Tensor>&, const OpAttrs&);
// Per-element function of a pointwise op, used by the eager kernel and the fused compiled kernel.
using ScalarFn = double (*)(const double* args, const OpAttrs&);

struct OpInfo {
  std::string name;   // runtime name, e.g. "add"
  std::string torch;  // how Dynamo's graph prints it, e.g. "torch.add"
  std::string aten;   // how the AOT graph prints it, e.g. "torch.ops.aten.add.Tensor"
  OpKind kind;
  Kernel kernel;
  ScalarFn scalar = nullptr;  // pointwise only
  DtypeRule rule = DtypeRule::promote;
  std::string c_expr;  // pointwise only: C expression over {0},{1},{2} and {s0}
};

// An OpInfo for a non-pointwise op (no per-element function).
inline OpInfo make_op(std::string name, std::string torch, std::string aten, OpKind kind,
                      Kernel kernel) {
  OpInfo op;
  op.name = std::move(name);
  op.torch = std::move(torch);
  op.aten = std::move(aten);
  op.kind = kind;
  op.kernel = kernel;
  return op;
}

const OpInfo* find_op(const std::string& name);
// Runs an op (and records it when tracing). Throws std::invalid_argument on bad shapes.
Tensor call_op(const std::string& name, const std::vector<Tensor>& inputs,
               const OpAttrs& attrs = {});
// Kernel nesting depth of the calling rank (> 0 inside a kernel); saved and restored when a rank's
// fiber is parked, since the fibers share one thread (rank_scheduler.hpp).
int kernel_depth();
void set_kernel_depth(int depth);
// Runs an op's kernel without recording, for executing compiled graphs.
Tensor run_kernel(const OpInfo& op, const std::vector<Tensor>& inputs, const OpAttrs& attrs);

// Registration hooks of the op files.
void register_pointwise_ops(std::vector<OpInfo>& ops);
void register_reduction_ops(std::vector<OpInfo>& ops);
void register_shape_ops(std::vector<OpInfo>& ops);
void register_linalg_ops(std::vector<OpInfo>& ops);
void register_collective_ops(std::vector<OpInfo>& ops);

// Pointwise kernel shared by every pointwise op (broadcasting, dtype rule).
Tensor pointwise_kernel(const OpInfo& op, const std::vector<Tensor>& in, const OpAttrs& attrs);
Shape broadcast_shapes(const std::vector<Shape>& shapes);
DType pointwise_result_dtype(const OpInfo& op, const std::vector<Tensor>& in, const OpAttrs& attrs);

// ---- user-facing API ----
Tensor add(const Tensor& a, const Tensor& b);
Tensor sub(const Tensor& a, const Tensor& b);
Tensor mul(const Tensor& a, const Tensor& b);
Tensor div(const Tensor& a, const Tensor& b);
Tensor add(const Tensor& a, double s);
Tensor mul(const Tensor& a, double s);
Tensor pow(const Tensor& a, double s);
Tensor neg(const Tensor& a);
Tensor relu(const Tensor& a);
Tensor gelu(const Tensor& a);
Tensor tanh(const Tensor& a);
Tensor exp(const Tensor& a);
Tensor log(const Tensor& a);
Tensor sqrt(const Tensor& a);
Tensor sigmoid(const Tensor& a);
Tensor eq(const Tensor& a, const Tensor& b);
Tensor ne(const Tensor& a, const Tensor& b);
Tensor lt(const Tensor& a, const Tensor& b);
Tensor le(const Tensor& a, const Tensor& b);
Tensor gt(const Tensor& a, const Tensor& b);
Tensor ge(const Tensor& a, const Tensor& b);
Tensor gt(const Tensor& a, double s);
Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b);
Tensor to(const Tensor& a, DType d);

Tensor sum(const Tensor& a, std::vector<int64_t> dims = {}, bool keepdim = false);
Tensor mean(const Tensor& a, std::vector<int64_t> dims = {}, bool keepdim = false);
Tensor amax(const Tensor& a, std::vector<int64_t> dims = {}, bool keepdim = false);
Tensor softmax(const Tensor& a, int64_t dim);
Tensor layer_norm(const Tensor& x, const Tensor& weight, const Tensor& bias, double eps = 1e-5);

Tensor matmul(const Tensor& a, const Tensor& b);
Tensor embedding(const Tensor& weight, const Tensor& indices);

Tensor reshape(const Tensor& a, Shape sizes);  // copies when the layout needs it
Tensor view(const Tensor& a, Shape sizes);     // never copies; throws when impossible
Tensor permute(const Tensor& a, std::vector<int64_t> dims);
Tensor transpose(const Tensor& a, int64_t d0, int64_t d1);
Tensor slice(const Tensor& a, int64_t dim, int64_t start, int64_t end, int64_t step = 1);
Tensor contiguous(const Tensor& a);
Tensor clone(const Tensor& a);
Tensor cat(const std::vector<Tensor>& xs, int64_t dim);
std::vector<Tensor> split(const Tensor& a, int64_t split_size, int64_t dim);
Tensor full(const Shape& sizes, double value, DType d = DType::f32);
Tensor arange(int64_t n, DType d = DType::i64);

// Functional collectives over the process group named `group` (traceable into graphs).
Tensor all_reduce(const Tensor& x, const std::string& group);
Tensor all_gather(const Tensor& x, const std::string& group);
Tensor reduce_scatter(const Tensor& x, const std::string& group);

// A Python scalar from a one-element tensor. Under tracing this is a graph break, as in Dynamo
// with capture_scalar_outputs=False.
double item(const Tensor& a);

inline Tensor operator+(const Tensor& a, const Tensor& b) {
  return add(a, b);
}
inline Tensor operator-(const Tensor& a, const Tensor& b) {
  return sub(a, b);
}
inline Tensor operator*(const Tensor& a, const Tensor& b) {
  return mul(a, b);
}
inline Tensor operator/(const Tensor& a, const Tensor& b) {
  return div(a, b);
}
inline Tensor operator*(const Tensor& a, double s) {
  return mul(a, s);
}
inline Tensor operator+(const Tensor& a, double s) {
  return add(a, s);
}

int64_t normalize_dim(int64_t dim, int64_t ndim);

}  // namespace tlrt
