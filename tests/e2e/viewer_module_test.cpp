// `tlscope gui` loads the viewer as a module (tlscope-viewer.so, cli/viewer_loader.cpp): the
// binary itself does not link the viewer's libraries, the module is found beside it, and a
// missing, broken or stale module is refused with a message naming it (exit 2), never called.
#ifdef TLSCOPE_WITH_GUI
#include <catch2/catch.hpp>

#include "everyday_support.hpp"

using namespace e2e;

namespace {

const std::string kModule = std::string(TLSCOPE_BINARY_DIR) + "/cli/tlscope-viewer.so";

// The NEEDED entries of an ELF file, one per line, as readelf prints them.
std::string needed_libraries(const fs::path& dir, const std::string& file) {
  RunResult r = run_line(dir, "readelf -d " + q(file) + " | grep NEEDED");
  REQUIRE(r.exit_code == 0);
  return r.out;
}

// A copy of the built binary alone in dir/bin, with `module_file` (if any) beside it.
fs::path lone_binary(const fs::path& dir, const std::string& module_file = "") {
  fs::create_directories(dir / "bin");
  fs::copy_file(kTlscope, dir / "bin" / "tlscope");
  if (!module_file.empty()) fs::copy_file(module_file, dir / "bin" / "tlscope-viewer.so");
  return dir / "bin" / "tlscope";
}

}  // namespace

TEST_CASE("viewer module: tlscope links no viewer library, the module it loads does") {
  fs::path dir = scratch("viewer_module_needed");
  std::string binary = needed_libraries(dir, kTlscope);
  CHECK(contains(binary, "libsqlite3"));  // the reading shows the check can see a library
  for (const char* lib : {"libglfw", "libOpenGL", "libGL.", "libX11", "libstb"})
    CHECK_FALSE(contains(binary, lib));
  std::string module = needed_libraries(dir, kModule);
  CHECK(contains(module, "libglfw"));
  CHECK(contains(module, "libOpenGL"));

  // `tlscope gui` reaches the viewer's code through the module (the timeline bench needs no
  // window): its first line names the zones asked for.
  RunResult bench = tlscope_in(dir, "gui --bench-timeline 500");
  CHECK(bench.exit_code == 0);
  CHECK(bench.out.rfind("zones: 500 on ", 0) == 0);
}

TEST_CASE("viewer module: without its module, tlscope gui says where it looked and exits 2") {
  fs::path dir = scratch("viewer_module_missing");
  fs::path binary = lone_binary(dir);
  RunResult gui = run_line(dir, q(binary.string()) + " gui --bench-timeline 10");
  CHECK(gui.exit_code == 2);
  CHECK(gui.out.empty());
  CHECK(contains(gui.err, "tlscope-viewer.so is not installed"));
  CHECK(contains(gui.err, (dir / "bin" / "tlscope-viewer.so").string()));
  CHECK(contains(gui.err, (dir / "lib" / "tlscope" / "tlscope-viewer.so").string()));
  // Every other command works without it.
  RunResult version = run_line(dir, q(binary.string()) + " --version");
  CHECK(version.exit_code == 0);
  CHECK(version.out == "tlscope 0.1.0\n");
}

TEST_CASE("viewer module: a module that is not one, or from another build, is refused") {
  fs::path dir = scratch("viewer_module_refused");
  SECTION("not a shared object") {
    fs::path bad = dir / "garbage.so";
    fs::create_directories(dir);
    std::ofstream(bad) << "not an ELF file\n";
    fs::path binary = lone_binary(dir, bad.string());
    RunResult gui = run_line(dir, q(binary.string()) + " gui --bench-timeline 10");
    CHECK(gui.exit_code == 2);
    CHECK(contains(gui.err, "cannot load the viewer module " + (dir / "bin").string()));
  }
  SECTION("a shared object without the entry point") {
    RunResult libz = run_line(dir, "ldconfig -p | awk '/libz.so.1 .*x86-64/ { print $NF; exit }'");
    REQUIRE(libz.exit_code == 0);
    std::string libz_path = libz.out.substr(0, libz.out.find('\n'));
    REQUIRE(fs::exists(libz_path));
    fs::path binary = lone_binary(dir, libz_path);
    RunResult gui = run_line(dir, q(binary.string()) + " gui --bench-timeline 10");
    CHECK(gui.exit_code == 2);
    CHECK(contains(gui.err, "is not a tlscope viewer module (no tlscope_viewer_module)"));
  }
  SECTION("another build's module (its entry points abort if called)") {
    fs::path binary = lone_binary(dir, TLSCOPE_STALE_VIEWER_MODULE);
    RunResult gui = run_line(dir, q(binary.string()) + " gui --bench-timeline 10");
    CHECK(gui.exit_code == 2);
    CHECK(contains(gui.err, "is from another build (tlscope 0.0.0-stale) than this tlscope 0.1.0"));
  }
}
#endif  // TLSCOPE_WITH_GUI
