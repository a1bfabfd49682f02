// The single SQLite writer (see event_writer.hpp).
#include "tlscope/model/event_writer.hpp"

#include <array>
#include <cinttypes>
#include <cstdio>

#include "chromium_pairing.hpp"
#include "md5_ids.hpp"
#include "stack_frame_table.hpp"
#include "tlscope/model/schema.hpp"
#include "tlscope/parser/compile_id.hpp"
#include "tlscope/parser/md5.hpp"
#include "typed_table.hpp"

namespace tlscope::model {
namespace {

// Hand formatting: these run once per payload / event on the writer thread, where snprintf's
// format parsing showed up in the profile.
void put_hex(char* out, uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  for (int i = 15; i >= 0; --i, v >>= 4) out[i] = kDigits[v & 0xf];
}

std::array<char, 32> md5_hex(const Md5Key& k) {
  std::array<char, 32> out;
  put_hex(out.data(), k.hi);
  put_hex(out.data() + 16, k.lo);
  return out;
}

void put_digits(char* out, uint32_t v, int width) {
  for (int i = width - 1; i >= 0; --i, v /= 10) out[i] = static_cast<char>('0' + v % 10);
}

// "MMDD HH:MM:SS.uuuuuu" as written in the glog header.
std::array<char, 20> glog_time(const parser::GlogHeader& h) {
  std::array<char, 20> out;
  put_digits(&out[0], h.month, 2);
  put_digits(&out[2], h.day, 2);
  out[4] = ' ';
  put_digits(&out[5], h.hour, 2);
  out[7] = ':';
  put_digits(&out[8], h.minute, 2);
  out[10] = ':';
  put_digits(&out[11], h.second, 2);
  out[13] = '.';
  put_digits(&out[14], h.microsecond, 6);
  return out;
}

// A ChromiumValue is the owning copy of the FieldValue it was read as (see chromium_pairing.cpp),
// so it binds through the same bind_field.
void bind_value(Statement& s, int index, const ChromiumValue& v) {
  bind_field(s, index, FieldValue{static_cast<FieldValue::Kind>(v.kind), v.i, v.d, v.text});
}

// The metrics records of every PyTorch version: the CompilationMetrics dataclass under its four
// names, and the small record 2.3's lazy backward compile wrote (start_time, elapsed_time,
// fail_type, fail_reason), whose failure would otherwise be read by nothing.
bool is_metrics_kind(std::string_view kind) {
  return kind == "compilation_metrics" || kind == "bwd_compilation_metrics" ||
         kind == "compilation_metrics_runtime" || kind == "bwd_compilation_metrics_runtime" ||
         kind == "aot_autograd_backward_compilation_metrics";
}

// Rowid high-water marks taken when a file starts: a duplicate file's rows all lie above them.
struct Watermarks {
  int64_t events = 0, payloads = 0, strings = 0, event_stacks = 0, stacks = 0, errors = 0,
          chromium = 0;
};

// One events row waiting for a multi-row INSERT. It owns copies of its short text; the
// metadata is copied too unless the caller holds it until release_texts (EventTexts), and
// `metadata_view` is what is bound either way.
struct PendingEvent {
  int64_t id = 0, file_id = 0, line = 0, byte_offset = 0, thread = 0, lineno = 0, payload_lines = 0;
  std::optional<int64_t> rank, compiled_autograd_id, frame_id, frame_compile_id, attempt,
      payload_id, md5_ok;
  std::string kind, compile_id, pathname, metadata, subgraph_name;
  std::string_view metadata_view;
  std::array<char, 20> time{};
};

// One payloads row waiting for a multi-row INSERT (EventTexts::kHeldUntilRelease only): its text
// is a view of the caller's held event, so grouping adds no copy of the ~600 MB of payload text
// of the 1 GB benchmark log (185,817 rows, one statement each before).
struct PendingPayload {
  int64_t id = 0;
  std::array<char, 32> md5{};
  std::string_view text;
};

constexpr size_t kPayloadsPerInsert = 64;

// Events rows per INSERT statement: one statement execution (cursor open, halt, reset) per
// this many rows instead of per row (writer CPU on a 200 MB slice, 8 runs each alternated:
// -6% at 16 rows, -8.5% at 64). The copies are bounded: rows are written early once their
// metadata passes kPendingBytes, and a slot's buffer above kSlotBytes is released after use.
constexpr size_t kEventsPerInsert = 64;
constexpr size_t kPendingBytes = size_t{1} << 20;
constexpr size_t kSlotBytes = size_t{64} << 10;

std::string multi_row_insert(std::string_view table, int columns, size_t rows) {
  std::string tuple = "(";
  for (int c = 0; c < columns; ++c) tuple += c ? ",?" : "?";
  tuple += ")";
  std::string sql = "INSERT INTO " + std::string(table) + " VALUES";
  for (size_t r = 0; r < rows; ++r) sql += (r ? "," : "") + tuple;
  return sql;
}

constexpr int kEventColumns = 20;

// One chromium_event_rows row waiting for a multi-row INSERT, with its ids worked out. It owns
// copies of its text (copy-assigned into a reused slot, so the strings keep their capacity):
// a ChromiumRow handed to write_chromium may die when the call returns. 106,147 rows on the
// 1 GB benchmark log, one statement each before; grouped like the events rows.
struct PendingChromium {
  int64_t id = 0, event_id = 0, file_id = 0;
  std::optional<int64_t> rank, end_event_id;
  std::array<ChromiumValue, ChromiumRow::kFieldCount> fields;
  std::optional<double> matched_dur;
  std::string compile_id;
};

constexpr size_t kChromiumPerInsert = 64;
constexpr int kChromiumColumns = 13;

}  // namespace

struct EventWriter::Impl {
  Impl(Connection& c, ChromiumRows chromium, EventTexts texts)
      : db(c),
        held_texts(texts == EventTexts::kHeldUntilRelease),
        insert_event(c.prepare(multi_row_insert("events", kEventColumns, 1))),
        insert_payload(c.prepare("INSERT INTO payloads(id, md5, size, text) VALUES(?,?,?,?)")),
        insert_error(c.prepare(
            "INSERT INTO ingest_errors(file_id, line, byte_offset, line_count, kind, reason, "
            "excerpt) VALUES(?,?,?,?,?,?,?)")),
        insert_file(c.prepare("INSERT INTO files(path, rank, gzip, completed) VALUES(?,?,?,0)")),
        update_file(c.prepare(
            "UPDATE files SET rank = ?, bytes = ?, lines = ?, envelope_lines = ?, "
            "payload_lines = ?, blank_lines = ?, error_lines = ?, events = ?, errors = ?, "
            "content_hash = ? WHERE id = ?")),
        complete_file(c.prepare("UPDATE files SET completed = 1 WHERE id = ?")),
        update_counts(c.prepare("UPDATE files SET events = ?, errors = ? WHERE id = ?")),
        find_duplicate(c.prepare(
            "SELECT path FROM files WHERE content_hash = ? AND rank IS ? AND completed = 1 "
            "AND id <> ? ORDER BY id LIMIT 1")),
        insert_chromium(c.prepare(multi_row_insert("chromium_event_rows", kChromiumColumns, 1))),
        frames(c) {
    if (chromium == ChromiumRows::kBuiltByWriter) pairing = std::make_unique<ChromiumPairing>();
    tables.emplace("describe_tensor", make_describe_tensor_table(c));
    tables.emplace("describe_storage", make_describe_storage_table(c));
    tables.emplace("describe_source", make_describe_source_table(c));
    tables.emplace("artifact", make_artifact_table(c));
    tables.emplace("link", make_link_table(c));
    metrics = make_compilation_metrics_table(c);
    next_event_id = c.scalar_int("SELECT coalesce(max(id), 0) + 1 FROM events").value_or(1);
    next_payload_id = c.scalar_int("SELECT coalesce(max(id), 0) + 1 FROM payloads").value_or(1);
    frames.set_next_stack_id(
        c.scalar_int("SELECT coalesce(max(stack_id), 0) + 1 FROM stacks").value_or(1));
    Statement existing = c.prepare("SELECT md5, id FROM payloads");
    while (existing.step()) {
      if (auto key = md5_key(existing.text(0))) {
        payload_ids.find_or_insert(*key, existing.int64(1));
      }
    }
  }

