// The multi-rank parity sections: "Collectives parity" (collectives.html) and "Graph runtime
// across ranks" (ranks.html), drawn from their view models. Each returns the section's HTML; rows
// past `rows` are left to the section's own pages.
#pragma once

#include <string>

#include "site.hpp"
#include "tlscope/views/collective_parity.hpp"
#include "tlscope/views/graph_runtimes.hpp"

namespace tlscope::exporters {

std::string collective_parity_html(ReportContext& ctx);
std::string graph_runtimes_html(ReportContext& ctx);

}  // namespace tlscope::exporters
