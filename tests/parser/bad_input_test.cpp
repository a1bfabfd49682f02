// Damaged inputs: each must give the right error kind at the right line, with a message naming
// the file, while everything around the damage is still read.
#include <zlib.h>
#include <catch2/catch.hpp>

#include "parse_harness.hpp"
#include "tlscope/parser/md5.hpp"

using namespace tlscope::parser;
using namespace tlscope::parser::test;

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to; ++i) out += lines[i] + "\n";
  return out;
}

// 0-based index of the first header line with has_payload, and its payload line count.
std::pair<size_t, size_t> first_payload_record(const std::vector<std::string>& lines) {
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i][0] != '\t' && lines[i].find("\"has_payload\"") != std::string::npos) {
      size_t n = 0;
      while (i + 1 + n < lines.size() && lines[i + 1 + n][0] == '\t') ++n;
      return {i, n};
    }
  }
  return {0, 0};
}

std::string record(const std::string& envelope_prefix, const std::string& payload) {
  std::string out = "V0101 00:00:00.000000 1 torch/x.py:1] " + envelope_prefix;
  if (payload.empty()) return out + "}\n";
  out += ", \"has_payload\": \"" + Md5::hex_of(payload) + "\"}\n";
  std::istringstream in(payload);
  std::string line;
  while (std::getline(in, line)) out += "\t" + line + "\n";
  return out;
}

bool names_file(const KeptError& e, const std::string& path) {
  return e.reason.find(path + ":") == 0;
}

const std::string kBase = read_all(fixture("comp_failure.log"));

}  // namespace

TEST_CASE("bad input: truncated last line") {
  TempDir dir("truncated");
  auto lines = split_lines(kBase);
  auto [rec, n] = first_payload_record(lines);
  size_t cut_line = rec + n + 1;  // the header after the first payload record
  REQUIRE(lines[cut_line][0] != '\t');
  std::string text = join_lines(lines, 0, cut_line) + lines[cut_line].substr(0, 70);
  std::string path = dir.file("cut.log", text);
  KeepingSink got = parse_file(path);
  REQUIRE(got.errors.size() == 1);
  CHECK(got.errors[0].kind == ErrorKind::kTruncated);
  CHECK(got.errors[0].line == cut_line + 1);
  CHECK(got.errors[0].line_count == 1);
  CHECK(names_file(got.errors[0], path));
  CHECK(got.events.size() == cut_line - n);
  CHECK(got.summary.lines.total_lines == cut_line + 1);
  CHECK(lines_add_up(got.summary.lines));
}

TEST_CASE("bad input: payload cut by the end of the file") {
  TempDir dir("payload_cut");
  auto lines = split_lines(kBase);
  auto [rec, n] = first_payload_record(lines);
  REQUIRE(n >= 3);
  // Cut in the middle of the second payload line.
  std::string text = join_lines(lines, 0, rec + 2) + lines[rec + 2].substr(0, 3);
  std::string path = dir.file("cut.log", text);
  KeepingSink got = parse_file(path);
  REQUIRE(got.errors.size() == 1);
  CHECK(got.errors[0].kind == ErrorKind::kTruncated);
  CHECK(got.errors[0].line == rec + 1);
  CHECK(got.errors[0].line_count == 0);
  CHECK(names_file(got.errors[0], path));
  REQUIRE(got.events.size() == rec + 1);
  CHECK(got.events.back().md5 == Md5Status::kMismatch);
  CHECK(got.events.back().payload_lines == 2);
  CHECK(lines_add_up(got.summary.lines));
}

