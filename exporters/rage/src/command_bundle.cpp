// The bundle of one recorded tlscope invocation, built on the run bundle (rage_bundle.cpp): the
// record and a note of the cuts are extra files, the inputs are the run, the database is bundled
// as a redacted copy, and the report inside is written from that copy.
#include "tlscope/exporters/rage/command_bundle.hpp"

#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>

#include "tlscope/exporters/rage/tar_gz.hpp"
#include "tlscope/parser/reader.hpp"
#include "tlscope/views/open_run.hpp"

namespace tlscope::exporters::rage {
namespace {

namespace fs = std::filesystem;

fs::path in_cwd(const CommandRecord& record, const std::string& arg) {
  fs::path p(arg);
  return p.is_absolute() || record.cwd.empty() ? p : fs::path(record.cwd) / p;
}

// The first `cap` bytes of `in` (gunzipped when .gz), cut back to the last line end, into `out`.
// Returns the bytes kept, or -1 when the input cannot be read.
int64_t copy_head(const std::string& in, const std::string& out, uint64_t cap) {
  gzFile f = gzopen(in.c_str(), "rb");  // reads plain files unchanged
  if (!f) return -1;
  std::string head;
  head.resize(cap);
  uint64_t got = 0;
  while (got < cap) {
    int n =
        gzread(f, head.data() + got, static_cast<unsigned>(std::min<uint64_t>(cap - got, 1 << 20)));
    if (n <= 0) break;
    got += static_cast<uint64_t>(n);
  }
  gzclose(f);
  head.resize(got);
  size_t end = head.rfind('\n');
  head.resize(end == std::string::npos ? 0 : end + 1);
  std::ofstream o(out, std::ios::binary | std::ios::trunc);
  o.write(head.data(), static_cast<std::streamsize>(head.size()));
  return o ? static_cast<int64_t>(head.size()) : -1;
}

std::string status_text(const CommandRecord& r) {
  return r.exit_status ? "exit status " + std::to_string(*r.exit_status)
                       : std::string("no exit status: it was still running, was killed or crashed");
}

// A command that read nothing (a usage error, a missing file): the record and the environment are
// all there is to send, which the run bundle, built around logs or a database, does not write.
RageResult write_record_only_bundle(const RageOptions& rage) {
  RageResult result;
  fs::path out = fs::absolute(rage.out_path);
  std::string top = out.filename().string();
  for (std::string_view ext : {".tar.gz", ".tgz"}) {
    if (top.size() > ext.size() && top.compare(top.size() - ext.size(), ext.size(), ext) == 0) {
      top.resize(top.size() - ext.size());
      break;
    }
  }
  Redactor redactor(rage.redaction);
  RedactionCounts counts;
  std::string env = describe_environment(rage.environment, redactor, counts);
  std::string part = out.string() + ".part-" + std::to_string(getpid());
  TarGzWriter tar;
  bool ok = tar.open(part, rage.compression_level) && tar.add_bytes(top + "/env.txt", env);
  for (const auto& [name, text] : rage.extra_files)
    ok = ok && tar.add_bytes(top + "/" + name, text);
  ok = tar.close() && ok;
  std::error_code ec;
  if (ok) fs::rename(part, out, ec);
  if (!ok || ec) {
    fs::remove(part, ec);
    result.error = ok ? out.string() + ": " + ec.message() : tar.error();
    return result;
  }
  result.ok = true;
  result.entries = 1 + rage.extra_files.size();
  result.bundle_bytes = fs::file_size(out, ec);
  result.archived_bytes = tar.bytes_in();
  result.counts = counts;
  return result;
}

}  // namespace

std::vector<std::string> command_inputs(const CommandRecord& record) {
  std::vector<std::string> found;
  std::error_code ec;
  if (!record.inputs.empty()) {
    for (const std::string& p : record.inputs)
      if (fs::is_regular_file(p, ec)) found.push_back(p);
    return found;
  }
  std::vector<std::string> named;
  for (size_t i = 1; i < record.argv.size(); ++i) {
    fs::path p = in_cwd(record, record.argv[i]);
    if (record.argv[i].empty() || record.argv[i][0] == '-') continue;
    if (fs::is_directory(p, ec) ||
        (fs::is_regular_file(p, ec) && !views::is_database_file(p.string()) &&
         (p.extension() == ".log" || p.extension() == ".gz")))
      named.push_back(p.string());
  }
  if (named.empty()) return found;
  for (const parser::SourceInfo& s : parser::plan_inputs(named).sources) found.push_back(s.path);
  return found;
}

std::string command_database(const CommandRecord& record) {
  std::error_code ec;
  if (!record.database.empty())
    return fs::is_regular_file(record.database, ec) ? record.database : std::string();
  for (size_t i = 1; i < record.argv.size(); ++i) {
    fs::path p = in_cwd(record, record.argv[i]);
    if (fs::is_regular_file(p, ec) && views::is_database_file(p.string())) return p.string();
  }
  return {};
}

RageResult write_command_bundle(const CommandBundleOptions& options) {
  RageOptions rage = options.rage;
  const CommandRecord& record = options.record;
  Redactor redactor(rage.redaction);
  RedactionCounts counts;

  std::string notes = "tlscope command " + record.id + "\n";
  std::error_code ec;
  fs::path cut_dir;
  auto remove_cut_dir = [&] {
    if (!cut_dir.empty()) fs::remove_all(cut_dir, ec);
  };
  for (const std::string& input : command_inputs(record)) {
    uint64_t size = fs::file_size(input, ec);
    std::string use = input;
    bool gz = fs::path(input).extension() == ".gz";
    if (size > options.max_input_bytes || (gz && size > options.max_input_bytes / 8)) {
      if (cut_dir.empty()) {
        std::string pattern = fs::absolute(rage.out_path).string() + ".inputs-XXXXXX";
        if (!mkdtemp(pattern.data())) {
          RageResult failed;
          failed.error = pattern + ": cannot create a folder for the cut inputs";
          return failed;
        }
        cut_dir = pattern;
      }
      fs::path name = fs::path(input).filename();
      if (gz) name.replace_extension();  // the head is written gunzipped
      use = (cut_dir / name).string();
      int64_t kept = copy_head(input, use, options.max_input_bytes);
      if (kept < 0) {
        notes += "input " + input + ": unreadable, not bundled\n";
        continue;
      }
      notes += "input " + input + ": cut to its first " + std::to_string(kept) + " bytes" +
               (gz ? " (gunzipped)" : "") + " of " + std::to_string(size) + " on disk (cap " +
               std::to_string(options.max_input_bytes) + " bytes)\n";
    } else {
      notes += "input " + input + ": whole, " + std::to_string(size) + " bytes\n";
    }
    TraceFile f = probe_trace_file(use);
    rage.run.bytes += f.bytes;
    if (f.rank) rage.run.ranks.push_back(*f.rank);
    rage.run.files.push_back(std::move(f));
  }
  rage.db_path = command_database(record);
  notes += rage.db_path.empty() ? "database: none (it no longer exists, or the command had none)\n"
                                : "database: " + rage.db_path + " (bundled as a redacted copy)\n";
  notes += record.report.empty() ? "report: none written by the command\n"
                                 : "report: the command wrote " + record.report +
                                       "; the bundle's report/ is written from the bundled "
                                       "database\n";
  if (rage.run.files.empty() && rage.db_path.empty())
    notes += "nothing to read: the bundle holds the record and the environment only\n";
  notes += status_text(record) + "\n";
  if (!rage.run.files.empty()) {
    rage.run.start = rage.run.files.front().start;
    rage.run.end = rage.run.files.front().end;
    for (const TraceFile& f : rage.run.files) {
      rage.run.start = std::min(rage.run.start, f.start);
      rage.run.end = std::max(rage.run.end, f.end);
    }
  }
  std::string json = command_record_json(record);
  redactor.redact_text(json, counts);
  redactor.redact_text(notes, counts);
  rage.extra_files.emplace_back("command.json", json);
  rage.extra_files.emplace_back("command.txt", notes);
  rage.source_description = "tlscope command " + record.id;
  RageResult result;
  if (rage.run.files.empty() && rage.db_path.empty()) {
    result = write_record_only_bundle(rage);
  } else {
    result = write_rage_bundle(rage);
  }
  remove_cut_dir();
  result.counts.merge(counts);
  return result;
}

}  // namespace tlscope::exporters::rage
