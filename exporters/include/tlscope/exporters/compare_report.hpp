// `tlscope compare A B -o DIR`: the comparison as a static page, DIR/index.html with the report's
// stylesheet (DIR/assets/report.css), readable offline from file://. It draws views::Comparison,
// the model the terminal, markdown and JSON outputs draw.
#pragma once

#include <string>

#include "tlscope/views/compare.hpp"

namespace tlscope::exporters {

// Writes DIR/index.html and DIR/assets/report.css (DIR is created). "" on success, else a message
// naming the path that could not be written. `a` and `b` are the inputs as the user named them.
std::string write_compare_report(const views::Comparison& c, const std::string& a,
                                 const std::string& b, const std::string& dir);

}  // namespace tlscope::exporters
