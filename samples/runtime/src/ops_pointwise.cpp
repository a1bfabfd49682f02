// Elementwise ops: one broadcasting kernel driven by each op's per-element function.
#include <cmath>
#include <stdexcept>

#include "tlrt/ops.hpp"

namespace tlrt {

Shape broadcast_shapes(const std::vector<Shape>& shapes) {
  size_t n = 0;
  for (const auto& s : shapes) n = std::max(n, s.size());
  Shape out(n, 1);
  for (const auto& s : shapes) {
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t& o = out[n - s.size() + i];
      int64_t v = s[i];
      if (o == 1) {
        o = v;
      } else if (v != 1 && v != o) {
        std::string msg = "shapes cannot be broadcast:";
        for (const auto& t : shapes) msg += " " + shape_str(t);
        throw std::invalid_argument(msg);
      }
    }
  }
  return out;
}

DType pointwise_result_dtype(const OpInfo& op, const std::vector<Tensor>& in,
                             const OpAttrs& attrs) {
  switch (op.rule) {
    case DtypeRule::to_bool:
      return DType::b8;
    case DtypeRule::from_attr:
      return static_cast<DType>(attrs.ints.at(0));
    case DtypeRule::where:
      return promote(in[1].dtype(), in[2].dtype());
    case DtypeRule::to_float: {
      DType d = in[0].dtype();
      for (const auto& t : in) d = promote(d, t.dtype());
      return d == DType::f64 ? DType::f64 : DType::f32;
    }
    case DtypeRule::promote: {
      DType d = in[0].dtype();
      for (const auto& t : in) d = promote(d, t.dtype());
      return d;
    }
  }
  return DType::f32;
}

Tensor pointwise_kernel(const OpInfo& op, const std::vector<Tensor>& in, const OpAttrs& attrs) {
  std::vector<Shape> shapes;
  for (const auto& t : in) shapes.push_back(t.sizes());
  Shape out_shape = broadcast_shapes(shapes);
  DType dt = pointwise_result_dtype(op, in, attrs);
  Tensor out = Tensor::empty(out_shape, dt);
  size_t nd = out_shape.size();
  // Per-input strides aligned to the output, 0 along broadcast dims.
  std::vector<Shape> bstr(in.size(), Shape(nd, 0));
  for (size_t k = 0; k < in.size(); ++k) {
    const Shape& s = in[k].sizes();
    size_t lead = nd - s.size();
    for (size_t i = 0; i < s.size(); ++i) bstr[k][lead + i] = s[i] == 1 ? 0 : in[k].strides()[i];
  }
  std::vector<int64_t> off(in.size());
  for (size_t k = 0; k < in.size(); ++k) off[k] = in[k].offset();
  Shape idx(nd, 0);
  int64_t n = shape_numel(out_shape);
  double args[3] = {0, 0, 0};
  auto& dst = out.impl()->storage->data;
  for (int64_t lin = 0; lin < n; ++lin) {
    for (size_t k = 0; k < in.size(); ++k)
      args[k] = in[k].storage().data[static_cast<size_t>(off[k])];
    dst[static_cast<size_t>(lin)] = round_to(dt, op.scalar(args, attrs));
    // Advance the multi-index and each input's offset incrementally.
    for (size_t d = nd; d-- > 0;) {
      if (++idx[d] < out_shape[d]) {
        for (size_t k = 0; k < in.size(); ++k) off[k] += bstr[k][d];
        break;
      }
      for (size_t k = 0; k < in.size(); ++k) off[k] -= bstr[k][d] * (out_shape[d] - 1);
      idx[d] = 0;
    }
  }
  return out;
}

