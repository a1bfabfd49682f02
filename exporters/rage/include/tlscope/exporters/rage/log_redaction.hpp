// Copies one TORCH_TRACE log (plain or .gz) to a redacted plain-text copy, line by line, keeping it
// parseable: a payload changed by redaction gets its has_payload MD5 recomputed when the original
// MD5 was right, and is left alone (still a mismatch, as in the original) when it was not.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tlscope/exporters/rage/redaction.hpp"

namespace tlscope::exporters::rage {

struct LogRedaction {
  bool ok = false;
  std::string error;  // names the file
  uint64_t bytes_in = 0, bytes_out = 0, lines = 0;
  uint64_t redacted_lines = 0;
  uint64_t payloads_rehashed = 0;    // changed payloads whose has_payload now holds the new MD5
  uint64_t payloads_unverified = 0;  // changed payloads whose original MD5 was already wrong
  RedactionCounts counts;
  // "line N: kind[, kind]" for the first redacted lines (never the values).
  std::vector<std::string> locations;
};

// `progress` (may be empty) is called with the input bytes read so far, about every 4 MB.
LogRedaction redact_log(const std::string& in_path, const std::string& out_path, Redactor& redactor,
                        size_t max_locations = 50,
                        const std::function<void(uint64_t)>& progress = {});

}  // namespace tlscope::exporters::rage
