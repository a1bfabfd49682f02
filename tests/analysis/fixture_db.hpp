// A hand-built database with the ingest tables of docs/schema.md (created by the model itself), for
// testing the analyses on exactly the rows a scenario needs (the real-log tests go through `tlscope
// ingest` instead).
#pragma once

#include <sqlite3.h>

#include <filesystem>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/sql_rows.hpp"
#include "tlscope/model/schema.hpp"
#include "tlscope/model/sqlite.hpp"

namespace tlscope::test {

struct Ctx {
  std::optional<int64_t> frame_id, frame_compile_id, attempt, compiled_autograd_id;
  std::string compile_id() const {
    std::string s;
    // Appended piece by piece: GCC 12's -Wrestrict misfires on `"_" + std::to_string(...)`
    // in Release.
    if (compiled_autograd_id) {
      s += '!';
      s += std::to_string(*compiled_autograd_id);
      if (frame_id) s += '/';
    }
    if (frame_id) {
      s += std::to_string(*frame_id);
      s += '/';
      s += std::to_string(frame_compile_id.value_or(0));
    }
    if (attempt && *attempt != 0) {
      s += '_';
      s += std::to_string(*attempt);
    }
    return s;
  }
};

inline Ctx ctx(int64_t frame, int64_t fcid, int64_t attempt = 0) {
  return Ctx{frame, fcid, attempt, std::nullopt};
}

class FixtureDb {
 public:
  // The real schema (model::create_schema), so the fixture cannot drift from docs/schema.md.
  FixtureDb() { model::create_schema(conn_); }
  FixtureDb(const FixtureDb&) = delete;
  FixtureDb& operator=(const FixtureDb&) = delete;

  sqlite3* db() const { return db_; }

  void exec(const std::string& sql) { sql_exec(db_, sql); }

