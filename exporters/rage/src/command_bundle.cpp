// The bundle of one recorded tlscope invocation, built on the run bundle (rage_bundle.cpp): the
// record and a note of the cuts are extra files, the inputs are the run, the database is bundled
// as a redacted copy, and the report inside is written from that copy.
#include "tlscope/exporters/rage/command_bundle.hpp"

#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "redaction_rules.hpp"
#include "tlscope/exporters/rage/regular_file.hpp"
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

// `tlscope run` hands everything after its own options to the program it runs: those arguments
// are the program's (a config file, a key, a password), never tlscope's inputs.
bool argv_names_inputs(const CommandRecord& record) {
  return !(record.argv.size() > 1 && record.argv[1] == "run");
}

// An option whose next argument is its value and a secret: `-p X` (mysql, psql and friends),
// `--password X`, `--api-key X`, `--hf-token X`.
bool is_secret_option(std::string_view arg) {
  if (arg == "-p") return true;
  if (arg.size() < 3 || arg.substr(0, 2) != "--" || arg.find('=') != std::string_view::npos)
    return false;
  std::string_view name = arg.substr(2);
  std::string upper;
  for (char c : name) upper += c == '-' ? '_' : static_cast<char>(std::toupper(c));
  return contains_secret_word(upper, false) || is_secret_word_name(name);
}

