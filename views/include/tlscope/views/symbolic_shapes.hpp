// Symbolic shapes per compile: the symbols the shape environment created, the ones it
// specialized to a constant (and why, at which user line), and the guards it added, from the
// analysis tables shape_symbols, shape_specializations and shape_guards (docs/schema.md). The
// compile pages of the report and the viewer's compile panel draw a CompileShapes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

// The user line a record came from ("" file when the record had no frame of user code).
struct UserFrame {
  std::string file, name, code;
  int64_t line = -1;
  bool known() const { return !file.empty(); }
  std::string where() const;  // "train.py:41", "" when unknown
};

struct ShapeSymbol {
  int64_t event_id = 0;
  std::string compile_id, symbol, value, range, source;  // value: the hint ("" for unbacked)
  bool unbacked = false;
  int64_t node_id = -1;  // unbacked: the id expression_created records name as an argument
  UserFrame at;
};

struct ShapeSpecialization {
  int64_t event_id = 0;
  std::string compile_id, symbol, value, reason;
  std::vector<std::string> sources;
  UserFrame at;
  // "s0 (L['x'].size()[0]) was specialized to 8 at train.py:41 because ..."
  std::string sentence() const;
};

struct ShapeGuard {
  int64_t event_id = 0;
  std::string compile_id, kind, expr;                        // kind: guard_added, guard_added_fast
  std::vector<std::string> symbols;                          // the symbols of expr, in order
  std::vector<std::pair<std::string, std::string>> sources;  // symbol -> source, as logged
  UserFrame at;
};

struct CompileShapes {
  std::vector<ShapeSymbol> symbols;
  std::vector<ShapeSpecialization> specializations;
  std::vector<ShapeGuard> guards;
  bool empty() const { return symbols.empty() && specializations.empty() && guards.empty(); }
};

// Reads the three tables once; read() then costs no query, for front ends that show many
// compiles. A database without the tables (an older tlscope) reads as empty.
class CompileShapesReader {
 public:
  explicit CompileShapesReader(const Database& db);
  // The rows of one compile (compiles.file_id, compiles.compile_id); compile_id "" gives the
  // records logged outside any compile (torch.export).
  Result<CompileShapes> read(int64_t file_id, const std::string& compile_id) const;

 private:
  using Key = std::pair<int64_t, std::string>;
  std::map<Key, CompileShapes> by_compile_;
  Status status_;
};

// Splits the unit-separated lists the shape queries build with group_concat (char(31)).
std::vector<std::string> split_units(std::string_view joined);

}  // namespace tlscope::views
