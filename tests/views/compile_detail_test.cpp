// One compile's detail over a real log (simple.log: one compile, 0/0): its payloads by section in
// log order, its metrics, input tensor and cache outcome, as read off the log's envelopes.
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/model/sqlite.hpp"
#include "tlscope/views/compile_detail.hpp"

using namespace tlscope::views;

namespace {

std::string analysed_db(const std::string& log, const std::string& name) {
  std::string path = std::string(TLSCOPE_BINARY_DIR) + "/tests/" + name;
  std::filesystem::remove(path);
  tlscope::model::ingest(path, {std::string(TLSCOPE_SHARED_LOGS) + "/" + log});
  tlscope::model::Connection c(path, tlscope::model::OpenMode::kReadWrite);
  REQUIRE(tlscope::model::analysis::analyze(c.handle()).ok);
  return path;
}

}  // namespace

TEST_CASE("Compile detail of simple.log's one compile: sections, metrics, tensor, cache") {
  Database db(analysed_db("simple.log", "views_compile_detail.db"));
  REQUIRE(db.ok());
  auto rows = load_compile_rows(db);
  INFO(rows.error);
  REQUIRE(rows->size() == 1);
  const CompileRow& c = rows->at(0);
  CHECK(c.compile_id == "0/0");
  CHECK(c.status == "ok");
  CompileDetailReader reader(db);
  auto d = reader.read(c);
  INFO(d.error);
  REQUIRE(d.ok());
  std::map<PayloadSection, std::vector<std::string>> by_section;
  for (const PayloadEntry& e : d->payloads) by_section[e.section].push_back(e.title());
  // The log's graph envelopes, its one guard dump, its generated code (the output code and the
  // fx_graph_runnable artifact) and its other artifacts, each in log order.
  CHECK(by_section[PayloadSection::kGraphs] ==
        std::vector<std::string>{"dynamo_output_graph", "aot_inference_graph",
                                 "inductor_post_grad_graph"});
  CHECK(by_section[PayloadSection::kGuards] == std::vector<std::string>{"dynamo_cpp_guards_str"});
  CHECK(by_section[PayloadSection::kCode].size() == 2);
  CHECK(by_section[PayloadSection::kArtifacts].size() == 3);
  for (const PayloadEntry& e : d->payloads) {
    INFO(e.title());
    if (e.section == PayloadSection::kGraphs) CHECK(e.language == PayloadLanguage::kPython);
    if (e.section == PayloadSection::kArtifacts) CHECK(e.language == PayloadLanguage::kPlain);
    auto text = reader.payload_text(e.payload_id);
    CHECK(text.ok());
    CHECK(static_cast<int64_t>(text->size()) == e.size);
  }
  REQUIRE(d->metrics.size() == 1);
  CHECK(d->metrics[0].kind == "compilation_metrics");
  bool has_co_name = false;
  for (const MetricsField& f : d->metrics[0].fields) has_co_name |= f.name == "co_name";
  CHECK(has_co_name);
  REQUIRE(d->tensors.size() == 1);  // the one describe_tensor
  CHECK(d->tensors[0].dtype == "torch.float32");
  // fx_graph_cache_miss: the FX graph cache missed once.
  REQUIRE(d->cache.size() >= 1);
  CHECK(d->cache[0].cache == "fx_graph");
  CHECK(d->cache[0].result == "miss");
  auto missing = reader.payload_text(-5);
  CHECK_FALSE(missing.ok());
  CHECK(missing.error.find("views_compile_detail.db") != std::string::npos);
  auto dir = load_compile_directory(db, c.row);
  CHECK(dir->size() > d->payloads.size());  // dynamo_start and metrics carry no payload here
}

TEST_CASE("each compile row carries its cache outcome: rank 1 of the real 4-rank log") {
  // Read off the log: fx_graph and aotautograd hits for frame 0 compiles 0..9, a miss of one or
  // the other for compiles 10..14.
  const std::string path =
      analysed_db("multi_rank_logs/dedicated_log_torch_trace_rank_1.log", "views_compile_cache.db");
  Database db(path);
  auto rows = load_compile_rows(db);
  INFO(rows.error);
  REQUIRE(rows.ok());
  std::set<std::string> hits, misses, other;
  for (const CompileRow& c : rows.value) {
    if (c.cache_hit()) {
      hits.insert(c.compile_id);
    } else if (c.cache == "miss") {
      misses.insert(c.compile_id);
    } else {
      other.insert(c.compile_id + "=" + c.cache);
    }
  }
  std::set<std::string> want_hits, want_misses;
  for (int i = 0; i < 10; ++i) want_hits.insert("0/" + std::to_string(i));
  for (int i = 10; i < 15; ++i) want_misses.insert("0/" + std::to_string(i));
  CHECK(hits == want_hits);
  CHECK(misses == want_misses);
  for (const std::string& o : other) CHECK(o.substr(o.size() - 1) == "=");  // no lookup: ""
  // The slowest-compiles list reads the same column.
  auto slowest = load_slowest_compiles(db, 100);
  REQUIRE(slowest.ok());
  for (const CompileRow& c : slowest.value)
    CHECK(c.cache == (want_hits.count(c.compile_id)     ? "hit"
                      : want_misses.count(c.compile_id) ? "miss"
                                                        : ""));
}