  // One text value from a query ("" for NULL or no row).
  std::string scalar(const std::string& sql) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) != SQLITE_OK)
      throw std::runtime_error(std::string(sqlite3_errmsg(db_)) + " in " + sql);
    std::string out;
    if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
      out = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
    return out;
  }

  // The database as a file at `path` (replaced), for readers that open a path (views/).
  std::string saved_copy(const std::string& path) {
    std::filesystem::remove(path);
    exec("VACUUM INTO '" + path + "'");
    return path;
  }

  // Rows of a query, columns joined with '|'.
  std::vector<std::string> rows(const std::string& sql) { return sql_rows(db_, sql); }

  int64_t add_file(const std::string& path, std::optional<int64_t> rank) {
    exec("INSERT INTO files(path, rank, gzip, completed) VALUES (" + q(path) + ", " + num(rank) +
         ", 0, 1)");
    file_ = sqlite3_last_insert_rowid(db_);
    return file_;
  }

  // Adds an envelope event (and its payload); returns events.id.
  int64_t event(const std::string& kind, const Ctx& c, const std::string& metadata = "{}",
                std::optional<std::string> payload = std::nullopt,
                std::optional<int64_t> rank = {}) {
    std::string payload_id = "NULL";
    if (payload) {
      exec("INSERT OR IGNORE INTO payloads(md5, size, text) VALUES (" +
           q(std::to_string(next_md5_++)) + ", " + std::to_string(payload->size()) + ", " +
           q(*payload) + ")");
      payload_id = std::to_string(sqlite3_last_insert_rowid(db_));
    }
    std::string cid = c.compile_id();
    ++line_;
    exec(
        "INSERT INTO events(file_id, line, byte_offset, payload_lines, kind, rank, "
        "compiled_autograd_id, frame_id, frame_compile_id, attempt, compile_id, metadata, "
        "payload_id) VALUES (" +
        std::to_string(file_) + ", " + std::to_string(line_) + ", " + std::to_string(line_ * 100) +
        ", " + (payload ? "1" : "0") + ", " + q(kind) + ", " + num(rank) + ", " +
        num(c.compiled_autograd_id) + ", " + num(c.frame_id) + ", " + num(c.frame_compile_id) +
        ", " + num(c.attempt) + ", " + (cid.empty() ? "NULL" : q(cid)) + ", " + q(metadata) + ", " +
        payload_id + ")");
    return sqlite3_last_insert_rowid(db_);
  }

  int64_t artifact(const Ctx& c, const std::string& name, const std::string& payload,
                   const std::string& encoding = "string", std::optional<int64_t> rank = {}) {
    int64_t id = event("artifact", c,
                       "{\"name\": " + q_json(name) + ", \"encoding\": " + q_json(encoding) + "}",
                       payload, rank);
    std::string cid = c.compile_id();
    exec(
        "INSERT INTO artifacts(event_id, file_id, rank, compile_id, name, encoding, payload_id) "
        "SELECT id, file_id, rank, compile_id, " +
        q(name) + ", " + q(encoding) + ", payload_id FROM events WHERE id = " + std::to_string(id));
    return id;
  }

  // dynamo_start with the given (filename, line, name) frames, outermost first.
  int64_t dynamo_start(const Ctx& c,
                       const std::vector<std::tuple<std::string, int64_t, std::string>>& frames) {
    int64_t id = event("dynamo_start", c, "{\"stack\": []}");
    // Its own stack, numbered like the event (the stack_frames view joins the two tables).
    for (size_t d = 0; d < frames.size(); ++d) {
      const auto& [file, line, name] = frames[d];
      exec("INSERT INTO stacks(stack_id, depth, filename, line, name) VALUES (" +
           std::to_string(id) + ", " + std::to_string(d) + ", " + q(file) + ", " +
           std::to_string(line) + ", " + q(name) + ")");
    }
    if (!frames.empty()) {
      exec("INSERT INTO event_stacks(event_id, stack_id) VALUES (" + std::to_string(id) + ", " +
           std::to_string(id) + ")");
    }
    return id;
  }

  // compilation_metrics (its typed columns; the view's json is the event's metadata, "{}"):
  // `extra_columns` / `extra_values` are further column names and their SQL values.
  int64_t metrics(const Ctx& c, const std::string& co_name, const std::string& extra_columns = "",
                  const std::string& extra_values = "",
                  const std::string& kind = "compilation_metrics") {
    int64_t id = event(kind, c, "{}");
    std::string cid = c.compile_id();
    size_t us = cid.find('_');
    std::string payload_cid = us == std::string::npos ? cid : cid.substr(0, us);
    exec(
        "INSERT INTO compilation_metrics_rows(event_id, file_id, kind, compile_id, frame_id, "
        "frame_compile_id, attempt, co_name, co_filename" +
        extra_columns + ") VALUES (" + std::to_string(id) + ", " + std::to_string(file_) + ", " +
        q(kind) + ", " + q(payload_cid) + ", " + num(c.frame_id) + ", " + num(c.frame_compile_id) +
        ", " + num(c.attempt) + ", " + q(co_name) + ", 'user.py'" + extra_values + ")");
    return id;
  }

  int64_t tensor(const Ctx& c, int64_t describer, int64_t tensor_id, const std::string& source,
                 const std::string& size, const std::string& stride,
                 const std::string& dtype = "torch.float32") {
    std::string cid = c.compile_id();
    int64_t s = event("describe_storage", c);
    exec("INSERT INTO describe_storage VALUES (" + std::to_string(s) + ", " +
         std::to_string(file_) + ", NULL, " + q(cid) + ", " + std::to_string(describer) + ", " +
         std::to_string(tensor_id) + ", 64)");
    int64_t t = event("describe_tensor", c);
    exec(
        "INSERT INTO describe_tensor(event_id, file_id, compile_id, describer_id, tensor_id, "
        "ndim, dtype, device, size, stride, storage_id, json) VALUES (" +
        std::to_string(t) + ", " + std::to_string(file_) + ", " + q(cid) + ", " +
        std::to_string(describer) + ", " + std::to_string(tensor_id) + ", 2, " + q(dtype) +
        ", 'cpu', " + q(size) + ", " + q(stride) + ", " + std::to_string(tensor_id) + ", '{}')");
    int64_t src = event("describe_source", c);
    exec("INSERT INTO describe_source VALUES (" + std::to_string(src) + ", " +
         std::to_string(file_) + ", NULL, " + q(cid) + ", " + std::to_string(describer) + ", " +
         std::to_string(tensor_id) + ", " + q(source) + ")");
    return t;
  }

  static std::string q(const std::string& s) {
    std::string out = "'";
    for (char ch : s) out += ch == '\'' ? std::string("''") : std::string(1, ch);
    return out + "'";
  }
  static std::string q_json(const std::string& s) {
    std::string out = "\"";
    for (char ch : s) {
      if (ch == '"' || ch == '\\') out += '\\';
      if (ch == '\n') {
        out += "\\n";
        continue;
      }
      out += ch;
    }
    return out + "\"";
  }
  static std::string num(std::optional<int64_t> v) { return v ? std::to_string(*v) : "NULL"; }

 private:
  model::Connection conn_{":memory:"};
  sqlite3* db_ = conn_.handle();
  int64_t file_ = 0;
  int64_t line_ = 0;
  int64_t next_md5_ = 0;
};

}  // namespace tlscope::test
