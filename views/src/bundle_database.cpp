// Reading the database out of a rage bundle: a gzip'ed ustar archive (exporters' tar writer, GNU
// long names included). Only the entry's data is used; its name only picks the entry, so a
// hostile archive cannot write anywhere but `db_path`.
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tlscope/model/safe_output.hpp"
#include "tlscope/views/open_run.hpp"

namespace tlscope::views {
namespace {

constexpr size_t kBlock = 512;

struct GzCloser {
  void operator()(gzFile_s* f) const { gzclose(f); }
};

// Reads exactly n bytes; false at the end of the data or on a gzip error.
bool read_exact(gzFile f, char* buf, size_t n) {
  size_t got = 0;
  while (got < n) {
    int r = gzread(f, buf + got, static_cast<unsigned>(std::min<size_t>(n - got, 1u << 20)));
    if (r <= 0) return false;
    got += static_cast<size_t>(r);
  }
  return true;
}

// An octal size field; false for base-256 or garbage (no bundle holds an entry that large).
bool parse_octal(const char* field, size_t len, uint64_t* value) {
  uint64_t v = 0;
  size_t i = 0;
  while (i < len && field[i] == ' ') ++i;
  bool digits = false;
  for (; i < len && field[i] >= '0' && field[i] <= '7'; ++i) {
    if (v > (UINT64_MAX >> 3)) return false;
    v = v * 8 + static_cast<uint64_t>(field[i] - '0');
    digits = true;
  }
  if (i < len && field[i] != '\0' && field[i] != ' ') return false;
  *value = v;
  return digits;
}

bool is_database_name(const std::string& name) {
  std::string base = std::filesystem::path(name).filename().string();
  return base.size() > 3 && base.compare(base.size() - 3, 3, ".db") == 0;
}

// The extraction; false after `fail` has named what went wrong, or `cancel` that it was cancelled.
template <typename Fail, typename Cancel>
bool extract(const std::string& bundle, const std::string& db_path,
             const std::function<bool()>& cancelled, Fail&& fail, Cancel&& cancel) {
  std::unique_ptr<gzFile_s, GzCloser> f(gzopen(bundle.c_str(), "rb"));
  if (!f) return fail("cannot open");
  // A bundle holds one database (TOP/tlscope.db): the first .db entry is it, in one pass.
  std::string long_name;
  char header[kBlock];
  std::vector<char> buf(1u << 20);
  while (read_exact(f.get(), header, kBlock)) {
    if (std::all_of(header, header + kBlock, [](char c) { return c == 0; })) break;  // end
    uint64_t size = 0;
    if (!parse_octal(header + 124, 12, &size)) return fail("not a tar archive (bad entry size)");
    const char type = header[156];
    std::string name;
    if (!long_name.empty()) {
      name = std::move(long_name);
      long_name.clear();
    } else {
      std::string prefix(header + 345, strnlen(header + 345, 155));
      name.assign(header, strnlen(header, 100));
      if (!prefix.empty()) name = prefix + "/" + name;
    }
    const uint64_t padded = (size + kBlock - 1) / kBlock * kBlock;
    if (type == 'L') {  // GNU long name: the next entry's name is this entry's data
      if (size > 65536)
        return fail("not a tar archive (long name of " + std::to_string(size) + " bytes)");
      std::string data(padded, '\0');
      if (!read_exact(f.get(), data.data(), padded)) return fail("truncated archive");
      long_name.assign(data.c_str(), strnlen(data.c_str(), size));
      continue;
    }
    const bool regular = type == '0' || type == '\0';
    if (regular && is_database_name(name)) {
      model::AtomicFile out;
      if (std::string why = out.open(db_path, 0600); !why.empty()) return fail(why);
      uint64_t left = size;
      while (left > 0) {
        size_t n = static_cast<size_t>(std::min<uint64_t>(left, buf.size()));
        if (!read_exact(f.get(), buf.data(), n)) return fail("truncated archive (in " + name + ")");
        if (!out.write(std::string_view(buf.data(), n))) return fail(out.error());
        left -= n;
      }
      if (cancelled && cancelled()) return cancel();
      if (std::string why = out.commit(); !why.empty()) return fail(why);
      return true;
    }
    // Skip the entry's data.
    for (uint64_t left = padded; left > 0;) {
      size_t n = static_cast<size_t>(std::min<uint64_t>(left, buf.size()));
      if (!read_exact(f.get(), buf.data(), n)) return fail("truncated archive");
      left -= n;
    }
  }
  return fail("no database in the bundle (no tlscope.db entry)");
}

}  // namespace

Result<bool> extract_bundle_database(const std::string& bundle, const std::string& db_path,
                                     const std::function<bool()>& cancelled) {
  Result<bool> out;
  out.value = extract(
      bundle, db_path, cancelled,
      [&](const std::string& why) {
        out.fail(bundle + ": " + why);
        return false;
      },
      [&] {
        out.fail(db_path + ": cancelled; nothing was kept");
        return false;
      });
  return out;
}

}  // namespace tlscope::views
