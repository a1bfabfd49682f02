// Multi-lane MD5: a lane per message, messages fed in longest-first so lanes finish together;
// when only a few lanes are still busy the rest is finished with scalar MD5, which is faster for
// a single message than a mostly empty vector.
#include "md5_many.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

namespace tlscope::parser {
namespace {

constexpr int kLanes = 8;

// A message cut into the 64-byte blocks MD5 consumes: whole blocks straight from the message,
// then one or two blocks of tail + padding + bit length built here.
struct BlockCursor {
  const uint8_t* data = nullptr;
  size_t full_blocks = 0;
  size_t tail_blocks = 0;
  size_t next = 0;
  alignas(64) uint8_t tail[128];

  void start(std::string_view m) {
    data = reinterpret_cast<const uint8_t*>(m.data());
    full_blocks = m.size() / 64;
    size_t rest = m.size() % 64;
    std::memset(tail, 0, sizeof tail);
    if (rest) std::memcpy(tail, data + full_blocks * 64, rest);
    tail[rest] = 0x80;
    tail_blocks = rest < 56 ? 1 : 2;
    uint64_t bits = static_cast<uint64_t>(m.size()) * 8;
    for (int i = 0; i < 8; ++i)
      tail[tail_blocks * 64 - 8 + i] = static_cast<uint8_t>(bits >> (8 * i));
    next = 0;
  }
  size_t blocks_left() const { return full_blocks + tail_blocks - next; }
  const uint8_t* block() const {
    return next < full_blocks ? data + 64 * next : tail + 64 * (next - full_blocks);
  }
};

void digest_from_state(const uint32_t s[4], std::array<uint8_t, 16>& out) {
  for (int w = 0; w < 4; ++w)
    for (int i = 0; i < 4; ++i) out[4 * w + i] = static_cast<uint8_t>(s[w] >> (8 * i));
}

void md5_one(std::string_view m, std::array<uint8_t, 16>& out) {
  BlockCursor c;
  c.start(m);
  uint32_t s[4] = {kMd5Init[0], kMd5Init[1], kMd5Init[2], kMd5Init[3]};
  for (; c.blocks_left() > 0; ++c.next) md5_compress(s, c.block());
  digest_from_state(s, out);
}

#define XOR(x, y) _mm256_xor_si256(x, y)
#define AND(x, y) _mm256_and_si256(x, y)
#define OR(x, y) _mm256_or_si256(x, y)
#define NOT(x) _mm256_xor_si256(x, ones)
#define ADD(x, y) _mm256_add_epi32(x, y)
#define ROTL(x, s) _mm256_or_si256(_mm256_slli_epi32(x, s), _mm256_srli_epi32(x, 32 - (s)))
#define VSTEP(f, a, b, c, d, k, s, i) \
  a = ADD(b, ROTL(ADD(ADD(a, f), ADD(w[k], _mm256_set1_epi32(static_cast<int>(kMd5T[i])))), s))

// One block for each of the 8 lanes; w[k] holds word k of every lane's block.
__attribute__((target("avx2"))) void compress8(uint32_t (*state)[kLanes],
                                               const uint8_t* const* blocks) {
  // w[k] = word k of every lane: load each lane's block as two rows of 8 words and transpose
  // the two 8x8 matrices in registers.
  __m256i w[16];
  for (int half = 0; half < 2; ++half) {
    __m256i r[kLanes];
    for (int lane = 0; lane < kLanes; ++lane) {
      r[lane] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blocks[lane] + 32 * half));
    }
    __m256i t[8], u[8];
    for (int i = 0; i < 8; i += 2) {
      t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
      t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
      u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
      u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
      u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
      u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
    }
    for (int i = 0; i < 4; ++i) {
      w[8 * half + i] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x20);
      w[8 * half + i + 4] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x31);
    }
  }
  const __m256i ones = _mm256_set1_epi32(-1);
  __m256i a0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(state[0]));
  __m256i b0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(state[1]));
  __m256i c0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(state[2]));
  __m256i d0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(state[3]));
  __m256i a = a0, b = b0, c = c0, d = d0;
  VSTEP(XOR(d, AND(b, XOR(c, d))), a, b, c, d, 0, 7, 0);
  VSTEP(XOR(c, AND(a, XOR(b, c))), d, a, b, c, 1, 12, 1);
  VSTEP(XOR(b, AND(d, XOR(a, b))), c, d, a, b, 2, 17, 2);
  VSTEP(XOR(a, AND(c, XOR(d, a))), b, c, d, a, 3, 22, 3);
  VSTEP(XOR(d, AND(b, XOR(c, d))), a, b, c, d, 4, 7, 4);
  VSTEP(XOR(c, AND(a, XOR(b, c))), d, a, b, c, 5, 12, 5);
  VSTEP(XOR(b, AND(d, XOR(a, b))), c, d, a, b, 6, 17, 6);
  VSTEP(XOR(a, AND(c, XOR(d, a))), b, c, d, a, 7, 22, 7);
  VSTEP(XOR(d, AND(b, XOR(c, d))), a, b, c, d, 8, 7, 8);
  VSTEP(XOR(c, AND(a, XOR(b, c))), d, a, b, c, 9, 12, 9);
  VSTEP(XOR(b, AND(d, XOR(a, b))), c, d, a, b, 10, 17, 10);
  VSTEP(XOR(a, AND(c, XOR(d, a))), b, c, d, a, 11, 22, 11);
  VSTEP(XOR(d, AND(b, XOR(c, d))), a, b, c, d, 12, 7, 12);
  VSTEP(XOR(c, AND(a, XOR(b, c))), d, a, b, c, 13, 12, 13);
  VSTEP(XOR(b, AND(d, XOR(a, b))), c, d, a, b, 14, 17, 14);
  VSTEP(XOR(a, AND(c, XOR(d, a))), b, c, d, a, 15, 22, 15);
  VSTEP(XOR(c, AND(d, XOR(b, c))), a, b, c, d, 1, 5, 16);
  VSTEP(XOR(b, AND(c, XOR(a, b))), d, a, b, c, 6, 9, 17);
  VSTEP(XOR(a, AND(b, XOR(d, a))), c, d, a, b, 11, 14, 18);
  VSTEP(XOR(d, AND(a, XOR(c, d))), b, c, d, a, 0, 20, 19);
  VSTEP(XOR(c, AND(d, XOR(b, c))), a, b, c, d, 5, 5, 20);
  VSTEP(XOR(b, AND(c, XOR(a, b))), d, a, b, c, 10, 9, 21);
  VSTEP(XOR(a, AND(b, XOR(d, a))), c, d, a, b, 15, 14, 22);
  VSTEP(XOR(d, AND(a, XOR(c, d))), b, c, d, a, 4, 20, 23);
  VSTEP(XOR(c, AND(d, XOR(b, c))), a, b, c, d, 9, 5, 24);
  VSTEP(XOR(b, AND(c, XOR(a, b))), d, a, b, c, 14, 9, 25);
  VSTEP(XOR(a, AND(b, XOR(d, a))), c, d, a, b, 3, 14, 26);
  VSTEP(XOR(d, AND(a, XOR(c, d))), b, c, d, a, 8, 20, 27);
  VSTEP(XOR(c, AND(d, XOR(b, c))), a, b, c, d, 13, 5, 28);
  VSTEP(XOR(b, AND(c, XOR(a, b))), d, a, b, c, 2, 9, 29);
  VSTEP(XOR(a, AND(b, XOR(d, a))), c, d, a, b, 7, 14, 30);
  VSTEP(XOR(d, AND(a, XOR(c, d))), b, c, d, a, 12, 20, 31);
  VSTEP(XOR(b, XOR(c, d)), a, b, c, d, 5, 4, 32);
  VSTEP(XOR(a, XOR(b, c)), d, a, b, c, 8, 11, 33);
  VSTEP(XOR(d, XOR(a, b)), c, d, a, b, 11, 16, 34);
  VSTEP(XOR(c, XOR(d, a)), b, c, d, a, 14, 23, 35);
  VSTEP(XOR(b, XOR(c, d)), a, b, c, d, 1, 4, 36);
  VSTEP(XOR(a, XOR(b, c)), d, a, b, c, 4, 11, 37);
  VSTEP(XOR(d, XOR(a, b)), c, d, a, b, 7, 16, 38);
  VSTEP(XOR(c, XOR(d, a)), b, c, d, a, 10, 23, 39);
  VSTEP(XOR(b, XOR(c, d)), a, b, c, d, 13, 4, 40);
  VSTEP(XOR(a, XOR(b, c)), d, a, b, c, 0, 11, 41);
  VSTEP(XOR(d, XOR(a, b)), c, d, a, b, 3, 16, 42);
  VSTEP(XOR(c, XOR(d, a)), b, c, d, a, 6, 23, 43);
  VSTEP(XOR(b, XOR(c, d)), a, b, c, d, 9, 4, 44);
  VSTEP(XOR(a, XOR(b, c)), d, a, b, c, 12, 11, 45);
  VSTEP(XOR(d, XOR(a, b)), c, d, a, b, 15, 16, 46);
  VSTEP(XOR(c, XOR(d, a)), b, c, d, a, 2, 23, 47);
  VSTEP(XOR(c, OR(b, NOT(d))), a, b, c, d, 0, 6, 48);
  VSTEP(XOR(b, OR(a, NOT(c))), d, a, b, c, 7, 10, 49);
  VSTEP(XOR(a, OR(d, NOT(b))), c, d, a, b, 14, 15, 50);
  VSTEP(XOR(d, OR(c, NOT(a))), b, c, d, a, 5, 21, 51);
  VSTEP(XOR(c, OR(b, NOT(d))), a, b, c, d, 12, 6, 52);
  VSTEP(XOR(b, OR(a, NOT(c))), d, a, b, c, 3, 10, 53);
  VSTEP(XOR(a, OR(d, NOT(b))), c, d, a, b, 10, 15, 54);
  VSTEP(XOR(d, OR(c, NOT(a))), b, c, d, a, 1, 21, 55);
  VSTEP(XOR(c, OR(b, NOT(d))), a, b, c, d, 8, 6, 56);
  VSTEP(XOR(b, OR(a, NOT(c))), d, a, b, c, 15, 10, 57);
  VSTEP(XOR(a, OR(d, NOT(b))), c, d, a, b, 6, 15, 58);
  VSTEP(XOR(d, OR(c, NOT(a))), b, c, d, a, 13, 21, 59);
  VSTEP(XOR(c, OR(b, NOT(d))), a, b, c, d, 4, 6, 60);
  VSTEP(XOR(b, OR(a, NOT(c))), d, a, b, c, 11, 10, 61);
  VSTEP(XOR(a, OR(d, NOT(b))), c, d, a, b, 2, 15, 62);
  VSTEP(XOR(d, OR(c, NOT(a))), b, c, d, a, 9, 21, 63);
  _mm256_store_si256(reinterpret_cast<__m256i*>(state[0]), ADD(a, a0));
  _mm256_store_si256(reinterpret_cast<__m256i*>(state[1]), ADD(b, b0));
  _mm256_store_si256(reinterpret_cast<__m256i*>(state[2]), ADD(c, c0));
  _mm256_store_si256(reinterpret_cast<__m256i*>(state[3]), ADD(d, d0));
}

