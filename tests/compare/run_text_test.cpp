// Comparable text (views/run_text.hpp): what shifts between two processes of one program is
// replaced, what a changed guard changes is kept.
#include <catch2/catch.hpp>

#include "tlscope/views/run_text.hpp"

using tlscope::views::comparable_text;

TEST_CASE("comparable text: object ids, addresses, pids, temp paths and compile ids are cut") {
  CHECK(comparable_text("___check_obj_id(L['self'], 140234567890123)") ==
        comparable_text("___check_obj_id(L['self'], 139998877665544)"));
  CHECK(comparable_text("at 0x7f3a2b1c4d50 in pid 4242") ==
        comparable_text("at 0x7f00deadbeef in pid 31337"));
  CHECK(comparable_text("/tmp/torchinductor_u/ab/cab.py:12") ==
        comparable_text("/tmp/torchinductor_v/cd/dcd.py:12"));
  CHECK(comparable_text("0/3: tensor 'x' size mismatch") ==
        comparable_text("7/0: tensor 'x' size mismatch"));
}

TEST_CASE("comparable text: sizes, dtypes and expected/actual values stay") {
  CHECK(comparable_text("tensor 'x' size mismatch at index 0. expected 4, actual 8") ==
        "tensor 'x' size mismatch at index 0. expected 4, actual 8");
  CHECK(comparable_text("expected 4, actual 8") != comparable_text("expected 4, actual 6"));
  CHECK(comparable_text("dtype mismatch. expected Float, actual Double") !=
        comparable_text("dtype mismatch. expected Float, actual Half"));
  CHECK(comparable_text("L['step'] == 3.0") != comparable_text("L['step'] == 4.0"));
}

TEST_CASE("comparable text: a file a person named under /tmp keeps its name, its folders go") {
  // A checkout under /tmp (as CI's may be): the frame's file stays a fact, its folder does not.
  CHECK(comparable_text("/tmp/ci/main/samples/pairs.cpp:22") ==
        comparable_text("/tmp/tmp.Xk29ab/main/samples/pairs.cpp:22"));
  CHECK(comparable_text("/tmp/ci/main/samples/pairs.cpp:22").find("pairs.cpp:22") !=
        std::string::npos);
  CHECK(comparable_text("/tmp/a/pairs.cpp:22") != comparable_text("/tmp/a/model.py:22"));
  // A generated name (mkstemp's suffix, a hash) is cut with its folders.
  CHECK(comparable_text("/tmp/a/tmpx8k2l9.py:3") == comparable_text("/tmp/b/tmpq1w2e3.py:3"));
  CHECK(comparable_text("/tmp/a/c3f9a8e1b2.py:3") == comparable_text("/tmp/a/d4e5f6a7b8.py:3"));
}