  std::optional<int64_t> store_payload(const parser::Event& e) {
    if (!e.has_payload) return std::nullopt;
    std::optional<Md5Key> key;
    // The claimed hash is the payload's own only when the parser verified it.
    if (e.md5 == parser::Md5Status::kOk) key = md5_key(e.payload_md5);
    if (!key) key = md5_key(parser::Md5::hex_of(e.payload));
    auto [id, inserted] = payload_ids.find_or_insert(*key, next_payload_id);
    if (!inserted) return id;
    if (held_texts) {
      if (pending_payload_count == kPayloadsPerInsert) flush_payloads();
      pending_payloads[pending_payload_count++] =
          PendingPayload{next_payload_id, md5_hex(*key), e.payload};
    } else {
      // Named, not a temporary: the statement binds the md5 without a copy, so it must live
      // until run() has stepped.
      const PendingPayload row{next_payload_id, md5_hex(*key), e.payload};
      bind_payload(insert_payload, 0, row);
      insert_payload.run();
    }
    return next_payload_id++;
  }

  // Binds one payloads row as the row-th tuple of `s` (0-based).
  static void bind_payload(Statement& s, size_t row, const PendingPayload& p) {
    const int b = static_cast<int>(row) * 4;
    s.bind(b + 1, p.id);
    s.bind_static(b + 2, std::string_view(p.md5.data(), p.md5.size()));
    s.bind(b + 3, static_cast<int64_t>(p.text.size()));
    s.bind_static(b + 4, p.text);
  }

