// Where each finding happened, for front ends that take a person there (the viewer's findings
// click-through): the collective (process group and sequence id), the compile, and the ranks on
// either side. A FindingRow says what; a FindingPlace says where.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

struct FindingPlace {
  std::string pg_name;  // "" when the finding is not about a collective
  int64_t seq = -1;     // the collective's sequence id in its group, -1 when none
  std::string compile_id;
  std::vector<int64_t> ranks, other_ranks;  // the finding's ranks and the ranks it is told against
  bool is_collective() const { return !pg_name.empty() && seq >= 0; }
  // "GROUP:SEQ", as `tlscope gui --select collective:GROUP:SEQ` takes it.
  std::string collective_key() const { return pg_name + ":" + std::to_string(seq); }
};

// By findings.id. Empty, without error, before analysis (no findings table).
Result<std::map<int64_t, FindingPlace>> load_finding_places(const Database& db);

}  // namespace tlscope::views
