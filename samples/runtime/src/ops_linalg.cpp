// matmul (2-D, and batched 3-D @ 2-D/3-D) and embedding lookup.
#include <stdexcept>

#include "tlrt/ops.hpp"

namespace tlrt {
namespace {

// out[b] = a[b] @ w[b or shared]; a is [B, M, K] viewed through strides.
void mm_into(const Tensor& a, const Tensor& b, Tensor& out, int64_t batch, bool b_batched) {
  int64_t m = a.sizes()[a.ndim() - 2], k = a.sizes().back(), n = b.sizes().back();
  const auto& ad = a.storage().data;
  const auto& bd = b.storage().data;
  int64_t as0 = a.ndim() == 3 ? a.strides()[0] : 0, as1 = a.strides()[a.ndim() - 2],
          as2 = a.strides().back();
  int64_t bs0 = b_batched ? b.strides()[0] : 0, bs1 = b.strides()[b.ndim() - 2],
          bs2 = b.strides().back();
  DType dt = out.dtype();
  auto& od = out.impl()->storage->data;
  for (int64_t bi = 0; bi < batch; ++bi) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double acc = 0;
        for (int64_t p = 0; p < k; ++p) {
          acc += ad[static_cast<size_t>(a.offset() + bi * as0 + i * as1 + p * as2)] *
                 bd[static_cast<size_t>(b.offset() + bi * bs0 + p * bs1 + j * bs2)];
        }
        od[static_cast<size_t>((bi * m + i) * n + j)] = round_to(dt, acc);
      }
    }
  }
}

Tensor k_matmul(const std::vector<Tensor>& in, const OpAttrs&) {
  const Tensor& a = in.at(0);
  const Tensor& b = in.at(1);
  if (a.ndim() < 2 || a.ndim() > 3 || b.ndim() < 2 || b.ndim() > 3 ||
      (a.ndim() == 2 && b.ndim() == 3)) {
    throw std::invalid_argument("matmul: unsupported ranks " + std::to_string(a.ndim()) + " and " +
                                std::to_string(b.ndim()));
  }
  int64_t k = a.sizes().back();
  if (b.sizes()[b.ndim() - 2] != k) {
    throw std::invalid_argument("mat1 and mat2 shapes cannot be multiplied (" +
                                std::to_string(a.sizes()[a.ndim() - 2]) + "x" + std::to_string(k) +
                                " and " + std::to_string(b.sizes()[b.ndim() - 2]) + "x" +
                                std::to_string(b.sizes().back()) + ")");
  }
  int64_t batch = a.ndim() == 3 ? a.sizes()[0] : 1;
  bool b_batched = b.ndim() == 3;
  if (b_batched && b.sizes()[0] != batch) throw std::invalid_argument("matmul: batch sizes differ");
  Shape out_shape = a.sizes();
  out_shape.back() = b.sizes().back();
  Tensor out = Tensor::empty(out_shape, promote(a.dtype(), b.dtype()));
  mm_into(a, b, out, batch, b_batched);
  return out;
}

Tensor k_embedding(const std::vector<Tensor>& in, const OpAttrs&) {
  const Tensor& w = in.at(0);
  const Tensor& idx = in.at(1);
  if (w.ndim() != 2) throw std::invalid_argument("embedding: weight must be 2-D");
  if (idx.dtype() != DType::i64) {
    throw std::invalid_argument(
        "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
        "Long");
  }
  int64_t rows = w.sizes()[0], h = w.sizes()[1];
  Shape out_shape = idx.sizes();
  out_shape.push_back(h);
  Tensor out = Tensor::empty(out_shape, w.dtype());
  for (int64_t i = 0; i < idx.numel(); ++i) {
    int64_t r = static_cast<int64_t>(idx.flat(i));
    if (r < 0 || r >= rows) {
      throw std::invalid_argument("index " + std::to_string(r) +
                                  " is out of bounds for dimension 0 with size " +
                                  std::to_string(rows));
    }
    for (int64_t j = 0; j < h; ++j) out.set_flat(i * h + j, w.at({r, j}));
  }
  return out;
}

}  // namespace

void register_linalg_ops(std::vector<OpInfo>& ops) {
  ops.push_back(make_op("matmul", "torch.matmul", "torch.ops.aten.mm.default", OpKind::extern_call,
                        k_matmul));
  ops.push_back(make_op("embedding", "torch.nn.functional.embedding",
                        "torch.ops.aten.embedding.default", OpKind::extern_call, k_embedding));
}

Tensor matmul(const Tensor& a, const Tensor& b) {
  return call_op("matmul", {a, b});
}
Tensor embedding(const Tensor& w, const Tensor& idx) {
  return call_op("embedding", {w, idx});
}

}  // namespace tlrt