TEST_CASE("bad input: a broken envelope takes its payload lines into the error row") {
  TempDir dir("broken_envelope");
  auto lines = split_lines(kBase);
  auto [rec, n] = first_payload_record(lines);
  lines[rec].pop_back();  // drop the closing brace
  std::string path = dir.file("broken.log", join_lines(lines, 0, lines.size()));
  KeepingSink got = parse_file(path);
  KeepingSink base = parse_file(fixture("comp_failure.log"));
  REQUIRE(got.errors.size() == 1);
  CHECK(got.errors[0].kind == ErrorKind::kBadJson);
  CHECK(got.errors[0].line == rec + 1);
  CHECK(got.errors[0].line_count == 1 + n);
  CHECK(names_file(got.errors[0], path));
  CHECK(got.events.size() == base.events.size() - 1);
  CHECK(got.summary.lines.error_lines == 1 + n);
  CHECK(lines_add_up(got.summary.lines));
}

TEST_CASE("bad input: binary junk between records") {
  TempDir dir("binary");
  auto lines = split_lines(kBase);
  std::string junk;
  for (int i = 0; i < 3000; ++i) junk += static_cast<char>((i * 131 + 7) % 256);
  junk += '\n';
  size_t at = 20;
  while (lines[at][0] == '\t') ++at;  // insert before a header line
  std::string text = join_lines(lines, 0, at) + junk + join_lines(lines, at, lines.size());
  std::string path = dir.file("junk.log", text);
  KeepingSink got = parse_file(path);
  KeepingSink base = parse_file(fixture("comp_failure.log"));
  REQUIRE(!got.errors.empty());
  CHECK(got.errors[0].kind == ErrorKind::kBinary);
  CHECK(got.errors[0].line == at + 1);
  CHECK(names_file(got.errors[0], path));
  CHECK(got.kind_counts() == base.kind_counts());
  CHECK(got.summary.lines.total_lines == count_lines(text));
  CHECK(got.summary.lines.error_lines == count_lines(junk));
  CHECK(lines_add_up(got.summary.lines));
}

TEST_CASE("bad input: a 50 MB payload is read whole, or skipped past when over the limit") {
  TempDir dir("big_payload");
  std::string payload;
  payload.reserve(50u << 20);
  for (int i = 0; payload.size() < (50u << 20); ++i) {
    payload += "line " + std::to_string(i) + std::string(90, 'x') + "\n";
  }
  payload.pop_back();
  size_t payload_lines = count_lines(payload);
  std::string text =
      record("{\"artifact\": {\"name\": \"big\", \"encoding\": \"string\"}", payload) +
      record("{\"link\": {\"name\": \"a\", \"url\": \"b\"}", "");
  std::string path = dir.file("big.log", text);
  payload.clear();
  payload.shrink_to_fit();

  KeepingSink whole = parse_file(path);
  CHECK(whole.errors.empty());
  REQUIRE(whole.events.size() == 2);
  CHECK(whole.events[0].md5 == Md5Status::kOk);
  CHECK(whole.events[0].payload.size() >= (50u << 20));
  CHECK(whole.events[0].payload_lines == payload_lines);

  ReaderOptions small;
  small.max_record_bytes = 1u << 20;
  KeepingSink skipped = parse_file(path, small);
  REQUIRE(skipped.errors.size() == 1);
  CHECK(skipped.errors[0].kind == ErrorKind::kTooLarge);
  CHECK(skipped.errors[0].line == 1);
  CHECK(skipped.errors[0].line_count == 1 + payload_lines);
  CHECK(names_file(skipped.errors[0], path));
  REQUIRE(skipped.events.size() == 1);
  CHECK(skipped.events[0].kind == "link");
  CHECK(skipped.events[0].line == 2 + payload_lines);
  CHECK(lines_add_up(skipped.summary.lines));
}

TEST_CASE("bad input: CRLF line ends give the same records as LF") {
  TempDir dir("crlf");
  std::string crlf;
  for (char c : kBase) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  std::string path = dir.file("crlf.log", crlf);
  KeepingSink got = parse_file(path);
  KeepingSink base = parse_file(fixture("comp_failure.log"));
  CHECK(got.errors.empty());
  REQUIRE(got.events.size() == base.events.size());
  for (size_t i = 0; i < got.events.size(); ++i) {
    CHECK(got.events[i].payload == base.events[i].payload);
    CHECK(got.events[i].metadata == base.events[i].metadata);
    CHECK(got.events[i].md5 == base.events[i].md5);
  }
}