#undef VSTEP
#undef ROTL
#undef ADD
#undef NOT
#undef OR
#undef AND
#undef XOR

void md5_lanes(const std::string_view* messages, size_t count, std::array<uint8_t, 16>* digests) {
  std::vector<uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
            [&](uint32_t x, uint32_t y) { return messages[x].size() > messages[y].size(); });
  alignas(32) uint32_t state[4][kLanes];
  BlockCursor cursor[kLanes];
  int64_t owner[kLanes];  // message index per lane, -1 when idle
  static const uint8_t kIdleBlock[64] = {};
  const uint8_t* blocks[kLanes];
  size_t next_message = 0;
  auto load = [&](int lane) {
    if (next_message == count) {
      owner[lane] = -1;
      return;
    }
    uint32_t m = order[next_message++];
    owner[lane] = m;
    cursor[lane].start(messages[m]);
    for (int i = 0; i < 4; ++i) state[i][lane] = kMd5Init[i];
  };
  for (int lane = 0; lane < kLanes; ++lane) load(lane);

  while (true) {
    int busy = 0;
    for (int lane = 0; lane < kLanes; ++lane) busy += owner[lane] >= 0;
    // Few lanes left and nothing queued: scalar is quicker than a mostly idle vector.
    if (busy <= 2 && next_message == count) break;
    for (int lane = 0; lane < kLanes; ++lane) {
      blocks[lane] = owner[lane] >= 0 ? cursor[lane].block() : kIdleBlock;
    }
    compress8(state, blocks);
    for (int lane = 0; lane < kLanes; ++lane) {
      if (owner[lane] < 0) continue;
      BlockCursor& c = cursor[lane];
      ++c.next;
      if (c.blocks_left() == 0) {
        uint32_t s[4] = {state[0][lane], state[1][lane], state[2][lane], state[3][lane]};
        digest_from_state(s, digests[owner[lane]]);
        load(lane);
      }
    }
  }
  for (int lane = 0; lane < kLanes; ++lane) {
    if (owner[lane] < 0) continue;
    uint32_t s[4] = {state[0][lane], state[1][lane], state[2][lane], state[3][lane]};
    BlockCursor& c = cursor[lane];
    for (; c.blocks_left() > 0; ++c.next) md5_compress(s, c.block());
    digest_from_state(s, digests[owner[lane]]);
  }
}

bool have_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
}

}  // namespace

void md5_many(const std::string_view* messages, size_t count, std::array<uint8_t, 16>* digests) {
  if (count >= 4 && have_avx2()) {
    md5_lanes(messages, count, digests);
    return;
  }
  for (size_t i = 0; i < count; ++i) md5_one(messages[i], digests[i]);
}

}  // namespace tlscope::parser
