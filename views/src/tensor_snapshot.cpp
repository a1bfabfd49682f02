// Parsing of tensor_values / dtensor_placement payloads and assembly of the global tensor from
// the ranks' local blocks (DTensor semantics: Shard(d) splits dim d like torch.chunk, Replicate()
// copies, Partial() holds addends of the sum).
#include "tlscope/views/tensor_snapshot.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "json_read.hpp"

namespace tlscope::views {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

// A JSON array of non-negative integers under `key`; false (with `why`) otherwise.
bool int_list(element obj, const char* key, std::vector<int64_t>& out, std::string& why,
              bool required = true) {
  element v;
  if (obj[key].get(v)) {
    if (required) why = std::string("no \"") + key + "\" array";
    return !required;
  }
  simdjson::dom::array arr;
  if (v.get(arr)) {
    why = std::string("\"") + key + "\" is not an array";
    return false;
  }
  for (element item : arr) {
    int64_t x = 0;
    if (item.get(x) || x < 0 || x > (int64_t{1} << 40)) {
      why = std::string("\"") + key + "\" holds a non-integer or negative item";
      return false;
    }
    out.push_back(x);
  }
  return true;
}

bool string_list(element obj, const char* key, std::vector<std::string>& out) {
  simdjson::dom::array arr;
  if (obj[key].get(arr)) return false;
  for (element item : arr) {
    std::string_view s;
    out.emplace_back(item.get(s) ? std::string_view("?") : s);
  }
  return true;
}

std::string text_field(element obj, const char* key) {
  std::string_view s;
  if (obj[key].get(s)) return "";
  return std::string(s);
}

int64_t product(const std::vector<int64_t>& shape) {
  int64_t p = 1;
  for (int64_t s : shape) {
    if (s != 0 && p > std::numeric_limits<int64_t>::max() / s) return -1;
    p *= s;
  }
  return p;
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string rank_text(int64_t rank) {
  return rank < 0 ? std::string("a rankless log") : "rank " + std::to_string(rank);
}

bool same_layout(const LoggedPlacement& a, const LoggedPlacement& b) {
  return a.mesh_shape == b.mesh_shape && a.global_shape == b.global_shape &&
         a.placement_texts == b.placement_texts;
}

// Unsharded: the first rank's values; other ranks only compared against it.
void assemble_unsharded(TensorSnapshot& snap) {
  const RankValues& first = snap.ranks.front();
  snap.shape = first.values.shape;
  snap.values = first.values.values;
  for (size_t i = 1; i < snap.ranks.size(); ++i) {
    const LoggedValues& v = snap.ranks[i].values;
    if (v.shape != first.values.shape || v.values != first.values.values)
      snap.differing_ranks.push_back(snap.ranks[i].rank);
  }
  if (!snap.differing_ranks.empty()) {
    snap.problems.push_back(std::to_string(snap.differing_ranks.size()) + " of " +
                            std::to_string(snap.ranks.size()) +
                            " ranks logged values that "
                            "differ from " +
                            rank_text(first.rank) + "'s");
  }
}

void assemble_sharded(TensorSnapshot& snap, const LoggedPlacement& ref) {
  DeviceMesh mesh{ref.mesh_shape, ref.placements};
  Result<MeshOwnership> own = MeshOwnership::build(mesh, ref.global_shape);
  int64_t numel = product(ref.global_shape);
  if (!own.ok() || numel < 0 || numel > (int64_t{1} << 24)) {
    snap.problems.push_back("placement of " + rank_text(snap.ranks.front().rank) +
                            " cannot be drawn: " + (own.ok() ? "tensor too large" : own.error));
    assemble_unsharded(snap);
    return;
  }
  snap.mesh = mesh;
  snap.placement = ref;
  snap.shape = ref.global_shape;
  const size_t n = ref.global_shape.size();
  // Partial() mesh dims: each combination of their coordinates holds one addend of the sum.
  int64_t addends = 1;
  for (size_t m = 0; m < ref.placements.size(); ++m) {
    if (ref.placements[m].kind == MeshPlacement::Kind::kPartial) addends *= ref.mesh_shape[m];
  }
  snap.partial = addends > 1 || own->partial();
  std::vector<double> acc(static_cast<size_t>(addends * numel), 0.0);
  std::vector<int64_t> holder(acc.size(), -2);  // the log rank that supplied each addend
  std::map<std::pair<int64_t, int64_t>, int64_t> mismatches;  // (rank, earlier rank) -> count
  std::map<int, int64_t> rank_of_mesh_rank;
  for (const RankValues& rv : snap.ranks) {
    if (!rv.placement) {
      snap.problems.push_back(rank_text(rv.rank) + " logged no placement for " + snap.name);
      continue;
    }
    const LoggedPlacement& p = *rv.placement;
    if (!same_layout(p, ref)) {
      snap.problems.push_back(rank_text(rv.rank) + " logged a different mesh or placement (" +
                              shape_text(p.mesh_shape) + ") than " +
                              rank_text(snap.ranks.front().rank));
      continue;
    }
    if (p.rank_coords.size() != ref.mesh_shape.size()) {
      snap.problems.push_back(rank_text(rv.rank) + ": rank_coords " + shape_text(p.rank_coords) +
                              " do not fit mesh " + shape_text(ref.mesh_shape));
      continue;
    }
    int mesh_rank = 0;
    int64_t key = 0;
    bool coords_ok = true;
    for (size_t m = 0; m < ref.mesh_shape.size(); ++m) {
      coords_ok &= p.rank_coords[m] < ref.mesh_shape[m];
      mesh_rank =
          mesh_rank * static_cast<int>(ref.mesh_shape[m]) + static_cast<int>(p.rank_coords[m]);
      if (ref.placements[m].kind == MeshPlacement::Kind::kPartial)
        key = key * ref.mesh_shape[m] + p.rank_coords[m];
    }
    if (!coords_ok) {
      snap.problems.push_back(rank_text(rv.rank) + ": rank_coords " + shape_text(p.rank_coords) +
                              " lie outside mesh " + shape_text(ref.mesh_shape));
      continue;
    }
    std::vector<int64_t> lo(n), local(n);
    for (size_t d = 0; d < n; ++d) {
      auto [a, b] = own->extent(mesh_rank, d);
      lo[d] = a;
      local[d] = b - a;
    }
    if (rv.values.shape != local ||
        static_cast<int64_t>(rv.values.values.size()) != product(local)) {
      snap.problems.push_back(rank_text(rv.rank) + " logged shape " + shape_text(rv.values.shape) +
                              " but its shard is " + shape_text(local));
      continue;
    }
    rank_of_mesh_rank.emplace(mesh_rank, rv.rank);
    // Walk the local block in row-major order, tracking the global flat index.
    std::vector<int64_t> idx(n, 0);
    for (double v : rv.values.values) {
      int64_t g = 0;
      for (size_t d = 0; d < n; ++d) g = g * ref.global_shape[d] + lo[d] + idx[d];
      size_t slot = static_cast<size_t>(key * numel + g);
      if (holder[slot] == -2) {
        acc[slot] = v;
        holder[slot] = rv.rank;
      } else if (acc[slot] != v) {
        ++mismatches[{rv.rank, holder[slot]}];
      }
      for (size_t d = n; d-- > 0;) {
        if (++idx[d] < local[d]) break;
        idx[d] = 0;
      }
    }
  }
  for (const auto& [pair, count] : mismatches) {
    snap.problems.push_back(rank_text(pair.first) + " and " + rank_text(pair.second) +
                            " hold different values for the same replicated elements (" +
                            std::to_string(count) + " differ)");
  }
  snap.values.assign(static_cast<size_t>(numel), 0.0);
  for (int64_t g = 0; g < numel; ++g) {
    double sum = 0;
    bool complete = true;
    for (int64_t k = 0; k < addends; ++k) {
      size_t slot = static_cast<size_t>(k * numel + g);
      complete &= holder[slot] != -2;
      sum += acc[slot];
    }
    snap.values[static_cast<size_t>(g)] = complete ? sum : std::nan("");
    snap.missing += complete ? 0 : 1;
  }
  if (snap.missing > 0) {
    snap.problems.push_back(std::to_string(snap.missing) + " of " + std::to_string(numel) +
                            " elements were not logged by every rank that holds them");
  }
  for (int r = 0; r < own->rank_count(); ++r) {
    ShardBlock b;
    b.mesh_rank = r;
    auto it = rank_of_mesh_rank.find(r);
    b.rank = it == rank_of_mesh_rank.end() ? -1 : it->second;
    int rest = r;
    b.mesh_coords.resize(ref.mesh_shape.size());
    for (size_t m = ref.mesh_shape.size(); m-- > 0;) {
      b.mesh_coords[m] = rest % ref.mesh_shape[m];
      rest /= static_cast<int>(ref.mesh_shape[m]);
    }
    for (size_t d = 0; d < n; ++d) {
      auto [a, e] = own->extent(r, d);
      b.lo.push_back(a);
      b.hi.push_back(e);
    }
    snap.blocks.push_back(std::move(b));
  }
}

// The failed result of parsing a `record` payload at `source`.
template <typename T>
Result<T> record_failure(const std::string& source, const char* record, const std::string& why) {
  Result<T> failed;
  failed.fail(source + ": " + record + ": " + why);
  return failed;
}

}  // namespace

Result<LoggedValues> parse_logged_values(std::string_view json, const std::string& source) {
  auto fail = [&](const std::string& why) {
    return record_failure<LoggedValues>(source, "tensor_values", why);
  };
  simdjson::dom::parser parser;
  element doc;
  if (const char* why = parse_json(json, parser, doc)) return fail(why);
  if (doc.type() != element_type::OBJECT) return fail("not a JSON object");
  LoggedValues out;
  out.name = text_field(doc, "name");
  out.dtype = text_field(doc, "dtype");
  std::string why;
  if (!int_list(doc, "shape", out.shape, why)) return fail(why);
  simdjson::dom::array values;
  if (doc["values"].get(values)) return fail("no \"values\" array");
  for (element v : values) {
    std::optional<double> x = json_number(v);
    if (!x) return fail("\"values\" holds a non-number");
    out.values.push_back(*x);
  }
  int64_t numel = product(out.shape);
  if (numel != static_cast<int64_t>(out.values.size())) {
    return fail("shape " + shape_text(out.shape) + " has " + std::to_string(numel) +
                " elements but " + std::to_string(out.values.size()) + " values were logged");
  }
  return {std::move(out), ""};
}

Result<LoggedPlacement> parse_logged_placement(std::string_view json, const std::string& source) {
  auto fail = [&](const std::string& why) {
    return record_failure<LoggedPlacement>(source, "dtensor_placement", why);
  };
  simdjson::dom::parser parser;
  element doc;
  if (const char* why = parse_json(json, parser, doc)) return fail(why);
  if (doc.type() != element_type::OBJECT) return fail("not a JSON object");
  LoggedPlacement out;
  out.tensor = text_field(doc, "tensor");
  std::string why;
  if (!int_list(doc, "mesh_shape", out.mesh_shape, why) ||
      !int_list(doc, "global_shape", out.global_shape, why) ||
      !int_list(doc, "local_shape", out.local_shape, why, false) ||
      !int_list(doc, "rank_coords", out.rank_coords, why)) {
    return fail(why);
  }
  if (out.mesh_shape.empty()) return fail("empty \"mesh_shape\"");
  for (int64_t s : out.mesh_shape)
    if (s == 0) return fail("\"mesh_shape\" holds a zero size");
  string_list(doc, "mesh_dim_names", out.mesh_dim_names);
  if (!string_list(doc, "placements", out.placement_texts)) return fail("no \"placements\" array");
  if (out.placement_texts.size() != out.mesh_shape.size()) {
    return fail(std::to_string(out.placement_texts.size()) + " placements for a " +
                std::to_string(out.mesh_shape.size()) + "-D mesh");
  }
  for (const std::string& text : out.placement_texts) {
    Result<std::vector<MeshPlacement>> p = parse_placements(text);
    if (!p.ok()) return fail(p.error);
    if (p->size() != 1) return fail("bad placement " + text);
    out.placements.push_back(p->front());
  }
  return {std::move(out), ""};
}

TensorSnapshot assemble_snapshot(std::vector<RankValues> ranks, int occurrence) {
  TensorSnapshot snap;
  snap.occurrence = occurrence;
  if (ranks.empty()) return snap;
  std::stable_sort(ranks.begin(), ranks.end(),
                   [](const RankValues& a, const RankValues& b) { return a.rank < b.rank; });
  snap.name = ranks.front().values.name;
  snap.dtype = ranks.front().values.dtype;
  snap.ranks = std::move(ranks);
  const LoggedPlacement* ref = nullptr;
  for (const RankValues& rv : snap.ranks)
    if (rv.placement && !ref) ref = &*rv.placement;
  if (ref) {
    LoggedPlacement copy = *ref;  // snap.ranks is read while assembling
    assemble_sharded(snap, copy);
  } else {
    assemble_unsharded(snap);
  }
  return snap;
}

}  // namespace tlscope::views
