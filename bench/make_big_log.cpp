// Builds a large TORCH_TRACE log from the real logs, for the parse and ingest benchmarks.
// Each round appends every real log once, with frame ids, compile ids and chromium timestamps
// shifted so rounds do not simply repeat, and every has_payload recomputed so the output is valid.
// Usage: make_big_log [--size-mb N] [--logs DIR] OUTPUT
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench_args.hpp"
#include "tlscope/parser/md5.hpp"

namespace {

namespace fs = std::filesystem;
using tlscope::parser::Md5;

// Adds `delta` to the integer that follows each occurrence of `key` (e.g. "\"frame_id\": ").
void shift_after(std::string& line, std::string_view key, int64_t delta) {
  size_t pos = 0;
  while ((pos = line.find(key, pos)) != std::string::npos) {
    size_t start = pos + key.size();
    size_t end = start;
    while (end < line.size() && line[end] >= '0' && line[end] <= '9') ++end;
    if (end > start) {
      int64_t v = std::strtoll(line.c_str() + start, nullptr, 10) + delta;
      line.replace(start, end - start, std::to_string(v));
    }
    pos = start;
  }
}

struct Record {
  std::string header;                // without line end
  std::vector<std::string> payload;  // raw lines (with TAB), without line end
  bool crlf = false;
};

std::vector<Record> read_records(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<Record> records;
  std::string line;
  while (std::getline(in, line)) {
    bool crlf = !line.empty() && line.back() == '\r';
    if (crlf) line.pop_back();
    if (line.empty()) continue;
    if (line[0] == '\t') {
      if (!records.empty()) records.back().payload.push_back(line);
      continue;
    }
    records.push_back(Record{line, {}, crlf});
  }
  return records;
}

void write_round(const std::vector<std::vector<Record>>& logs, int64_t round, std::string& out) {
  int64_t frame_shift = round * 1000;
  int64_t ts_shift = round * 3600 * 1000000LL;  // one hour of microseconds per round
  for (const auto& records : logs) {
    for (const Record& r : records) {
      std::string header = r.header;
      shift_after(header, "\"frame_id\": ", frame_shift);
      shift_after(header, "\"compile_id\": \"", frame_shift);
      std::string joined;
      std::vector<std::string> payload = r.payload;
      for (size_t i = 0; i < payload.size(); ++i) {
        shift_after(payload[i], "\"compile_id\": \"", frame_shift);
        shift_after(payload[i], "\"ts\": ", ts_shift);
        if (i) joined += '\n';
        joined.append(payload[i], 1, std::string::npos);
      }
      size_t md5_at = header.find("\"has_payload\": \"");
      if (md5_at != std::string::npos) {
        header.replace(md5_at + 16, 32, Md5::hex_of(joined));
      }
      const char* eol = r.crlf ? "\r\n" : "\n";
      out += header;
      out += eol;
      for (const std::string& p : payload) {
        out += p;
        out += eol;
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  double size_mb = 1024;
  std::string logs_dir = TLSCOPE_DEFAULT_LOGS;
  std::string output;
  CLI::App app{"Builds a large TORCH_TRACE log from the real logs"};
  app.add_option("--size-mb", size_mb, "Size of the output in MiB (default 1024)")
      ->check(CLI::PositiveNumber);
  app.add_option("--logs", logs_dir, "Folder of real logs to repeat")
      ->check(CLI::ExistingDirectory);
  app.add_option("output", output, "The log file to write")->required();
  if (auto rc = tlscope::bench::parse_args(app, argc, argv)) return *rc;
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(logs_dir, ec)) {
    std::string name = entry.path().filename().string();
    // The corrupted copy of simple.log would only repeat simple.log with an error.
    if (entry.is_regular_file() && entry.path().extension() == ".log" &&
        name != "simple_corrupted_json.log") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "no .log files under %s (use --logs DIR)\n", logs_dir.c_str());
    return 1;
  }
  std::vector<std::vector<Record>> logs;
  for (const auto& f : files) logs.push_back(read_records(f));

  FILE* out = std::fopen(output.c_str(), "wb");
  if (!out) {
    std::perror(output.c_str());
    return 1;
  }
  uint64_t target = static_cast<uint64_t>(size_mb * 1024 * 1024);
  uint64_t written = 0;
  int64_t rounds = 0;
  std::string buf;
  while (written < target) {
    buf.clear();
    write_round(logs, rounds++, buf);
    if (std::fwrite(buf.data(), 1, buf.size(), out) != buf.size()) {
      std::perror(output.c_str());
      return 1;
    }
    written += buf.size();
  }
  std::fclose(out);
  std::printf("%s: %llu bytes, %lld rounds of %zu logs\n", output.c_str(),
              static_cast<unsigned long long>(written), static_cast<long long>(rounds),
              files.size());
  return 0;
}
