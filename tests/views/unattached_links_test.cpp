// load_unattached_links (index.html's list) gives exactly what CompileRuntimeReader's
// unattached_links() gives, without building the reader: the links with no compile id, in log
// order, with the file they came from.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "common/scratch_files.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/views/compile_runtime.hpp"

using namespace tlscope;

TEST_CASE("load_unattached_links: the links outside any compile, as the runtime reader has them") {
  std::filesystem::path dir = test::fresh_scratch("views_scratch", "unattached_links");
  std::filesystem::path log = dir / "links.log";
  test::spit(log,
             "V0516 11:47:27.930000 1397 torch/_dynamo/x.py:1] {\"link\": {\"name\": \"first\", "
             "\"url\": \"https://a.invalid/1\"}}\n"
             "V0516 11:47:27.931000 1397 torch/_dynamo/x.py:1] {\"link\": {\"name\": \"in 0/0\", "
             "\"url\": \"https://a.invalid/c\"}, \"frame_id\": 0, \"frame_compile_id\": 0, "
             "\"attempt\": 0}\n"
             "V0516 11:47:27.932000 1397 torch/_dynamo/x.py:1] {\"link\": {\"name\": \"second\", "
             "\"url\": \"https://a.invalid/2\"}}\n");
  std::string db_path = (dir / "run.db").string();
  model::ingest(db_path, {log.string()});
  REQUIRE(model::analysis::ensure_analysis(db_path).ok);

  views::Database db(db_path);
  REQUIRE(db.ok());
  auto loaded = views::load_unattached_links(db);
  REQUIRE(loaded.ok());
  const auto& links = loaded.value;
  REQUIRE(links.size() == 2);  // the compile's own link is on its page, not here
  CHECK(links[0].first == log.string());
  CHECK(links[0].second.name == "first");
  CHECK(links[0].second.url == "https://a.invalid/1");
  CHECK(links[0].second.line == 1);
  CHECK(links[1].second.name == "second");
  CHECK(links[1].second.line == 3);

  views::CompileRuntimeReader reader(db);
  const auto& expected = reader.unattached_links();
  REQUIRE(expected.size() == links.size());
  for (size_t i = 0; i < links.size(); ++i) {
    CHECK(links[i].first == expected[i].first);
    CHECK(links[i].second.name == expected[i].second.name);
    CHECK(links[i].second.url == expected[i].second.url);
    CHECK(links[i].second.line == expected[i].second.line);
  }
}