namespace {

double f_add(const double* a, const OpAttrs&) {
  return a[0] + a[1];
}
double f_sub(const double* a, const OpAttrs&) {
  return a[0] - a[1];
}
double f_mul(const double* a, const OpAttrs&) {
  return a[0] * a[1];
}
double f_div(const double* a, const OpAttrs&) {
  return a[0] / a[1];
}
double f_add_s(const double* a, const OpAttrs& at) {
  return a[0] + at.floats[0];
}
double f_mul_s(const double* a, const OpAttrs& at) {
  return a[0] * at.floats[0];
}
double f_pow_s(const double* a, const OpAttrs& at) {
  return std::pow(a[0], at.floats[0]);
}
double f_gt_s(const double* a, const OpAttrs& at) {
  return a[0] > at.floats[0];
}
double f_neg(const double* a, const OpAttrs&) {
  return -a[0];
}
double f_relu(const double* a, const OpAttrs&) {
  return a[0] > 0 ? a[0] : 0.0;
}
double f_gelu(const double* a, const OpAttrs&) {
  return 0.5 * a[0] * (1.0 + std::erf(a[0] / std::sqrt(2.0)));
}
double f_tanh(const double* a, const OpAttrs&) {
  return std::tanh(a[0]);
}
double f_exp(const double* a, const OpAttrs&) {
  return std::exp(a[0]);
}
double f_log(const double* a, const OpAttrs&) {
  return std::log(a[0]);
}
double f_sqrt(const double* a, const OpAttrs&) {
  return std::sqrt(a[0]);
}
double f_sigmoid(const double* a, const OpAttrs&) {
  return 1.0 / (1.0 + std::exp(-a[0]));
}
double f_eq(const double* a, const OpAttrs&) {
  return a[0] == a[1];
}
double f_ne(const double* a, const OpAttrs&) {
  return a[0] != a[1];
}
double f_lt(const double* a, const OpAttrs&) {
  return a[0] < a[1];
}
double f_le(const double* a, const OpAttrs&) {
  return a[0] <= a[1];
}
double f_gt(const double* a, const OpAttrs&) {
  return a[0] > a[1];
}
double f_ge(const double* a, const OpAttrs&) {
  return a[0] >= a[1];
}
double f_where(const double* a, const OpAttrs&) {
  return a[0] != 0 ? a[1] : a[2];
}
double f_copy(const double* a, const OpAttrs&) {
  return a[0];
}

// Kernels are plain function pointers, so each pointwise op gets a tiny trampoline.
template <int N>
Tensor pw(const std::vector<Tensor>& in, const OpAttrs& at);

}  // namespace

// The table of pointwise ops; kernels look themselves up by index.
static const std::vector<OpInfo>& pointwise_table();

namespace {
template <int N>
Tensor pw(const std::vector<Tensor>& in, const OpAttrs& at) {
  const OpInfo& op = pointwise_table()[N];
  size_t want = op.rule == DtypeRule::where                  ? 3
                : op.c_expr.find("{1}") != std::string::npos ? 2
                                                             : 1;
  if (in.size() != want) {
    throw std::invalid_argument(op.name + " expects " + std::to_string(want) + " tensors, got " +
                                std::to_string(in.size()));
  }
  return pointwise_kernel(op, in, at);
}
}  // namespace

static const std::vector<OpInfo>& pointwise_table() {
  using R = DtypeRule;
  using K = OpKind;
  static const std::vector<OpInfo> t = {
      {"add", "torch.add", "torch.ops.aten.add.Tensor", K::pointwise, pw<0>, f_add, R::promote,
       "{0} + {1}"},
      {"sub", "torch.sub", "torch.ops.aten.sub.Tensor", K::pointwise, pw<1>, f_sub, R::promote,
       "{0} - {1}"},
      {"mul", "torch.mul", "torch.ops.aten.mul.Tensor", K::pointwise, pw<2>, f_mul, R::promote,
       "{0} * {1}"},
      {"div", "torch.div", "torch.ops.aten.div.Tensor", K::pointwise, pw<3>, f_div, R::to_float,
       "{0} / {1}"},
      {"add_scalar", "torch.add", "torch.ops.aten.add.Tensor", K::pointwise, pw<4>, f_add_s,
       R::promote, "{0} + {s0}"},
      {"mul_scalar", "torch.mul", "torch.ops.aten.mul.Tensor", K::pointwise, pw<5>, f_mul_s,
       R::promote, "{0} * {s0}"},
      {"pow_scalar", "torch.pow", "torch.ops.aten.pow.Tensor_Scalar", K::pointwise, pw<6>, f_pow_s,
       R::to_float, "std::pow({0}, {s0})"},
      {"gt_scalar", "torch.gt", "torch.ops.aten.gt.Scalar", K::pointwise, pw<7>, f_gt_s, R::to_bool,
       "{0} > {s0}"},
      {"neg", "torch.neg", "torch.ops.aten.neg.default", K::pointwise, pw<8>, f_neg, R::promote,
       "-{0}"},
      {"relu", "torch.relu", "torch.ops.aten.relu.default", K::pointwise, pw<9>, f_relu, R::promote,
       "std::max({0}, 0.0f)"},
      {"gelu", "torch._C._nn.gelu", "torch.ops.aten.gelu.default", K::pointwise, pw<10>, f_gelu,
       R::to_float, "0.5f * {0} * (1.0f + std::erf({0} * 0.7071067811865476f))"},
      {"tanh", "torch.tanh", "torch.ops.aten.tanh.default", K::pointwise, pw<11>, f_tanh,
       R::to_float, "std::tanh({0})"},
      {"exp", "torch.exp", "torch.ops.aten.exp.default", K::pointwise, pw<12>, f_exp, R::to_float,
       "std::exp({0})"},
      {"log", "torch.log", "torch.ops.aten.log.default", K::pointwise, pw<13>, f_log, R::to_float,
       "std::log({0})"},
      {"sqrt", "torch.sqrt", "torch.ops.aten.sqrt.default", K::pointwise, pw<14>, f_sqrt,
       R::to_float, "std::sqrt({0})"},
      {"sigmoid", "torch.sigmoid", "torch.ops.aten.sigmoid.default", K::pointwise, pw<15>,
       f_sigmoid, R::to_float, "1.0f / (1.0f + std::exp(-{0}))"},
      {"eq", "torch.eq", "torch.ops.aten.eq.Tensor", K::pointwise, pw<16>, f_eq, R::to_bool,
       "{0} == {1}"},
      {"ne", "torch.ne", "torch.ops.aten.ne.Tensor", K::pointwise, pw<17>, f_ne, R::to_bool,
       "{0} != {1}"},
      {"lt", "torch.lt", "torch.ops.aten.lt.Tensor", K::pointwise, pw<18>, f_lt, R::to_bool,
       "{0} < {1}"},
      {"le", "torch.le", "torch.ops.aten.le.Tensor", K::pointwise, pw<19>, f_le, R::to_bool,
       "{0} <= {1}"},
      {"gt", "torch.gt", "torch.ops.aten.gt.Tensor", K::pointwise, pw<20>, f_gt, R::to_bool,
       "{0} > {1}"},
      {"ge", "torch.ge", "torch.ops.aten.ge.Tensor", K::pointwise, pw<21>, f_ge, R::to_bool,
       "{0} >= {1}"},
      {"where", "torch.where", "torch.ops.aten.where.self", K::pointwise, pw<22>, f_where, R::where,
       "{0} ? {1} : {2}"},
      {"to", "torch.Tensor.to", "torch.ops.prims.convert_element_type.default", K::pointwise,
       pw<23>, f_copy, R::from_attr, "static_cast<T>({0})"},
  };
  return t;
}

