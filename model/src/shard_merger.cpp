// Shard-to-output copying (see shard_merger.hpp). Rows go across with INSERT ... SELECT between
// attached databases, so SQLite copies them without a round trip through C++; only the ids that
// must be renumbered are rewritten, by offsets per file (events) or through small mapping tables
// (payloads, stacks), which live in the temp schema for the whole merge.
#include "shard_merger.hpp"

#include "tlscope/model/input_cache.hpp"
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
    int64_t tables =
        db.scalar_int("SELECT count(*) FROM sqlite_master WHERE name IN ('meta', 'files', "
                      "'events')")
            .value_or(0);
    if (tables != 3) return "an SQLite database, but not a tlscope one (no meta, files, events)";
    Statement s = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'");
    std::string version = s.step() ? s.column_text(0) : "(none)";
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
  next_payload_ =
      out_.scalar_int("SELECT coalesce(max(id), 0) + 1 FROM main.payloads").value_or(1);
  next_stack_ =
      out_.scalar_int("SELECT coalesce(max(stack_id), 0) + 1 FROM main.stacks").value_or(1);
  Statement payloads = out_.prepare("SELECT md5, id FROM main.payloads");
  while (payloads.step()) payload_ids_.emplace(payloads.column_text(0), payloads.column_int(1));
  Statement stacks = out_.prepare(
      "SELECT stack_id, filename_idx, filename, line, name, loc FROM main.stacks "
      "ORDER BY stack_id, depth");
  int64_t current = 0;
  std::string key;
  auto flush = [&] {
    if (current != 0) stack_ids_.emplace(key, current);
  };
  while (stacks.step()) {
    if (stacks.column_int(0) != current) {
      flush();
      current = stacks.column_int(0);
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
  while (tables.step()) columns_[tables.column_text(0)].push_back(tables.column_text(1));
}

void ShardMerger::attach(int64_t shard, const std::string& path) {
  Statement s = out_.prepare("ATTACH DATABASE ? AS shard");
  s.bind_text(1, path);
  s.run();
  shard_ = shard;
  read_ranges();
}

void ShardMerger::detach() {
  if (shard_ < 0) return;
  out_.exec("DETACH DATABASE shard");
  shard_ = -1;
  ranges_.clear();
}

void ShardMerger::read_ranges() {
  auto read = [&](const std::string& sql, Range FileRanges::*member) {
    Statement s = out_.prepare(sql);
    while (s.step()) {
      ranges_[s.column_int(0)].*member = Range{s.column_int(1), s.column_int(2)};
    }
  };
  read("SELECT file_id, min(id), max(id) FROM shard.events GROUP BY file_id",
       &FileRanges::events);
  read("SELECT file_id, min(id), max(id) FROM shard.chromium_event_rows GROUP BY file_id",
       &FileRanges::chromium);
  read("SELECT file_id, min(id), max(id) FROM shard.ingest_errors WHERE file_id IS NOT NULL "
       "GROUP BY file_id",
       &FileRanges::errors);
  read("SELECT file_id, min(rowid), max(rowid) FROM shard.strings GROUP BY file_id",
       &FileRanges::strings);
  read("SELECT e.file_id, min(es.rowid), max(es.rowid) FROM shard.event_stacks es "
       "JOIN shard.events e ON e.id = es.event_id GROUP BY e.file_id",
       &FileRanges::event_stacks);
}

std::vector<int64_t> ShardMerger::files() {
  std::vector<int64_t> ids;
  Statement s = out_.prepare("SELECT id FROM shard.files ORDER BY id");
  while (s.step()) ids.push_back(s.column_int(0));
  return ids;
}

void ShardMerger::copy_rows(const std::string& table, const std::string& where,
                            const std::unordered_map<std::string, std::string>& overrides,
                            const std::vector<int64_t>& binds) {
  const std::vector<std::string>& columns = columns_.at(table);
  std::string names, values;
  for (const std::string& c : columns) {
    if (!names.empty()) {
      names += ", ";
      values += ", ";
    }
    names += c;
    auto it = overrides.find(c);
    values += it != overrides.end() ? it->second : "src." + c;
  }
  Statement s = out_.prepare("INSERT INTO main." + table + "(" + names + ") SELECT " + values +
                             " FROM " + kShard + "." + table + " AS src WHERE " + where);
  int count = sqlite3_bind_parameter_count(s.handle());
  for (int i = 0; i < count && i < static_cast<int>(binds.size()); ++i) {
    s.bind_int(i + 1, binds[i]);
  }
  s.run();
}

// Payloads the file refers to that this shard has not mapped yet, in the shard's id order, which
// is the order the shard's ingest first met them: each is either already in the output (same
// MD5) or gets the next id, as one ingest would have numbered it.
void ShardMerger::map_payloads(int64_t file_id, const Range& events) {
  Statement find = out_.prepare(
      "SELECT DISTINCT e.payload_id, p.md5 FROM shard.events e "
      "JOIN shard.payloads p ON p.id = e.payload_id "
      "WHERE e.id BETWEEN ?1 AND ?2 AND e.file_id = ?3 AND NOT EXISTS (SELECT 1 FROM "
      "temp.merge_payloads m WHERE m.shard = ?4 AND m.old = e.payload_id) ORDER BY 1");
  find.bind_int(1, events.lo);
  find.bind_int(2, events.hi);
  find.bind_int(3, file_id);
  find.bind_int(4, shard_);
  Statement map = out_.prepare("INSERT INTO temp.merge_payloads VALUES(?, ?, ?)");
  std::vector<std::pair<int64_t, int64_t>> fresh;  // (shard id, output id) to copy
  while (find.step()) {
    int64_t old = find.column_int(0);
    auto [it, inserted] = payload_ids_.emplace(find.column_text(1), next_payload_);
    if (inserted) fresh.emplace_back(old, next_payload_++);
    map.bind_int(1, shard_);
    map.bind_int(2, old);
    map.bind_int(3, it->second);
    map.run();
  }
  for (const auto& [old, id] : fresh) {
    copy_rows("payloads", "src.id = ?2", {{"id", "?1"}}, {id, old});
  }
}

// Stacks the same way, identified by their frames as the writer identifies them.
void ShardMerger::map_stacks(const Range& event_stacks, const Range& events) {
  Statement find = out_.prepare(
      "SELECT DISTINCT es.stack_id FROM shard.event_stacks es "
      "WHERE es.rowid BETWEEN ?1 AND ?2 AND es.event_id BETWEEN ?3 AND ?4 AND NOT EXISTS "
      "(SELECT 1 FROM temp.merge_stacks m WHERE m.shard = ?5 AND m.old = es.stack_id) "
      "ORDER BY 1");
  find.bind_int(1, event_stacks.lo);
  find.bind_int(2, event_stacks.hi);
  find.bind_int(3, events.lo);
  find.bind_int(4, events.hi);
  find.bind_int(5, shard_);
  Statement frames = out_.prepare(
      "SELECT stack_id, filename_idx, filename, line, name, loc FROM shard.stacks "
      "WHERE stack_id = ? ORDER BY depth");
  Statement map = out_.prepare("INSERT INTO temp.merge_stacks VALUES(?, ?, ?)");
  while (find.step()) {
    int64_t old = find.column_int(0);
    std::string key;
    frames.bind_int(1, old);
    while (frames.step()) append_frame(key, frames);
    frames.reset();
    auto [it, inserted] = stack_ids_.emplace(key, next_stack_);
    if (inserted) {
      copy_rows("stacks", "src.stack_id = ?2 ORDER BY src.depth", {{"stack_id", "?1"}},
                {next_stack_++, old});
    }
    map.bind_int(1, shard_);
    map.bind_int(2, old);
    map.bind_int(3, it->second);
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
  s.bind_text(1, problem);
  s.run();
}

FileOutcome ShardMerger::copy_file(int64_t file_id) {
  FileOutcome out;
  Statement file = out_.prepare(
      "SELECT path, rank, content_hash, completed, bytes, lines, events, errors "
      "FROM shard.files WHERE id = ?");
  file.bind_int(1, file_id);
  if (!file.step()) throw SqliteError("shard has no file " + std::to_string(file_id));
  out.path = file.column_text(0);
  out.completed = file.column_int(3) == 1;
  out.bytes = static_cast<uint64_t>(file.column_int(4));
  out.lines = static_cast<uint64_t>(file.column_int(5));
  out.events = static_cast<uint64_t>(file.column_int(6));
  out.errors = static_cast<uint64_t>(file.column_int(7));
  if (out.completed) {
    // The identity ingest uses for repeats: same bytes and same rank.
    Statement dup = out_.prepare(
        "SELECT path FROM main.files WHERE content_hash = ? AND rank IS ? AND completed = 1 "
        "ORDER BY id LIMIT 1");
    std::string content_hash = file.column_text(2);  // bound without a copy: must outlive step
    dup.bind_text(1, content_hash);
    if (file.column_is_null(1)) {
      dup.bind_null(2);
    } else {
      dup.bind_int(2, file.column_int(1));
    }
    if (dup.step()) {
      out.duplicate_of = dup.column_text(0);
      return out;
    }
  }

  copy_rows("files", "src.id = ?1", {{"id", "NULL"}, {"completed", "0"}}, {file_id});
  int64_t new_file = sqlite3_last_insert_rowid(out_.handle());
  out.file_id = new_file;
  const FileRanges r = ranges_[file_id];
  int64_t event_offset = next_event_ - r.events.lo;
  map_payloads(file_id, r.events);
  map_stacks(r.event_stacks, r.events);

  const std::string payload_map =
      "(SELECT m.new FROM temp.merge_payloads m WHERE m.shard = ?3 AND m.old = src.payload_id)";
  // ?1 event id offset, ?2 output file id, ?3 shard, ?4 shard file id, ?5-?6 the table's range,
  // ?7-?8 the file's event ids.
  auto binds = [&](const Range& range) {
    return std::vector<int64_t>{event_offset, new_file, shard_,         file_id,
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
  next_event_ = r.events.hi + event_offset + 1;
  if (out.completed) {
    // Last, as in ingest: the file never looks complete before all its rows are in.
    Statement done = out_.prepare("UPDATE main.files SET completed = 1 WHERE id = ?");
    done.bind_int(1, new_file);
    done.run();
  }
  return out;
}

}  // namespace tlscope::model
