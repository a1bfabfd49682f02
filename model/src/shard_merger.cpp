// Shard-to-output copying (see shard_merger.hpp). Rows go across with INSERT ... SELECT between
// attached databases, so SQLite copies them without a round trip through C++; only the ids that
// must be renumbered are rewritten, by offsets per file (events) or through small mapping tables
// (payloads, stacks), which live in the temp schema for the whole merge.
#include "shard_merger.hpp"

#include <limits>

#include "tlscope/model/input_cache.hpp"
#include "tlscope/model/merge.hpp"
#include "tlscope/model/schema.hpp"

namespace tlscope::model {
namespace {

constexpr const char* kShard = "shard";

// One frame's columns in a form that tells NULL from '' and 1 from '1', for a stack's identity.
void append_value(std::string& key, sqlite3_stmt* s, int i) {
  switch (sqlite3_column_type(s, i)) {
    case SQLITE_NULL:
      key += 'n';
      break;
    case SQLITE_INTEGER:
      key += 'i' + std::to_string(sqlite3_column_int64(s, i));
      break;
    default: {
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(s, i));
      int n = sqlite3_column_bytes(s, i);
      key += 't' + std::to_string(n) + ':';
      key.append(text ? text : "", static_cast<size_t>(n));
    }
  }
  key += '|';
}

// Frames of one stack, read from a statement whose columns 1.. are filename_idx, filename, line,
// name, loc, ordered by depth.
void append_frame(std::string& key, const Statement& s) {
  for (int i = 1; i <= 5; ++i) append_value(key, s.handle(), i);
  key += '/';
}

}  // namespace

std::string shard_problem(const std::string& path) {
  if (!is_database_file(path)) return "not a tlscope database (no SQLite database file here)";
  try {
    Connection db(path, OpenMode::kReadOnly);
    int64_t tables = db.scalar_int(
                           "SELECT count(*) FROM sqlite_master WHERE name IN ('meta', 'files', "
                           "'events')")
                         .value_or(0);
    if (tables != 3) return "an SQLite database, but not a tlscope one (no meta, files, events)";
    Statement s = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'");
    std::string version = s.step() ? s.text(0) : "(none)";
    if (version != kSchemaVersion) {
      return "schema version " + version + ", and this tlscope merges version " +
             std::string(kSchemaVersion) + ": ingest its logs again with this tlscope";
    }
  } catch (const SqliteError& e) {
    return std::string("cannot be read: ") + e.what();
  }
  return {};
}

ShardMerger::ShardMerger(Connection& out) : out_(out) {
  out_.exec(
      "CREATE TEMP TABLE IF NOT EXISTS merge_payloads(shard INTEGER, old INTEGER, new INTEGER, "
      "PRIMARY KEY(shard, old)) WITHOUT ROWID;"
      "CREATE TEMP TABLE IF NOT EXISTS merge_stacks(shard INTEGER, old INTEGER, new INTEGER, "
      "PRIMARY KEY(shard, old)) WITHOUT ROWID;");
  next_event_ = out_.scalar_int("SELECT coalesce(max(id), 0) + 1 FROM main.events").value_or(1);
  next_payload_ = out_.scalar_int("SELECT coalesce(max(id), 0) + 1 FROM main.payloads").value_or(1);
  next_stack_ =
      out_.scalar_int("SELECT coalesce(max(stack_id), 0) + 1 FROM main.stacks").value_or(1);
  Statement payloads = out_.prepare("SELECT md5, id FROM main.payloads");
  while (payloads.step()) {
    if (auto key = md5_key(payloads.text(0))) {
      payload_ids_.find_or_insert(*key, payloads.int64(1));
    }
  }
  Statement stacks = out_.prepare(
      "SELECT stack_id, filename_idx, filename, line, name, loc FROM main.stacks "
      "ORDER BY stack_id, depth");
  int64_t current = 0;
  std::string key;
  auto flush = [&] {
    if (current != 0) stack_ids_.emplace(key, current);
  };
  while (stacks.step()) {
    if (stacks.int64(0) != current) {
      flush();
      current = stacks.int64(0);
      key.clear();
    }
    append_frame(key, stacks);
  }
  flush();
  // Every table's columns as the output declares them: a row is copied column by column, so a
  // column added to the schema is carried across without a change here.
  Statement tables = out_.prepare(
      "SELECT t.name, c.name FROM sqlite_master t, pragma_table_info(t.name) c "
      "WHERE t.type = 'table' ORDER BY t.name, c.cid");
  while (tables.step()) columns_[tables.text(0)].push_back(tables.text(1));
}

