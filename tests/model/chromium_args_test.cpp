// The compile id of a chromium_events row comes from its payload's args when they carry one. The
// args are read in the same walk as the other fields, and the payload is parsed a second way
// (whole, then the args text on its own) only when that walk fails: every shape of args below
// must give what the two-parse reading gave, malformed args included.
#include <catch2/catch.hpp>

#include <deque>
#include <string>

#include "model/store_queries.hpp"
#include "tlscope/model/event_writer.hpp"
#include "tlscope/model/ingest.hpp"

using namespace tlscope;
using test::count;
using test::text;

namespace {

struct ChromiumStore {
  model::Connection db{":memory:"};
  std::deque<std::string> texts;
  uint64_t line = 1;

  // Writes one file of chromium_event records, each with envelope compile id 1/0 and the given
  // payload, through the writer's own pairing.
  void write(const std::vector<std::string>& payloads) {
    model::open_for_ingest(db);
    model::EventWriter w(db);
    parser::SourceInfo source;
    source.path = "rank0.log";
    w.begin_file(source);
    for (const std::string& p : payloads) {
      parser::Event e;
      e.line = line;
      e.byte_offset = line * 100;
      e.kind = "chromium_event";
      e.metadata = "{}";
      e.context.frame_id = 1;
      e.context.frame_compile_id = 0;
      e.has_payload = true;
      e.payload = texts.emplace_back(p);
      e.md5 = parser::Md5Status::kOk;
      e.payload_lines = 1;
      line += 2;
      w.add_event(e);
    }
    parser::SourceSummary summary;
    summary.completed = true;
    summary.events = payloads.size();
    w.end_file(summary);
    w.finish();
  }

  std::string compile_ids() {
    return text(db,
                "SELECT group_concat(coalesce(compile_id, 'NULL'), ' ') FROM "
                "(SELECT compile_id FROM chromium_event_rows ORDER BY id)");
  }
};

std::string instant(const std::string& args_part) {
  return R"({"name": "n", "ph": "i", "ts": 1, "pid": 1, "tid": 1)" + args_part + "}";
}

}  // namespace

TEST_CASE("chromium args: the args' compile id wins over the envelope's, None means none") {
  ChromiumStore st;
  st.write({instant(R"(, "args": {"compile_id": "0/1"})"),
            instant(R"(, "args": {"compile_id": "None"})"), instant(""),
            instant(R"(, "args": null)"), instant(R"(, "args": [1, 2])"),
            instant(R"(, "args": "0/7")"), instant(R"(, "args": {"other": 1})"),
            instant(R"(, "args": {"compile_id": 7})"),
            instant(R"(, "args": {"compile_id": null})")});
  CHECK(st.compile_ids() == "0/1 NULL 1/0 1/0 1/0 1/0 1/0 7 1/0");
  CHECK(count(st.db, "SELECT count(*) FROM ingest_errors") == 0);
}

TEST_CASE("chromium args: only the args' own compile_id counts, the last of repeated keys") {
  ChromiumStore st;
  st.write({instant(R"(, "args": {"inner": {"compile_id": "9/9"}, "compile_id": "2/0"})"),
            instant(R"(, "args": {"inner": {"compile_id": "9/9"}})"),
            instant(R"(, "args": {"compile_id": "5/0", "compile_id": "6/0"})"),
            instant(R"(, "args": {"compile_id": "3/0"}, "args": null)"),
            instant(R"(, "args": null, "args": {"compile_id": "4/0"})"),
            instant(R"(, "args": {"compile\u005fid": "8/1"})")});
  CHECK(st.compile_ids() == "2/0 1/0 6/0 1/0 4/0 8/1");
}

TEST_CASE("chromium args: fields after the args are still read") {
  ChromiumStore st;
  st.write({R"({"args": {"compile_id": "8/0", "big": [1, {"a": "}"}]}, "name": "x", "ph": "X",)"
            R"( "ts": 5, "dur": 2, "pid": 3, "tid": 4})"});
  CHECK(st.compile_ids() == "8/0");
  CHECK(text(st.db,
             "SELECT name || ' ' || ph || ' ' || ts || ' ' || dur || ' ' || pid || ' ' || "
             "tid FROM chromium_event_rows") == "x X 5.0 2.0 3 4");
}

TEST_CASE("chromium args: malformed args, as the two-parse reading took them") {
  // A key without its ':' right at the start of the args fails the payload itself (no row, one
  // problem); a bad pair after the compile_id is past what skipping the args object reads, so
  // that row is kept, its args giving no compile id.
  ChromiumStore st;
  st.write({instant(R"(, "args": {"compile_id" "0/1"})"),
            R"({"name": "late", "args": {"compile_id": "0/2", "x" 1}, "ph": "i", "ts": 2,)"
            R"( "pid": 1, "tid": 1})",
            instant(R"(, "args": {"compile_id": "0/3"})")});
  CHECK(st.compile_ids() == "1/0 0/3");
  CHECK(text(st.db, "SELECT group_concat(name, ' ') FROM chromium_event_rows") == "late n");
  CHECK(text(st.db, "SELECT kind || ' ' || line FROM ingest_errors") == "bad_payload 1");
}
