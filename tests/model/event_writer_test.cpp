// The store on hand-made events: one events row per envelope, payload dedup, typed tables,
// chromium B/E matching, duplicates, incomplete files, and errors as rows.
#include <catch2/catch.hpp>

#include <deque>
#include <set>
#include <string>

#include "model/store_queries.hpp"
#include "tlscope/model/event_writer.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/model/schema.hpp"
#include "tlscope/parser/md5.hpp"

using namespace tlscope;
using model::Connection;
using test::count;
using test::text;

namespace {

// Owns the text a hand-made parser::Event views.
struct EventMaker {
  std::deque<std::string> texts;
  uint64_t line = 1;

  std::string_view keep(std::string s) { return texts.emplace_back(std::move(s)); }

  parser::Event make(std::string kind, std::string metadata, std::string payload = "",
                     parser::Md5Status md5 = parser::Md5Status::kNoPayload) {
    parser::Event e;
    e.line = line;
    e.byte_offset = line * 100;
    e.kind = keep(kind);
    e.metadata = keep(metadata);
    e.envelope = keep("{\"" + kind + "\": " + metadata + "}");
    e.header.pathname = keep("torch/_dynamo/utils.py");
    e.header.month = 12;
    e.header.day = 6;
    e.header.hour = 15;
    e.header.minute = 18;
    e.header.second = 16;
    e.header.microsecond = 845000;
    e.header.thread = 1500233;
    e.header.lineno = 1288;
    if (md5 != parser::Md5Status::kNoPayload) {
      e.has_payload = true;
      e.payload = keep(payload);
      e.md5 = md5;
      e.payload_lines = 1 + static_cast<uint32_t>(std::count(payload.begin(), payload.end(), '\n'));
    }
    line += 1 + e.payload_lines;
    return e;
  }
};

parser::SourceInfo source(std::string path, std::optional<int64_t> rank = std::nullopt) {
  parser::SourceInfo s;
  s.path = std::move(path);
  s.rank = rank;
  return s;
}

parser::SourceSummary summary(uint64_t hash, uint64_t events, bool completed = true) {
  parser::SourceSummary s;
  s.content_hash = hash;
  s.events = events;
  s.completed = completed;
  s.lines.total_lines = events;
  s.lines.envelope_lines = events;
  return s;
}

struct Store {
  Connection db{":memory:"};
  Store() { model::open_for_ingest(db); }
};

}  // namespace

TEST_CASE("every envelope becomes one events row, str lines included") {
  Store st;
  EventMaker m;
  model::EventWriter w(st.db);
  w.begin_file(source("a.log", 3));
  w.add_event(m.make("str", R"(["/x/convert_frame.py", 0])"));
  auto e = m.make("dynamo_start", R"({"stack": []})");
  e.context.frame_id = 0;
  e.context.frame_compile_id = 1;
  e.context.attempt = 2;
  w.add_event(e);
  w.add_event(m.make("some_future_kind", "{}"));
  auto out = w.end_file(summary(1, 3));
  w.finish();
  CHECK(out.events == 3);
  CHECK(count(st.db, "SELECT count(*) FROM events") == 3);
  CHECK(count(st.db, "SELECT count(*) FROM events WHERE kind = 'str'") == 1);
  CHECK(text(st.db, "SELECT kind FROM events WHERE id = 3") == "some_future_kind");
  CHECK(text(st.db, "SELECT compile_id FROM events WHERE kind = 'dynamo_start'") == "0/1_2");
  CHECK(text(st.db, "SELECT glog_time FROM events WHERE id = 1") == "1206 15:18:16.845000");
  // No envelope rank: the file-name rank applies.
  CHECK(count(st.db, "SELECT count(*) FROM events WHERE rank = 3") == 3);
  CHECK(count(st.db, "SELECT completed FROM files") == 1);
}