void ShardMerger::attach(int64_t shard, const std::string& path) {
  Statement s = out_.prepare("ATTACH DATABASE ? AS shard");
  s.bind_static(1, path);
  s.run();
  shard_ = shard;
  shard_path_ = path;
  shard_mapped_ = false;
  read_ranges();
}

Statement& ShardMerger::prepared(const std::string& sql) {
  auto it = statements_.find(sql);
  if (it == statements_.end()) it = statements_.emplace(sql, out_.prepare(sql)).first;
  it->second.reset();
  return it->second;
}

void ShardMerger::detach() {
  if (shard_ < 0) return;
  statements_.clear();
  out_.exec("DETACH DATABASE shard");
  shard_ = -1;
  ranges_.clear();
}

void ShardMerger::read_ranges() {
  auto read = [&](const std::string& sql, Range FileRanges::*member) {
    Statement s = out_.prepare(sql);
    while (s.step()) {
      ranges_[s.int64(0)].*member = Range{s.int64(1), s.int64(2)};
    }
  };
  read("SELECT file_id, min(id), max(id) FROM shard.events GROUP BY file_id", &FileRanges::events);
  read("SELECT file_id, min(id), max(id) FROM shard.chromium_event_rows GROUP BY file_id",
       &FileRanges::chromium);
  read(
      "SELECT file_id, min(id), max(id) FROM shard.ingest_errors WHERE file_id IS NOT NULL "
      "GROUP BY file_id",
      &FileRanges::errors);
  read("SELECT file_id, min(rowid), max(rowid) FROM shard.strings GROUP BY file_id",
       &FileRanges::strings);
  read(
      "SELECT e.file_id, min(es.rowid), max(es.rowid) FROM shard.event_stacks es "
      "JOIN shard.events e ON e.id = es.event_id GROUP BY e.file_id",
      &FileRanges::event_stacks);
}

std::vector<int64_t> ShardMerger::files() {
  std::vector<int64_t> ids;
  Statement s = out_.prepare("SELECT id FROM shard.files ORDER BY id");
  while (s.step()) ids.push_back(s.int64(0));
  return ids;
}

std::string ShardMerger::column_list(
    const std::string& table, const std::string& prefix,
    const std::unordered_map<std::string, std::string>& overrides) const {
  std::string list;
  for (const std::string& c : columns_.at(table)) {
    if (!list.empty()) list += ", ";
    auto it = overrides.find(c);
    list += it != overrides.end() ? it->second : prefix + c;
  }
  return list;
}

void ShardMerger::copy_rows(const std::string& table, const std::string& where,
                            const std::unordered_map<std::string, std::string>& overrides,
                            const std::vector<int64_t>& binds) {
  Statement& s = prepared("INSERT INTO main." + table + "(" + column_list(table) + ") SELECT " +
                          column_list(table, "src.", overrides) + " FROM " + kShard + "." + table +
                          " AS src WHERE " + where);
  int count = sqlite3_bind_parameter_count(s.handle());
  for (int i = 0; i < count && i < static_cast<int>(binds.size()); ++i) {
    s.bind(i + 1, binds[i]);
  }
  s.run();
}