TEST_CASE("bad input: invalid UTF-8 in a payload is reported and the payload kept") {
  TempDir dir("utf8");
  std::string payload = "ok line\nbad \xff\xfe bytes\nmore";
  std::string text = record("{\"link\": {\"name\": \"a\", \"url\": \"b\"}", "") +
                     record("{\"artifact\": {\"name\": \"x\", \"encoding\": \"string\"}", payload);
  std::string path = dir.file("utf8.log", text);
  KeepingSink got = parse_file(path);
  REQUIRE(got.errors.size() == 1);
  CHECK(got.errors[0].kind == ErrorKind::kInvalidUtf8);
  CHECK(got.errors[0].line == 2);
  CHECK(got.errors[0].line_count == 0);
  CHECK(names_file(got.errors[0], path));
  REQUIRE(got.events.size() == 2);
  CHECK(got.events[1].payload == payload);
  CHECK(got.events[1].md5 == Md5Status::kOk);
}

TEST_CASE("bad input: empty file, missing file, a directory given as a file") {
  TempDir dir("empty");
  std::string empty = dir.file("empty.log", "");
  KeepingSink got = parse_file(empty);
  REQUIRE(got.errors.size() == 1);
  CHECK(got.errors[0].kind == ErrorKind::kTruncated);
  CHECK(got.errors[0].line == 0);
  CHECK(names_file(got.errors[0], empty));
  CHECK(got.summary.lines.total_lines == 0);
  CHECK(got.events.empty());

  std::string missing = dir.path() + "/missing.log";
  KeepingSink none = parse_file(missing);
  REQUIRE(none.errors.size() == 1);
  CHECK(none.errors[0].kind == ErrorKind::kIo);
  CHECK(none.errors[0].line == 0);
  CHECK(names_file(none.errors[0], missing));
  CHECK_FALSE(none.summary.completed);
  CHECK(none.begins == 1);
  CHECK(none.ends == 1);

  KeepingSink directory = parse_file(dir.path());
  REQUIRE(directory.errors.size() == 1);
  CHECK(directory.errors[0].kind == ErrorKind::kIo);
  CHECK(names_file(directory.errors[0], dir.path()));
  CHECK_FALSE(directory.summary.completed);

  // A directory with no logs is a planning problem, named by path.
  InputPlan plan = plan_inputs({dir.path()});
  CHECK(plan.sources.empty());
  REQUIRE(plan.problems.size() == 1);
  CHECK(plan.problems[0].find(dir.path() + ":") == 0);
}

TEST_CASE("bad input: gzip, whole and cut short") {
  TempDir dir("gzip");
  std::string gz_path = dir.path() + "/dedicated_log_torch_trace_rank_0.log.gz";
  gzFile gz = gzopen(gz_path.c_str(), "wb");
  REQUIRE(gz != nullptr);
  REQUIRE(gzwrite(gz, kBase.data(), static_cast<unsigned>(kBase.size())) ==
          static_cast<int>(kBase.size()));
  gzclose(gz);
  KeepingSink base = parse_file(fixture("comp_failure.log"));

  InputPlan plan = plan_inputs({dir.path()});
  REQUIRE(plan.sources.size() == 1);
  KeepingSink whole;
  parse_source(plan.sources[0], whole);
  CHECK(whole.errors.empty());
  CHECK(whole.kind_counts() == base.kind_counts());
  CHECK(whole.summary.bytes == kBase.size());
  CHECK(whole.summary.content_hash == base.summary.content_hash);

  std::string compressed = read_all(gz_path);
  std::string cut_path = dir.file("cut.log.gz", compressed.substr(0, compressed.size() * 6 / 10));
  KeepingSink cut = parse_file(cut_path);
  REQUIRE(!cut.errors.empty());
  const KeptError& io = cut.errors.back();
  CHECK(io.kind == ErrorKind::kIo);
  CHECK(names_file(io, cut_path));
  CHECK(io.line == cut.summary.lines.total_lines);
  CHECK(io.line > 10);
  CHECK_FALSE(cut.summary.completed);
  CHECK(cut.events.size() > 5);
  CHECK(cut.events.size() < base.events.size());
  // What was read is exactly a prefix of the log.
  CHECK(kBase.compare(0, cut.summary.bytes, kBase.substr(0, cut.summary.bytes)) == 0);
  for (size_t i = 0; i + 1 < cut.events.size(); ++i) {
    CHECK(cut.events[i].payload == base.events[i].payload);
  }
}

