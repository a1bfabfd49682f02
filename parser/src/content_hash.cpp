// ContentHash: lane update v = rotl(v ^ (w * K1), 29) * K2 on 8-byte words; the tail and the
// length are folded in at the end, then the lanes are mixed with a 64-bit finaliser.
#include "content_hash.hpp"

#include <cstring>

namespace tlscope::parser {
namespace {

constexpr uint64_t kMul1 = 0x9e3779b97f4a7c15ull;  // 2^64 / golden ratio
constexpr uint64_t kMul2 = 0xd6e8feb86659fd93ull;

inline uint64_t rotl(uint64_t x, int s) { return (x << s) | (x >> (64 - s)); }

inline uint64_t load64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

inline uint64_t lane_step(uint64_t v, uint64_t w) { return rotl(v ^ (w * kMul1), 29) * kMul2; }

inline uint64_t avalanche(uint64_t x) {
  x ^= x >> 32;
  x *= kMul2;
  x ^= x >> 29;
  x *= kMul1;
  x ^= x >> 32;
  return x;
}

}  // namespace

void ContentHash::stripe(const char* p) {
  lanes_[0] = lane_step(lanes_[0], load64(p));
  lanes_[1] = lane_step(lanes_[1], load64(p + 8));
  lanes_[2] = lane_step(lanes_[2], load64(p + 16));
  lanes_[3] = lane_step(lanes_[3], load64(p + 24));
}

void ContentHash::update(const char* data, size_t len) {
  length_ += len;
  if (tail_len_ > 0) {
    size_t take = 32 - tail_len_;
    if (take > len) take = len;
    std::memcpy(tail_ + tail_len_, data, take);
    tail_len_ += take;
    data += take;
    len -= take;
    if (tail_len_ < 32) return;
    stripe(tail_);
    tail_len_ = 0;
  }
  // Local copies let the compiler keep the four lanes in registers across the loop.
  uint64_t a = lanes_[0], b = lanes_[1], c = lanes_[2], d = lanes_[3];
  for (; len >= 32; data += 32, len -= 32) {
    a = lane_step(a, load64(data));
    b = lane_step(b, load64(data + 8));
    c = lane_step(c, load64(data + 16));
    d = lane_step(d, load64(data + 24));
  }
  lanes_[0] = a, lanes_[1] = b, lanes_[2] = c, lanes_[3] = d;
  if (len > 0) {
    std::memcpy(tail_, data, len);
    tail_len_ = len;
  }
}

uint64_t ContentHash::finish() const {
  uint64_t h = rotl(lanes_[0], 1) + rotl(lanes_[1], 7) + rotl(lanes_[2], 12) + rotl(lanes_[3], 18);
  h = avalanche(h ^ length_);
  for (size_t i = 0; i < tail_len_; ++i) {
    h = (h ^ static_cast<unsigned char>(tail_[i])) * kMul1;
    h = rotl(h, 23);
  }
  return avalanche(h);
}

}  // namespace tlscope::parser