void register_pointwise_ops(std::vector<OpInfo>& ops) {
  for (const auto& op : pointwise_table()) ops.push_back(op);
}

Tensor add(const Tensor& a, const Tensor& b) {
  return call_op("add", {a, b});
}
Tensor sub(const Tensor& a, const Tensor& b) {
  return call_op("sub", {a, b});
}
Tensor mul(const Tensor& a, const Tensor& b) {
  return call_op("mul", {a, b});
}
Tensor div(const Tensor& a, const Tensor& b) {
  return call_op("div", {a, b});
}
Tensor add(const Tensor& a, double s) {
  return call_op("add_scalar", {a}, {{}, {s}, ""});
}
Tensor mul(const Tensor& a, double s) {
  return call_op("mul_scalar", {a}, {{}, {s}, ""});
}
Tensor pow(const Tensor& a, double s) {
  return call_op("pow_scalar", {a}, {{}, {s}, ""});
}
Tensor gt(const Tensor& a, double s) {
  return call_op("gt_scalar", {a}, {{}, {s}, ""});
}
Tensor neg(const Tensor& a) {
  return call_op("neg", {a});
}
Tensor relu(const Tensor& a) {
  return call_op("relu", {a});
}
Tensor gelu(const Tensor& a) {
  return call_op("gelu", {a});
}
Tensor tanh(const Tensor& a) {
  return call_op("tanh", {a});
}
Tensor exp(const Tensor& a) {
  return call_op("exp", {a});
}
Tensor log(const Tensor& a) {
  return call_op("log", {a});
}
Tensor sqrt(const Tensor& a) {
  return call_op("sqrt", {a});
}
Tensor sigmoid(const Tensor& a) {
  return call_op("sigmoid", {a});
}
Tensor eq(const Tensor& a, const Tensor& b) {
  return call_op("eq", {a, b});
}
Tensor ne(const Tensor& a, const Tensor& b) {
  return call_op("ne", {a, b});
}
Tensor lt(const Tensor& a, const Tensor& b) {
  return call_op("lt", {a, b});
}
Tensor le(const Tensor& a, const Tensor& b) {
  return call_op("le", {a, b});
}
Tensor gt(const Tensor& a, const Tensor& b) {
  return call_op("gt", {a, b});
}
Tensor ge(const Tensor& a, const Tensor& b) {
  return call_op("ge", {a, b});
}
Tensor where(const Tensor& c, const Tensor& a, const Tensor& b) {
  return call_op("where", {c, a, b});
}
Tensor to(const Tensor& a, DType d) {
  return call_op("to", {a}, {{static_cast<int64_t>(d)}, {}, ""});
}

}  // namespace tlrt