  // Writes the pending payloads rows (see write_rows).
  void flush_payloads() {
    write_rows(pending_payloads, pending_payload_count, &Impl::insert_payloads, insert_payload,
               bind_payload);
    pending_payload_count = 0;
  }

  void store_error(std::optional<int64_t> file, uint64_t line, uint64_t byte_offset,
                   uint64_t line_count, std::string_view kind, std::string_view reason,
                   std::string_view excerpt) {
    insert_error.bind(1, file);
    if (line > 0) insert_error.bind(2, static_cast<int64_t>(line));
    if (file) insert_error.bind(3, static_cast<int64_t>(byte_offset));
    insert_error.bind(4, static_cast<int64_t>(line_count));
    insert_error.bind_static(5, kind);
    insert_error.bind_static(6, reason);
    insert_error.bind_static(7, nonempty(excerpt));
    insert_error.run();
    if (file) ++file_errors;
  }

  void typed_rows(const EventRow& row) {
    const parser::Event& e = row.event;
    std::string error;
    bool ok = true;
    if (e.kind == "str") {
      ok = frames.add_string(row, error);
    } else if (is_metrics_kind(e.kind)) {
      ok = metrics->add(row, json, error);
    } else if (auto it = tables.find(e.kind); it != tables.end()) {
      ok = it->second->add(row, json, error);
    } else if (e.kind == "dynamo_start") {
      ok = frames.add_frames(row, e.metadata, "stack", error);
    }
    if (ok && !e.stack.empty()) ok = frames.add_frames(row, e.stack, "", error);
    if (!ok) {
      // The event row stays; the typed row is missing, and says so. Its lines are already
      // counted with the event, hence line_count 0. The place is the row's file, line and
      // offset; the reason says only what is wrong, as the parser's details do.
      std::string reason =
          std::string(e.kind) + " record kept, but its typed row is missing: " + error;
      std::string_view excerpt = e.payload.empty() ? e.metadata : e.payload;
      store_error(file_id, e.line, e.byte_offset, 0,
                  parser::to_string(parser::ErrorKind::kBadPayload), reason,
                  excerpt.substr(0, 200));
    }
  }

  // The row is written later, in a group (flush_chromium); its ids are fixed now, so rows
  // land where they did one by one. Its problem, if any, is written at once.
  void write_chromium(const ChromiumRow& row) {
    if (row.has_row) {
      if (pending_chromium_count == kChromiumPerInsert) flush_chromium();
      PendingChromium& p = pending_chromium[pending_chromium_count++];
      p.id = marks.chromium + 1 + static_cast<int64_t>(row.chromium_ordinal);
      p.event_id = marks.events + 1 + static_cast<int64_t>(row.event_ordinal);
      p.file_id = file_id;
      p.rank = row.rank;
      p.fields = row.fields;
      p.matched_dur = row.matched_dur;
      p.compile_id = row.compile_id;
      p.end_event_id.reset();
      if (row.end_event_ordinal) {
        p.end_event_id = marks.events + 1 + static_cast<int64_t>(*row.end_event_ordinal);
      }
    }
    if (!row.problem.empty()) {
      std::string reason = "chromium_event record kept, but " +
                           (row.has_row ? row.problem : "its typed row is missing: " + row.problem);
      store_error(file_id, row.line, row.byte_offset, 0,
                  parser::to_string(parser::ErrorKind::kBadPayload), reason, row.excerpt);
    }
  }