TEST_CASE("events rows written in groups match each event handed in, whatever its text's life") {
  // 200 events: three full groups of the writer's multi-row INSERT, a commit in the middle and a
  // tail written one by one. Each event's text lives only during its add_event call (overwritten
  // right after), so a row is right only if the writer copied it.
  Store st;
  model::EventWriter w(st.db);
  w.begin_file(source("groups.log"));
  std::string kind, metadata, payload, claimed;
  for (int i = 0; i < 200; ++i) {
    kind = "kind_" + std::to_string(i % 7);
    metadata = "{\"i\": " + std::to_string(i) + "}";
    payload = "payload " + std::to_string(i);
    parser::Event e;
    e.line = static_cast<uint64_t>(2 * i + 1);
    e.byte_offset = static_cast<uint64_t>(1000 * i);
    e.kind = kind;
    e.metadata = metadata;
    e.header.pathname = kind;
    e.header.lineno = static_cast<uint32_t>(i);
    if (i % 3 == 0) e.context.frame_id = i;
    if (i % 5 == 0) {
      e.has_payload = true;
      e.payload = payload;
      e.payload_lines = 1;
      e.md5 = i % 10 == 0 ? parser::Md5Status::kOk : parser::Md5Status::kMismatch;
      claimed = parser::Md5::hex_of(payload);  // what a verified has_payload carries
      e.payload_md5 = claimed;
    }
    w.add_event(e);
    kind.assign(kind.size(), 'x');
    metadata.assign(metadata.size(), 'x');
    payload.assign(payload.size(), 'x');
    if (i == 100) w.checkpoint();
  }
  w.end_file(summary(7, 200));
  w.finish();
  REQUIRE(count(st.db, "SELECT count(*) FROM events") == 200);
  // Every row against the loop's own rule, in SQL: a misplaced or shifted binding fails here.
  CHECK(count(st.db,
              "SELECT count(*) FROM events WHERE line = 2 * (id - 1) + 1 AND byte_offset = "
              "1000 * (id - 1) AND kind = 'kind_' || ((id - 1) % 7) AND pathname = kind AND "
              "lineno = id - 1 AND metadata = '{\"i\": ' || (id - 1) || '}' AND "
              "json_extract(metadata, '$.i') = id - 1 AND (frame_id IS (CASE WHEN (id - 1) % 3 "
              "= 0 THEN id - 1 END)) AND (md5_ok IS (CASE WHEN (id - 1) % 10 = 0 THEN 1 WHEN "
              "(id - 1) % 5 = 0 THEN 0 END)) AND (payload_lines = CASE WHEN (id - 1) % 5 = 0 "
              "THEN 1 ELSE 0 END)") == 200);
  CHECK(count(st.db,
              "SELECT count(*) FROM events e JOIN payloads p ON p.id = e.payload_id "
              "WHERE p.text = 'payload ' || (e.id - 1)") == 40);
}

TEST_CASE("payloads are stored once per distinct content") {
  Store st;
  EventMaker m;
  model::EventWriter w(st.db);
  w.begin_file(source("a.log"));
  // MD5 of "hello" and of "world", as printed by md5sum.
  auto a =
      m.make("artifact", R"({"name": "x", "encoding": "string"})", "hello", parser::Md5Status::kOk);
  a.payload_md5 = "5d41402abc4b2a76b9719d911017c592";
  auto b = a;
  b.line = 9;
  auto c = m.make("artifact", R"({"name": "y", "encoding": "string"})", "world",
                  parser::Md5Status::kMismatch);
  c.payload_md5 = "00000000000000000000000000000000";
  w.add_event(a);
  w.add_event(b);
  w.add_event(c);
  w.end_file(summary(1, 3));
  w.finish();
  CHECK(count(st.db, "SELECT count(*) FROM payloads") == 2);
  CHECK(count(st.db, "SELECT count(DISTINCT payload_id) FROM events") == 2);
  // A mismatched payload is keyed by the MD5 of what was read, not by the claimed one.
  CHECK(text(st.db, "SELECT md5 FROM payloads WHERE text = 'world'") ==
        "7d793037a0760186574b0282f2f435e7");
  CHECK(count(st.db, "SELECT md5_ok FROM events WHERE id = 3") == 0);
  CHECK(count(st.db, "SELECT md5_ok FROM events WHERE id = 1") == 1);
  CHECK(count(st.db, "SELECT count(*) FROM artifacts WHERE payload_id IS NOT NULL") == 3);
  CHECK(text(st.db, "SELECT name || ':' || encoding FROM artifacts WHERE event_id = 3") ==
        "y:string");
}

