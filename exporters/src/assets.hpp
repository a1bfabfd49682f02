// The report's CSS/JS files, compiled in from exporters/assets/ (see embed_assets.cmake).
#pragma once

#include <span>
#include <string_view>

namespace tlscope::exporters {

struct Asset {
  std::string_view name;  // file name under DIR/assets/
  std::string_view text;
};

std::span<const Asset> report_assets();

}  // namespace tlscope::exporters
