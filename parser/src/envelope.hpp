// The JSON envelope of one header line: event key, raw metadata and context fields, read with
// simdjson On-Demand in one forward pass. One parser and one padded buffer serve every line.
#pragma once

#include <simdjson.h>

#include <string>
#include <string_view>

#include "tlscope/parser/event.hpp"

namespace tlscope::parser {

struct EnvelopeFields {
  // All views point into the text given to EnvelopeReader::read, never into its own buffer.
  std::string_view kind;
  std::string_view metadata;
  std::string_view stack;
  std::string_view payload_md5;
  std::string_view subgraph_name;
  std::optional<int64_t> rank;
  CompileContext context;
  bool has_payload = false;
};

enum class EnvelopeStatus : uint8_t { kOk, kBadJson, kInvalidUtf8 };

class EnvelopeReader {
 public:
  // Fills `out` from `json`; on failure `why` says what is wrong.
  EnvelopeStatus read(std::string_view json, EnvelopeFields& out, std::string& why);

 private:
  // Maps a view into padded_ back to the same bytes of the caller's text.
  std::string_view to_source(std::string_view in_padded) const;

  simdjson::ondemand::parser parser_;
  std::string padded_;  // grows to the longest envelope + SIMDJSON_PADDING, then is reused
  std::string_view source_;
};

}  // namespace tlscope::parser
