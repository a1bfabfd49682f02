// exporters/rage holds no SQL (issue 10: "No SQL outside model/ and views/"): the bundle's
// database work is model/redact_store's, called with a redactor callback.
#include <catch2/catch.hpp>

#include "rage_support.hpp"

using namespace rage_test;

TEST_CASE("rage layering: no SQL text in exporters/rage") {
  fs::path root = fs::path(TLSCOPE_SOURCE_DIR) / "exporters" / "rage";
  std::vector<fs::path> sources = files_under(root);
  REQUIRE(sources.size() > 10);
  for (const fs::path& f : sources) {
    std::string text = slurp(f);
    INFO(f.string());
    for (const char* sql : {"\"SELECT", "\"UPDATE", "\"INSERT", "\"DELETE", "\"CREATE", "\"VACUUM",
                            "\"PRAGMA", "\"BEGIN", "\"COMMIT", "sqlite3_exec", "sqlite3_prepare",
                            ".prepare(", ".exec(", "scalar_int("})
      CHECK(text.find(sql) == std::string::npos);
  }
}
