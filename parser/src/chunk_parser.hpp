// Turns the bytes of one chunk into events and error rows: lines -> glog header -> envelope ->
// payload (joined in place) -> MD5 check. One ChunkParser per thread.
#pragma once

#include <string>

#include "chunk.hpp"
#include "envelope.hpp"

namespace tlscope::parser {

class ChunkParser {
 public:
  // Fills chunk.result. The chunk's bytes are modified: payload lines are joined in place.
  void parse(Chunk& chunk, uint64_t max_record_bytes);

 private:
  EnvelopeReader envelope_;
  std::string why_;
};

}  // namespace tlscope::parser
