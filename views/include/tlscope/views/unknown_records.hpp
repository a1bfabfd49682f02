// Records of kinds tlscope does not know (not in model::kKnownRecordKinds): a newer PyTorch's
// record is kept, counted by `tlscope summary` and listed with its metadata and payload in the
// report, never dropped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/page.hpp"
#include "tlscope/views/result.hpp"
#include "tlscope/views/summary.hpp"

namespace tlscope::views {

struct UnknownRecord {
  int64_t event_id = 0;
  std::string path;  // the input file
  int64_t line = 0;
  int64_t rank = -1;
  std::string kind, compile_id;
  std::string metadata;  // clipped at kUnknownRecordBytes
  std::string payload;   // clipped at kUnknownRecordBytes; "" without payload
  int64_t payload_size = 0;
};

inline constexpr size_t kUnknownRecordBytes = 4096;

// The kinds of `kinds` tlscope does not know, in the same order (most frequent first).
std::vector<KindCount> unknown_kinds(const std::vector<KindCount>& kinds);

// Those records in log order.
Result<Paged<UnknownRecord>> load_unknown_records(const Database& db, Page page);

}  // namespace tlscope::views
