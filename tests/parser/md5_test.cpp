// MD5 against the RFC 1321 appendix A.5 test suite, and incremental updates against one-shot.
#include <catch2/catch.hpp>

#include "tlscope/parser/md5.hpp"

using tlscope::parser::Md5;

TEST_CASE("md5 matches the RFC 1321 test suite") {
  CHECK(Md5::hex_of("") == "d41d8cd98f00b204e9800998ecf8427e");
  CHECK(Md5::hex_of("a") == "0cc175b9c0f1b6a831c399e269772661");
  CHECK(Md5::hex_of("abc") == "900150983cd24fb0d6963f7d28e17f72");
  CHECK(Md5::hex_of("message digest") == "f96b697d7cb7938d525a2f31aaf161d0");
  CHECK(Md5::hex_of("abcdefghijklmnopqrstuvwxyz") == "c3fcd3d76192e4007dfb496cca67e13b");
  CHECK(Md5::hex_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") ==
        "d174ab98d277d9f5a5611c2c9f419d9f");
  CHECK(Md5::hex_of("1234567890123456789012345678901234567890123456789012345678901234567890123456"
                    "7890") == "57edf4a22be3c955ac49da2e2107b67a");
}

TEST_CASE("md5 gives the same digest however the input is split") {
  std::string text;
  for (int i = 0; i < 300; ++i) text += static_cast<char>('a' + (i * 7) % 26);
  // Lengths around the 55/56/64-byte padding boundaries are where splits go wrong.
  for (size_t len : {55u, 56u, 63u, 64u, 65u, 119u, 120u, 128u, 300u}) {
    std::string prefix = text.substr(0, len);
    std::string one_shot = Md5::hex_of(prefix);
    for (size_t cut = 0; cut <= len; cut += 7) {
      Md5 md5;
      md5.update(prefix.substr(0, cut));
      md5.update(prefix.substr(cut));
      REQUIRE(Md5::hex(md5.finish()) == one_shot);
    }
  }
}

TEST_CASE("md5 of a million 'a' fed in uneven pieces") {
  // The long-message vector from the MD5 test literature (also what `md5sum` prints).
  std::string piece(997, 'a');
  Md5 md5;
  size_t left = 1000000;
  while (left > 0) {
    size_t n = std::min(left, piece.size());
    md5.update(piece.data(), n);
    left -= n;
  }
  CHECK(Md5::hex(md5.finish()) == "7707d6ae4e027c70eea2a935c2296f21");
}
