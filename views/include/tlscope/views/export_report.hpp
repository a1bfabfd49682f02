// The torch.export screen: what export could not trace exactly and what it assumed, each with the
// user line, the symbolic expression and where its symbols came from (the provenance of the
// expression: the expression_created steps back to the symbols, and each symbol's creation or
// input source). Read from export_issues, shape_guards, shape_symbols, shape_expressions and the
// exported_program records of records logged outside any compile (torch.export carries no
// compile id). The report's export page draws it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tlscope/views/symbolic_shapes.hpp"

namespace tlscope::views {

// One step of an expression's provenance, in pre-order: depth 0 is the expression itself, its
// inputs follow at depth + 1. A symbol leaf has no method and names its origin.
struct ProvenanceStep {
  int depth = 0;
  std::string method, result;
  std::vector<std::string> arguments;
  UserFrame at;
  std::string origin;  // a leaf symbol: "unbacked symbol u0 created at test.py:269 (a = x.item())"
};

// Where one symbol of an expression came from.
struct SymbolOrigin {
  std::string symbol;
  bool created = false;       // a create_symbol / create_unbacked_symbol record was found
  bool unbacked = false;      // created by create_unbacked_symbol (a data-dependent value)
  std::string source;         // an input's size (L['x'].size()[0]), when known
  std::string range;          // the value range at creation ([2, int_oo])
  UserFrame at;               // where it was created
  std::string words() const;  // one line for a front end
};

struct ExportIssue {
  int64_t event_id = 0, file_id = 0;
  // data_dependent, missing_fake_kernel, mismatched_fake_kernel (export_issues.kind), or
  // guard_added / guard_added_fast for an assumption
  std::string kind;
  std::string op, expr, result, reason;
  UserFrame at;
  std::vector<std::pair<std::string, std::string>> locals;  // the user frame's locals, as logged
  std::vector<SymbolOrigin> symbols;
  std::vector<ProvenanceStep> provenance;  // empty when the record names no expression node
  std::string title() const;               // "Data-dependent expression", "Guard added", ...
};

struct ExportedProgramEntry {
  int64_t event_id = 0, line = 0, payload_id = -1, size = 0;
  std::string file;
};

struct ExportReport {
  std::vector<ExportedProgramEntry> programs;
  std::vector<ExportIssue> issues;       // what failed or was decided on real values
  std::vector<ExportIssue> assumptions;  // guards and runtime asserts export added
  std::vector<ShapeSymbol> symbols;      // symbols created outside any compile
  std::vector<ShapeSpecialization> specializations;
  bool empty() const {
    return programs.empty() && issues.empty() && assumptions.empty() && symbols.empty() &&
           specializations.empty();
  }
};

Result<ExportReport> load_export_report(const Database& db);

}  // namespace tlscope::views
