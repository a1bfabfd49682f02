// One fact, many ranks: the same finding logged by every process differs only in values that are
// per process (object ids and addresses in guard text, temp paths, pids) or per occurrence (the
// compile ids and the expected/actual values of one recurring guard). A Fact is a finding's
// sentence with those values cut out of the log texts it quotes as slots: findings whose facts
// have the same text are one line, the slots summarised ("0/1..0/14", "<object id>"). The
// sentence is built here (finding_words.cpp), so only the log's own texts are scanned for slots,
// never tlscope's words.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tlscope::views {

enum class SlotKind { object_id, address, temp_path, pid, compile_id, value };

// What a cut slot reads as ("<object id>", "<temp path>", ...); "" for a value slot, whose text
// is kept.
const char* slot_placeholder(SlotKind kind);

struct Fact {
  std::string key;  // the message with each slot replaced by a marker: equal keys, one fact
  std::vector<SlotKind> kinds;
  std::vector<std::string> values;  // one per slot, as logged
};

// `text` scanned for slots (log text: a frame, a guard, a reason, a compile id).
Fact fact_of(std::string_view text);
// Appends to `fact`: `text` scanned for slots when `scan`, else literally (tlscope's own words).
void append_fact(Fact& fact, std::string_view text, bool scan);

// The message of several findings of one fact, built one finding at a time (a large log has
// hundreds of thousands; only a few values per slot are kept): the literal text, each slot its
// one value when all agree, else a summary (the range of compile ids or numbers, or a
// placeholder for per-process values).
class FactMerge {
 public:
  void add(const Fact& fact);  // facts of one key
  std::string text() const;

 private:
  struct Slot {
    std::string first, low, high;  // low..high in natural order (0/2 before 0/10)
    bool varies = false;
  };
  std::string key_;
  std::vector<SlotKind> kinds_;
  std::vector<Slot> slots_;
  bool empty_ = true;
};

// FactMerge over `facts` (which share one key), in that order.
std::string merged_text(const std::vector<const Fact*>& facts);

}  // namespace tlscope::views
