// See autotune_scan.hpp. simdjson's On-Demand API skips the values of fields it is not asked
// for, so a record costs its structural index and one look at each top-level name.
#include "autotune_scan.hpp"

#include <utility>

namespace tlscope::views {

namespace od = simdjson::ondemand;

namespace {

bool named_autotune(std::string_view key) {
  constexpr std::string_view kWord = "autotune";
  auto lower = [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c); };
  for (size_t i = 0; i + kWord.size() <= key.size(); ++i) {
    size_t k = 0;
    while (k < kWord.size() && lower(key[i + k]) == kWord[k]) ++k;
    if (k == kWord.size()) return true;
  }
  return false;
}

}  // namespace

bool AutotuneScan::may_hold_autotune(std::string_view json) {
  padded_.assign(json);
  padded_.resize(json.size() + simdjson::SIMDJSON_PADDING, ' ');
  od::document doc;
  if (parser_.iterate(padded_.data(), json.size(), padded_.size()).get(doc)) return true;
  od::object fields;
  if (doc.get_object().get(fields)) return true;
  for (auto result : fields) {
    od::field field;
    std::string_view key;
    if (std::move(result).get(field) || field.unescaped_key().get(key)) return true;
    if (!named_autotune(key)) continue;
    bool is_null = false;
    if (field.value().is_null().get(is_null) || !is_null) return true;
  }
  return false;
}

}  // namespace tlscope::views
