// Shared scenario-test helpers (see scenario_run.hpp).
#include "scenario_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace samples_test {

namespace fs = std::filesystem;

std::string with_int(const char* text, long long n) {
  std::string s = text;
  s += std::to_string(n);
  return s;
}

namespace {

// One folder per test process for every scenario it runs, removed when the process ends: a
// 4,096-rank run writes ~114 MB, and a test command that leaves them behind fills /tmp in a few
// dozen runs. TLRT_KEEP_TEST_DIRS=1 keeps it for a look after a failure.
struct ScratchRoot {
  fs::path path = fs::temp_directory_path() / with_int("tlrt_test_", ::getpid());
  ~ScratchRoot() {
    const char* keep = std::getenv("TLRT_KEEP_TEST_DIRS");
    if (keep && std::string(keep) == "1") return;
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

const fs::path& scratch_root() {
  static ScratchRoot root;
  return root.path;
}

}  // namespace

std::string fresh_dir(const std::string& name) {
  fs::path p = scratch_root() / name;
  fs::remove_all(p);
  return p.string();
}

JValue read_json_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  JValue v;
  std::string err;
  INFO(path);
  REQUIRE(check::parse_json(ss.str(), v, err));
  return v;
}

Run run(const std::string& name, tlrt::ScenarioOptions o) {
  o.out_dir = fresh_dir(name + with_int("_", static_cast<long long>(o.seed)));
  Run r;
  r.result = tlrt::run_scenario(name, o);
  r.truth = read_json_file(r.result.truth_path);
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(o.out_dir)) {
    if (e.path().extension() == ".log") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() == r.result.logs.size());
  for (const auto& f : r.result.logs) r.logs.push_back(check::read_log(f));
  return r;
}

void require_well_formed(const Run& r) {
  for (const auto& lc : r.logs) {
    for (const auto& e : lc.errors) FAIL_CHECK(e);
    CHECK(lc.errors.empty());
    CHECK(!lc.records.empty());
  }
}

std::vector<const check::Record*> artifacts(const check::LogCheck& lc, const std::string& name) {
  std::vector<const check::Record*> out;
  for (const auto& r : lc.records) {
    if (r.key != "artifact") continue;
    const JValue* a = r.envelope.get("artifact");
    if (a && a->get("name") && a->get("name")->str == name) out.push_back(&r);
  }
  return out;
}

std::vector<const check::Record*> events(const check::LogCheck& lc, const std::string& key) {
  std::vector<const check::Record*> out;
  for (const auto& r : lc.records) {
    if (r.key == key) out.push_back(&r);
  }
  return out;
}

JValue parse_payload(const check::Record& r) {
  JValue p;
  std::string err;
  INFO("line " << r.line_no << ": " << err);
  REQUIRE(check::parse_json(r.payload, p, err));
  return p;
}

std::vector<JValue> chromium_events(const check::LogCheck& lc) {
  std::vector<JValue> out;
  for (const auto* r : events(lc, "chromium_event")) out.push_back(parse_payload(*r));
  return out;
}

std::string compile_id(const check::Record& r) {
  return std::to_string(static_cast<int>(r.envelope.get("frame_id")->num)) + "/" +
         std::to_string(static_cast<int>(r.envelope.get("frame_compile_id")->num));
}

const JValue& section(const Run& r, const std::string& name) {
  const JValue* s = r.truth.get(name);
  INFO("truth.json section " << name);
  REQUIRE(s != nullptr);
  return *s;
}

void check_collectives_match(const Run& r) {
  for (size_t rank = 0; rank < r.logs.size(); ++rank) {
    std::vector<const JValue*> truth;
    for (const auto& c : section(r, "collectives").items) {
      if (static_cast<size_t>(c.get("rank")->num) == rank) truth.push_back(&c);
    }
    auto recs = artifacts(r.logs[rank], "collective_op");
    REQUIRE(recs.size() == truth.size());
    for (size_t i = 0; i < recs.size(); ++i) {
      JValue p = parse_payload(*recs[i]);
      CHECK(p.get("op")->str == truth[i]->get("op")->str);
      CHECK(p.get("collective_seq_id")->num == truth[i]->get("seq")->num);
      CHECK(p.get("pg_name")->str == truth[i]->get("pg_name")->str);
      CHECK(p.get("state")->str == truth[i]->get("state")->str);
      CHECK(p.get("time_completed_us")->num == truth[i]->get("end_us")->num);
      CHECK(p.get("time_completed_us")->num >= p.get("time_created_us")->num);
    }
  }
}

}  // namespace samples_test
