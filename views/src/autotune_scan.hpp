// Which compile-time metrics records CompileRuntimeReader has to hand to SQLite's JSON functions
// for their autotune fields: most records of a long run hold those fields null, and parsing every
// record in SQL was the reader's whole cost on a 1 GB log.
#pragma once

#include <string>
#include <string_view>

#include <simdjson.h>

namespace tlscope::views {

class AutotuneScan {
 public:
  // False only when `json` is an object none of whose top-level fields is named like
  // '%autotune%' (ASCII case ignored, as SQLite's LIKE) with a non-null value: then the reader's
  // query would return nothing for it. Anything simdjson cannot read says true (SQLite decides).
  bool may_hold_autotune(std::string_view json);

 private:
  simdjson::ondemand::parser parser_;
  std::string padded_;  // the record with simdjson's padding; reused
};

}  // namespace tlscope::views
