# Every dependency comes from a Debian package (scripts/setup.sh installs them); nothing is
# vendored or downloaded at build time.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)

pkg_check_modules(SIMDJSON REQUIRED IMPORTED_TARGET simdjson)
pkg_check_modules(SQLITE3 REQUIRED IMPORTED_TARGET sqlite3)
find_package(CLI11 CONFIG REQUIRED)
# JSON that the commands and the MCP server write and the MCP server reads (requests of any shape,
# log text of any bytes): a tested library escapes and validates better than hand-made code, and
# simdjson only reads.
find_package(nlohmann_json 3 CONFIG REQUIRED)

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

# A layer library from the .cpp files of the given folders. While a layer has no sources yet it is
# an INTERFACE library, so the rest of the tree still configures and builds.
function(tlscope_layer name)
  cmake_parse_arguments(L "" "" "DIRS;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  set(sources)
  foreach(dir ${L_DIRS})
    file(GLOB found CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${dir}/*.cpp)
    list(APPEND sources ${found})
  endforeach()
  if(sources)
    add_library(${name} STATIC ${sources})
    target_include_directories(${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
    target_link_libraries(${name} PUBLIC ${L_PUBLIC_DEPS} PRIVATE ${L_PRIVATE_DEPS})
  else()
    add_library(${name} INTERFACE)
    target_include_directories(${name} INTERFACE ${CMAKE_CURRENT_SOURCE_DIR}/include)
    target_link_libraries(${name} INTERFACE ${L_PUBLIC_DEPS} ${L_PRIVATE_DEPS})
  endif()
endfunction()

# Under the sanitizers the test build spends most of its time compiling, not running: test files
# (Catch2 macros), the CLI (CLI11) and the presentation layers are heavy to compile at -O1 and light
# to run. They are built at -O0 there (about half the compile time); the parser, the store and the
# sample runtime, which the tests run hard, keep the build type's optimisation.
function(tlscope_compile_light target)
  if(TLSCOPE_SANITIZE)
    target_compile_options(${target} PRIVATE -O0)
  endif()
endfunction()
