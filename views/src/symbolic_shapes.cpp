// Symbolic shapes per compile, read once for all compiles (see symbolic_shapes.hpp).
#include "tlscope/views/symbolic_shapes.hpp"

#include "read_rows.hpp"
#include "shape_queries.hpp"
#include "tlscope/views/cell_text.hpp"

namespace tlscope::views {

std::string UserFrame::where() const {
  if (file.empty()) return "";
  return file + ":" + (line >= 0 ? std::to_string(line) : "?");
}

std::string ShapeSpecialization::sentence() const {
  std::string s = symbol.empty() ? "(unnamed symbol)" : symbol;
  if (!sources.empty()) {
    s += " (";
    for (size_t i = 0; i < sources.size(); ++i) s += (i ? ", " : "") + sources[i];
    s += ")";
  }
  s += " was specialized to " + (value.empty() ? std::string("?") : value);
  if (at.known()) s += " at " + at.where();
  if (!reason.empty()) s += " because " + reason;
  return s;
}

std::vector<std::string> split_units(std::string_view joined) {
  std::vector<std::string> out;
  if (joined.empty()) return out;
  size_t start = 0;
  while (true) {
    size_t end = joined.find('\x1f', start);
    // Each unit clipped like a cell (cell_text.hpp): the list is joined in SQL from many rows.
    out.push_back(clip_cell_text(joined.substr(start, end - start)));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

UserFrame user_frame_at(const Statement& s, int first) {
  UserFrame f;
  f.file = s.text(first);
  f.line = s.int64_or(first + 1, -1);
  f.name = s.text(first + 2);
  f.code = s.text(first + 3);
  return f;
}

std::vector<std::pair<std::string, std::string>> split_pairs(std::string_view joined) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& item : split_units(joined)) {
    size_t sep = item.find('\x1e');
    if (sep == std::string::npos) continue;
    out.emplace_back(item.substr(0, sep), item.substr(sep + 1));
  }
  return out;
}

void read_shape_symbols(const Database& db, std::string_view where, Status& status,
                        const std::function<void(int64_t, ShapeSymbol)>& row) {
  if (!db.has_table("shape_symbols")) return;
  std::string sql =
      "SELECT event_id, file_id, coalesce(compile_id, ''), coalesce(symbol, ''), "
      "coalesce(value, ''), coalesce(value_range, ''), coalesce(source, ''), unbacked, node_id, " +
      std::string(kUserFrameColumns) + " FROM shape_symbols " + std::string(where) + " ORDER BY id";
  db.prepare(sql).for_each(
      [&](const Statement& s) {
        ShapeSymbol sym;
        sym.event_id = s.int64(0);
        sym.compile_id = s.text(2);
        sym.symbol = s.text(3);
        sym.value = s.text(4);
        sym.range = s.text(5);
        sym.source = s.text(6);
        sym.unbacked = s.int64_or(7, 0) != 0;
        sym.node_id = s.int64_or(8, -1);
        sym.at = user_frame_at(s, 9);
        row(s.int64(1), std::move(sym));
      },
      status);
}

void read_shape_specializations(const Database& db, std::string_view where, Status& status,
                                const std::function<void(int64_t, ShapeSpecialization)>& row) {
  if (!db.has_table("shape_specializations")) return;
  std::string sql =
      "SELECT event_id, file_id, coalesce(compile_id, ''), coalesce(symbol, ''), "
      "coalesce(value, ''), coalesce(reason, ''), " +
      std::string(kSourcesArray) + ", " + std::string(kUserFrameColumns) +
      " FROM shape_specializations " + std::string(where) + " ORDER BY id";
  db.prepare(sql).for_each(
      [&](const Statement& s) {
        ShapeSpecialization sp;
        sp.event_id = s.int64(0);
        sp.compile_id = s.text(2);
        sp.symbol = s.text(3);
        sp.value = s.text(4);
        sp.reason = s.text(5);
        sp.sources = split_units(s.text_view(6));
        sp.at = user_frame_at(s, 7);
        row(s.int64(1), std::move(sp));
      },
      status);
}

void read_shape_guards(const Database& db, std::string_view where, Status& status,
                       const std::function<void(int64_t, ShapeGuard)>& row) {
  if (!db.has_table("shape_guards")) return;
  std::string sql =
      "SELECT event_id, file_id, coalesce(compile_id, ''), coalesce(kind, ''), "
      "coalesce(expr, ''), " +
      std::string(kSymbolsList) + ", " + std::string(kSourcesList) + ", " +
      std::string(kUserFrameColumns) + " FROM shape_guards " + std::string(where) + " ORDER BY id";
  db.prepare(sql).for_each(
      [&](const Statement& s) {
        ShapeGuard g;
        g.event_id = s.int64(0);
        g.compile_id = s.text(2);
        g.kind = s.text(3);
        g.expr = s.text(4);
        g.symbols = split_units(s.text_view(5));
        g.sources = split_pairs(s.text_view(6));
        g.at = user_frame_at(s, 7);
        row(s.int64(1), std::move(g));
      },
      status);
}

CompileShapesReader::CompileShapesReader(const Database& db) {
  read_shape_symbols(db, "", status_, [&](int64_t file_id, ShapeSymbol sym) {
    by_compile_[{file_id, sym.compile_id}].symbols.push_back(std::move(sym));
  });
  read_shape_specializations(db, "", status_, [&](int64_t file_id, ShapeSpecialization sp) {
    by_compile_[{file_id, sp.compile_id}].specializations.push_back(std::move(sp));
  });
  read_shape_guards(db, "", status_, [&](int64_t file_id, ShapeGuard g) {
    by_compile_[{file_id, g.compile_id}].guards.push_back(std::move(g));
  });
}

Result<CompileShapes> CompileShapesReader::read(int64_t file_id,
                                                const std::string& compile_id) const {
  Result<CompileShapes> out;
  out.fail(status_.error);
  if (auto it = by_compile_.find({file_id, compile_id}); it != by_compile_.end())
    out.value = it->second;
  return out;
}

}  // namespace tlscope::views
