// README.txt and manifest.json of the rage bundle: what is inside and what was redacted (kinds and
// places, never the values).

#include "rage_summary.hpp"
#include "tlscope/exporters/html.hpp"  // json_string: valid JSON even for invalid UTF-8

namespace tlscope::exporters::rage {
namespace {

std::string counts_json(const RedactionCounts& counts) {
  std::string out = "{";
  const char* sep = "";
  for (size_t k = 0; k < counts.by_kind.size(); ++k) {
    if (counts.by_kind[k] == 0) continue;
    out += sep;
    out += json_string(to_string(static_cast<SecretKind>(k))) + ": " +
           std::to_string(counts.by_kind[k]);
    sep = ", ";
  }
  return out + "}";
}

std::string counts_text(const RedactionCounts& counts) {
  std::string out;
  for (size_t k = 0; k < counts.by_kind.size(); ++k) {
    if (counts.by_kind[k] == 0) continue;
    out += "    " + std::string(to_string(static_cast<SecretKind>(k))) + ": " +
           std::to_string(counts.by_kind[k]) + "\n";
  }
  return out.empty() ? "    nothing found\n" : out;
}

std::string ranks_text(const std::vector<int64_t>& ranks) {
  if (ranks.empty()) return "none (single process)";
  std::string out;
  for (size_t i = 0; i < ranks.size(); ++i) out += (i ? "," : "") + std::to_string(ranks[i]);
  return out;
}

}  // namespace

std::string readme_text(const BundleSummary& s) {
  std::string out;
  out += "tlscope rage bundle\n===================\n\n";
  out += "Made by tlscope " + s.tlscope_version + " at " + s.created_utc + " from " + s.source +
         ".\nAttach it to a bug report; the maintainers can open everything below offline.\n\n";
  out += "What is inside (" + s.top + "/):\n";
  out += "  README.txt      this file\n";
  out +=
      "  env.txt         tlscope build, OS/kernel, CPUs, memory, Python/torch if found, and the\n"
      "                  PyTorch/CUDA/NCCL/Python environment variables (secrets redacted)\n";
  if (!s.logs.empty())
    out += "  logs/           the run's TORCH_TRACE logs (" + std::to_string(s.logs.size()) +
           " file(s)), redacted\n";
  out += "  tlscope.db      SQLite database (docs/schema.md): " + std::to_string(s.events) +
         " events, " + std::to_string(s.ingest_errors) + " ingest errors\n";
  out += "                  e.g. tlscope summary tlscope.db; tlscope gui tlscope.db\n";
  if (s.has_report)
    out += "  report/         the static HTML report: open report/index.html in a browser\n";
  else
    out += "  (no report/: " + s.report_note + ")\n";
  out += "  manifest.json   every file with size and MD5, the run, and what was redacted\n\n";
  if (s.run && !s.run->files.empty()) {
    out += "The run: started " + format_wall_time(s.run->start) + ", last record " +
           format_wall_time(s.run->end) + " (log wall-clock time), ranks " +
           ranks_text(s.run->ranks) + ", " + std::to_string(s.run->files.size()) + " file(s).\n\n";
  }
  out += "Redaction (" + std::to_string(s.counts.total()) + " replacement(s)):\n";
  out += counts_text(s.counts);
  out +=
      "  Replaced text reads <redacted:KIND> (redacted-KIND in log headers and file names).\n"
      "  Token shapes (GitHub, Hugging Face, AWS, Slack, OpenAI), Bearer and Basic credentials,\n"
      "  private key blocks, passwords in URLs, secret-named fields and assignments\n"
      "  (\"api_key\": \"...\", HF_TOKEN=..., password = ..., --password=...) are found in every\n"
      "  log line, log file name, env value and database text; environment variables with\n"
      "  secret-looking names keep only their name.\n";
  out += s.paths_redacted
             ? "  The home directory reads ~ and the user name <user> (--redact-paths).\n"
             : "  Paths were left as they are (pass --redact-paths to hide the home directory and "
               "user name).\n";
  out +=
      "  A log payload changed by redaction gets a fresh has_payload MD5 when its original MD5\n"
      "  was right, so the logs still parse cleanly; a payload whose MD5 was already wrong keeps\n"
      "  it (the mismatch may be part of the bug). manifest.json counts both.\n"
      "  Redaction finds known shapes only: look through the bundle before sharing it.\n";
  return out;
}

std::string manifest_json(const BundleSummary& s, const std::vector<TarEntry>& entries) {
  std::string out = "{\n";
  out += "  \"tool\": \"tlscope rage\",\n";
  out += "  \"tlscope_version\": " + json_string(s.tlscope_version) + ",\n";
  out += "  \"created_utc\": " + json_string(s.created_utc) + ",\n";
  out += "  \"source\": " + json_string(s.source) + ",\n";
  out += "  \"from_database\": " + std::string(s.from_database ? "true" : "false") + ",\n";
  if (s.run && !s.run->files.empty()) {
    out += "  \"run\": {\"start\": " + json_string(format_wall_time(s.run->start)) +
           ", \"last_record\": " + json_string(format_wall_time(s.run->end)) + ", \"ranks\": [";
    for (size_t i = 0; i < s.run->ranks.size(); ++i)
      out += (i ? ", " : "") + std::to_string(s.run->ranks[i]);
    out += "], \"files\": " + std::to_string(s.run->files.size()) +
           ", \"bytes\": " + std::to_string(s.run->bytes) + "},\n";
  }
  out += "  \"counts\": {\"events\": " + std::to_string(s.events) +
         ", \"ingest_errors\": " + std::to_string(s.ingest_errors);
  if (s.compiles >= 0) out += ", \"compiles\": " + std::to_string(s.compiles);
  if (s.findings >= 0) out += ", \"findings\": " + std::to_string(s.findings);
  out += "},\n";
  out += "  \"report\": " + std::string(s.has_report ? "true" : "false") + ",\n";

  uint64_t rehashed = 0, unverified = 0;
  for (const BundledLog& log : s.logs) {
    rehashed += log.redaction.payloads_rehashed;
    unverified += log.redaction.payloads_unverified;
  }
  out += "  \"redaction\": {\n";
  out += "    \"total\": " + std::to_string(s.counts.total()) + ",\n";
  out += "    \"by_kind\": " + counts_json(s.counts) + ",\n";
  out += "    \"environment\": " + counts_json(s.env_counts) + ",\n";
  out += "    \"file_names\": " + counts_json(s.name_counts) + ",\n";
  if (s.from_database) {
    out += "    \"database\": " + counts_json(s.db_counts) + ",\n";
    out += "    \"database_cells_changed\": " + std::to_string(s.db_cells_changed) + ",\n";
    out += "    \"database_note\": \"payloads.md5 keeps the digest of the original text\",\n";
  }
  out += "    \"paths_redacted\": " + std::string(s.paths_redacted ? "true" : "false") + ",\n";
  out +=
      "    \"payload_md5_policy\": \"recomputed when the original has_payload matched; kept "
      "(still a mismatch) when it did not\",\n";
  out += "    \"payloads_rehashed\": " + std::to_string(rehashed) + ",\n";
  out += "    \"payloads_left_mismatched\": " + std::to_string(unverified) + ",\n";
  out += "    \"logs\": [";
  const char* sep = "\n";
  for (const BundledLog& log : s.logs) {
    out += sep;
    sep = ",\n";
    out += "      {\"file\": " + json_string("logs/" + log.name) +
           ", \"rank\": " + (log.rank ? std::to_string(*log.rank) : "null") +
           ", \"lines\": " + std::to_string(log.redaction.lines) +
           ", \"redacted_lines\": " + std::to_string(log.redaction.redacted_lines) +
           ", \"payloads_rehashed\": " + std::to_string(log.redaction.payloads_rehashed) +
           ", \"payloads_left_mismatched\": " + std::to_string(log.redaction.payloads_unverified) +
           ", \"by_kind\": " + counts_json(log.redaction.counts) + ", \"locations\": [";
    for (size_t i = 0; i < log.redaction.locations.size(); ++i)
      out += (i ? ", " : "") + json_string(log.redaction.locations[i]);
    out += "]";
    if (log.redaction.redacted_lines > log.redaction.locations.size())
      out += ", \"locations_truncated\": true";
    out += "}";
  }
  out += s.logs.empty() ? "]\n" : "\n    ]\n";
  out += "  },\n";
  if (!s.missing_logs.empty()) {
    out += "  \"missing_logs\": [";
    for (size_t i = 0; i < s.missing_logs.size(); ++i)
      out += (i ? ", " : "") + json_string(s.missing_logs[i]);
    out += "],\n";
  }
  out += "  \"files\": [";
  sep = "\n";
  for (const TarEntry& e : entries) {
    std::string rel = e.name.substr(e.name.find('/') + 1);
    out += sep;
    sep = ",\n";
    out += "    {\"path\": " + json_string(rel) + ", \"bytes\": " + std::to_string(e.size) +
           ", \"md5\": " + json_string(e.md5) + "}";
  }
  out += "\n  ]\n}\n";
  return out;
}

}  // namespace tlscope::exporters::rage