TEST_CASE("an empty payload is stored as empty text, not NULL") {
  Store st;
  EventMaker m;
  model::EventWriter w(st.db);
  w.begin_file(source("a.log"));
  parser::Event e = m.make("dynamo_guards", "{}", "", parser::Md5Status::kOk);
  e.payload = std::string_view();  // what a batch copy of an empty payload looks like
  e.payload_md5 = "d41d8cd98f00b204e9800998ecf8427e";  // MD5 of no bytes
  w.add_event(e);
  w.end_file(summary(1, 1));
  w.finish();
  CHECK(text(st.db, "SELECT quote(text) || ' ' || size || ' ' || md5 FROM payloads") ==
        "'' 0 d41d8cd98f00b204e9800998ecf8427e");
}

TEST_CASE("dynamo_start frames resolve filenames through the file's string table") {
  Store st;
  EventMaker m;
  model::EventWriter w(st.db);
  w.begin_file(source("a.log"));
  w.add_event(m.make("str", R"(["/x/test_misc.py", 0])"));
  w.add_event(m.make("str", R"(["/x/convert_frame.py", 1])"));
  w.add_event(m.make("dynamo_start",
                     R"({"stack": [{"line": 10079, "name": "<module>", "filename": 0},)"
                     R"( {"line": 5, "name": "f", "filename": 1, "loc": "return x"},)"
                     R"( {"line": 7, "name": "g", "filename": 42}]})"));
  auto top = m.make("graph_dump", R"({"name": "w"})");
  top.stack = m.keep(R"([{"line": 3, "name": "h", "filename": 1}])");
  w.add_event(top);
  w.end_file(summary(1, 4));
  w.finish();
  CHECK(count(st.db, "SELECT count(*) FROM strings") == 2);
  CHECK(count(st.db, "SELECT count(*) FROM stack_frames WHERE event_id = 3") == 3);
  CHECK(text(st.db, "SELECT filename FROM stack_frames WHERE event_id = 3 AND depth = 0") ==
        "/x/test_misc.py");
  CHECK(text(st.db, "SELECT loc FROM stack_frames WHERE event_id = 3 AND depth = 1") == "return x");
  CHECK(text(st.db, "SELECT filename FROM stack_frames WHERE event_id = 3 AND depth = 2") ==
        "NULL");
  CHECK(text(st.db, "SELECT filename || ':' || line FROM stack_frames WHERE event_id = 4") ==
        "/x/convert_frame.py:3");
}

TEST_CASE("a stack is stored once however many events and ranks carry it") {
  Store st;
  EventMaker m;
  model::EventWriter w(st.db);
  const char* outer = R"({"stack": [{"line": 1, "name": "<module>", "filename": 0},)"
                      R"( {"line": 5, "name": "f", "filename": 1}]})";
  const char* inner = R"({"stack": [{"line": 1, "name": "<module>", "filename": 0},)"
                      R"( {"line": 6, "name": "f", "filename": 1}]})";
  for (int64_t rank : {0, 1}) {
    w.begin_file(source("rank" + std::to_string(rank) + ".log", rank));
    w.add_event(m.make("str", R"(["/x/train.py", 0])"));
    w.add_event(m.make("str", R"(["/x/model.py", 1])"));
    w.add_event(m.make("dynamo_start", outer));
    w.add_event(m.make("dynamo_start", inner));
    w.add_event(m.make("dynamo_start", outer));
    w.end_file(summary(100 + rank, 5));
  }
  w.finish();
  // Six events with frames, two distinct stacks of two frames each.
  CHECK(count(st.db, "SELECT count(*) FROM event_stacks") == 6);
  CHECK(count(st.db, "SELECT count(DISTINCT stack_id) FROM stacks") == 2);
  CHECK(count(st.db, "SELECT count(*) FROM stacks") == 4);
  CHECK(count(st.db, "SELECT count(*) FROM stack_frames") == 12);
  // Every event still reads its own frames through the view (lines count on across the files).
  CHECK(text(st.db,
             "SELECT group_concat(line, ',') FROM (SELECT e.line AS line FROM stack_frames sf "
             "JOIN events e ON e.id = sf.event_id WHERE sf.depth = 1 AND sf.line = 6 "
             "ORDER BY e.id)") == "4,9");
  CHECK(text(st.db,
             "SELECT group_concat(filename || ':' || line, ' > ') FROM (SELECT filename, line "
             "FROM stack_frames WHERE event_id = 8 ORDER BY depth)") ==
        "/x/train.py:1 > /x/model.py:5");
}

