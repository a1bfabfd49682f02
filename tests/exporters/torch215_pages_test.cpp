// PyTorch 2.14/2.15's records in the report, from fixtures/torch215.log (+ rank 1's file): the
// PGO profiles and the Dynamo cache on cache.html, collective buckets, overlap scheduler graphs
// and runtime estimates on collectives.html, the SPMD mismatch among its problems; a log without
// them shows none of these sections.
#include <catch2/catch.hpp>

#include "exporters/report_support.hpp"

namespace {

std::filesystem::path site_of(const std::string& name, const std::vector<std::string>& logs) {
  std::filesystem::path root = tlscope::test::fresh_scratch("exporters-tests", name);
  std::vector<std::string> inputs;
  for (size_t i = 0; i < logs.size(); ++i) {
    std::filesystem::path in = root / ("in" + std::to_string(i) + ".log");
    tlscope::test::spit(in, tlscope::test::slurp(logs[i]));
    inputs.push_back(in.string());
  }
  std::string db = (root / "in.db").string();
  tlscope::model::ingest(db, inputs);
  tlscope::exporters::ReportOptions options;
  options.db_path = db;
  options.out_dir = (root / "site").string();
  tlscope::exporters::ReportResult r = tlscope::exporters::write_report(options);
  INFO(r.error);
  REQUIRE(r.ok);
  return root / "site";
}

const std::string kFixtures = TLSCOPE_FIXTURES;

}  // namespace

TEST_CASE("cache.html and collectives.html show torch215.log's PGO, cache and scheduling") {
  const std::filesystem::path site =
      site_of("torch215", {kFixtures + "/torch215.log", kFixtures + "/torch215_rank1.log"});
  const std::string cache = tlscope::test::slurp(site / "cache.html");
  CHECK(cache.find("<h2>PGO profiles (3)</h2>") != std::string::npos);
  CHECK(tlscope::test::count_of(cache, "class=\"pgo-profile\"") == 3);
  CHECK(cache.find("loaded the local profile: 3 input(s) of 2 frame(s), 1 dynamic at compile "
                   "0/0") != std::string::npos);
  CHECK(cache.find("saved the remote profile: 4 input(s) of 3 frame(s), 3 dynamic") !=
        std::string::npos);
  // Log text is escaped: the sources' quotes and brackets.
  CHECK(cache.find(
            "TORCH_COMPILE_DYNAMIC_SOURCES=\"L[&#39;x&#39;],L[&#39;n&#39;],L[&#39;y&#39;]\"") !=
        std::string::npos);
  CHECK(cache.find("<h2>Dynamo cache (5)</h2>") != std::string::npos);
  CHECK(tlscope::test::count_of(cache, "data-outcome=\"saved\"") == 2);
  CHECK(cache.find("missing backend _backend_1") != std::string::npos);

  const std::string coll = tlscope::test::slurp(site / "collectives.html");
  CHECK(coll.find("<h3>Buckets (3)</h3>") != std::string::npos);
  CHECK(coll.find("all_gather_into_tensor, all_gather_into_tensor_1") != std::string::npos);
  CHECK(coll.find("<h3>Overlap scheduler graphs (2)</h3>") != std::string::npos);
  CHECK(coll.find("<td>+1 -1</td>") != std::string::npos);
  CHECK(coll.find("<h3>Collective runtime estimates (2)</h3>") != std::string::npos);
  CHECK(coll.find("<td>0.031</td>") != std::string::npos);
  CHECK(coll.find("compiled different graphs") != std::string::npos);
  CHECK(tlscope::test::broken_links(site).empty());
}

TEST_CASE("a log without those records: no PGO, Dynamo cache or scheduling sections") {
  const std::filesystem::path site =
      site_of("torch215_none", {std::string(TLSCOPE_SHARED_LOGS) + "/simple.log"});
  CHECK(tlscope::test::slurp(site / "cache.html").find("PGO profiles") == std::string::npos);
  CHECK(tlscope::test::slurp(site / "cache.html").find("Dynamo cache (") == std::string::npos);
  CHECK(tlscope::test::slurp(site / "collectives.html").find("overlap scheduling") ==
        std::string::npos);
}
