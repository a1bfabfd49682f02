// Matching a finding against the known-causes table (finding_causes.hpp).
#include "tlscope/views/finding_causes.hpp"

#include "tlscope/model/analysis/finding_kinds.hpp"

namespace tlscope::views {

namespace {

bool matches(std::string_view pattern, std::string_view text) {
  while (!pattern.empty()) {
    size_t bar = pattern.find('|');
    std::string_view alt = pattern.substr(0, bar);
    if (!alt.empty() && text.find(alt) != std::string_view::npos) return true;
    if (bar == std::string_view::npos) break;
    pattern.remove_prefix(bar + 1);
  }
  return false;
}

}  // namespace

FindingHint hint_for(std::string_view kind, std::string_view text) {
  const FindingCause* kind_row = nullptr;
  for (const FindingCause& c : kFindingCauses) {
    if (c.kind != kind) continue;
    if (c.pattern.empty()) {
      if (!kind_row) kind_row = &c;
    } else if (matches(c.pattern, text)) {
      return {std::string(c.meaning), std::string(c.try_this), true};
    }
  }
  if (kind_row) return {std::string(kind_row->meaning), std::string(kind_row->try_this), false};
  const auto* info = model::analysis::find_finding_kind(kind);
  std::string what = info ? std::string(info->title) : std::string(kind);
  std::string page = info ? std::string(info->page) : std::string("findings");
  return {"a finding of kind \"" + what + "\"", "open the " + page + " page for its details",
          false};
}

}  // namespace tlscope::views
