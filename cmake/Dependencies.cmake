# Every dependency comes from a Debian package (scripts/setup.sh installs them); nothing is
# vendored or downloaded at build time.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)

pkg_check_modules(SIMDJSON REQUIRED IMPORTED_TARGET simdjson)
pkg_check_modules(SQLITE3 REQUIRED IMPORTED_TARGET sqlite3)
find_package(CLI11 CONFIG REQUIRED)

if(TLSCOPE_GUI)
  # Debian's libimgui.a already contains the GLFW and OpenGL3 backends; pkg-config adds -lstb.
  pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui)
  find_package(glfw3 CONFIG REQUIRED)
  find_package(OpenGL REQUIRED)
endif()

if(TLSCOPE_TESTS)
  find_package(Catch2 2 CONFIG REQUIRED)
  include(Catch)
endif()