TEST_CASE("a chromium row whose payload is not JSON to SQLite reads NULL args, not an error") {
  Store st;
  st.db.exec(
      "INSERT INTO payloads VALUES (1, 'x', 9, '{\"args\": '), (2, 'y', 20, "
      "'{\"args\": {\"a\": 1}}');"
      "INSERT INTO events(id, file_id, line, byte_offset, kind, payload_id, payload_lines) VALUES "
      "(1, 1, 1, 0, 'chromium_event', 1, 1), (2, 1, 3, 90, 'chromium_event', 2, 1);"
      "INSERT INTO chromium_event_rows(id, event_id, file_id, ph, ts) VALUES "
      "(1, 1, 1, 'i', 1.0), (2, 2, 1, 'i', 2.0);");
  CHECK(text(st.db, "SELECT group_concat(coalesce(args, 'NULL'), ' ') FROM chromium_events") ==
        R"(NULL {"a":1})");
}

TEST_CASE("a database of another schema version is refused with a clear message") {
  Connection db(":memory:");
  model::open_for_ingest(db);
  db.exec("UPDATE meta SET value = '1' WHERE key = 'schema_version'");
  try {
    model::open_for_ingest(db);
    FAIL("a version-1 database was accepted");
  } catch (const model::SqliteError& e) {
    CHECK(std::string(e.what()).find("schema version 1") != std::string::npos);
    CHECK(std::string(e.what()).find("new database") != std::string::npos);
  }
}

