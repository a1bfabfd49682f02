// Guard checks and their printed forms.
#include "tlrt/guards.hpp"

#include "tlrt/json.hpp"

namespace tlrt {

static std::string join_ints(const Shape& s, const std::vector<bool>* dyn) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) {
    out += i ? ", " : "";
    out += dyn && (*dyn)[i] ? "None" : std::to_string(s[i]);
  }
  return out + "]";
}

std::optional<std::string> Guard::check(const Env& env) const {
  std::string src = "L['" + var + "']";
  if (!env.has(var)) return src + " is missing";
  switch (kind) {
    case Kind::scalar_eq: {
      const Value& v = env.vars().at(var);
      if (!std::holds_alternative<double>(v) || std::get<double>(v) != value) return code();
      return std::nullopt;
    }
    case Kind::dynamic_dim: {
      const Value& v = env.vars().at(var);
      if (!std::holds_alternative<Tensor>(v))
        return "expected type of '" + src + "' to be a tensor type";
      const Tensor& t = std::get<Tensor>(v);
      if (t.ndim() <= dim || t.sizes()[dim] < 2) return code();
      return std::nullopt;
    }
    case Kind::tensor_match: {
      const Value& v = env.vars().at(var);
      if (!std::holds_alternative<Tensor>(v))
        return "expected type of '" + src + "' to be a tensor type, ' but found other";
      const Tensor& t = std::get<Tensor>(v);
      std::string name = "tensor '" + var + "'";
      if (t.dtype() != dtype) {
        return name + " dtype mismatch. expected " + dtype_guard_name(dtype) + ", actual " +
               dtype_guard_name(t.dtype());
      }
      if (t.ndim() != static_cast<int64_t>(sizes.size())) {
        return name + " rank mismatch. expected " + std::to_string(sizes.size()) + ", actual " +
               std::to_string(t.ndim());
      }
      bool any_dynamic = false;
      for (size_t i = 0; i < sizes.size(); ++i) {
        if (dynamic[i]) {
          any_dynamic = true;
          continue;
        }
        if (t.sizes()[i] != sizes[i]) {
          return name + " size mismatch at index " + std::to_string(i) + ". expected " +
                 std::to_string(sizes[i]) + ", actual " + std::to_string(t.sizes()[i]);
        }
      }
      // Strides of a tensor with symbolic dims are symbolic too; only the static case is checked.
      if (!any_dynamic) {
        for (size_t i = 0; i < strides.size(); ++i) {
          if (t.strides()[i] != strides[i] && sizes[i] > 1) {
            return name + " stride mismatch at index " + std::to_string(i) + ". expected " +
                   std::to_string(strides[i]) + ", actual " + std::to_string(t.strides()[i]);
          }
        }
      }
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string Guard::code() const {
  std::string src = "L['" + var + "']";
  switch (kind) {
    case Kind::scalar_eq:
      return src + " == " + python_float(value);
    case Kind::dynamic_dim:
      return "2 <= " + src + ".size()[" + std::to_string(dim) + "]";
    case Kind::tensor_match: {
      bool any_dynamic = false;
      for (bool d : dynamic) any_dynamic |= d;
      return "check_tensor(" + src +
             ", Tensor, DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU), " +
             dtype_torch_name(dtype) +
             ", device=None, requires_grad=False, size=" + join_ints(sizes, &dynamic) +
             ", stride=" +
             (any_dynamic ? join_ints(strides, &dynamic) : join_ints(strides, nullptr)) + ")";
    }
  }
  return "";
}

std::string guards_payload(const std::vector<Guard>& guards) {
  std::string out = "[\n";
  for (size_t i = 0; i < guards.size(); ++i) {
    const Guard& g = guards[i];
    Json item = Json::object();
    item.set("code", g.code());
    Json stack = Json::array();
    Json user_stack = Json::array();
    Json frame = Json::object();
    frame.set("filename", g.user_file).set("lineno", g.user_line).set("name", g.user_fn);
    user_stack.push(frame);
    item.set("stack", nullptr).set("user_stack", user_stack);
    out += (i ? ",\n" : "") + item.dump();
  }
  return out + "\n]";
}

std::string cpp_guards_tree(const std::vector<Guard>& guards) {
  std::string s = "\nTREE_GUARD_MANAGER:\n+- RootGuardManager\n";
  s += "| +- DEFAULT_DEVICE: utils_device.CURRENT_DEVICE == None\n";
  s += "| +- GLOBAL_STATE: ___check_global_state()\n";
  std::string last_var;
  for (const auto& g : guards) {
    if (g.var != last_var) {
      s += "| +- GuardManager: source=L['" + g.var + "'], accessed_by=DictGetItemGuardAccessor('" +
           g.var + "')\n";
      last_var = g.var;
    }
    switch (g.kind) {
      case Guard::Kind::tensor_match:
        s += "| | +- TENSOR_MATCH: " + g.code() + "\n";
        break;
      case Guard::Kind::scalar_eq:
        s += "| | +- EQUALS_MATCH: " + g.code() + "\n";
        break;
      case Guard::Kind::dynamic_dim:
        s += "| | +- LAMBDA_GUARD: " + g.code() + "\n";
        break;
    }
  }
  return s;
}

}  // namespace tlrt
