// One TORCH_TRACE log file per process (here: per rank), in the exact line format PyTorch's
// structured logger writes: glog-style header, one-line JSON envelope, TAB-prefixed payload lines
// whose MD5 is the envelope's has_payload, and a string table written before first use.
#pragma once
#include <cstdio>
#include <map>
#include <optional>
#include <source_location>
#include <string>
#include <vector>

#include "tlrt/json.hpp"

namespace tlrt {

struct CompileCtx {
  int frame_id = 0;
  int frame_compile_id = 0;
  int attempt = 0;
  bool has_attempt = true;
  std::string str() const {  // PyTorch CompileId form "0/1"
    return std::to_string(frame_id) + "/" + std::to_string(frame_compile_id);
  }
};

struct StackFrame {
  int line;
  std::string name;
  std::string file;
  std::string loc;  // source text of the line, may be empty
};

// Exactly one of ctx / stack (or neither) accompanies an event.
struct EventContext {
  std::optional<CompileCtx> ctx;
  std::optional<std::vector<StackFrame>> stack;
  // The envelope's subgraph_name (PyTorch 2.8+): the record belongs to that subgraph of the
  // compile (an invoke_subgraph body "repeated_subgraph0"); "" for none.
  std::string subgraph_name;
};

class TraceLog {
 public:
  // Creates dir (if needed) and the file dedicated_log_torch_trace[_rank_N]_<suffix>.log.
  // Throws std::runtime_error naming the path when it cannot be opened.
  TraceLog(const std::string& dir, std::optional<int> rank, const std::string& suffix);
  ~TraceLog();
  TraceLog(const TraceLog&) = delete;
  TraceLog& operator=(const TraceLog&) = delete;

  // The pid the record headers carry (another process's, for runs that differ only in ids).
  void set_pid(long pid) { pid_ = pid; }
  // Writes one record. `payload` (if set) is written raw, one TAB line per '\n'-separated piece.
  void emit(const std::string& key, const Json& metadata, const EventContext& ctx,
            const std::optional<std::string>& payload = std::nullopt,
            std::source_location where = std::source_location::current());
  // A frame list in the interned form ({"line","name","filename":idx,"loc"}); emits str records.
  Json frames(const std::vector<StackFrame>& stack,
              std::source_location where = std::source_location::current());
  // chromium_event with ph B/E/i and real timestamp; returns the timestamp (µs). `cat` is
  // "dynamo_timed" for compile phases (as PyTorch's dynamo_timed) and "user_annotation" for the
  // profiler-style runtime spans of RecordFunction.
  double chromium(const std::string& name, char ph, const std::optional<CompileCtx>& ctx,
                  Json extra_args = Json::object(), const char* cat = "dynamo_timed");

  const std::string& path() const { return path_; }
  int64_t records() const { return records_; }
  // Appends the buffered records to the file (the file is open only while it is written).
  void flush();

  // The log of the calling thread's process (nullptr when none).
  static TraceLog* current();
  static void set_current(TraceLog* log);

 private:
  int intern(const std::string& file, std::source_location where);
  void write_header(std::source_location where);
  void put(const std::string& text);

  std::string path_;
  // Records wait here and are appended in chunks, opening the file only to write, so thousands of
  // ranks in one process never hold thousands of open files (and each buffer stays small).
  std::string pending_;
  std::optional<int> rank_;
  std::map<std::string, int> strings_;
  int64_t records_ = 0;
  long pid_;
};

// A profiler span like torch.profiler.record_function: a chromium_event B when constructed and
// its E when destroyed (also when an exception unwinds, so pairs always balance), in category
// "user_annotation" with compile_id "None": runtime work, never counted as a compile phase.
// Does nothing when the calling thread has no trace log.
class RecordFunction {
 public:
  explicit RecordFunction(std::string name, Json args = Json::object());
  ~RecordFunction();
  RecordFunction(const RecordFunction&) = delete;
  RecordFunction& operator=(const RecordFunction&) = delete;

 private:
  TraceLog* log_;
  std::string name_;
};

double now_us();
// "void ns::f(int)" -> "f": the bare name PyTorch frames carry.
std::string short_function_name(const char* pretty);  // wall clock, µs since the epoch
// Path of a runtime source file as PyTorch prints it: relative to the repo root when possible.
std::string relative_source(const char* file);

}  // namespace tlrt
