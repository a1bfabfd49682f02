// The writer's in-memory maps from an MD5 to a row id: payloads.id by payload MD5, stacks'
// stack_id by the MD5 of a stack's resolved frames; probed once per payload or stack. MD5s are
// uniformly distributed, so their low bits index an open-addressing table directly: one flat
// array, no node per entry, no modulo by a prime (std::unordered_map's costs in the profile).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace tlscope::model {

struct Md5Key {
  uint64_t hi = 0, lo = 0;
  bool operator==(const Md5Key&) const = default;
};

// The key of a 32-digit hex MD5 (either case); nullopt for anything else.
inline std::optional<Md5Key> md5_key(std::string_view hex) {
  if (hex.size() != 32) return std::nullopt;
  Md5Key key;
  for (size_t i = 0; i < 32; ++i) {
    char c = hex[i];
    uint64_t v;
    if (c >= '0' && c <= '9')
      v = c - '0';
    else if (c >= 'a' && c <= 'f')
      v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      v = c - 'A' + 10;
    else
      return std::nullopt;
    uint64_t& half = i < 16 ? key.hi : key.lo;
    half = (half << 4) | v;
  }
  return key;
}

class Md5Ids {
 public:
  // The id stored for `key`, or `id` after storing it; .second tells whether it was new.
  // Ids must be > 0 (0 marks a free slot).
  std::pair<int64_t, bool> find_or_insert(const Md5Key& key, int64_t id) {
    // Up to 3/4 full: linear probing stays short with uniform keys, and the table stays small
    // (24 bytes a slot; ~12 MiB for the ~280,000 payloads of a 1 GB log).
    if (4 * (size_ + 1) > 3 * slots_.size()) grow();
    size_t mask = slots_.size() - 1;
    for (size_t i = key.lo & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.id == 0) {
        s = Slot{key, id};
        ++size_;
        return {id, true};
      }
      if (s.key == key) return {s.id, false};
    }
  }

  // Forgets every id above `mark` (the rows of a file that turned out to be a duplicate).
  void erase_above(int64_t mark) {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.size(), Slot{});
    size_ = 0;
    for (const Slot& s : old) {
      if (s.id != 0 && s.id <= mark) find_or_insert(s.key, s.id);
    }
  }

  size_t size() const { return size_; }

 private:
  struct Slot {
    Md5Key key;
    int64_t id = 0;
  };

  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 1024 : 2 * old.size(), Slot{});
    size_ = 0;
    for (const Slot& s : old) {
      if (s.id != 0) find_or_insert(s.key, s.id);
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace tlscope::model
