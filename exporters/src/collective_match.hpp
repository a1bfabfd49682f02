// Collective records (docs/collectives-format.md) read back from the database and matched across
// ranks by (pg_name, collective_seq_id), with desyncs, hangs, missing ranks and stragglers marked.
// The report uses these when the analysis tables are absent.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sqlite_query.hpp"

namespace tlscope::exporters {

struct CollectiveRecord {
  int64_t rank = -1;
  std::string pg_name, pg_desc, op, sizes, dtype, state, compile_id;
  int64_t seq = 0, bytes = 0, pg_size = 0;
  std::vector<int64_t> pg_ranks;
  double created = 0, started = 0, completed = 0;
  std::string flag = "ok";  // ok | desync | hang | straggler
  std::string note;
};

struct CollectiveGroup {  // one (pg_name, seq): the same collective on every rank of the group
  std::string pg_name;
  int64_t seq = 0;
  std::vector<size_t> members;         // indices into records
  std::vector<int64_t> missing_ranks;  // ranks of pg_ranks with no record
  bool desync = false, hang = false, straggler = false;
};

struct CollectiveSet {
  std::vector<CollectiveRecord> records;
  std::vector<CollectiveGroup> groups;
  int64_t desyncs = 0, hangs = 0, stragglers = 0, missing = 0;
};

// Reads every collective_op artifact and matches them. A rank whose arrival is this much later
// than the first rank's (and more than half the group's span) is a straggler.
CollectiveSet load_collectives(const Database& db, double straggler_us = 5000);

}  // namespace tlscope::exporters