// The head of an explicitly included file (--include), at most `cap` bytes cut at a line end.
bool read_included(const std::string& path, uint64_t cap, std::string& text, std::string& error) {
  int fd = open_regular_file(path, error);
  if (fd < 0) return false;
  text.clear();
  char buf[1 << 16];
  while (text.size() < cap) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = path + ": " + std::strerror(errno);
      ::close(fd);
      return false;
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  if (text.size() > cap) {
    text.resize(cap);
    size_t nl = text.rfind('\n');
    text.resize(nl == std::string::npos ? 0 : nl + 1);
  }
  return true;
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  return a == b || fs::equivalent(a, b, ec);
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
  if (!argv_names_inputs(record)) return found;
  std::vector<std::string> named;
  for (size_t i = 1; i < record.argv.size(); ++i) {
    fs::path p = in_cwd(record, record.argv[i]);
    if (record.argv[i].empty() || record.argv[i][0] == '-') continue;
    // What the command wrote (rage's bundle, an export) is its output, not a log it read.
    const std::string& before = record.argv[i - 1];
    if (before == "-o" || before == "--out" || before == "--output") continue;
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
  if (!argv_names_inputs(record)) return {};
  for (size_t i = 1; i < record.argv.size(); ++i) {
    fs::path p = in_cwd(record, record.argv[i]);
    if (fs::is_regular_file(p, ec) && views::is_database_file(p.string())) return p.string();
  }
  return {};
}

std::vector<std::string> redacted_command_line(const std::vector<std::string>& argv,
                                               Redactor& redactor, RedactionCounts& counts) {
  std::vector<std::string> out = argv;
  for (size_t i = 0; i < out.size(); ++i) {
    if (i > 0 && is_secret_option(argv[i - 1]) && !argv[i].empty() && argv[i][0] != '-') {
      out[i] = "<redacted:" + std::string(to_string(SecretKind::kSecretAssignment)) + ">";
      counts.add(SecretKind::kSecretAssignment);
      continue;
    }
    redactor.redact_text(out[i], counts);
  }
  return out;
}

CommandBundlePlan plan_command_bundle(const CommandBundleOptions& options) {
  CommandBundlePlan plan;
  for (const std::string& path : options.include) {
    std::string error;
    int fd = open_regular_file(path, error);
    if (fd < 0) {
      plan.refusal = "--include " + error;
      return plan;
    }
    ::close(fd);
    plan.included.push_back(path);
  }
  for (const std::string& input : command_inputs(options.record)) {
    std::string why = trace_log_problem(input);
    if (why.empty()) {
      plan.logs.push_back(input);
      continue;
    }
    bool named = false;
    for (const std::string& inc : plan.included) named |= same_file(inc, input);
    if (!named) plan.not_logs.push_back(why);
  }
  plan.database = command_database(options.record);
  // The command's database holds what it read, the files left out too (their lines as ingest
  // errors): the bundle then ingests its own from the logs it does carry.
  if (!plan.not_logs.empty()) plan.database.clear();
  if (!plan.not_logs.empty() && !options.logs_only) {
    plan.refusal = "command " + options.record.id + " named or read " +
                   std::to_string(plan.not_logs.size()) +
                   " file(s) that are not TORCH_TRACE logs, and a bundle holds logs only:";
    for (const std::string& n : plan.not_logs) plan.refusal += "\n  " + n;
    plan.refusal +=
        "\nname a file with --include PATH to bundle it anyway (redacted), or pass --logs-only "
        "to leave these out; --dry-run lists what the bundle would hold";
  }
  return plan;
}

std::string describe_command_bundle(const CommandBundleOptions& options,
                                    const CommandBundlePlan& plan) {
  std::string text = "the bundle of tlscope command " + options.record.id + " would hold:\n";
  auto member = [&](const std::string& name, const std::string& from) {
    text += "  " + name + std::string(name.size() < 18 ? 18 - name.size() : 1, ' ') + from + "\n";
  };
  member("command.json", "the record of the command (its arguments and stderr, redacted)");
  member("command.txt", "what was bundled, and where an input was cut");
  member("env.txt", "versions, machine, and PyTorch/CUDA/NCCL environment variables (redacted)");
  bool run = !plan.logs.empty() || !plan.database.empty();
  std::error_code ec;
  for (const std::string& log : plan.logs) {
    uint64_t bytes = fs::file_size(log, ec);
    member("logs/" + fs::path(log).filename().string(),
           "<- " + log + " (" + std::to_string(ec ? 0 : bytes) + " bytes, redacted)");
  }
  if (!plan.database.empty())
    member("tlscope.db", "<- a redacted copy of " + plan.database);
  else if (run)
    member("tlscope.db", "ingested from the redacted logs");
  if (run && options.rage.with_report) member("report/", "the HTML report of tlscope.db");
  if (run) {
    member("manifest.json", "every file with its size and MD5, what was redacted");
    member("README.txt", "what is inside");
  }
  for (const std::string& inc : plan.included)
    member("extra/" + fs::path(inc).filename().string(),
           "<- " + inc + " (named with --include, redacted)");
  for (const std::string& n : plan.not_logs) text += "left out, not a TORCH_TRACE log: " + n + "\n";
  return text;
}

RageResult write_command_bundle(const CommandBundleOptions& options) {
  RageOptions rage = options.rage;
  const CommandRecord& record = options.record;
  Redactor redactor(rage.redaction);
  RedactionCounts counts;
  CommandBundlePlan plan = plan_command_bundle(options);
  if (!plan.refusal.empty()) {
    RageResult refused;
    refused.error = plan.refusal;
    return refused;
  }

  std::string notes = "tlscope command " + record.id + "\n";
  std::error_code ec;
  fs::path cut_dir;
  auto remove_cut_dir = [&] {
    if (!cut_dir.empty()) fs::remove_all(cut_dir, ec);
  };
  for (const std::string& left : plan.not_logs)
    notes += "left out, not a TORCH_TRACE log: " + left + "\n";
  for (const std::string& input : plan.logs) {
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
  for (const std::string& inc : plan.included) {
    std::string text, error;
    if (!read_included(inc, options.max_input_bytes, text, error)) {
      remove_cut_dir();
      RageResult failed;
      failed.error = "--include " + error;
      return failed;
    }
    std::string name = fs::path(inc).filename().string();
    redactor.redact_file_name(name, counts);
    redactor.redact_text(text, counts);
    notes += "included with --include: " + inc + " as extra/" + name + "\n";
    rage.extra_files.emplace_back("extra/" + name, std::move(text));
  }
  rage.db_path = plan.database;
  notes += rage.db_path.empty()
               ? "database: not the command's (it no longer exists, the command had "
                 "none, or it holds files left out); ingested from the bundled "
                 "logs when there are any\n"
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
  CommandRecord shown = record;
  shown.argv = redacted_command_line(record.argv, redactor, counts);
  // A value the command line held as a secret may come back elsewhere in the record, where no
  // rule sees it as one: CLI11 lists unexpected arguments in its own order ("not expected:
  // --api-key -p --password X Y"), a program echoes its flags. Each such value goes everywhere.
  for (size_t i = 0; i < record.argv.size(); ++i) {
    const std::string& value = record.argv[i];
    if (shown.argv[i] == value || value.size() < 4) continue;
    std::string marker = "<redacted:" + std::string(to_string(SecretKind::kSecretOption)) + ">";
    for (std::string* text : {&shown.stderr_tail, &shown.cwd, &shown.report, &shown.database}) {
      for (size_t at = text->find(value); at != std::string::npos; at = text->find(value, at)) {
        text->replace(at, value.size(), marker);
        at += marker.size();
      }
    }
  }
  std::string json = command_record_json(shown);
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
