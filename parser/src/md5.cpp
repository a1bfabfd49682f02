// MD5 (RFC 1321), incremental. Plain C++: the compiler keeps the four state words in registers and
// the rotations become single instructions, which is as fast as a scalar MD5 gets.
#include "tlscope/parser/md5.hpp"

#include <cstring>

namespace tlscope::parser {
namespace {

constexpr uint32_t kInit[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};

// T[i] = floor(abs(sin(i + 1)) * 2^32), RFC 1321 section 3.4.
constexpr uint32_t kT[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};

inline uint32_t rotl(uint32_t x, int s) { return (x << s) | (x >> (32 - s)); }

inline uint32_t load_le32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap32(v);
#endif
  return v;
}

}  // namespace

Md5::Md5() : a_(kInit[0]), b_(kInit[1]), c_(kInit[2]), d_(kInit[3]) {}

void Md5::block(const uint8_t* p) {
  uint32_t x[16];
  for (int i = 0; i < 16; ++i) x[i] = load_le32(p + 4 * i);
  uint32_t a = a_, b = b_, c = c_, d = d_;

  // The 64 steps of RFC 1321 section 3.4, unrolled so every message index and constant is fixed:
  // a = b + rotl(a + f(b,c,d) + X[k] + T[i], s). The round functions are written in forms with
  // fewer operations than the RFC's, with the same values.
#define TLSCOPE_MD5_STEP(f, a, b, c, d, k, s, i) a = b + rotl(a + (f) + x[k] + kT[i], s)
  // Round 1: F(b,c,d) = (b & c) | (~b & d).
  TLSCOPE_MD5_STEP(d ^ (b & (c ^ d)), a, b, c, d, 0, 7, 0);
  TLSCOPE_MD5_STEP(c ^ (a & (b ^ c)), d, a, b, c, 1, 12, 1);
  TLSCOPE_MD5_STEP(b ^ (d & (a ^ b)), c, d, a, b, 2, 17, 2);
  TLSCOPE_MD5_STEP(a ^ (c & (d ^ a)), b, c, d, a, 3, 22, 3);
  TLSCOPE_MD5_STEP(d ^ (b & (c ^ d)), a, b, c, d, 4, 7, 4);
  TLSCOPE_MD5_STEP(c ^ (a & (b ^ c)), d, a, b, c, 5, 12, 5);
  TLSCOPE_MD5_STEP(b ^ (d & (a ^ b)), c, d, a, b, 6, 17, 6);
  TLSCOPE_MD5_STEP(a ^ (c & (d ^ a)), b, c, d, a, 7, 22, 7);
  TLSCOPE_MD5_STEP(d ^ (b & (c ^ d)), a, b, c, d, 8, 7, 8);
  TLSCOPE_MD5_STEP(c ^ (a & (b ^ c)), d, a, b, c, 9, 12, 9);
  TLSCOPE_MD5_STEP(b ^ (d & (a ^ b)), c, d, a, b, 10, 17, 10);
  TLSCOPE_MD5_STEP(a ^ (c & (d ^ a)), b, c, d, a, 11, 22, 11);
  TLSCOPE_MD5_STEP(d ^ (b & (c ^ d)), a, b, c, d, 12, 7, 12);
  TLSCOPE_MD5_STEP(c ^ (a & (b ^ c)), d, a, b, c, 13, 12, 13);
  TLSCOPE_MD5_STEP(b ^ (d & (a ^ b)), c, d, a, b, 14, 17, 14);
  TLSCOPE_MD5_STEP(a ^ (c & (d ^ a)), b, c, d, a, 15, 22, 15);
  // Round 2: G(b,c,d) = (b & d) | (c & ~d).
  TLSCOPE_MD5_STEP(c ^ (d & (b ^ c)), a, b, c, d, 1, 5, 16);
  TLSCOPE_MD5_STEP(b ^ (c & (a ^ b)), d, a, b, c, 6, 9, 17);
  TLSCOPE_MD5_STEP(a ^ (b & (d ^ a)), c, d, a, b, 11, 14, 18);
  TLSCOPE_MD5_STEP(d ^ (a & (c ^ d)), b, c, d, a, 0, 20, 19);
  TLSCOPE_MD5_STEP(c ^ (d & (b ^ c)), a, b, c, d, 5, 5, 20);
  TLSCOPE_MD5_STEP(b ^ (c & (a ^ b)), d, a, b, c, 10, 9, 21);
  TLSCOPE_MD5_STEP(a ^ (b & (d ^ a)), c, d, a, b, 15, 14, 22);
  TLSCOPE_MD5_STEP(d ^ (a & (c ^ d)), b, c, d, a, 4, 20, 23);
  TLSCOPE_MD5_STEP(c ^ (d & (b ^ c)), a, b, c, d, 9, 5, 24);
  TLSCOPE_MD5_STEP(b ^ (c & (a ^ b)), d, a, b, c, 14, 9, 25);
  TLSCOPE_MD5_STEP(a ^ (b & (d ^ a)), c, d, a, b, 3, 14, 26);
  TLSCOPE_MD5_STEP(d ^ (a & (c ^ d)), b, c, d, a, 8, 20, 27);
  TLSCOPE_MD5_STEP(c ^ (d & (b ^ c)), a, b, c, d, 13, 5, 28);
  TLSCOPE_MD5_STEP(b ^ (c & (a ^ b)), d, a, b, c, 2, 9, 29);
  TLSCOPE_MD5_STEP(a ^ (b & (d ^ a)), c, d, a, b, 7, 14, 30);
  TLSCOPE_MD5_STEP(d ^ (a & (c ^ d)), b, c, d, a, 12, 20, 31);
  // Round 3: H(b,c,d) = b ^ c ^ d.
  TLSCOPE_MD5_STEP(b ^ c ^ d, a, b, c, d, 5, 4, 32);
  TLSCOPE_MD5_STEP(a ^ b ^ c, d, a, b, c, 8, 11, 33);
  TLSCOPE_MD5_STEP(d ^ a ^ b, c, d, a, b, 11, 16, 34);
  TLSCOPE_MD5_STEP(c ^ d ^ a, b, c, d, a, 14, 23, 35);
  TLSCOPE_MD5_STEP(b ^ c ^ d, a, b, c, d, 1, 4, 36);
  TLSCOPE_MD5_STEP(a ^ b ^ c, d, a, b, c, 4, 11, 37);
  TLSCOPE_MD5_STEP(d ^ a ^ b, c, d, a, b, 7, 16, 38);
  TLSCOPE_MD5_STEP(c ^ d ^ a, b, c, d, a, 10, 23, 39);
  TLSCOPE_MD5_STEP(b ^ c ^ d, a, b, c, d, 13, 4, 40);
  TLSCOPE_MD5_STEP(a ^ b ^ c, d, a, b, c, 0, 11, 41);
  TLSCOPE_MD5_STEP(d ^ a ^ b, c, d, a, b, 3, 16, 42);
  TLSCOPE_MD5_STEP(c ^ d ^ a, b, c, d, a, 6, 23, 43);
  TLSCOPE_MD5_STEP(b ^ c ^ d, a, b, c, d, 9, 4, 44);
  TLSCOPE_MD5_STEP(a ^ b ^ c, d, a, b, c, 12, 11, 45);
  TLSCOPE_MD5_STEP(d ^ a ^ b, c, d, a, b, 15, 16, 46);
  TLSCOPE_MD5_STEP(c ^ d ^ a, b, c, d, a, 2, 23, 47);
  // Round 4: I(b,c,d) = c ^ (b | ~d).
  TLSCOPE_MD5_STEP(c ^ (b | ~d), a, b, c, d, 0, 6, 48);
  TLSCOPE_MD5_STEP(b ^ (a | ~c), d, a, b, c, 7, 10, 49);
  TLSCOPE_MD5_STEP(a ^ (d | ~b), c, d, a, b, 14, 15, 50);
  TLSCOPE_MD5_STEP(d ^ (c | ~a), b, c, d, a, 5, 21, 51);
  TLSCOPE_MD5_STEP(c ^ (b | ~d), a, b, c, d, 12, 6, 52);
  TLSCOPE_MD5_STEP(b ^ (a | ~c), d, a, b, c, 3, 10, 53);
  TLSCOPE_MD5_STEP(a ^ (d | ~b), c, d, a, b, 10, 15, 54);
  TLSCOPE_MD5_STEP(d ^ (c | ~a), b, c, d, a, 1, 21, 55);
  TLSCOPE_MD5_STEP(c ^ (b | ~d), a, b, c, d, 8, 6, 56);
  TLSCOPE_MD5_STEP(b ^ (a | ~c), d, a, b, c, 15, 10, 57);
  TLSCOPE_MD5_STEP(a ^ (d | ~b), c, d, a, b, 6, 15, 58);
  TLSCOPE_MD5_STEP(d ^ (c | ~a), b, c, d, a, 13, 21, 59);
  TLSCOPE_MD5_STEP(c ^ (b | ~d), a, b, c, d, 4, 6, 60);
  TLSCOPE_MD5_STEP(b ^ (a | ~c), d, a, b, c, 11, 10, 61);
  TLSCOPE_MD5_STEP(a ^ (d | ~b), c, d, a, b, 2, 15, 62);
  TLSCOPE_MD5_STEP(d ^ (c | ~a), b, c, d, a, 9, 21, 63);
#undef TLSCOPE_MD5_STEP

  a_ += a;
  b_ += b;
  c_ += c;
  d_ += d;
}

