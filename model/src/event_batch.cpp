// Arena copies of parser events (see event_batch.hpp).
#include "tlscope/model/event_batch.hpp"

#include <cstring>

namespace tlscope::model {
namespace {

size_t event_bytes(const parser::Event& e) {
  return e.header.pathname.size() + e.kind.size() + e.metadata.size() + e.envelope.size() +
         e.stack.size() + e.payload_md5.size() + e.subgraph_name.size() + e.payload.size();
}

}  // namespace

EventBatch::EventBatch(size_t arena_bytes)
    : arena_(new char[arena_bytes]), capacity_(arena_bytes) {}

void EventBatch::clear() {
  used_ = 0;
  row_bytes_ = 0;
  events_.clear();
  errors_.clear();
  chromium_.clear();
  begin.reset();
  end.reset();
}

void EventBatch::reserve_for(size_t bytes) {
  // Only an empty batch may swap its arena: no view points into the old one yet.
  if (bytes > capacity_) {
    arena_.reset(new char[bytes]);
    capacity_ = bytes;
  }
}

std::string_view EventBatch::copy(std::string_view s) {
  if (s.empty()) return {};
  char* dst = arena_.get() + used_;
  std::memcpy(dst, s.data(), s.size());
  used_ += s.size();
  return {dst, s.size()};
}

bool EventBatch::add(const parser::Event& event) {
  size_t need = event_bytes(event);
  if (used_ + row_bytes_ + need > capacity_) {
    if (used_ + row_bytes_ > 0) return false;
    reserve_for(need);
  }
  parser::Event& e = events_.emplace_back(event);
  // The envelope holds the kind and metadata text: copy it once and point into the copy when the
  // parser's views lie inside it (they always do for well-formed envelopes).
  e.envelope = copy(event.envelope);
  auto inside = [&](std::string_view part, std::string_view& dst) {
    const char* base = event.envelope.data();
    if (!part.empty() && base && part.data() >= base &&
        part.data() + part.size() <= base + event.envelope.size()) {
      dst = std::string_view(e.envelope.data() + (part.data() - base), part.size());
    } else {
      dst = copy(part);
    }
  };
  inside(event.kind, e.kind);
  inside(event.metadata, e.metadata);
  inside(event.stack, e.stack);
  inside(event.payload_md5, e.payload_md5);
  inside(event.subgraph_name, e.subgraph_name);
  e.header.pathname = copy(event.header.pathname);
  e.payload = copy(event.payload);
  return true;
}

bool EventBatch::add(const parser::ParseError& error) {
  size_t need = error.excerpt.size();
  if (used_ + row_bytes_ + need > capacity_) {
    if (used_ + row_bytes_ > 0) return false;
    reserve_for(need);
  }
  parser::ParseError& e = errors_.emplace_back(error);
  e.excerpt = copy(error.excerpt);
  return true;
}

}  // namespace tlscope::model

namespace tlscope::model {

void EventBatch::add(ChromiumRow row, size_t after_event) {
  row_bytes_ += row.bytes();
  chromium_.push_back(PlacedRow{std::move(row), after_event});
}

}  // namespace tlscope::model
