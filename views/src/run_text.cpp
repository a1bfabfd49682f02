// Comparable text (run_text.hpp) through the finding-facts scanner, keeping its value slots.
#include "tlscope/views/run_text.hpp"

#include "tlscope/views/finding_facts.hpp"

namespace tlscope::views {

std::string comparable_text(std::string_view logged) {
  const Fact fact = fact_of(logged);
  std::string out;
  out.reserve(fact.key.size());
  size_t slot = 0;
  for (size_t i = 0; i < fact.key.size(); ++i) {
    if (fact.key[i] != '\x1f') {
      out += fact.key[i];
      continue;
    }
    ++i;  // the slot's kind marker; '~' is a marker byte that was in the log itself
    if (i >= fact.key.size() || fact.key[i] == '~' || slot >= fact.kinds.size()) {
      out += '\x1f';
      continue;
    }
    if (fact.kinds[slot] == SlotKind::value)
      out += fact.values[slot];
    else
      out += slot_placeholder(fact.kinds[slot]);
    ++slot;
  }
  return out;
}

}  // namespace tlscope::views
