// Reductions (sum, mean, amax) and the normalisations built on them (softmax, layer_norm).
#include <cmath>
#include <limits>
#include <stdexcept>

#include "tlrt/ops.hpp"

namespace tlrt {

int64_t normalize_dim(int64_t dim, int64_t ndim) {
  int64_t d = dim < 0 ? dim + ndim : dim;
  if (d < 0 || d >= std::max<int64_t>(ndim, 1)) {
    throw std::invalid_argument("Dimension out of range (expected to be in range of [" +
                                std::to_string(-ndim) + ", " + std::to_string(ndim - 1) +
                                "], but got " + std::to_string(dim) + ")");
  }
  return d;
}

namespace {

enum class Reduce { sum, mean, max };

Tensor reduce(const Tensor& x, const OpAttrs& at, Reduce how) {
  int64_t nd = x.ndim();
  std::vector<bool> reduced(static_cast<size_t>(nd), at.ints.empty());
  for (int64_t d : at.ints) reduced[static_cast<size_t>(normalize_dim(d, nd))] = true;
  bool keepdim = at.str == "keepdim";
  Shape out_shape, kept_shape;
  for (int64_t d = 0; d < nd; ++d) {
    if (reduced[d]) {
      if (keepdim) out_shape.push_back(1);
      kept_shape.push_back(1);
    } else {
      out_shape.push_back(x.sizes()[d]);
      kept_shape.push_back(x.sizes()[d]);
    }
  }
  if (how == Reduce::mean && (x.dtype() == DType::i64 || x.dtype() == DType::b8)) {
    throw std::invalid_argument(
        "mean(): could not infer output dtype. Input dtype must be floating");
  }
  DType dt = how == Reduce::sum && x.dtype() == DType::b8 ? DType::i64 : x.dtype();
  Shape kept_strides = contiguous_strides(kept_shape);
  for (int64_t d = 0; d < nd; ++d) {
    if (reduced[d]) kept_strides[d] = 0;
  }
  int64_t out_n = shape_numel(kept_shape);
  std::vector<double> acc(static_cast<size_t>(out_n),
                          how == Reduce::max ? -std::numeric_limits<double>::infinity() : 0.0);
  int64_t n = x.numel();
  if (how == Reduce::max && n == 0) {
    throw std::invalid_argument(
        "max(): Expected reduction dim to be specified for input.numel() == 0");
  }
  Shape idx(static_cast<size_t>(nd), 0);
  for (int64_t lin = 0; lin < n; ++lin) {
    int64_t o = 0;
    for (int64_t d = 0; d < nd; ++d) o += idx[d] * kept_strides[d];
    double v = x.at(idx);
    double& a = acc[static_cast<size_t>(o)];
    if (how == Reduce::max) {
      a = std::max(a, v);
    } else {
      a += v;
    }
    for (int64_t d = nd; d-- > 0;) {
      if (++idx[d] < x.sizes()[d]) break;
      idx[d] = 0;
    }
  }
  int64_t count = out_n ? n / out_n : 0;
  Tensor out = Tensor::empty(out_shape, dt);
  for (int64_t i = 0; i < out_n; ++i) {
    double v = acc[static_cast<size_t>(i)];
    if (how == Reduce::mean) v /= static_cast<double>(count);
    out.set_flat(i, v);
  }
  return out;
}

Tensor k_sum(const std::vector<Tensor>& in, const OpAttrs& at) {
  return reduce(in.at(0), at, Reduce::sum);
}
Tensor k_mean(const std::vector<Tensor>& in, const OpAttrs& at) {
  return reduce(in.at(0), at, Reduce::mean);
}
Tensor k_amax(const std::vector<Tensor>& in, const OpAttrs& at) {
  return reduce(in.at(0), at, Reduce::max);
}

// Visits every 1-D lane along `dim`: calls fn(offsets of the lane's elements in row-major order).
template <typename Fn>
void for_each_lane(const Shape& sizes, int64_t dim, Fn fn) {
  int64_t len = sizes[dim];
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(dim) + 1; d < sizes.size(); ++d) inner *= sizes[d];
  int64_t outer = shape_numel(sizes) / std::max<int64_t>(len * inner, 1);
  std::vector<int64_t> lane(static_cast<size_t>(len));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      for (int64_t k = 0; k < len; ++k) lane[k] = (o * len + k) * inner + i;
      fn(lane);
    }
  }
}

