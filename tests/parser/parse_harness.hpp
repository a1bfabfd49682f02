// Test support: a sink that keeps copies of everything, temp files, and independent line counts.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tlscope/parser/reader.hpp"

namespace tlscope::parser::test {

struct KeptEvent {
  std::string kind, metadata, payload, stack, envelope, pathname;
  uint64_t line = 0, byte_offset = 0;
  uint32_t payload_lines = 0;
  std::optional<int64_t> rank;
  CompileContext context;
  Md5Status md5 = Md5Status::kNoPayload;
};

struct KeptError {
  ErrorKind kind;
  uint64_t line = 0, line_count = 0, byte_offset = 0;
  std::string reason, excerpt;
};

class KeepingSink final : public EventSink {
 public:
  std::vector<KeptEvent> events;
  std::vector<KeptError> errors;
  SourceSummary summary;
  int begins = 0, ends = 0;

  void on_source_begin(const SourceInfo&) override { ++begins; }
  void on_event(const Event& e) override {
    KeptEvent k;
    k.kind = std::string(e.kind);
    k.metadata = std::string(e.metadata);
    k.payload = std::string(e.payload);
    k.stack = std::string(e.stack);
    k.envelope = std::string(e.envelope);
    k.pathname = std::string(e.header.pathname);
    k.line = e.line;
    k.byte_offset = e.byte_offset;
    k.payload_lines = e.payload_lines;
    k.rank = e.rank;
    k.context = e.context;
    k.md5 = e.md5;
    events.push_back(std::move(k));
  }
  void on_error(const ParseError& e) override {
    errors.push_back({e.kind, e.line, e.line_count, e.byte_offset, e.reason, std::string(e.excerpt)});
  }
  void on_source_end(const SourceSummary& s) override {
    ++ends;
    summary = s;
  }

  std::map<std::string, int> kind_counts() const {
    std::map<std::string, int> m;
    for (const auto& e : events) m[e.kind]++;
    return m;
  }
};

inline KeepingSink parse_file(const std::string& path, const ReaderOptions& options = {}) {
  KeepingSink sink;
  SourceInfo source;
  source.path = path;
  source.rank = rank_from_filename(path);
  parse_source(source, sink, options);
  return sink;
}

inline std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A fresh directory per test, removed at scope exit.
class TempDir {
 public:
  explicit TempDir(const std::string& name) {
    path_ = std::filesystem::temp_directory_path() /
            ("tlscope_parser_" + name + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name, const std::string& content) const {
    std::string p = (path_ / name).string();
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// Lines as the format defines them: '\n'-terminated, plus a final unterminated one.
inline uint64_t count_lines(const std::string& text) {
  uint64_t n = 0;
  for (char c : text) n += c == '\n';
  if (!text.empty() && text.back() != '\n') ++n;
  return n;
}

inline bool lines_add_up(const LineAccounting& l) {
  return l.envelope_lines + l.payload_lines + l.blank_lines + l.error_lines == l.total_lines;
}

inline std::string fixture(const std::string& name) { return std::string(TLSCOPE_FIXTURES) + "/" + name; }
inline std::string shared_log(const std::string& name) {
  return std::string(TLSCOPE_SHARED_LOGS) + "/" + name;
}

}  // namespace tlscope::parser::test
