// Views (reshape/view/permute/transpose/slice share storage), copies (contiguous, clone, cat)
// and factories (full, arange).
#include <algorithm>
#include <stdexcept>

#include "tlrt/ops.hpp"

namespace tlrt {
namespace {

Shape infer_shape(const Shape& want, int64_t numel) {
  Shape out = want;
  int64_t known = 1;
  int infer = -1;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == -1) {
      if (infer >= 0) throw std::invalid_argument("only one dimension can be inferred");
      infer = static_cast<int>(i);
    } else {
      known *= out[i];
    }
  }
  if (infer >= 0) {
    if (known == 0 || numel % known != 0) {
      throw std::invalid_argument("shape '" + shape_str(want) + "' is invalid for input of size " +
                                  std::to_string(numel));
    }
    out[static_cast<size_t>(infer)] = numel / known;
  }
  if (shape_numel(out) != numel) {
    throw std::invalid_argument("shape '" + shape_str(want) + "' is invalid for input of size " +
                                std::to_string(numel));
  }
  return out;
}

Tensor copy_contiguous(const Tensor& x) {
  Tensor out = Tensor::empty(x.sizes(), x.dtype());
  auto& dst = out.impl()->storage->data;
  for (int64_t i = 0; i < x.numel(); ++i) dst[static_cast<size_t>(i)] = x.flat(i);
  return out;
}

Tensor k_view(const std::vector<Tensor>& in, const OpAttrs& at) {
  const Tensor& x = in.at(0);
  Shape s = infer_shape(at.ints, x.numel());
  if (!x.is_contiguous()) {
    throw std::invalid_argument(
        "view size is not compatible with input tensor's size and stride (at least one dimension "
        "spans across two contiguous subspaces). Use .reshape(...) instead.");
  }
  return x.view_as(s, contiguous_strides(s), x.offset());
}

Tensor k_reshape(const std::vector<Tensor>& in, const OpAttrs& at) {
  const Tensor& x = in.at(0);
  Tensor src = x.is_contiguous() ? x : copy_contiguous(x);
  Shape s = infer_shape(at.ints, x.numel());
  return src.view_as(s, contiguous_strides(s), src.offset());
}

Tensor k_permute(const std::vector<Tensor>& in, const OpAttrs& at) {
  const Tensor& x = in.at(0);
  int64_t nd = x.ndim();
  if (static_cast<int64_t>(at.ints.size()) != nd) {
    throw std::invalid_argument("permute: number of dims don't match in permute");
  }
  Shape sizes(static_cast<size_t>(nd)), strides(static_cast<size_t>(nd));
  std::vector<bool> seen(static_cast<size_t>(nd), false);
  for (int64_t i = 0; i < nd; ++i) {
    int64_t d = normalize_dim(at.ints[i], nd);
    if (seen[d]) throw std::invalid_argument("permute: repeated dim in permute");
    seen[d] = true;
    sizes[i] = x.sizes()[d];
    strides[i] = x.strides()[d];
  }
  return x.view_as(sizes, strides, x.offset());
}

Tensor k_slice(const std::vector<Tensor>& in, const OpAttrs& at) {
  const Tensor& x = in.at(0);
  int64_t d = normalize_dim(at.ints.at(0), x.ndim());
  int64_t len = x.sizes()[d];
  int64_t start = at.ints.at(1), end = at.ints.at(2), step = at.ints.at(3);
  if (step <= 0) throw std::invalid_argument("slice step must be positive");
  if (start < 0) start += len;
  if (end < 0) end += len;
  start = std::clamp<int64_t>(start, 0, len);
  end = std::clamp<int64_t>(end, start, len);
  Shape sizes = x.sizes(), strides = x.strides();
  sizes[d] = (end - start + step - 1) / step;
  strides[d] *= step;
  return x.view_as(sizes, strides, x.offset() + start * x.strides()[d]);
}

Tensor k_contiguous(const std::vector<Tensor>& in, const OpAttrs&) {
  return in.at(0).is_contiguous() ? in.at(0) : copy_contiguous(in.at(0));
}

Tensor k_clone(const std::vector<Tensor>& in, const OpAttrs&) {
  return copy_contiguous(in.at(0));
}