  Connection& db;
  // Binds one pending row as the row-th tuple of `s` (0-based).
  static void bind_event(Statement& s, size_t row, const PendingEvent& p) {
    const int b = static_cast<int>(row) * kEventColumns;
    s.bind(b + 1, p.id);
    s.bind(b + 2, p.file_id);
    s.bind(b + 3, p.line);
    s.bind(b + 4, p.byte_offset);
    s.bind_static(b + 5, p.kind);
    s.bind(b + 6, p.rank);
    s.bind(b + 7, p.compiled_autograd_id);
    s.bind(b + 8, p.frame_id);
    s.bind(b + 9, p.frame_compile_id);
    s.bind(b + 10, p.attempt);
    s.bind_static(b + 11, nonempty(p.compile_id));
    s.bind_static(b + 12, std::string_view(p.time.data(), p.time.size()));
    s.bind(b + 13, p.thread);
    s.bind_static(b + 14, p.pathname);
    s.bind(b + 15, p.lineno);
    s.bind_static(b + 16, p.metadata_view);
    s.bind(b + 17, p.payload_id);
    s.bind(b + 18, p.payload_lines);
    s.bind(b + 19, p.md5_ok);
    s.bind_static(b + 20, nonempty(p.subgraph_name));
  }

  // Binds one pending chromium row as the row-th tuple of `s` (0-based).
  static void bind_chromium(Statement& s, size_t row, const PendingChromium& p) {
    const int b = static_cast<int>(row) * kChromiumColumns;
    s.bind(b + 1, p.id);
    s.bind(b + 2, p.event_id);
    s.bind(b + 3, p.file_id);
    s.bind(b + 4, p.rank);
    bind_value(s, b + 5, p.fields[ChromiumRow::kName]);
    bind_value(s, b + 6, p.fields[ChromiumRow::kCat]);
    bind_value(s, b + 7, p.fields[ChromiumRow::kPh]);
    bind_value(s, b + 8, p.fields[ChromiumRow::kTs]);
    if (p.matched_dur) {
      s.bind(b + 9, *p.matched_dur);
    } else {
      bind_value(s, b + 9, p.fields[ChromiumRow::kDur]);
    }
    bind_value(s, b + 10, p.fields[ChromiumRow::kPid]);
    bind_value(s, b + 11, p.fields[ChromiumRow::kTid]);
    s.bind_static(b + 12, nonempty(p.compile_id));
    s.bind(b + 13, p.end_event_id);
  }

  // Writes the pending chromium rows (see write_rows). Called before anything reads
  // chromium_event_rows or commits.
  void flush_chromium() {
    write_rows(pending_chromium, pending_chromium_count, &Impl::insert_chromiums, insert_chromium,
               bind_chromium);
    pending_chromium_count = 0;
  }

  // Everything still waiting for a group, before a commit or a read of these tables.
  void flush_rows() {
    flush_events();
    flush_payloads();
    flush_chromium();
  }

  // Writes the pending events rows: whole groups through the multi-row statement, the rest one
  // by one. Called before anything reads events or commits.
  void flush_events() {
    write_rows(pending, pending_count, &Impl::insert_events, insert_event, bind_event);
    for (size_t k = 0; k < pending_count; ++k) {
      if (pending[k].metadata.capacity() > kSlotBytes) std::string().swap(pending[k].metadata);
    }
    pending_count = 0;
    pending_bytes = 0;
  }

