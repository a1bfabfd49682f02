// User programs for compile(): a function is a list of statements over named variables, which is
// what lets the compiler stop at a statement it cannot trace and resume after it, as Dynamo does
// with bytecode. TLRT_STMT records each statement's real source line and text.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "tlrt/tensor.hpp"

namespace tlrt {

using Value = std::variant<Tensor, double, std::string>;

class Env {
 public:
  const Tensor& t(const std::string& name) const;
  // Reading a Python scalar while tracing installs a value guard on it.
  double num(const std::string& name) const;
  const std::string& str(const std::string& name) const;
  // `x.size(dim)` used as a Python int: while tracing, a dynamic dim read this way is specialized
  // to its current value (the shape environment logs symbolic_shape_specialization).
  double size(const std::string& name, int dim) const;
  void set(const std::string& name, Tensor t);
  void set(const std::string& name, double v);
  void set(const std::string& name, std::string s);
  bool has(const std::string& name) const { return vars_.count(name) != 0; }
  const std::map<std::string, Value>& vars() const { return vars_; }

 private:
  const Value& get(const std::string& name) const;
  std::map<std::string, Value> vars_;
};

struct Stmt {
  int line;
  std::string code;
  std::function<void(Env&)> fn;
};

struct Program {
  std::string name;    // the function's name (co_name)
  std::string file;    // absolute source path (co_filename)
  int first_line = 0;  // co_firstlineno
  std::vector<Stmt> stmts;

  Program(std::string n, std::string f, int line)
      : name(std::move(n)), file(std::move(f)), first_line(line) {}
  void add(int line, std::string code, std::function<void(Env&)> fn) {
    stmts.push_back({line, std::move(code), std::move(fn)});
  }
  // Runs every statement eagerly (no tracing, no compile).
  void run_eager(Env& env, size_t from = 0) const;
};

// Thrown by untraceable operations while tracing (item(), print); the compiler turns it into a
// graph break at the current statement.
struct GraphBreakSignal {
  std::string reason;
};

// `print(tensor)`: eager printing, a graph break under tracing (an unsupported builtin).
void print(const std::string& label, const Tensor& t);

}  // namespace tlrt

#define TLRT_STMT(prog, ...) \
  (prog).add(__LINE__, #__VA_ARGS__, [](::tlrt::Env& env) { __VA_ARGS__; })

// A statement written inside a loop of the program builder (e.g. one per layer, as Dynamo unrolls
// `for layer in self.layers`): the body may read the builder's local variables, copied in.
#define TLRT_STMT_CAPTURE(prog, ...) \
  (prog).add(__LINE__, #__VA_ARGS__, [=](::tlrt::Env& env) { __VA_ARGS__; })
