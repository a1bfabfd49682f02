// The input cache's identity of a set of logs (model/input_cache.hpp): which file names a set of
// inputs, when it is stale, and what is refused before anything is written.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>

#include "common/scratch_files.hpp"
#include "tlscope/model/input_cache.hpp"

namespace fs = std::filesystem;
using namespace tlscope::model;

namespace {

fs::path write_log(const fs::path& dir, const std::string& name, const std::string& text) {
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  return dir / name;
}

}  // namespace

TEST_CASE("input cache: the name follows the input paths, the content key their size and mtime") {
  fs::path dir = tlscope::test::fresh_scratch("model_scratch", "input_identity");
  fs::path a = write_log(dir, "a.log", "x\n");
  fs::path b = write_log(dir, "b.log", "y\n");
  InputIdentity ab = identify_inputs({a.string(), b.string()});
  REQUIRE(ab.problems.empty());
  CHECK(ab.files == std::vector<std::string>{a.string(), b.string()});
  CHECK(ab.name_key.size() == 32);
  InputIdentity again = identify_inputs({a.string(), b.string()});
  CHECK(again.name_key == ab.name_key);
  CHECK(again.content_key == ab.content_key);
  // Relative and absolute spellings of one path are one input.
  fs::path cwd = fs::current_path();
  fs::current_path(dir);
  InputIdentity relative = identify_inputs({"a.log", "./b.log"});
  fs::current_path(cwd);
  CHECK(relative.name_key == ab.name_key);
  CHECK(identify_inputs({b.string(), a.string()}).name_key != ab.name_key);
  CHECK(identify_inputs({a.string()}).name_key != ab.name_key);

  // A changed file keeps the name and changes the content key.
  fs::last_write_time(a, fs::last_write_time(a) - std::chrono::seconds(10));
  InputIdentity touched = identify_inputs({a.string(), b.string()});
  CHECK(touched.name_key == ab.name_key);
  CHECK(touched.content_key != ab.content_key);
  { std::ofstream(b, std::ios::app) << "more\n"; }
  CHECK(identify_inputs({a.string(), b.string()}).content_key != touched.content_key);
  CHECK(cached_database_path(ab) == input_cache_dir() + "/" + ab.name_key + ".db");
}

TEST_CASE("input cache: a rank directory is its log files, missing inputs and stdin are refused") {
  fs::path dir = tlscope::test::fresh_scratch("model_scratch", "input_problems");
  fs::path ranks = dir / "trace";
  write_log(ranks, "dedicated_log_torch_trace_rank_1_x.log", "1\n");
  write_log(ranks, "dedicated_log_torch_trace_rank_0_y.log", "0\n");
  write_log(ranks, "notes.txt", "not a log\n");
  InputIdentity id = identify_inputs({ranks.string()});
  REQUIRE(id.problems.empty());
  REQUIRE(id.files.size() == 2);
  CHECK(fs::path(id.files[0]).filename() == "dedicated_log_torch_trace_rank_0_y.log");
  // A new rank file changes the content key, not the name.
  InputIdentity before = id;
  write_log(ranks, "dedicated_log_torch_trace_rank_2_z.log", "2\n");
  id = identify_inputs({ranks.string()});
  CHECK(id.name_key == before.name_key);
  CHECK(id.content_key != before.content_key);

  InputIdentity missing = identify_inputs({"no/such.log"});
  REQUIRE(missing.problems.size() == 1);
  CHECK(missing.problems[0] == "no/such.log: no such file or directory");
  CHECK(identify_inputs({"-"}).problems.at(0).rfind("-: standard input cannot be cached", 0) == 0);

  // resolve refuses them without creating the cache folder or any database.
  setenv("XDG_CACHE_HOME", (dir / "cache").c_str(), 1);
  ResolvedDatabase r = resolve_input_database({"no/such.log"});
  CHECK_FALSE(r.ok);
  CHECK(r.error == "no/such.log: no such file or directory");
  CHECK_FALSE(fs::exists(dir / "cache"));
  unsetenv("XDG_CACHE_HOME");
}
