// `tlscope compare --format json`: a views::Comparison as the documented object (docs/json.md).
#pragma once

#include <string>

#include "tlscope/views/compare.hpp"

namespace tlscope::cli {

std::string compare_json(const views::Comparison& c);

}  // namespace tlscope::cli
