// index.html's "Where this report came from" section, drawn from views::ReportProvenance.
#pragma once

#include <string>

#include "tlscope/views/report_provenance.hpp"

namespace tlscope::exporters {

std::string report_provenance_html(const views::ReportProvenance& p);

}  // namespace tlscope::exporters