// The shard's payloads in id order, which is the order its ingest first met them: each is either
// already in the output (same MD5) or gets the next id, as one ingest would have numbered it. The
// new ones are copied in one statement: most payloads of distributed logs are new (each
// collective record carries its own timestamps), and a statement per payload cost more than the
// copy itself.
void ShardMerger::map_payloads() {
  Statement& find = prepared("SELECT id, md5 FROM shard.payloads ORDER BY id");
  Statement& map = prepared("INSERT INTO temp.merge_payloads VALUES(?, ?, ?)");
  const int64_t first_new = next_payload_;
  while (find.step()) {
    int64_t old = find.int64(0);
    auto text = reinterpret_cast<const char*>(sqlite3_column_text(find.handle(), 1));
    std::optional<Md5Key> key = md5_key(text ? std::string_view(text) : std::string_view());
    // A digest that does not parse (a damaged shard) is kept as its own payload.
    int64_t id = key ? payload_ids_.find_or_insert(*key, next_payload_).first : next_payload_;
    if (id == next_payload_) ++next_payload_;
    map.bind(1, shard_);
    map.bind(2, old);
    map.bind(3, id);
    map.run();
  }
  if (next_payload_ == first_new) return;
  Statement& copy = prepared("INSERT INTO main.payloads(" + column_list("payloads") + ") SELECT " +
                             column_list("payloads", "p.", {{"id", "m.new"}}) +
                             " FROM temp.merge_payloads m JOIN shard.payloads p ON p.id = m.old "
                             "WHERE m.shard = ?1 AND m.new >= ?2 ORDER BY m.new");
  copy.bind(1, shard_);
  copy.bind(2, first_new);
  copy.run();
}

// Stacks the same way, identified by their frames as the writer identifies them.
void ShardMerger::map_stacks() {
  Statement& frames = prepared(
      "SELECT stack_id, filename_idx, filename, line, name, loc FROM shard.stacks "
      "ORDER BY stack_id, depth");
  Statement& map = prepared("INSERT INTO temp.merge_stacks VALUES(?, ?, ?)");
  std::vector<std::pair<int64_t, std::string>> stacks;
  while (frames.step()) {
    if (stacks.empty() || stacks.back().first != frames.int64(0)) {
      stacks.emplace_back(frames.int64(0), std::string());
    }
    append_frame(stacks.back().second, frames);
  }
  for (const auto& [old, key] : stacks) {
    auto [it, inserted] = stack_ids_.emplace(key, next_stack_);
    if (inserted) {
      copy_rows("stacks", "src.stack_id = ?2 ORDER BY src.depth", {{"stack_id", "?1"}},
                {next_stack_++, old});
    }
    map.bind(1, shard_);
    map.bind(2, old);
    map.bind(3, it->second);
    map.run();
  }
}

void ShardMerger::copy_input_problems() {
  copy_rows("ingest_errors", "src.file_id IS NULL ORDER BY src.id", {{"id", "NULL"}}, {});
}

void ShardMerger::add_input_problem(const std::string& problem) {
  Statement s = out_.prepare(
      "INSERT INTO main.ingest_errors(file_id, line, byte_offset, line_count, kind, reason, "
      "excerpt) VALUES(NULL, NULL, NULL, 0, 'io', ?, NULL)");
  s.bind_static(1, problem);
  s.run();
}