Tensor k_cat(const std::vector<Tensor>& in, const OpAttrs& at) {
  if (in.empty()) throw std::invalid_argument("torch.cat(): expected a non-empty list of Tensors");
  int64_t d = normalize_dim(at.ints.at(0), in[0].ndim());
  Shape out_shape = in[0].sizes();
  DType dt = in[0].dtype();
  out_shape[d] = 0;
  for (const auto& t : in) {
    Shape s = t.sizes();
    if (t.ndim() != in[0].ndim())
      throw std::invalid_argument("torch.cat(): tensors must have same ndim");
    for (int64_t k = 0; k < t.ndim(); ++k) {
      if (k != d && s[k] != in[0].sizes()[k]) {
        throw std::invalid_argument("Sizes of tensors must match except in dimension " +
                                    std::to_string(d) + ". Expected size " +
                                    std::to_string(in[0].sizes()[k]) + " but got size " +
                                    std::to_string(s[k]) + " for tensor number 1 in the list.");
      }
    }
    out_shape[d] += s[d];
    dt = promote(dt, t.dtype());
  }
  Tensor out = Tensor::empty(out_shape, dt);
  int64_t pos = 0;
  for (const auto& t : in) {
    Tensor dst = out.view_as(t.sizes(), out.strides(), pos * out.strides()[d]);
    for (int64_t i = 0; i < t.numel(); ++i) dst.set_flat(i, t.flat(i));
    pos += t.sizes()[d];
  }
  return out;
}

DType dtype_from_short(const std::string& s) {
  if (s == "f64") return DType::f64;
  if (s == "i64") return DType::i64;
  if (s == "b8") return DType::b8;
  return DType::f32;
}

Tensor k_full(const std::vector<Tensor>&, const OpAttrs& at) {
  return Tensor::empty(at.ints, dtype_from_short(at.str), at.floats.at(0));
}

Tensor k_arange(const std::vector<Tensor>&, const OpAttrs& at) {
  Tensor t = Tensor::empty({at.ints.at(0)}, dtype_from_short(at.str));
  for (int64_t i = 0; i < at.ints[0]; ++i) t.set_flat(i, static_cast<double>(i));
  return t;
}

}  // namespace

void register_shape_ops(std::vector<OpInfo>& ops) {
  using K = OpKind;
  ops.push_back(
      make_op("view", "torch.Tensor.view", "torch.ops.aten.view.default", K::view, k_view));
  ops.push_back(
      make_op("reshape", "torch.reshape", "torch.ops.aten.reshape.default", K::view, k_reshape));
  ops.push_back(
      make_op("permute", "torch.permute", "torch.ops.aten.permute.default", K::view, k_permute));
  ops.push_back(make_op("slice", "torch.narrow", "torch.ops.aten.slice.Tensor", K::view, k_slice));
  ops.push_back(make_op("contiguous", "torch.Tensor.contiguous", "torch.ops.aten.clone.default",
                        K::extern_call, k_contiguous));
  ops.push_back(
      make_op("clone", "torch.clone", "torch.ops.aten.clone.default", K::extern_call, k_clone));
  ops.push_back(make_op("cat", "torch.cat", "torch.ops.aten.cat.default", K::extern_call, k_cat));
  ops.push_back(make_op("full", "torch.full", "torch.ops.aten.full.default", K::factory, k_full));
  ops.push_back(
      make_op("arange", "torch.arange", "torch.ops.aten.arange.default", K::factory, k_arange));
}

Tensor reshape(const Tensor& a, Shape sizes) {
  return call_op("reshape", {a}, {std::move(sizes), {}, ""});
}
Tensor view(const Tensor& a, Shape sizes) {
  return call_op("view", {a}, {std::move(sizes), {}, ""});
}
Tensor permute(const Tensor& a, std::vector<int64_t> dims) {
  return call_op("permute", {a}, {std::move(dims), {}, ""});
}
Tensor transpose(const Tensor& a, int64_t d0, int64_t d1) {
  std::vector<int64_t> dims(static_cast<size_t>(a.ndim()));
  for (int64_t i = 0; i < a.ndim(); ++i) dims[i] = i;
  std::swap(dims[normalize_dim(d0, a.ndim())], dims[normalize_dim(d1, a.ndim())]);
  return permute(a, dims);
}
Tensor slice(const Tensor& a, int64_t dim, int64_t start, int64_t end, int64_t step) {
  return call_op("slice", {a}, {{dim, start, end, step}, {}, ""});
}
Tensor contiguous(const Tensor& a) {
  return call_op("contiguous", {a});
}
Tensor clone(const Tensor& a) {
  return call_op("clone", {a});
}
Tensor cat(const std::vector<Tensor>& xs, int64_t dim) {
  return call_op("cat", xs, {{dim}, {}, ""});
}
std::vector<Tensor> split(const Tensor& a, int64_t split_size, int64_t dim) {
  if (split_size <= 0) throw std::invalid_argument("split_size must be positive");
  std::vector<Tensor> parts;
  int64_t len = a.size(static_cast<int>(dim));
  for (int64_t s = 0; s < len; s += split_size) parts.push_back(slice(a, dim, s, s + split_size));
  return parts;
}
Tensor full(const Shape& sizes, double value, DType d) {
  return call_op("full", {}, {sizes, {value}, dtype_short(d)});
}
Tensor arange(int64_t n, DType d) {
  return call_op("arange", {}, {{n}, {}, dtype_short(d)});
}

}  // namespace tlrt