TEST_CASE("bad input: orphan payload lines") {
  TempDir dir("orphan");
  std::string text = "\tstray one\n\tstray two\n" +
                     record("{\"link\": {\"name\": \"a\", \"url\": \"b\"}", "") +
                     "\tafter an envelope without has_payload\n" +
                     record("{\"artifact\": {\"name\": \"x\", \"encoding\": \"string\"}", "p");
  std::string path = dir.file("orphan.log", text);
  KeepingSink got = parse_file(path);
  REQUIRE(got.errors.size() == 2);
  CHECK(got.errors[0].kind == ErrorKind::kOrphanPayload);
  CHECK(got.errors[0].line == 1);
  CHECK(got.errors[0].line_count == 2);
  CHECK(names_file(got.errors[0], path));
  CHECK(got.errors[1].kind == ErrorKind::kOrphanPayload);
  CHECK(got.errors[1].line == 4);
  CHECK(got.errors[1].line_count == 1);
  REQUIRE(got.events.size() == 2);
  CHECK(got.events[1].payload == "p");
  CHECK(got.summary.lines.error_lines == 3);
  CHECK(lines_add_up(got.summary.lines));
}

TEST_CASE("unknown event kinds are kept as events and null ids count as absent") {
  TempDir dir("unknown");
  std::string text =
      record(
          "{\"my_new_event\": {\"a\": [1, 2]}, \"compiled_autograd_id\": null, \"frame_id\": 3,"
          " \"frame_compile_id\": 1, \"attempt\": 2",
          "") +
      record("{\"frame_id\": 4, \"scalar_event\": 17, \"rank\": null", "");
  std::string path = dir.file("unknown.log", text);
  KeepingSink got = parse_file(path);
  CHECK(got.errors.empty());
  REQUIRE(got.events.size() == 2);
  CHECK(got.events[0].kind == "my_new_event");
  CHECK(got.events[0].metadata == "{\"a\": [1, 2]}");
  CHECK_FALSE(got.events[0].context.compiled_autograd_id);
  CHECK(got.events[0].context.frame_id == 3);
  CHECK(got.events[0].context.frame_compile_id == 1);
  CHECK(got.events[0].context.attempt == 2);
  // The event key is the first key that is not a context field, wherever it stands.
  CHECK(got.events[1].kind == "scalar_event");
  CHECK(got.events[1].metadata == "17");
  CHECK(got.events[1].context.frame_id == 4);
  CHECK_FALSE(got.events[1].rank);
}

TEST_CASE("bad input: envelopes that are not one JSON object with an event key") {
  TempDir dir("bad_json");
  std::string text = record("{\"rank\": 0", "") +                        // no event key
                     record("{\"link\": {}} trailing", "").substr(0) +   // text after JSON
                     "V0101 00:00:00.000000 1 torch/x.py:1] [1, 2]\n" +  // not an object
                     "V0101 00:00:00.000000 1 torch/x.py:1] {\"frame_id\": \"7\", \"a\": {}}\n" +
                     record("{\"link\": {\"name\": \"ok\", \"url\": \"u\"}", "");
  std::string path = dir.file("bad_json.log", text);
  KeepingSink got = parse_file(path);
  REQUIRE(got.errors.size() == 4);
  for (size_t i = 0; i < 4; ++i) {
    CHECK(got.errors[i].kind == ErrorKind::kBadJson);
    CHECK(got.errors[i].line == i + 1);
    CHECK(names_file(got.errors[i], path));
  }
  REQUIRE(got.events.size() == 1);
  CHECK(got.events[0].line == 5);
}

