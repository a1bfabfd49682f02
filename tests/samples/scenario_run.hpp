// Running a sample scenario into a fresh directory and reading back what it wrote (its logs with
// the independent reader, its truth.json), plus the log/truth look-ups the scenario tests share.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "log_reader.hpp"
#include "tlrt/scenario.hpp"

namespace samples_test {

using check::JValue;

// "text" + std::to_string(n), avoiding GCC 12's -Wrestrict false positive on literal + string&&.
std::string with_int(const char* text, long long n);
// An empty directory under the temp dir, unique per test process; the process removes them all
// when it ends (unless TLRT_KEEP_TEST_DIRS=1).
std::string fresh_dir(const std::string& name);
JValue read_json_file(const std::string& path);

struct Run {
  tlrt::ScenarioResult result;
  JValue truth;
  std::vector<check::LogCheck> logs;  // in rank order
};

// Runs the scenario into fresh_dir(name + seed) and reads every log and truth.json back.
Run run(const std::string& name, tlrt::ScenarioOptions o = {});

// Every log passed the reader's checks and holds records.
void require_well_formed(const Run& r);
std::vector<const check::Record*> artifacts(const check::LogCheck& lc, const std::string& name);
std::vector<const check::Record*> events(const check::LogCheck& lc, const std::string& key);
// chromium_event payloads of a log, parsed, in order.
std::vector<JValue> chromium_events(const check::LogCheck& lc);
// "frame_id/frame_compile_id" of a record's envelope.
std::string compile_id(const check::Record& r);
const JValue& section(const Run& r, const std::string& name);
JValue parse_payload(const check::Record& r);
// Collective records of the log agree one to one (in order) with truth's entries for that rank.
void check_collectives_match(const Run& r);

}  // namespace samples_test
