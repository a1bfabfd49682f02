// Every input in tests/fuzz_regressions/ (what the fuzz targets once crashed on, and the issue's
// hostile records) replayed through both targets' code: parser alone, and parser + store into an
// in-memory database. A crash, a sanitizer report or a broken invariant fails the suite.
#include <catch2/catch.hpp>
#include <filesystem>

#include "common/scratch_files.hpp"
#include "fuzz_one_input.hpp"

namespace fs = std::filesystem;

TEST_CASE("fuzz regressions: every recorded input parses and stores") {
  fs::path dir = fs::path(TLSCOPE_SOURCE_DIR) / "tests" / "fuzz_regressions";
  std::vector<fs::path> inputs;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().filename() != "README.md")
      inputs.push_back(entry.path());
  std::sort(inputs.begin(), inputs.end());
  REQUIRE(inputs.size() >= 2);
  for (const fs::path& input : inputs) {
    INFO(input.filename().string());
    std::string bytes = tlscope::test::slurp(input);
    tlscope::fuzz::parse_bytes(bytes);
    tlscope::fuzz::store_bytes(bytes);
    SUCCEED();
  }
}
