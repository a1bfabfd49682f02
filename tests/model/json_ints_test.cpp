// The one JSON integer-list reader (model/json_ints.hpp): signed, tolerant of spacing.
#include <catch2/catch.hpp>

#include "tlscope/model/json_ints.hpp"

using tlscope::model::json_int_list;
using Ints = std::vector<int64_t>;

TEST_CASE("json ints: SQLite's and Python's spellings of a list read alike") {
  CHECK(json_int_list("[0,2]") == Ints{0, 2});
  CHECK(json_int_list("[0, 1, 2]") == Ints{0, 1, 2});
  CHECK(json_int_list("[]").empty());
  CHECK(json_int_list("").empty());
  CHECK(json_int_list("[[4, 4], [8]]") == Ints{4, 4, 8});
}

TEST_CASE("json ints: a minus sign belongs to the number after it") {
  CHECK(json_int_list("[-1, 3, -20]") == Ints{-1, 3, -20});
  // A '-' not followed by a digit is not a sign, and does not carry over to the next number.
  CHECK(json_int_list("[- 4, 5-]") == Ints{4, 5});
  CHECK(json_int_list("[-9223372036854775808]") == Ints{INT64_MIN});
}
