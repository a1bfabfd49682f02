// The .tar.gz writer, checked with the system tar (a real reader, not ours).
#include <catch2/catch.hpp>

#include "rage_support.hpp"
#include "tlscope/exporters/rage/tar_gz.hpp"

using namespace rage_test;
using tlscope::exporters::rage::TarEntry;
using tlscope::exporters::rage::TarGzWriter;

TEST_CASE("tar.gz: GNU tar lists and extracts what the writer wrote, byte for byte") {
  fs::path dir = scratch("tar_roundtrip");
  // Sizes around the 512-byte block boundary, an empty file, and names past ustar's 100 and
  // 255 byte limits (the prefix split and the pax "path" record).
  std::string block(512, 'b');
  std::string big;
  for (int i = 0; i < 200000; ++i) big += static_cast<char>('a' + (i * 7) % 26);
  spit(dir / "big.bin", big);
  std::string deep = "top/" + std::string(90, 'd') + "/" + std::string(60, 'e') + "/file.txt";
  std::string very_long = "top/" + std::string(120, 'x') + "/" + std::string(150, 'y') + ".txt";
  REQUIRE(deep.size() > 100);
  REQUIRE(very_long.size() > 255);

  TarGzWriter tar;
  REQUIRE(tar.open((dir / "out.tar.gz").string()));
  TarEntry e1, e2, e3;
  CHECK(tar.add_bytes("top/empty.txt", "", &e1));
  CHECK(tar.add_bytes("top/block.txt", block, &e2));
  CHECK(tar.add_bytes(deep, "deep\n"));
  CHECK(tar.add_bytes(very_long, "long\n"));
  CHECK(tar.add_file("top/big.bin", (dir / "big.bin").string(), &e3));
  REQUIRE(tar.close());
  CHECK(e2.size == 512);
  CHECK(e3.size == big.size());
  CHECK(e3.md5 == tlscope::parser::Md5::hex_of(big));
  CHECK(e1.md5 == "d41d8cd98f00b204e9800998ecf8427e");  // MD5 of nothing

  Run list = sh(dir, "tar -tzf " + q((dir / "out.tar.gz").string()));
  REQUIRE(list.exit_code == 0);
  CHECK(lines_of(list.out) ==
        std::vector<std::string>{"top/empty.txt", "top/block.txt", deep, very_long, "top/big.bin"});
  CHECK(list.err.empty());  // no "unknown header" or checksum warnings

  fs::create_directories(dir / "x");
  REQUIRE(sh(dir, "tar -xzf " + q((dir / "out.tar.gz").string()) + " -C " + q((dir / "x").string()))
              .exit_code == 0);
  CHECK(slurp(dir / "x" / "top/empty.txt").empty());
  CHECK(slurp(dir / "x" / "top/block.txt") == block);
  CHECK(slurp(dir / "x" / deep) == "deep\n");
  CHECK(slurp(dir / "x" / very_long) == "long\n");
  CHECK(slurp(dir / "x" / "top/big.bin") == big);
}

TEST_CASE("tar.gz: unwritable destinations and missing sources fail with the path") {
  fs::path dir = scratch("tar_errors");
  TarGzWriter bad;
  std::string nowhere = (dir / "no_such_dir" / "out.tar.gz").string();
  CHECK_FALSE(bad.open(nowhere));
  CHECK(bad.error().find(nowhere) != std::string::npos);

  TarGzWriter tar;
  REQUIRE(tar.open((dir / "out.tar.gz").string()));
  std::string missing = (dir / "missing.log").string();
  CHECK_FALSE(tar.add_file("a/missing.log", missing));
  CHECK(tar.error().find(missing) != std::string::npos);
  CHECK_FALSE(tar.add_bytes("/absolute", "x"));
}

TEST_CASE("tar.gz: open never replaces a file or follows a symlink") {
  // Issue 12 defect 9: the archive was opened with gzopen("wb"), which writes through a symlink.
  fs::path dir = scratch("tar_exclusive");
  spit(dir / "victim.txt", "precious\n");
  fs::create_symlink(dir / "victim.txt", dir / "link.tar.gz");
  TarGzWriter through_link;
  CHECK_FALSE(through_link.open((dir / "link.tar.gz").string()));
  CHECK(through_link.error().find((dir / "link.tar.gz").string()) != std::string::npos);
  spit(dir / "existing.tar.gz", "keep\n");
  TarGzWriter over_file;
  CHECK_FALSE(over_file.open((dir / "existing.tar.gz").string()));
  CHECK(slurp(dir / "victim.txt") == "precious\n");
  CHECK(slurp(dir / "existing.tar.gz") == "keep\n");
}
