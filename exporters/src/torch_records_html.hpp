// Report sections for PyTorch 2.14/2.15's compile-time records: the PGO profiles and Dynamo cache
// records (cache.html) and how Inductor bucketed and scheduled collectives (collectives.html).
// Each returns "" when the log has none of its records.
#pragma once

#include <string>

#include "site.hpp"

namespace tlscope::exporters {

std::string dynamo_profiles_html(ReportContext& ctx);
std::string collective_scheduling_html(ReportContext& ctx);

}  // namespace tlscope::exporters