TEST_CASE("an artifact's name is the compile directory's, however its metadata spells it") {
  // The reader reads the name from the metadata itself (compile_detail.cpp); the view's
  // json_extract is the reference, for the real metadata of simple.log's four artifacts and for
  // each odd spelling written over all of them.
  const std::string path = analysed_db("simple.log", "views_artifact_names.db");
  const char* spellings[] = {
      nullptr,  // as logged
      R"({"name": "tab\there \"quoted\" \u00e9", "encoding": "string"})",
      R"({"na\u006de": "escaped_key", "name": "second"})",
      R"({"name": "first", "name": "second"})",
      R"({"name": 7, "encoding": "json"})",
      R"({"name": null})",
      R"({"encoding": "string"})",
      R"({"name": {"nested": [1, 2]}})",
      R"([1, 2])",
      R"({"name": "fx_graph_runnable"})",
  };
  for (const char* metadata : spellings) {
    INFO((metadata ? metadata : "as logged"));
    if (metadata) {
      tlscope::model::Connection c(path, tlscope::model::OpenMode::kReadWrite);
      sqlite3_stmt* st = nullptr;
      REQUIRE(sqlite3_prepare_v2(c.handle(),
                                 "UPDATE events SET metadata = ?1 WHERE kind = "
                                 "'artifact' AND payload_id IS NOT NULL",
                                 -1, &st, nullptr) == SQLITE_OK);
      sqlite3_bind_text(st, 1, metadata, -1, SQLITE_STATIC);
      CHECK(sqlite3_step(st) == SQLITE_DONE);
      CHECK(sqlite3_changes(c.handle()) == 4);
      sqlite3_finalize(st);
    }
    Database db(path);
    REQUIRE(db.ok());
    auto rows = load_compile_rows(db);
    REQUIRE(rows->size() == 1);
    std::vector<std::string> expected;
    Statement view = db.prepare(
        "SELECT coalesce(name, '') FROM compile_directory WHERE compile_row = ?1 AND "
        "payload_id IS NOT NULL ORDER BY event_id");
    view.bind(1, rows->at(0).row);
    while (view.step()) expected.push_back(view.text(0));
    REQUIRE(view.error().empty());
    auto d = CompileDetailReader(db).read(rows->at(0));
    INFO(d.error);
    REQUIRE(d.ok());
    std::vector<std::string> names;
    for (const PayloadEntry& e : d->payloads) names.push_back(e.name);
    CHECK(names == expected);
    CHECK(expected.size() == 9);  // as the test above counts: 4 of them artifacts
  }
}

TEST_CASE("a reader of many compiles gives each the payloads it reads alone, in any order") {
  // From the second read on, the reader reads payload lists for a window of compile rows at once
  // (compile_detail.cpp); a reader made for one compile reads it alone. The 4-rank log's 24
  // compiles read forwards, backwards, jumping about and twice must get the lone reads' lists.
  Database db(analysed_db("multi_rank_logs", "views_compile_window.db"));
  REQUIRE(db.ok());
  auto rows = load_compile_rows(db);
  REQUIRE(rows->size() == 24);
  std::map<int64_t, std::vector<PayloadEntry>> alone;
  size_t artifacts = 0;
  for (const CompileRow& c : *rows) {
    auto d = load_compile_detail(db, c);
    REQUIRE(d.ok());
    alone[c.row] = d->payloads;
    for (const PayloadEntry& e : d->payloads) artifacts += e.kind == "artifact";
  }
  CHECK(artifacts > 24);  // names from the metadata, not only kinds
  std::vector<size_t> order;
  for (size_t i = 0; i < rows->size(); ++i) order.push_back(i);          // forwards
  for (size_t i = rows->size(); i-- > 0;) order.push_back(i);            // backwards
  for (size_t i : {0, 20, 5, 21, 3, 23, 23, 0, 12}) order.push_back(i);  // about, twice
  CompileDetailReader reader(db);
  for (size_t i : order) {
    const CompileRow& c = rows->at(i);
    INFO("compile row " << c.row);
    auto d = reader.read(c);
    REQUIRE(d.ok());
    const std::vector<PayloadEntry>& want = alone[c.row];
    REQUIRE(d->payloads.size() == want.size());
    for (size_t k = 0; k < want.size(); ++k) {
      const PayloadEntry &got = d->payloads[k], &w = want[k];
      CHECK(std::tie(got.event_id, got.line, got.attempt, got.payload_id, got.size, got.kind,
                     got.name) ==
            std::tie(w.event_id, w.line, w.attempt, w.payload_id, w.size, w.kind, w.name));
      CHECK(got.section == w.section);
      CHECK(got.language == w.language);
    }
  }
}
