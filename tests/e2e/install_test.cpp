// Installable: `cmake --install` puts the programs, the docs and the bash completion in a prefix,
// and `cpack -G DEB` builds a package whose tlscope runs (unpacked with dpkg -x, not installed).
#include <catch2/catch.hpp>

#include "everyday_support.hpp"

using namespace e2e;

TEST_CASE("install: cmake --install puts tlscope, tlscope-sample, docs and completion in P") {
  fs::path dir = scratch("install_prefix");
  fs::path prefix = dir / "p";
  RunResult install = run_line(dir, q(TLSCOPE_CMAKE) + " --install " + q(TLSCOPE_BINARY_DIR) +
                                        " --prefix " + q(prefix.string()));
  REQUIRE(install.exit_code == 0);
  for (const char* file :
       {"bin/tlscope", "bin/tlscope-sample", "share/doc/tlscope/README.md",
        "share/doc/tlscope/schema.md", "share/bash-completion/completions/tlscope"})
    CHECK(fs::exists(prefix / file));
  RunResult version = run_line(dir, q((prefix / "bin" / "tlscope").string()) + " --version");
  CHECK(version.exit_code == 0);
  CHECK(version.out == "tlscope 0.1.0\n");
  // The installed pair works together: the sample writes logs, tlscope reports them.
  RunResult run = run_line(dir, q((prefix / "bin" / "tlscope").string()) + " run -o rep -- " +
                                    q((prefix / "bin" / "tlscope-sample").string()) + " mlp");
  CHECK(run.exit_code == 0);
  CHECK(fs::exists(dir / "rep" / "index.html"));
#ifdef TLSCOPE_WITH_GUI
  // The viewer module is installed where the installed binary finds it (LIBDIR/tlscope).
  CHECK(fs::exists(prefix / "lib" / "tlscope" / "tlscope-viewer.so"));
  RunResult gui =
      run_line(dir, q((prefix / "bin" / "tlscope").string()) + " gui --bench-timeline 50");
  CHECK(gui.exit_code == 0);
  CHECK(gui.out.rfind("zones: 50 on ", 0) == 0);
#endif

  // The completion script knows every command and a nested command's options.
  std::string completion = q((prefix / "share/bash-completion/completions/tlscope").string());
  RunResult words = run_line(
      dir, "bash -c 'source " + completion +
               "; COMP_WORDS=(tlscope su); COMP_CWORD=1; _tlscope; echo \"${COMPREPLY[*]}\"; "
               "COMP_WORDS=(tlscope export chrome-trace --o); COMP_CWORD=3; _tlscope; "
               "echo \"${COMPREPLY[*]}\"; COMP_WORDS=(tlscope rage --comm); COMP_CWORD=2; "
               "_tlscope; echo \"${COMPREPLY[*]}\"'");
  CHECK(words.exit_code == 0);
  CHECK(words.out == "summary\n--out\n--commands --command\n");
}

TEST_CASE("install: cpack -G DEB builds a package whose tlscope runs") {
  fs::path dir = scratch("install_deb");
  RunResult pack = run_line(dir, "cd " + q(TLSCOPE_BINARY_DIR) + " && " + q(TLSCOPE_CPACK) +
                                     " -G DEB -B " + q((dir / "pkg").string()));
  REQUIRE(pack.exit_code == 0);
  auto debs = files_in(dir / "pkg", ".deb");
  REQUIRE(debs.size() == 1);
  CHECK(debs[0].filename() == "tlscope_0.1.0_amd64.deb");
  RunResult contents = run_line(dir, "dpkg-deb --contents " + q(debs[0].string()));
  REQUIRE(contents.exit_code == 0);
  for (const char* file :
       {"./usr/bin/tlscope\n", "./usr/bin/tlscope-sample\n",
        "./usr/share/bash-completion/completions/tlscope\n", "./usr/share/doc/tlscope/README.md\n"})
    CHECK(contains(contents.out, file));
  // The dependencies are the Debian library packages the build links.
  RunResult info = run_line(dir, "dpkg-deb --field " + q(debs[0].string()) + " Depends");
  CHECK(contains(info.out, "libsqlite3-0"));
  CHECK(contains(info.out, "libsimdjson"));
  CHECK(contains(info.out, "zlib1g"));
  RunResult unpack = run_line(dir, "dpkg -x " + q(debs[0].string()) + " root");
  REQUIRE(unpack.exit_code == 0);
  RunResult version = run_line(dir, "root/usr/bin/tlscope --version");
  CHECK(version.exit_code == 0);
  CHECK(version.out == "tlscope 0.1.0\n");
#ifdef TLSCOPE_WITH_GUI
  // The package carries the viewer module, and the viewer's libraries among its dependencies
  // (read off the module); the unpacked binary finds the module through ../lib/tlscope.
  CHECK(contains(contents.out, "./usr/lib/tlscope/tlscope-viewer.so\n"));
  CHECK(contains(info.out, "libglfw3"));
  RunResult gui = run_line(dir, "root/usr/bin/tlscope gui --bench-timeline 50");
  CHECK(gui.exit_code == 0);
  CHECK(gui.out.rfind("zones: 50 on ", 0) == 0);
#endif
  fs::remove_all(dir / "pkg" / "_CPack_Packages");  // the staging copy cpack leaves
}
