// Tensor storage, views and dtype helpers.
#include "tlrt/tensor.hpp"

#include <cmath>
#include <stdexcept>

namespace tlrt {

std::string dtype_torch_name(DType d) {
  switch (d) {
    case DType::f32:
      return "torch.float32";
    case DType::f64:
      return "torch.float64";
    case DType::i64:
      return "torch.int64";
    case DType::b8:
      return "torch.bool";
  }
  return "?";
}
std::string dtype_short(DType d) {
  switch (d) {
    case DType::f32:
      return "f32";
    case DType::f64:
      return "f64";
    case DType::i64:
      return "i64";
    case DType::b8:
      return "b8";
  }
  return "?";
}
std::string dtype_plain(DType d) {
  return dtype_torch_name(d).substr(6);
}
std::string dtype_guard_name(DType d) {
  switch (d) {
    case DType::f32:
      return "Float";
    case DType::f64:
      return "Double";
    case DType::i64:
      return "Long";
    case DType::b8:
      return "Bool";
  }
  return "?";
}
int dtype_itemsize(DType d) {
  switch (d) {
    case DType::f32:
      return 4;
    case DType::f64:
      return 8;
    case DType::i64:
      return 8;
    case DType::b8:
      return 1;
  }
  return 1;
}
static int dtype_rank(DType d) {
  switch (d) {
    case DType::b8:
      return 0;
    case DType::i64:
      return 1;
    case DType::f32:
      return 2;
    case DType::f64:
      return 3;
  }
  return 0;
}
DType promote(DType a, DType b) {
  return dtype_rank(a) >= dtype_rank(b) ? a : b;
}

double round_to(DType d, double v) {
  switch (d) {
    case DType::f32:
      return static_cast<double>(static_cast<float>(v));
    case DType::f64:
      return v;
    case DType::i64:
      return std::isfinite(v) ? std::trunc(v) : 0.0;
    case DType::b8:
      return v != 0.0 ? 1.0 : 0.0;
  }
  return v;
}

Shape contiguous_strides(const Shape& sizes) {
  Shape st(sizes.size());
  int64_t acc = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    st[i] = acc;
    acc *= std::max<int64_t>(sizes[i], 1);
  }
  return st;
}

int64_t shape_numel(const Shape& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

std::string shape_str(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

std::string fx_meta(DType d, const std::vector<std::string>& sizes,
                    const std::vector<std::string>& strides) {
  std::string out = dtype_short(d) + "[";
  for (size_t i = 0; i < sizes.size(); ++i) out += (i ? ", " : "") + sizes[i];
  out += "][";
  for (size_t i = 0; i < strides.size(); ++i) out += (i ? ", " : "") + strides[i];
  return out + "]cpu";
}

Tensor Tensor::empty(const Shape& sizes, DType dtype, double fill) {
  for (int64_t s : sizes) {
    if (s < 0) throw std::invalid_argument("negative size in " + shape_str(sizes));
  }
  auto st = std::make_shared<Storage>();
  st->dtype = dtype;
  st->data.assign(static_cast<size_t>(shape_numel(sizes)), round_to(dtype, fill));
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::move(st);
  impl->sizes = sizes;
  impl->strides = contiguous_strides(sizes);
  impl->dtype = dtype;
  return Tensor(std::move(impl));
}

Tensor Tensor::from(const Shape& sizes, const std::vector<double>& values, DType dtype) {
  if (static_cast<int64_t>(values.size()) != shape_numel(sizes)) {
    throw std::invalid_argument("Tensor::from: " + std::to_string(values.size()) +
                                " values for shape " + shape_str(sizes));
  }
  Tensor t = empty(sizes, dtype);
  for (size_t i = 0; i < values.size(); ++i) t.impl_->storage->data[i] = round_to(dtype, values[i]);
  return t;
}

int64_t Tensor::size(int dim) const {
  int64_t n = ndim();
  int64_t d = dim < 0 ? dim + n : dim;
  if (d < 0 || d >= n) throw std::out_of_range("dim " + std::to_string(dim) + " out of range");
  return impl_->sizes[static_cast<size_t>(d)];
}

int64_t Tensor::numel() const {
  return shape_numel(impl_->sizes);
}

bool Tensor::is_contiguous() const {
  return impl_->strides == contiguous_strides(impl_->sizes) || numel() <= 1;
}

int64_t Tensor::storage_bytes() const {
  return static_cast<int64_t>(impl_->storage->data.size()) * dtype_itemsize(impl_->storage->dtype);
}

double Tensor::at(const Shape& index) const {
  int64_t off = impl_->offset;
  for (size_t i = 0; i < index.size(); ++i) off += index[i] * impl_->strides[i];
  return impl_->storage->data[static_cast<size_t>(off)];
}

static int64_t linear_to_offset(const TensorImpl& t, int64_t linear) {
  int64_t off = t.offset;
  for (size_t i = t.sizes.size(); i-- > 0;) {
    int64_t s = t.sizes[i];
    off += (linear % s) * t.strides[i];
    linear /= s;
  }
  return off;
}

double Tensor::flat(int64_t linear) const {
  return impl_->storage->data[static_cast<size_t>(linear_to_offset(*impl_, linear))];
}

void Tensor::set_flat(int64_t linear, double v) {
  impl_->storage->data[static_cast<size_t>(linear_to_offset(*impl_, linear))] =
      round_to(impl_->dtype, v);
}

std::vector<double> Tensor::values() const {
  std::vector<double> out(static_cast<size_t>(numel()));
  for (int64_t i = 0; i < numel(); ++i) out[static_cast<size_t>(i)] = flat(i);
  return out;
}

Tensor Tensor::view_as(Shape sizes, Shape strides, int64_t offset) const {
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = impl_->storage;
  impl->sizes = std::move(sizes);
  impl->strides = std::move(strides);
  impl->offset = offset;
  impl->dtype = impl_->dtype;
  impl->base = impl_->base ? impl_->base : impl_;
  return Tensor(std::move(impl));
}

Rng::Rng(uint64_t seed) {
  // splitmix64 seeding of xoshiro256**: small, fast and identical on every platform.
  uint64_t z = seed;
  for (auto& s : state_) {
    z += 0x9e3779b97f4a7c15ULL;
    uint64_t x = z;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    s = x ^ (x >> 31);
  }
}

double Rng::uniform() {
  auto rotl = [](uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
  uint64_t result = rotl(state_[1] * 5, 7) * 9;
  uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotl(state_[3], 45);
  return static_cast<double>(result >> 11) * (1.0 / 9007199254740992.0);
}

double Rng::normal() {
  double u1 = uniform();
  double u2 = uniform();
  if (u1 < 1e-300) u1 = 1e-300;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

Tensor Rng::randn(const Shape& sizes, double scale) {
  Tensor t = Tensor::empty(sizes, DType::f32);
  for (int64_t i = 0; i < t.numel(); ++i) t.set_flat(i, normal() * scale);
  return t;
}

bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol) {
  if (a.sizes() != b.sizes()) return false;
  for (int64_t i = 0; i < a.numel(); ++i) {
    double x = a.flat(i), y = b.flat(i);
    if (std::isnan(x) != std::isnan(y)) return false;
    if (std::fabs(x - y) > atol + rtol * std::fabs(y)) return false;
  }
  return true;
}

}  // namespace tlrt
