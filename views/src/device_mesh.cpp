// Device mesh parsing and the element ranges each mesh rank holds.
#include "tlscope/views/device_mesh.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

namespace tlscope::views {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<int64_t> parse_int(std::string_view s) {
  s = trim(s);
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// Splits on commas that are not inside parentheses, so "Partial(sum),Shard(1)" has two parts.
std::vector<std::string_view> split_top_level(std::string_view text) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')') --depth;
    if (text[i] == ',' && depth == 0) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(text.substr(start));
  return parts;
}

}  // namespace

Result<std::vector<int64_t>> parse_mesh_shape(std::string_view text) {
  Result<std::vector<int64_t>> out;
  std::vector<int64_t>& shape = out.value;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != 'x' && text[i] != ',') continue;
    auto v = parse_int(text.substr(start, i - start));
    if (!v || *v <= 0 || *v > 65536) {
      shape.clear();
      out.fail("bad mesh shape '" + std::string(text) + "': want sizes like 2x2");
      return out;
    }
    shape.push_back(*v);
    start = i + 1;
  }
  return out;
}

Result<std::vector<MeshPlacement>> parse_placements(std::string_view text) {
  Result<std::vector<MeshPlacement>> out;
  for (std::string_view part : split_top_level(text)) {
    part = trim(part);
    MeshPlacement p;
    auto open = part.find('(');
    bool closed = !part.empty() && part.back() == ')';
    std::string_view head = open == std::string_view::npos ? part : trim(part.substr(0, open));
    std::string_view arg = (open == std::string_view::npos || !closed)
                               ? ""
                               : part.substr(open + 1, part.size() - open - 2);
    bool ok = open == std::string_view::npos || closed;
    if (ok && (head == "Shard" || head == "S")) {
      auto d = parse_int(arg);
      ok = d && *d >= 0 && *d < 64;
      p.kind = MeshPlacement::Kind::kShard;
      p.dim = ok ? static_cast<int>(*d) : -1;
    } else if (ok && (head == "Replicate" || head == "R") && trim(arg).empty()) {
      p.kind = MeshPlacement::Kind::kReplicate;
    } else if (ok && (head == "Partial" || head == "P")) {
      p.kind = MeshPlacement::Kind::kPartial;
    } else {
      ok = false;
    }
    if (!ok) {
      out.value.clear();
      out.fail("bad placement '" + std::string(part) +
               "': want Shard(d), Replicate() or Partial(), comma separated");
      return out;
    }
    out.value.push_back(p);
  }
  return out;
}

std::string placement_text(const MeshPlacement& placement) {
  switch (placement.kind) {
    case MeshPlacement::Kind::kShard:
      return "Shard(" + std::to_string(placement.dim) + ")";
    case MeshPlacement::Kind::kReplicate:
      return "Replicate()";
    case MeshPlacement::Kind::kPartial:
      return "Partial()";
  }
  return "?";
}

Result<MeshOwnership> MeshOwnership::build(const DeviceMesh& mesh,
                                           const std::vector<int64_t>& shape) {
  Result<MeshOwnership> out;
  auto fail = [&](std::string why) {
    out.fail(std::move(why));
    return out;
  };
  if (mesh.shape.empty()) return fail("device mesh has no dims");
  if (mesh.placements.size() != mesh.shape.size()) {
    return fail("mesh has " + std::to_string(mesh.shape.size()) + " dims but " +
                std::to_string(mesh.placements.size()) + " placements were given");
  }
  int64_t ranks = 1;
  for (int64_t s : mesh.shape) {
    if (s <= 0) return fail("mesh dim sizes must be positive");
    ranks *= s;
    if (ranks > 65536) return fail("device mesh larger than 65536 ranks");
  }
  MeshOwnership& own = out.value;
  for (const auto& p : mesh.placements) {
    if (p.kind == MeshPlacement::Kind::kPartial) own.partial_ = true;
    if (p.kind == MeshPlacement::Kind::kShard &&
        (p.dim < 0 || p.dim >= static_cast<int>(shape.size()))) {
      return fail(placement_text(p) + " names a dim the rank-" + std::to_string(shape.size()) +
                  " tensor does not have");
    }
  }
  own.ranges_.resize(static_cast<size_t>(ranks));
  for (int64_t r = 0; r < ranks; ++r) {
    // Row-major mesh coordinates of rank r.
    std::vector<int64_t> coord(mesh.shape.size());
    int64_t rest = r;
    for (size_t j = mesh.shape.size(); j-- > 0;) {
      coord[j] = rest % mesh.shape[j];
      rest /= mesh.shape[j];
    }
    auto& ranges = own.ranges_[static_cast<size_t>(r)];
    for (int64_t size : shape) ranges.push_back({0, size});
    for (size_t j = 0; j < mesh.shape.size(); ++j) {
      const auto& p = mesh.placements[j];
      if (p.kind != MeshPlacement::Kind::kShard) continue;
      Range& range = ranges[static_cast<size_t>(p.dim)];
      int64_t len = range.hi - range.lo;
      int64_t chunk = (len + mesh.shape[j] - 1) / mesh.shape[j];
      int64_t lo = std::min(range.hi, range.lo + coord[j] * chunk);
      int64_t hi = std::min(range.hi, lo + chunk);
      range = {lo, hi};
    }
  }
  return out;
}

std::vector<int> MeshOwnership::owners(const std::vector<int64_t>& index) const {
  std::vector<int> out;
  for (size_t r = 0; r < ranges_.size(); ++r) {
    const auto& ranges = ranges_[r];
    bool holds = index.size() == ranges.size();
    for (size_t d = 0; holds && d < index.size(); ++d) {
      holds = index[d] >= ranges[d].lo && index[d] < ranges[d].hi;
    }
    if (holds) out.push_back(static_cast<int>(r));
  }
  return out;
}

}  // namespace tlscope::views