Tensor k_softmax(const std::vector<Tensor>& in, const OpAttrs& at) {
  const Tensor& x = in.at(0);
  int64_t dim = normalize_dim(at.ints.at(0), x.ndim());
  DType dt = x.dtype() == DType::f64 ? DType::f64 : DType::f32;
  Tensor out = Tensor::empty(x.sizes(), dt);
  for_each_lane(x.sizes(), dim, [&](const std::vector<int64_t>& lane) {
    double mx = -std::numeric_limits<double>::infinity();
    for (int64_t i : lane) mx = std::max(mx, x.flat(i));
    double s = 0;
    for (int64_t i : lane) s += std::exp(x.flat(i) - mx);
    for (int64_t i : lane) out.set_flat(i, std::exp(x.flat(i) - mx) / s);
  });
  return out;
}

Tensor k_layer_norm(const std::vector<Tensor>& in, const OpAttrs& at) {
  const Tensor& x = in.at(0);
  const Tensor& w = in.at(1);
  const Tensor& b = in.at(2);
  int64_t h = x.sizes().back();
  if (w.sizes() != Shape{h} || b.sizes() != Shape{h}) {
    throw std::invalid_argument("layer_norm: weight/bias of shape " + shape_str(w.sizes()) +
                                " do not match normalized_shape [" + std::to_string(h) + "]");
  }
  double eps = at.floats.at(0);
  Tensor out = Tensor::empty(x.sizes(), x.dtype());
  for_each_lane(x.sizes(), x.ndim() - 1, [&](const std::vector<int64_t>& lane) {
    double mu = 0, var = 0;
    for (int64_t i : lane) mu += x.flat(i);
    mu /= static_cast<double>(h);
    for (int64_t i : lane) var += (x.flat(i) - mu) * (x.flat(i) - mu);
    var /= static_cast<double>(h);
    double inv = 1.0 / std::sqrt(var + eps);
    for (int64_t k = 0; k < h; ++k) {
      int64_t i = lane[k];
      out.set_flat(i, (x.flat(i) - mu) * inv * w.flat(k) + b.flat(k));
    }
  });
  return out;
}

}  // namespace

void register_reduction_ops(std::vector<OpInfo>& ops) {
  ops.push_back(
      make_op("sum", "torch.sum", "torch.ops.aten.sum.dim_IntList", OpKind::reduction, k_sum));
  ops.push_back(
      make_op("mean", "torch.mean", "torch.ops.aten.mean.dim", OpKind::reduction, k_mean));
  ops.push_back(
      make_op("amax", "torch.amax", "torch.ops.aten.amax.default", OpKind::reduction, k_amax));
  ops.push_back(make_op("softmax", "torch.softmax", "torch.ops.aten._softmax.default",
                        OpKind::reduction, k_softmax));
  ops.push_back(make_op("layer_norm", "torch.nn.functional.layer_norm",
                        "torch.ops.aten.native_layer_norm.default", OpKind::reduction,
                        k_layer_norm));
}

static OpAttrs reduce_attrs(std::vector<int64_t> dims, bool keepdim) {
  return OpAttrs{std::move(dims), {}, keepdim ? "keepdim" : ""};
}
Tensor sum(const Tensor& a, std::vector<int64_t> dims, bool keepdim) {
  return call_op("sum", {a}, reduce_attrs(std::move(dims), keepdim));
}
Tensor mean(const Tensor& a, std::vector<int64_t> dims, bool keepdim) {
  return call_op("mean", {a}, reduce_attrs(std::move(dims), keepdim));
}
Tensor amax(const Tensor& a, std::vector<int64_t> dims, bool keepdim) {
  return call_op("amax", {a}, reduce_attrs(std::move(dims), keepdim));
}
Tensor softmax(const Tensor& a, int64_t dim) {
  return call_op("softmax", {a}, {{dim}, {}, ""});
}
Tensor layer_norm(const Tensor& x, const Tensor& w, const Tensor& b, double eps) {
  return call_op("layer_norm", {x, w, b}, {{}, {eps}, ""});
}

}  // namespace tlrt