  const bool held_texts;  // EventTexts::kHeldUntilRelease
  // The multi-row statements, prepared when first needed: preparing the three costs ~1.8 M
  // instructions, 3% of a whole small job that never fills a group.
  Statement& insert_events() {
    return group_statement(insert_events_, "events", kEventColumns, kEventsPerInsert);
  }
  Statement& insert_payloads() {
    return group_statement(insert_payloads_, "payloads", 4, kPayloadsPerInsert);
  }
  Statement& insert_chromiums() {
    return group_statement(insert_chromiums_, "chromium_event_rows", kChromiumColumns,
                           kChromiumPerInsert);
  }
  // Writes the first `count` of `rows`, N to a group: whole groups through the multi-row
  // statement `group` gives (prepared on first use), the rest one by one through `single`.
  template <typename Row, size_t N, typename Bind>
  void write_rows(const std::array<Row, N>& rows, size_t count, Statement& (Impl::*group)(),
                  Statement& single, Bind bind) {
    size_t i = 0;
    for (; count - i >= N; i += N) {
      Statement& s = (this->*group)();
      for (size_t r = 0; r < N; ++r) bind(s, r, rows[i + r]);
      s.run();
    }
    for (; i < count; ++i) {
      bind(single, 0, rows[i]);
      single.run();
    }
  }
  Statement& group_statement(std::optional<Statement>& slot, std::string_view table, int columns,
                             size_t rows) {
    if (!slot) slot.emplace(db.prepare(multi_row_insert(table, columns, rows)));
    return *slot;
  }

  Statement insert_event, insert_payload, insert_error, insert_file, update_file, complete_file,
      update_counts, find_duplicate, insert_chromium;
  std::optional<Statement> insert_events_, insert_payloads_, insert_chromiums_;
  StackFrameTable frames;
  std::unordered_map<std::string_view, std::unique_ptr<TypedTable>> tables;
  std::unique_ptr<TypedTable> metrics;
  JsonFields json;
  std::unique_ptr<ChromiumPairing> pairing;  // null when the caller builds the chromium rows
  std::vector<ChromiumRow> chromium_rows;    // reused output of `pairing`
  Md5Ids payload_ids;
  std::array<PendingEvent, kEventsPerInsert> pending;  // reused: strings keep their capacity
  size_t pending_count = 0;
  size_t pending_bytes = 0;  // metadata bytes of the pending rows
  std::array<PendingPayload, kPayloadsPerInsert> pending_payloads;
  size_t pending_payload_count = 0;
  std::array<PendingChromium, kChromiumPerInsert> pending_chromium;
  size_t pending_chromium_count = 0;
  int64_t next_event_id = 1;
  int64_t next_payload_id = 1;
  bool in_transaction = false;

