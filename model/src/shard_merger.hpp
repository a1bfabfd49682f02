// Copies files of other tlscope databases (shards) into an output database, one file at a time,
// so that the output equals what one ingest of the same logs in the same order writes: event,
// payload, stack, chromium-row and error ids dense and in log order, payloads deduplicated by MD5
// and stacks by their frames across shards, a repeated file (same content and rank as a
// completed one already in the output) skipped. Used by `tlscope merge` and by the parallel
// ingest, whose workers write one shard per file.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "md5_ids.hpp"
#include "tlscope/model/event_writer.hpp"
#include "tlscope/model/sqlite.hpp"

namespace tlscope::model {

// Why `path` cannot be merged (not a tlscope database, another schema version); empty when it
// can. Reads the shard only.
std::string shard_problem(const std::string& path);

class ShardMerger {
 public:
  // `out` has the schema; the merger reads its high-water marks, payload MD5s and stacks.
  explicit ShardMerger(Connection& out);

  // Makes `path` known as shard `shard` (any number; the caller's name for it) and attaches it.
  // SQLite cannot attach inside a transaction: call between transactions.
  void attach(int64_t shard, const std::string& path);
  void detach();

  // The attached shard's file ids, in the order its ingest wrote them.
  std::vector<int64_t> files();
  // Its ingest_errors rows not tied to a file (missing inputs), copied before any file.
  void copy_input_problems();
  // Copies one file of the attached shard with every row derived from it. A file whose content
  // and rank equal a completed file of the output is skipped (duplicate_of names that file).
  FileOutcome copy_file(int64_t file_id);
  // A problem not tied to a file, as the writer records it.
  void add_input_problem(const std::string& problem);

 private:
  struct Range {
    int64_t lo = 0, hi = -1;
  };
  struct FileRanges {
    Range events, chromium, errors, strings, event_stacks;
  };
  void read_ranges();
  void map_payloads();
  void map_stacks();
  // The output table's columns, comma-separated, each `prefix` + name unless overridden.
  std::string column_list(const std::string& table, const std::string& prefix = "",
                          const std::unordered_map<std::string, std::string>& overrides = {}) const;
  void copy_rows(const std::string& table, const std::string& where,
                 const std::unordered_map<std::string, std::string>& overrides,
                 const std::vector<int64_t>& binds);

  // Statements on the attached shard, prepared once per attach (a prepare costs more than copying
  // a small payload); finalized before it is detached.
  Statement& prepared(const std::string& sql);

  Connection& out_;
  int64_t shard_ = -1;
  std::string shard_path_;  // the attached shard, for messages
  std::unordered_map<std::string, Statement> statements_;
  std::unordered_map<int64_t, FileRanges> ranges_;
  bool shard_mapped_ = false;  // the attached shard's payloads and stacks have output ids
  Md5Ids payload_ids_;         // output payloads by MD5
  std::unordered_map<std::string, int64_t> stack_ids_;  // output stacks by their frames
  int64_t next_event_ = 1, next_payload_ = 1, next_stack_ = 1;
  std::unordered_map<std::string, std::vector<std::string>> columns_;  // output tables' columns
};

}  // namespace tlscope::model
