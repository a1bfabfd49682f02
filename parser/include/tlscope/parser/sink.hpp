// What the parser drives. It knows nothing about storage: the store, tests and benchmarks each
// implement this.
#pragma once

#include "tlscope/parser/event.hpp"

namespace tlscope::parser {

class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void on_source_begin(const SourceInfo& source) = 0;
  virtual void on_event(const Event& event) = 0;
  virtual void on_error(const ParseError& error) = 0;
  virtual void on_source_end(const SourceSummary& summary) = 0;
};

}  // namespace tlscope::parser