  // The file being written (file_open from begin_file to end_file).
  bool file_open = false;
  int64_t file_id = 0;
  parser::SourceInfo source;
  std::optional<int64_t> first_rank;
  uint64_t file_events = 0, file_errors = 0;
  Watermarks marks;
};

EventWriter::EventWriter(Connection& db, ChromiumRows chromium, EventTexts texts)
    : impl_(std::make_unique<Impl>(db, chromium, texts)) {
  impl_->db.exec("BEGIN");
  impl_->in_transaction = true;
}

EventWriter::~EventWriter() {
  // What is written stays (journal_mode=OFF has no rollback anyway), and files.completed = 0
  // marks any file that did not finish.
  if (impl_ && impl_->in_transaction) {
    try {
      impl_->flush_rows();
      impl_->db.exec("COMMIT");
    } catch (const SqliteError&) {
    }
  }
}

void EventWriter::begin_file(const parser::SourceInfo& source) {
  Impl& w = *impl_;
  w.source = source;
  w.first_rank.reset();
  w.file_events = w.file_errors = 0;
  w.flush_rows();  // the marks below count every row handed in so far
  Connection& db = w.db;
  w.marks.events = w.next_event_id - 1;
  w.marks.payloads = w.next_payload_id - 1;
  w.marks.strings = db.scalar_int("SELECT coalesce(max(rowid), 0) FROM strings").value_or(0);
  w.marks.event_stacks =
      db.scalar_int("SELECT coalesce(max(rowid), 0) FROM event_stacks").value_or(0);
  w.marks.stacks = w.frames.next_stack_id() - 1;
  w.marks.errors = db.scalar_int("SELECT coalesce(max(id), 0) FROM ingest_errors").value_or(0);
  w.marks.chromium =
      db.scalar_int("SELECT coalesce(max(id), 0) FROM chromium_event_rows").value_or(0);
  w.insert_file.bind_static(1, source.path);
  w.insert_file.bind(2, source.rank);
  w.insert_file.bind(3, source.gzip ? 1 : 0);
  w.insert_file.run();
  w.file_id = sqlite3_last_insert_rowid(db.handle());
  w.file_open = true;
  w.frames.begin_file();
  if (w.pairing) w.pairing->begin_file();
}

void EventWriter::add_event(const parser::Event& e) {
  Impl& w = *impl_;
  if (!w.first_rank && e.rank) w.first_rank = e.rank;
  std::optional<int64_t> rank = e.rank ? e.rank : w.source.rank;
  std::string compile_id = parser::compile_id_string(e.context);
  std::optional<int64_t> payload_id = w.store_payload(e);
  int64_t event_id = w.next_event_id++;
  std::array<char, 20> time = glog_time(e.header);

  if (w.pending_count == kEventsPerInsert) w.flush_events();
  PendingEvent& p = w.pending[w.pending_count++];
  p.id = event_id;
  p.file_id = w.file_id;
  p.line = static_cast<int64_t>(e.line);
  p.byte_offset = static_cast<int64_t>(e.byte_offset);
  p.kind.assign(e.kind);
  p.rank = rank;
  p.compiled_autograd_id = e.context.compiled_autograd_id;
  p.frame_id = e.context.frame_id;
  p.frame_compile_id = e.context.frame_compile_id;
  p.attempt = e.context.attempt;
  p.compile_id = compile_id;
  p.time = time;
  p.thread = static_cast<int64_t>(e.header.thread);
  p.pathname.assign(e.header.pathname);
  p.subgraph_name.assign(e.subgraph_name);
  p.lineno = e.header.lineno;
  if (w.held_texts) {
    p.metadata_view = e.metadata;
  } else {
    p.metadata.assign(e.metadata);
    p.metadata_view = p.metadata;
    w.pending_bytes += p.metadata.size();
  }
  p.payload_id = payload_id;
  p.payload_lines = e.payload_lines;
  p.md5_ok.reset();
  if (e.md5 != parser::Md5Status::kNoPayload) p.md5_ok = e.md5 == parser::Md5Status::kOk;
  if (w.pending_bytes >= kPendingBytes) w.flush_events();
  ++w.file_events;

  w.typed_rows(EventRow{e, event_id, w.file_id, rank, compile_id, payload_id});
  if (w.pairing && e.kind == "chromium_event") {
    w.chromium_rows.clear();
    w.pairing->add(e, w.file_events - 1, rank, compile_id, w.chromium_rows);
    for (const ChromiumRow& row : w.chromium_rows) w.write_chromium(row);
  }
}

void EventWriter::add_chromium_row(const ChromiumRow& row) {
  impl_->write_chromium(row);
}

void EventWriter::add_error(const parser::ParseError& error) {
  Impl& w = *impl_;
  w.store_error(w.file_id, error.line, error.byte_offset, error.line_count,
                parser::to_string(error.kind), error.detail, error.excerpt);
}

FileOutcome EventWriter::end_file(const parser::SourceSummary& summary) {
  Impl& w = *impl_;
  w.file_open = false;
  if (w.pairing) {
    w.chromium_rows.clear();
    w.pairing->end_file(w.chromium_rows);
    for (const ChromiumRow& row : w.chromium_rows) w.write_chromium(row);
  }
  w.flush_rows();  // the duplicate check below may delete this file's rows
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016" PRIx64, summary.content_hash);

  FileOutcome out;
  out.path = w.source.path;
  out.file_id = w.file_id;
  out.bytes = summary.bytes;
  out.lines = summary.lines.total_lines;
  out.events = w.file_events;
  out.errors = w.file_errors;
  out.completed = summary.completed;

  Statement& u = w.update_file;
  const parser::LineAccounting& l = summary.lines;
  std::optional<int64_t> file_rank = w.source.rank ? w.source.rank : w.first_rank;
  u.bind(1, file_rank);
  u.bind(2, static_cast<int64_t>(summary.bytes));
  u.bind(3, static_cast<int64_t>(l.total_lines));
  u.bind(4, static_cast<int64_t>(l.envelope_lines));
  u.bind(5, static_cast<int64_t>(l.payload_lines));
  u.bind(6, static_cast<int64_t>(l.blank_lines));
  u.bind(7, static_cast<int64_t>(l.error_lines));
  u.bind(8, static_cast<int64_t>(w.file_events));
  u.bind(9, static_cast<int64_t>(w.file_errors));
  u.bind_static(10, hash);
  u.bind(11, w.file_id);
  u.run();

  if (summary.completed) {
    // Same bytes under another rank are another rank's log (ranks that did identical work),
    // not a repeat: the rank is part of a file's identity.
    w.find_duplicate.bind_static(1, hash);
    w.find_duplicate.bind(2, file_rank);
    w.find_duplicate.bind(3, w.file_id);
    if (w.find_duplicate.step()) out.duplicate_of = w.find_duplicate.text(0);
    w.find_duplicate.reset();
  }
  if (!out.duplicate_of.empty()) {
    // Same bytes already stored: take this file's rows out again (every table only grew above
    // the marks since begin_file), so a second ingest adds nothing.
    const Watermarks& m = w.marks;
    auto del = [&](const std::string& sql, int64_t mark) {
      Statement s = w.db.prepare(sql);
      s.bind(1, mark);
      s.run();
    };
    for (std::string_view table : kPerEventTables) {
      del("DELETE FROM " + std::string(table) + " WHERE event_id > ?", m.events);
    }
    del("DELETE FROM events WHERE id > ?", m.events);
    del("DELETE FROM chromium_event_rows WHERE id > ?", m.chromium);
    del("DELETE FROM event_stacks WHERE rowid > ?", m.event_stacks);
    del("DELETE FROM stacks WHERE stack_id > ?", m.stacks);
    del("DELETE FROM strings WHERE rowid > ?", m.strings);
    del("DELETE FROM ingest_errors WHERE id > ?", m.errors);
    del("DELETE FROM payloads WHERE id > ?", m.payloads);
    del("DELETE FROM files WHERE id >= ?", w.file_id);
    w.payload_ids.erase_above(m.payloads);
    w.frames.erase_stacks_above(m.stacks);
    w.next_event_id = m.events + 1;
    w.next_payload_id = m.payloads + 1;
    out.file_id = 0;
  } else if (summary.completed) {
    // Last of all, so a file never looks complete before every row of it is in.
    w.complete_file.bind(1, w.file_id);
    w.complete_file.run();
  }
  checkpoint();
  return out;
}

void EventWriter::release_texts() {
  impl_->flush_events();
  impl_->flush_payloads();
}

void EventWriter::add_input_problem(std::string_view problem) {
  impl_->store_error(std::nullopt, 0, 0, 0, parser::to_string(parser::ErrorKind::kIo), problem, {});
}

void EventWriter::checkpoint() {
  Impl& w = *impl_;
  w.flush_rows();
  if (w.file_open) {
    // An ingest killed after this commit leaves the file incomplete with these counts, not 0.
    w.update_counts.bind(1, static_cast<int64_t>(w.file_events));
    w.update_counts.bind(2, static_cast<int64_t>(w.file_errors));
    w.update_counts.bind(3, w.file_id);
    w.update_counts.run();
  }
  w.db.exec("COMMIT");
  w.in_transaction = false;
  w.db.exec("BEGIN");
  w.in_transaction = true;
}

void EventWriter::finish() {
  Impl& w = *impl_;
  w.flush_rows();
  if (w.in_transaction) {
    w.db.exec("COMMIT");
    w.in_transaction = false;
  }
  // Sort in 16 MiB runs merged rather than one run the size of the whole cache (measured on a
  // 270 MB log: about a quarter less CPU for the index builds). PRAGMA threads does nothing here:
  // SQLite's sorter takes no helper threads under temp_store=MEMORY (sqlite3VdbeSorterInit).
  // Allowing temp files for the builds let 8 MiB runs be sorted on helpers (callgrind on the
  // 1 GB benchmark log's database: this thread 3.76 -> 2.32 G instructions, +22% in all), but
  // at load 3.5 on 2 cores the builds' wall did not shrink (0.55 s against 0.44-0.53 s) and
  // the process spent more CPU, so it was left out (bench/README.md, session 7).
  w.db.exec("PRAGMA threads=2; PRAGMA cache_size=-16384;");
  create_indexes(w.db);
}

}  // namespace tlscope::model
