// The one way tlscope writes (model/safe_output.hpp): atomic files that replace links, private
// folders swapped in whole, clean-ups that spare what a live writer holds, private state folders.
#include "tlscope/model/safe_output.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>

#include <catch2/catch.hpp>

#include "common/scratch_files.hpp"

namespace fs = std::filesystem;
using namespace tlscope::model;
using tlscope::test::slurp;

namespace {

fs::path output_scratch(const std::string& name) {
  return tlscope::test::fresh_scratch("model_scratch", name);
}

void make_old(const fs::path& p) {
  fs::last_write_time(p, fs::file_time_type::clock::now() - std::chrono::hours(1));
}

size_t entries(const fs::path& dir) {
  return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

}  // namespace

TEST_CASE("safe output: an atomic file replaces a link at its target, never writes through it") {
  fs::path dir = output_scratch("atomic_link");
  std::ofstream(dir / "victim") << "precious";
  fs::create_symlink(dir / "victim", dir / "out.json");
  fs::create_symlink(dir / "victim", dir / "out.json.part");  // the old predictable name
  REQUIRE(write_file_atomically((dir / "out.json").string(), "new") == "");
  CHECK(slurp(dir / "victim") == "precious");
  CHECK_FALSE(fs::is_symlink(dir / "out.json"));
  CHECK(slurp(dir / "out.json") == "new");
  CHECK(entries(dir) == 3);  // victim, out.json, the planted link: no temporary left
}

TEST_CASE("safe output: an atomic file abandoned or failing leaves the old content") {
  fs::path dir = output_scratch("atomic_fail");
  std::ofstream(dir / "out") << "old";
  {
    AtomicFile f;
    REQUIRE(f.open((dir / "out").string()) == "");
    REQUIRE(f.write("half"));
  }  // destroyed without commit
  CHECK(slurp(dir / "out") == "old");
  CHECK(entries(dir) == 1);
  CHECK_FALSE(write_file_atomically((dir / "missing" / "out").string(), "x").empty());
  CHECK(write_error_text(ENOSPC).find("no space left") != std::string::npos);
  CHECK(write_error_text(EFBIG).find("ulimit -f") != std::string::npos);
}

TEST_CASE("safe output: a private folder is swapped in whole and the old one removed") {
  fs::path dir = output_scratch("folder_swap");
  fs::path target = dir / "rep";
  fs::create_directories(target / "compile");
  std::ofstream(target / "compile" / "stale.html") << "old page";
  PrivateFolder f;
  REQUIRE(f.create(target.string()) == "");
  CHECK((fs::status(f.path()).permissions() & fs::perms::all) == fs::perms::owner_all);
  std::ofstream(fs::path(f.path()) / "index.html") << "new";
  REQUIRE(f.publish(0755, [] { return std::string(); }) == "");
  CHECK(slurp(target / "index.html") == "new");
  CHECK_FALSE(fs::exists(target / "compile" / "stale.html"));
  CHECK(entries(dir) == 1);
  // A refusal at the swap keeps the folder there as it is.
  PrivateFolder refused;
  REQUIRE(refused.create(target.string()) == "");
  CHECK(refused.publish(0755, [] { return std::string("not a report"); }) != "");
  CHECK(slurp(target / "index.html") == "new");
}

TEST_CASE("safe output: a clean-up removes unheld leftovers only, never what a writer holds") {
  fs::path dir = output_scratch("stale");
  std::string target = (dir / "x.db").string();
  std::string prefix = temporary_prefix(target);
  CHECK(prefix == (dir / ".x.db.tlscope-tmp-").string());
  fs::path dead = prefix + "dead01", live = prefix + "live01", young = prefix + "young1";
  fs::path dead_folder = prefix + "dir001", unmarked_folder = prefix + "dir002";
  for (const fs::path& p : {dead, live, young}) std::ofstream(p) << "x";
  fs::create_directories(dead_folder);
  std::ofstream(dead_folder / ".tlscope-lock");
  fs::create_directories(unmarked_folder);  // no lock file: not provably tlscope's
  for (const fs::path& p : {dead, live, dead_folder, unmarked_folder}) make_old(p);
  int held = ::open(live.c_str(), O_RDONLY);
  REQUIRE(::flock(held, LOCK_EX) == 0);
  remove_stale_temporaries(target);
  CHECK_FALSE(fs::exists(dead));
  CHECK_FALSE(fs::exists(dead_folder));
  CHECK(fs::exists(live));
  CHECK(fs::exists(young));
  CHECK(fs::exists(unmarked_folder));
  ::close(held);
}

TEST_CASE("safe output: a state folder must be this user's own, private and no link") {
  fs::path dir = output_scratch("private_folder");
  fs::path made = dir / "a" / "b" / "tlscope";
  REQUIRE(ensure_private_folder(made.string()) == "");
  CHECK((fs::status(made).permissions() & fs::perms::all) == fs::perms::owner_all);
  CHECK((fs::status(dir / "a").permissions() & fs::perms::all) == fs::perms::owner_all);
  fs::create_directories(dir / "open");
  fs::permissions(dir / "open", fs::perms(0777));
  CHECK(ensure_private_folder((dir / "open").string()).find("writable by other users") !=
        std::string::npos);
  fs::create_directories(dir / "elsewhere");
  fs::permissions(dir / "elsewhere", fs::perms(0755));
  fs::create_directory_symlink(dir / "elsewhere", dir / "link");
  CHECK(ensure_private_folder((dir / "link").string()).find("symbolic link") != std::string::npos);
  CHECK((fs::status(dir / "elsewhere").permissions() & fs::perms::all) == fs::perms(0755));
  if (::geteuid() == 0) {
    fs::create_directories(dir / "theirs");
    REQUIRE(::chown((dir / "theirs").c_str(), 65534, 65534) == 0);
    CHECK(ensure_private_folder((dir / "theirs").string()).find("another user") !=
          std::string::npos);
    // Root may write anywhere: a state folder under another user's folder is still refused,
    // and nothing is made inside it.
    CHECK(ensure_private_folder((dir / "theirs" / "cache" / "tlscope").string())
              .find("owned by another user") != std::string::npos);
    CHECK(fs::is_empty(dir / "theirs"));
  }
  CHECK_FALSE(ensure_private_folder("relative/tlscope").empty());
}

TEST_CASE("safe output: user folders ignore relative values and never fall back to /tmp") {
  std::string saved_home = std::getenv("HOME") ? std::getenv("HOME") : "";
  const char* saved_cache = std::getenv("XDG_CACHE_HOME");
  std::string cache = saved_cache ? saved_cache : "";
  ::setenv("XDG_CACHE_HOME", "relative/cache", 1);
  ::setenv("HOME", "relative-home", 1);
  std::string folder = user_folder("cache");
  CHECK(folder.rfind("/tmp", 0) != 0);
  CHECK(folder.find("relative") == std::string::npos);
  ::setenv("XDG_CACHE_HOME", "/abs/cache", 1);
  CHECK(user_folder("cache") == "/abs/cache/tlscope");
  ::unsetenv("XDG_CACHE_HOME");
  std::string saved_state = std::getenv("XDG_STATE_HOME") ? std::getenv("XDG_STATE_HOME") : "";
  std::string saved_config = std::getenv("XDG_CONFIG_HOME") ? std::getenv("XDG_CONFIG_HOME") : "";
  ::unsetenv("XDG_STATE_HOME");
  ::unsetenv("XDG_CONFIG_HOME");
  ::setenv("HOME", "/home/someone", 1);
  CHECK(user_folder("cache") == "/home/someone/.cache/tlscope");
  CHECK(user_folder("state") == "/home/someone/.local/state/tlscope");
  CHECK(user_folder("config") == "/home/someone/.config/tlscope");
  ::setenv("HOME", saved_home.c_str(), 1);
  if (saved_cache) ::setenv("XDG_CACHE_HOME", cache.c_str(), 1);
  if (!saved_state.empty()) ::setenv("XDG_STATE_HOME", saved_state.c_str(), 1);
  if (!saved_config.empty()) ::setenv("XDG_CONFIG_HOME", saved_config.c_str(), 1);
}

TEST_CASE("safe output: paths resolve as the kernel does, .. after a link included") {
  fs::path dir = output_scratch("resolve");
  fs::create_directories(dir / "a" / "b");
  fs::create_directory_symlink(dir / "a" / "b", dir / "link");
  std::string real = fs::canonical(dir).string();
  CHECK(resolved_path((dir / "link" / ".." / "x.log").string()) == real + "/a/x.log");
  CHECK(resolved_path((dir / "link" / "new.db").string()) == real + "/a/b/new.db");
}
