# Install rules shared by the whole tree and the Debian package (CPack's DEB generator).
#   cmake --install build --prefix P   -> P/bin/tlscope, P/bin/tlscope-sample, P/share/doc/tlscope,
#                                         P/share/bash-completion/completions/tlscope,
#                                         P/lib/tlscope/tlscope-viewer.so (the viewer, gui/)
#   cd build && cpack -G DEB           -> tlscope_<version>_<arch>.deb
# The programs install from their own CMakeLists (install(TARGETS ...)); the docs from here.
include(GNUInstallDirs)

install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
file(GLOB TLSCOPE_DOC_PAGES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${TLSCOPE_DOC_PAGES} DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME tlscope)
set(CPACK_PACKAGE_VENDOR "tlscope")
set(CPACK_PACKAGE_CONTACT "tlscope maintainers <tlscope@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "analysis of PyTorch torch.compile TORCH_TRACE logs: SQLite store, HTML report, viewer")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://localhost/tlscope")
# The runtime dependencies are read off the binaries by dpkg-shlibdeps (dpkg-dev, which
# build-essential brings): exactly the Debian library packages the build linked (libsqlite3-0,
# libsimdjson14, zlib1g, libglfw3, ...), with the versions this machine's libraries need.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# xdg-open for `--open`; a browser for the report.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "xdg-utils, chromium | firefox-esr")
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)  # fastest to build; the package is small either way
set(CPACK_STRIP_FILES ON)
# `cpack` installs what is built; it does not build the whole tree (the tests) first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
include(CPack)
