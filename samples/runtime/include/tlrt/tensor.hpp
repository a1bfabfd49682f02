// Strided tensors over shared storage. Elements are held as doubles and rounded to the tensor's
// dtype on every store, so f32 results round like float arithmetic while one kernel serves all
// dtypes.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tlrt {

enum class DType { f32, f64, i64, b8 };

std::string dtype_torch_name(DType d);  // "torch.float32"
std::string dtype_short(DType d);       // "f32" (FX annotation)
std::string dtype_plain(DType d);       // "float32" (collective records, tensor meta)
std::string dtype_guard_name(DType d);  // "Float" (guard failure text)
int dtype_itemsize(DType d);
DType promote(DType a, DType b);
double round_to(DType d, double v);

struct Storage {
  std::vector<double> data;
  DType dtype;
};

using Shape = std::vector<int64_t>;

struct TensorImpl {
  std::shared_ptr<Storage> storage;
  Shape sizes;
  Shape strides;
  int64_t offset = 0;
  DType dtype = DType::f32;
  std::shared_ptr<TensorImpl> base;  // set for views
};

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  // A fresh contiguous tensor filled with `fill`.
  static Tensor empty(const Shape& sizes, DType dtype, double fill = 0.0);
  static Tensor from(const Shape& sizes, const std::vector<double>& values,
                     DType dtype = DType::f32);

  bool defined() const { return impl_ != nullptr; }
  const TensorImpl* id() const { return impl_.get(); }
  const std::shared_ptr<TensorImpl>& impl() const { return impl_; }

  const Shape& sizes() const { return impl_->sizes; }
  const Shape& strides() const { return impl_->strides; }
  int64_t size(int dim) const;
  int64_t offset() const { return impl_->offset; }
  int64_t ndim() const { return static_cast<int64_t>(impl_->sizes.size()); }
  int64_t numel() const;
  DType dtype() const { return impl_->dtype; }
  bool is_view() const { return impl_->base != nullptr; }
  bool is_contiguous() const;
  const Storage& storage() const { return *impl_->storage; }
  int64_t storage_bytes() const;

  // Element by multi-index and by row-major linear index.
  double at(const Shape& index) const;
  double flat(int64_t linear) const;
  void set_flat(int64_t linear, double v);
  // All elements in row-major order.
  std::vector<double> values() const;

  // A view sharing this tensor's storage.
  Tensor view_as(Shape sizes, Shape strides, int64_t offset) const;

 private:
  std::shared_ptr<TensorImpl> impl_;
};

Shape contiguous_strides(const Shape& sizes);
int64_t shape_numel(const Shape& sizes);
std::string shape_str(const Shape& s);  // "[4, 8]"
// FX annotation, e.g. f32[4, 8][8, 1]cpu; `sizes` may hold symbols.
std::string fx_meta(DType d, const std::vector<std::string>& sizes,
                    const std::vector<std::string>& strides);

// Deterministic generator (mt19937_64 + Box-Muller) so a seed gives the same data everywhere.
class Rng {
 public:
  explicit Rng(uint64_t seed);
  double uniform();
  double normal();
  Tensor randn(const Shape& sizes, double scale = 1.0);

 private:
  uint64_t state_[4];
};

// max |a-b| <= atol + rtol*|b| over all elements, with equal shapes.
bool allclose(const Tensor& a, const Tensor& b, double rtol = 1e-5, double atol = 1e-6);

}  // namespace tlrt