void Md5::update(const void* data, size_t len) {
  const auto* p = static_cast<const uint8_t*>(data);
  length_ += len;
  if (buffered_ > 0) {
    size_t take = 64 - buffered_;
    if (take > len) take = len;
    std::memcpy(buffer_ + buffered_, p, take);
    buffered_ += take;
    p += take;
    len -= take;
    if (buffered_ < 64) return;
    block(buffer_);
    buffered_ = 0;
  }
  for (; len >= 64; p += 64, len -= 64) block(p);
  if (len > 0) {
    std::memcpy(buffer_, p, len);
    buffered_ = len;
  }
}

std::array<uint8_t, 16> Md5::finish() {
  // Padding: a 1 bit, zeros up to 56 mod 64 bytes, then the bit length as 64-bit little endian.
  uint64_t bits = length_ * 8;
  uint8_t pad[72] = {0x80};
  size_t pad_len = (buffered_ < 56) ? (56 - buffered_) : (120 - buffered_);
  for (int i = 0; i < 8; ++i) pad[pad_len + i] = static_cast<uint8_t>(bits >> (8 * i));
  update(pad, pad_len + 8);

  std::array<uint8_t, 16> out{};
  const uint32_t words[4] = {a_, b_, c_, d_};
  for (int w = 0; w < 4; ++w)
    for (int i = 0; i < 4; ++i) out[4 * w + i] = static_cast<uint8_t>(words[w] >> (8 * i));
  *this = Md5();
  return out;
}

std::string Md5::hex(const std::array<uint8_t, 16>& digest) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s(32, '0');
  for (int i = 0; i < 16; ++i) {
    s[2 * i] = kDigits[digest[i] >> 4];
    s[2 * i + 1] = kDigits[digest[i] & 15];
  }
  return s;
}

std::string Md5::hex_of(std::string_view s) {
  Md5 md5;
  md5.update(s);
  return hex(md5.finish());
}

}  // namespace tlscope::parser