TEST_CASE("chromium B/E pairs get a duration and merged args") {
  Store st;
  EventMaker m;
  model::EventWriter w(st.db);
  w.begin_file(source("a.log"));
  auto ev = [&](const char* name, const char* ph, const char* ts, const char* args) {
    std::string p = std::string(R"({"name": ")") + name + R"(", "ts": )" + ts + R"(, "args": )" +
                    args + R"(, "ph": ")" + ph + R"(", "cat": "dynamo_timed", "tid": 0, "pid": 0})";
    w.add_event(m.make("chromium_event", "{}", p, parser::Md5Status::kOk));
  };
  ev("dynamo", "B", "100.5", R"({"compile_id": "0/0"})");
  ev("dynamo", "B", "200", R"({"compile_id": "1/0"})");
  ev("dynamo", "E", "250", R"({"compile_id": "1/0", "cache": "hit"})");
  ev("dynamo", "E", "400", R"({"compile_id": "0/0"})");
  ev("other", "B", "500", R"({"compile_id": "None"})");
  w.end_file(summary(1, 5));
  w.finish();
  // Innermost first: the second B closes with the first E.
  CHECK(count(st.db, "SELECT dur FROM chromium_events WHERE event_id = 2") == 50);
  CHECK(text(st.db, "SELECT dur FROM chromium_events WHERE event_id = 1") == "299.5");
  CHECK(text(st.db,
             "SELECT json_extract(args, '$.cache') FROM chromium_events "
             "WHERE event_id = 2") == "hit");
  // One row per slice: a matched E is its B row's end_event_id, not a row of its own.
  CHECK(count(st.db, "SELECT count(*) FROM chromium_events") == 3);
  CHECK(count(st.db, "SELECT count(*) FROM chromium_events WHERE ph = 'E'") == 0);
  CHECK(count(st.db, "SELECT end_event_id FROM chromium_events WHERE event_id = 2") == 3);
  CHECK(count(st.db, "SELECT end_event_id FROM chromium_events WHERE event_id = 1") == 4);
  // args come from the payloads: the B's own, patched with its E's.
  CHECK(text(st.db, "SELECT args FROM chromium_events WHERE event_id = 1") ==
        R"({"compile_id":"0/0"})");
  CHECK(text(st.db, "SELECT args FROM chromium_events WHERE event_id = 2") ==
        R"({"compile_id":"1/0","cache":"hit"})");
  CHECK(text(st.db,
             "SELECT coalesce(dur, 'none') || '|' || coalesce(end_event_id, 'none') "
             "FROM chromium_events WHERE event_id = 5") == "none|none");
  CHECK(text(st.db, "SELECT compile_id FROM chromium_events WHERE event_id = 2") == "1/0");
  CHECK(text(st.db, "SELECT compile_id FROM chromium_events WHERE event_id = 5") == "NULL");
}

TEST_CASE("compilation_metrics columns come from the payload's compile id and fields") {
  Store st;
  EventMaker m;
  model::EventWriter w(st.db);
  w.begin_file(source("a.log"));
  auto e = m.make("compilation_metrics",
                  R"({"compile_id": "1/2_1", "co_name": "fn", "graph_op_count": null,)"
                  R"( "fail_type": "BackendCompilerFailed", "fail_reason": "boom",)"
                  R"( "restart_reasons": ["a"], "entire_frame_compile_time_s": 1.5,)"
                  R"( "is_forward": true, "guard_count": 7.0})");
  e.context.frame_id = 9;  // the payload's id wins
  w.add_event(e);
  w.end_file(summary(1, 1));
  w.finish();
  CHECK(text(st.db, "SELECT compile_id FROM compilation_metrics") == "1/2_1");
  CHECK(text(st.db,
             "SELECT frame_id||'/'||frame_compile_id||'/'||attempt "
             "FROM compilation_metrics") == "1/2/1");
  CHECK(text(st.db, "SELECT fail_type FROM compilation_metrics") == "BackendCompilerFailed");
  CHECK(text(st.db, "SELECT graph_op_count FROM compilation_metrics") == "NULL");
  CHECK(text(st.db, "SELECT restart_reasons FROM compilation_metrics") == R"(["a"])");
  CHECK(text(st.db, "SELECT entire_frame_compile_time_s FROM compilation_metrics") == "1.5");
  CHECK(count(st.db, "SELECT is_forward FROM compilation_metrics") == 1);
  CHECK(count(st.db, "SELECT guard_count FROM compilation_metrics") == 7);
  CHECK(text(st.db, "SELECT json_extract(json, '$.co_name') FROM compilation_metrics") == "fn");
}

TEST_CASE("a metrics record is stored once: the view's json is its event's metadata as written") {
  Store st;
  EventMaker m;
  model::EventWriter w(st.db);
  w.begin_file(source("a.log"));
  const std::string record =
      R"({"compile_id": "0/0", "co_name": "fn",  "guard_count": 7.0, "note": "caf\u00e9"})";
  w.add_event(m.make("compilation_metrics", record));
  w.end_file(summary(1, 1));
  w.finish();
  CHECK(text(st.db, "SELECT json FROM compilation_metrics") == record);
  CHECK(text(st.db, "SELECT co_name FROM compilation_metrics_rows") == "fn");
  CHECK(count(st.db,
              "SELECT count(*) FROM pragma_table_info('compilation_metrics_rows') "
              "WHERE name = 'json'") == 0);
  // A query that does not select json does not read events at all: SQLite leaves the view's
  // LEFT JOIN out (one table in the plan); selecting json keeps it (two).
  auto plan_rows = [&](const std::string& sql) {
    model::Statement s = st.db.prepare("EXPLAIN QUERY PLAN " + sql);
    int rows = 0;
    while (s.step()) ++rows;
    return rows;
  };
  CHECK(plan_rows("SELECT co_name FROM compilation_metrics") == 1);
  CHECK(plan_rows("SELECT co_name, json FROM compilation_metrics") == 2);
}

TEST_CASE("describe_tensor fills PyTorch's omitted defaults and keeps symbolic sizes") {
  Store st;
  EventMaker m;
  model::EventWriter w(st.db);
  w.begin_file(source("a.log"));
  w.add_event(
      m.make("describe_tensor",
             R"j({"id": 3, "ndim": 2, "dtype": "torch.float32", "device": "device(type='cpu')",)j"
             R"( "size": ["s0", 4], "is_leaf": true, "stride": [4, 1], "describer_id": 1})"));
  w.add_event(m.make("describe_storage", R"({"id": 0, "describer_id": 1, "size": 64})"));
  w.add_event(m.make("describe_source", R"({"describer_id": 1, "id": 3, "source": "L['x']"})"));
  w.add_event(m.make("link", R"({"name": "manifold_url", "url": "https://www.google.com"})"));
  w.end_file(summary(1, 4));
  w.finish();
  CHECK(text(st.db, "SELECT size FROM describe_tensor") == R"(["s0", 4])");
  CHECK(count(st.db, "SELECT is_leaf FROM describe_tensor") == 1);
  CHECK(count(st.db, "SELECT requires_grad FROM describe_tensor") == 0);
  CHECK(count(st.db, "SELECT storage_offset FROM describe_tensor") == 0);
  CHECK(text(st.db, "SELECT storage_id FROM describe_tensor") == "NULL");
  CHECK(count(st.db, "SELECT size FROM describe_storage") == 64);
  CHECK(text(st.db, "SELECT source FROM describe_source WHERE tensor_id = 3") == "L['x']");
  CHECK(text(st.db, "SELECT url FROM links") == "https://www.google.com");
}

TEST_CASE("a second file with the same content adds nothing") {
  Store st;
  EventMaker m;
  model::EventWriter w(st.db);
  for (const char* path : {"a.log", "copy_of_a.log"}) {
    w.begin_file(source(path));
    w.add_event(m.make("str", R"(["/x.py", 0])"));
    w.add_event(m.make("artifact", R"({"name": "x", "encoding": "string"})", "hello",
                       parser::Md5Status::kMismatch));
    w.add_error(parser::ParseError{0, 7, 70, 1, parser::ErrorKind::kBadHeader, "a.log:7: junk",
                                   "junk", "zz"});
    w.add_event(m.make("dynamo_start", R"({"stack": [{"line": 1, "name": "f", "filename": 0}]})"));
    auto out = w.end_file(summary(0xabc, 3));
    if (std::string(path) == "a.log") {
      CHECK(out.duplicate_of.empty());
    } else {
      CHECK(out.duplicate_of == "a.log");
      CHECK(out.file_id == 0);
    }
  }
  w.finish();
  CHECK(count(st.db, "SELECT count(*) FROM files") == 1);
  CHECK(count(st.db, "SELECT count(*) FROM events") == 3);
  CHECK(count(st.db, "SELECT count(*) FROM strings") == 1);
  CHECK(count(st.db, "SELECT count(*) FROM artifacts") == 1);
  CHECK(count(st.db, "SELECT count(*) FROM ingest_errors") == 1);
  CHECK(count(st.db, "SELECT count(*) FROM payloads") == 1);
  CHECK(count(st.db, "SELECT count(*) FROM event_stacks") == 1);
  CHECK(count(st.db, "SELECT count(*) FROM stacks") == 1);
}

TEST_CASE("the same bytes under another file-name rank are another rank's log") {
  Store st;
  EventMaker m;
  model::EventWriter w(st.db);
  std::vector<std::string> duplicate_of;
  for (int64_t rank : {0, 2, 2}) {
    w.begin_file(source("dedicated_log_torch_trace_rank_" + std::to_string(rank) + ".log", rank));
    w.add_event(m.make("str", R"(["/x.py", 0])"));
    duplicate_of.push_back(w.end_file(summary(0x77, 1)).duplicate_of);
  }
  w.finish();
  CHECK(duplicate_of == std::vector<std::string>{"", "", "dedicated_log_torch_trace_rank_2.log"});
  CHECK(text(st.db, "SELECT group_concat(rank) FROM files") == "0,2");
}

TEST_CASE("a file whose reading stopped early is not marked complete") {
  Store st;
  EventMaker m;
  model::EventWriter w(st.db);
  w.begin_file(source("cut.log"));
  w.add_event(m.make("str", R"(["/x.py", 0])"));
  w.end_file(summary(5, 1, /*completed=*/false));
  w.finish();
  CHECK(count(st.db, "SELECT completed FROM files") == 0);
}

TEST_CASE("parse errors and unreadable payloads become ingest_errors rows") {
  Store st;
  EventMaker m;
  model::EventWriter w(st.db);
  w.begin_file(source("a.log"));
  w.add_error(parser::ParseError{0, 4, 400, 2, parser::ErrorKind::kBadJson,
                                 "a.log:4: envelope is not JSON", "envelope is not JSON",
                                 "{\"oops"});
  w.add_event(m.make("chromium_event", "{}", "{\n\"name\": \"x\"\n\"ph\": \"B\"\n}",
                     parser::Md5Status::kMismatch));
  auto out = w.end_file(summary(1, 1));
  w.add_input_problem("missing.log: no such file");
  w.finish();
  CHECK(out.errors == 2);
  CHECK(count(st.db, "SELECT count(*) FROM events") == 1);
  CHECK(count(st.db, "SELECT count(*) FROM chromium_events") == 0);
  CHECK(text(st.db,
             "SELECT kind || ':' || line || ':' || line_count FROM ingest_errors "
             "WHERE id = 1") == "bad_json:4:2");
  CHECK(text(st.db, "SELECT excerpt FROM ingest_errors WHERE id = 1") == "{\"oops");
  CHECK(text(st.db,
             "SELECT kind || ':' || line || ':' || line_count FROM ingest_errors "
             "WHERE id = 2") == "bad_payload:1:0");
  CHECK(text(st.db, "SELECT file_id FROM ingest_errors WHERE id = 3") == "NULL");
  CHECK(count(st.db, "SELECT errors FROM files") == 2);
}

TEST_CASE("chromium rows written in groups match each record handed in, across files") {
  // Three groups and a tail of the writer's multi-row INSERT per file, a commit mid-file, and a
  // second file that is a duplicate of the first (its pending rows must go too). Each record's
  // payload is overwritten after add_event, so a row is right only if the writer copied it.
  Store st;
  model::EventWriter w(st.db);
  auto write_file = [&](const std::string& path, uint64_t hash, int events) {
    w.begin_file(source(path));
    std::string metadata, payload;
    for (int i = 0; i < events; ++i) {
      metadata = "{\"i\": " + std::to_string(i) + "}";
      // i % 10 == 8 opens a B that i % 10 == 9 closes 3 later; the rest are X (even) or i (odd).
      const bool begin = i % 10 == 8, end = i % 10 == 9;
      const int named = end ? i - 1 : i;
      const char* ph = begin ? "B" : end ? "E" : i % 2 == 0 ? "X" : "i";
      const int ts = end ? 10 * (i - 1) + 3 : 10 * i;
      std::string args = !begin && !end && i % 4 == 0
                             ? R"({"compile_id": ")" + std::to_string(i) + R"(/0"})"
                             : "{}";
      payload = R"({"name": "n)" + std::to_string(named) + R"(", "ph": ")" + ph + R"(", "ts": )" +
                std::to_string(ts) + R"(, "cat": "c)" + std::to_string(named % 3) +
                R"(", "pid": 7, "tid": )" + std::to_string(named % 4) + R"(, "args": )" + args +
                (ph[0] == 'X' ? R"(, "dur": )" + std::to_string(i) : "") + "}";
      parser::Event e;
      e.line = static_cast<uint64_t>(i + 1);
      e.kind = "chromium_event";
      e.metadata = metadata;
      e.has_payload = true;
      e.payload = payload;
      e.payload_lines = 1;
      e.md5 = parser::Md5Status::kMismatch;
      w.add_event(e);
      metadata.assign(metadata.size(), 'x');
      payload.assign(payload.size(), 'x');
      if (i == 100) w.checkpoint();
    }
    return w.end_file(summary(hash, static_cast<uint64_t>(events)));
  };
  CHECK(write_file("a.log", 1, 200).duplicate_of.empty());
  CHECK(write_file("b.log", 1, 200).duplicate_of == "a.log");
  CHECK(write_file("c.log", 2, 70).duplicate_of.empty());
  w.finish();
  // a.log: 200 records, 20 of them E rows folded into their B; c.log: 70 records, 7 E rows.
  REQUIRE(count(st.db, "SELECT count(*) FROM chromium_event_rows") == 180 + 63);
  CHECK(count(st.db, "SELECT count(*) FROM files") == 2);
  // Every row against the loop's own rule, in SQL: a misplaced or shifted binding fails here.
  CHECK(count(st.db,
              "SELECT count(*) FROM chromium_event_rows c JOIN events e ON e.id = c.event_id "
              "JOIN (SELECT id, json_extract(metadata, '$.i') AS i FROM events) k ON k.id = e.id "
              "WHERE e.kind = 'chromium_event' AND c.file_id = e.file_id AND c.rank IS NULL "
              "AND c.name = 'n' || k.i AND c.cat = 'c' || (k.i % 3) AND c.pid = 7 "
              "AND c.tid = k.i % 4 AND c.ts = 10 * k.i AND c.ph = CASE WHEN k.i % 10 = 8 "
              "THEN 'B' WHEN k.i % 2 = 0 THEN 'X' ELSE 'i' END AND (c.dur IS CASE WHEN "
              "k.i % 10 = 8 THEN 3.0 WHEN k.i % 2 = 0 THEN k.i END) AND (c.end_event_id IS "
              "CASE WHEN k.i % 10 = 8 THEN e.id + 1 END) AND (c.compile_id IS CASE WHEN "
              "k.i % 4 = 0 AND k.i % 10 <> 8 THEN k.i || '/0' END)") == 243);
  // Ids follow the log with no gap, across the commit and the removed duplicate.
  CHECK(count(st.db,
              "SELECT count(*) FROM chromium_event_rows a JOIN chromium_event_rows b "
              "ON b.id = a.id + 1 WHERE b.event_id > a.event_id") == 242);
  CHECK(text(st.db, "SELECT min(id) || ' ' || max(id) FROM chromium_event_rows") == "1 243");
}

namespace {

// Every row of `table` in row order, each value quote()d: two stores compare row for row.
std::string table_rows(Connection& db, const std::string& table) {
  std::string columns = text(db,
                             "SELECT group_concat('quote(' || name || ')', ' || '','' || ') "
                             "FROM pragma_table_info('" +
                                 table + "')");
  return text(db, "SELECT coalesce(group_concat(" + columns + ", char(10)), '') FROM " + table);
}

// The payload text of event i, or nullopt: three in four events have one; events 160 on repeat
// the texts of 0 on, and every 25th is empty.
std::optional<std::string> payload_of(int i) {
  if (i % 4 == 3) return std::nullopt;
  int k = i % 160;
  return k % 25 == 0 ? std::string() : "payload " + std::to_string(k) + std::string(k % 7, 'p');
}

// 300 events per file, two files the second of which repeats the first, a commit mid-file.
// With `held`, each text stays valid until the writer's next release_texts() (after every 100th
// event: more than one full group of payloads in between) and is overwritten right after it, as
// ingest reuses a batch's arena; without, it is overwritten as soon as add_event returns.
void write_payload_events(Connection& db, model::EventTexts texts) {
  const bool held = texts == model::EventTexts::kHeldUntilRelease;
  model::EventWriter w(db, model::ChromiumRows::kBuiltByWriter, texts);
  std::deque<std::string> live;  // texts handed in since the last release
  auto release = [&] {
    if (held) w.release_texts();
    for (std::string& s : live) s.assign(s.size(), 'x');
    live.clear();
  };
  for (int file = 0; file < 2; ++file) {
    w.begin_file(source(file == 0 ? "a.log" : "b.log"));
    for (int i = 0; i < 300; ++i) {
      std::string& metadata = live.emplace_back("{\"i\": " + std::to_string(i) + "}");
      parser::Event e;
      e.line = static_cast<uint64_t>(2 * i + 1);
      e.kind = "kind";
      e.metadata = metadata;
      if (auto text = payload_of(i)) {
        std::string& payload = live.emplace_back(*text);
        e.has_payload = true;
        e.payload = payload;
        e.payload_lines = 1;
        e.md5 = parser::Md5Status::kOk;
        e.payload_md5 = live.emplace_back(parser::Md5::hex_of(payload));
      }
      w.add_event(e);
      if (!held || i % 100 == 99) release();
      if (i == 150) w.checkpoint();
    }
    release();
    w.end_file(summary(5, 300));
  }
  w.finish();
}

}  // namespace

TEST_CASE("payloads written in groups from held texts equal the rows of copied texts") {
  Store copied, held;
  write_payload_events(copied.db, model::EventTexts::kCopied);
  write_payload_events(held.db, model::EventTexts::kHeldUntilRelease);
  std::set<std::string> distinct;
  int with_payload = 0;
  for (int i = 0; i < 300; ++i) {
    if (auto text = payload_of(i)) distinct.insert(*text), ++with_payload;
  }
  // b.log repeats a.log, so it is gone again: a.log's rows alone.
  REQUIRE(count(held.db, "SELECT count(*) FROM payloads") == static_cast<int64_t>(distinct.size()));
  CHECK(distinct.size() > 64);  // at least one full group
  CHECK(count(held.db, "SELECT count(*) FROM events WHERE payload_id IS NOT NULL") == with_payload);
  CHECK(count(held.db, "SELECT count(*) FROM payloads WHERE text GLOB '*x*'") == 0);
  CHECK(count(held.db, "SELECT count(*) FROM events WHERE metadata GLOB '*x*'") == 0);
  for (const char* table : {"files", "events", "payloads"}) {
    INFO(table);
    CHECK(table_rows(held.db, table) == table_rows(copied.db, table));
  }
}