FileOutcome ShardMerger::copy_file(int64_t file_id) {
  FileOutcome out;
  Statement& file = prepared(
      "SELECT path, rank, content_hash, completed, bytes, lines, events, errors "
      "FROM shard.files WHERE id = ?");
  file.bind(1, file_id);
  if (!file.step()) throw SqliteError("shard has no file " + std::to_string(file_id));
  out.path = file.text(0);
  out.completed = file.int64(3) == 1;
  out.bytes = static_cast<uint64_t>(file.int64(4));
  out.lines = static_cast<uint64_t>(file.int64(5));
  out.events = static_cast<uint64_t>(file.int64(6));
  out.errors = static_cast<uint64_t>(file.int64(7));
  if (out.completed) {
    // The identity ingest uses for repeats: same bytes and same rank.
    Statement& dup = prepared(
        "SELECT path FROM main.files WHERE content_hash = ? AND rank IS ? AND completed = 1 "
        "ORDER BY id LIMIT 1");
    std::string content_hash = file.text(2);  // bound without a copy: must outlive step
    dup.bind_static(1, content_hash);
    if (file.is_null(1)) {
      dup.bind_null(2);
    } else {
      dup.bind(2, file.int64(1));
    }
    if (dup.step()) {
      out.duplicate_of = dup.text(0);
      return out;
    }
  }

  copy_rows("files", "src.id = ?1", {{"id", "NULL"}, {"completed", "0"}}, {file_id});
  int64_t new_file = sqlite3_last_insert_rowid(out_.handle());
  out.file_id = new_file;
  const FileRanges r = ranges_[file_id];
  // A shard's ids are its own to choose (a hostile or damaged one may hold any int64): the offset
  // and the last renumbered id must both fit, or the shard is refused. Within [lo, hi] every
  // `src.id + offset` below then fits too.
  int64_t event_offset = 0, last_event = 0;
  if (__builtin_sub_overflow(next_event_, r.events.lo, &event_offset) ||
      __builtin_add_overflow(r.events.hi, event_offset, &last_event) ||
      last_event == std::numeric_limits<int64_t>::max()) {
    throw MergeRefused(shard_path_ + ": file " + std::to_string(file_id) + " has event ids " +
                       std::to_string(r.events.lo) + " to " + std::to_string(r.events.hi) +
                       ", which cannot be renumbered from " + std::to_string(next_event_) +
                       " (past the largest 64-bit id): ingest its logs again");
  }
  if (!shard_mapped_) {
    // In the first file's transaction, so nothing of a shard is committed before a file of it.
    map_payloads();
    map_stacks();
    shard_mapped_ = true;
  }

  const std::string payload_map =
      "(SELECT m.new FROM temp.merge_payloads m WHERE m.shard = ?3 AND m.old = src.payload_id)";
  // ?1 event id offset, ?2 output file id, ?3 shard, ?4 shard file id, ?5-?6 the table's range,
  // ?7-?8 the file's event ids.
  auto binds = [&](const Range& range) {
    return std::vector<int64_t>{event_offset, new_file, shard_,      file_id,
                                range.lo,     range.hi, r.events.lo, r.events.hi};
  };
  copy_rows("events", "src.id BETWEEN ?5 AND ?6 AND src.file_id = ?4 ORDER BY src.id",
            {{"id", "src.id + ?1"}, {"file_id", "?2"}, {"payload_id", payload_map}},
            binds(r.events));
  for (std::string_view table : kPerEventTables) {
    copy_rows(std::string(table),
              "src.event_id BETWEEN ?5 AND ?6 AND src.file_id = ?4 ORDER BY src.event_id",
              {{"event_id", "src.event_id + ?1"}, {"file_id", "?2"}, {"payload_id", payload_map}},
              binds(r.events));
  }
  copy_rows("chromium_event_rows", "src.id BETWEEN ?5 AND ?6 AND src.file_id = ?4 ORDER BY src.id",
            {{"id", "NULL"},
             {"event_id", "src.event_id + ?1"},
             {"end_event_id", "src.end_event_id + ?1"},
             {"file_id", "?2"}},
            binds(r.chromium));
  copy_rows("ingest_errors", "src.id BETWEEN ?5 AND ?6 AND src.file_id = ?4 ORDER BY src.id",
            {{"id", "NULL"}, {"file_id", "?2"}}, binds(r.errors));
  copy_rows("strings", "src.rowid BETWEEN ?5 AND ?6 AND src.file_id = ?4 ORDER BY src.rowid",
            {{"file_id", "?2"}}, binds(r.strings));
  copy_rows("event_stacks",
            "src.rowid BETWEEN ?5 AND ?6 AND src.event_id BETWEEN ?7 AND ?8 ORDER BY src.rowid",
            {{"event_id", "src.event_id + ?1"},
             {"stack_id",
              "(SELECT m.new FROM temp.merge_stacks m WHERE m.shard = ?3 AND m.old = "
              "src.stack_id)"}},
            binds(r.event_stacks));
  next_event_ = last_event + 1;
  if (out.completed) {
    // Last, as in ingest: the file never looks complete before all its rows are in.
    Statement& done = prepared("UPDATE main.files SET completed = 1 WHERE id = ?");
    done.bind(1, new_file);
    done.run();
  }
  return out;
}

}  // namespace tlscope::model