TEST_CASE("interleaved ranks in one stream keep each record's rank") {
  TempDir dir("interleaved");
  std::string text;
  for (int i = 0; i < 6; ++i) {
    text += record("{\"artifact\": {\"name\": \"n" + std::to_string(i) +
                       "\", \"encoding\": \"string\"}, \"rank\": " + std::to_string(i % 2),
                   "payload of " + std::to_string(i));
  }
  // A [rankN]: prefix, as TORCH_LOGS writes it, does not stop the header from matching.
  text += "[rank1]:" + record("{\"link\": {\"name\": \"a\", \"url\": \"b\"}, \"rank\": 1", "");
  std::string path = dir.file("interleaved.log", text);
  KeepingSink got = parse_file(path);
  CHECK(got.errors.empty());
  REQUIRE(got.events.size() == 7);
  for (int i = 0; i < 6; ++i) {
    CHECK(got.events[i].rank == i % 2);
    CHECK(got.events[i].payload == "payload of " + std::to_string(i));
    CHECK(got.events[i].md5 == Md5Status::kOk);
  }
  CHECK(got.events[6].rank == 1);
}

TEST_CASE("blank lines inside a payload are dropped, as tlparse does") {
  TempDir dir("blank");
  // has_payload is the MD5 of "a\nb": with the blank line dropped it still matches.
  std::string text = record("{\"artifact\": {\"name\": \"x\", \"encoding\": \"string\"}", "a\nb");
  text.insert(text.begin() + static_cast<std::ptrdiff_t>(text.find("\tb")), '\n');
  text += "\n   \n";
  std::string path = dir.file("blank.log", text);
  KeepingSink got = parse_file(path);
  CHECK(got.errors.empty());
  REQUIRE(got.events.size() == 1);
  CHECK(got.events[0].payload == "a\nb");
  CHECK(got.events[0].payload_lines == 2);
  CHECK(got.summary.lines.blank_lines == 3);
  CHECK(got.summary.lines.total_lines == 6);
  CHECK(lines_add_up(got.summary.lines));
}

TEST_CASE("bad input: records over max_record_bytes inside a batch are skipped, others kept") {
  // Record sizes (header line + its TAB lines, newlines included) counted here independently.
  auto lines = split_lines(kBase);
  const uint64_t limit = 300;
  size_t small_records = 0, big_records = 0, big_lines = 0;
  for (size_t i = 0; i < lines.size();) {
    size_t bytes = lines[i].size() + 1, n = 1;
    while (i + n < lines.size() && lines[i + n][0] == '\t') bytes += lines[i + n++].size() + 1;
    if (i + n == lines.size() && kBase.back() != '\n') --bytes;  // last line has no newline
    if (bytes > limit) {
      ++big_records;
      big_lines += n;
    } else {
      ++small_records;
    }
    i += n;
  }
  REQUIRE(big_records > 0);
  REQUIRE(small_records > 0);
  ReaderOptions options;
  options.max_record_bytes = limit;
  KeepingSink got = parse_file(fixture("comp_failure.log"), options);
  CHECK(got.events.size() == small_records);
  CHECK(got.errors.size() == big_records);
  for (const auto& e : got.errors) {
    CHECK(e.kind == ErrorKind::kTooLarge);
    CHECK(names_file(e, fixture("comp_failure.log")));
  }
  CHECK(got.summary.lines.error_lines == big_lines);
  CHECK(lines_add_up(got.summary.lines));
}
