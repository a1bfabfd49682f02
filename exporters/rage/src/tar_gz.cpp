// POSIX ustar records written through a gzip stream. A name that does not fit ustar's 100 + 155
// byte fields, or a size past ustar's 8 GiB, gets a pax extended header first ("path=", "size="),
// which GNU tar, bsdtar and Python's tarfile all read.
#include "tlscope/exporters/rage/tar_gz.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <vector>

#include "tlscope/parser/md5.hpp"

namespace tlscope::exporters::rage {
namespace {

constexpr size_t kBlock = 512;
constexpr uint64_t kMaxUstarSize = 077777777777ULL;  // 11 octal digits

void put_octal(char* field, size_t width, uint64_t value) {
  // width - 1 digits, zero-padded, then NUL.
  std::snprintf(field, width, "%0*llo", static_cast<int>(width - 1),
                static_cast<unsigned long long>(value));
}

// Splits `name` into ustar prefix/name at a '/', or returns false when no split fits.
bool split_ustar_name(const std::string& name, std::string& prefix, std::string& rest) {
  if (name.size() <= 100) {
    prefix.clear();
    rest = name;
    return true;
  }
  for (size_t slash = name.find('/'); slash != std::string::npos;
       slash = name.find('/', slash + 1)) {
    if (slash <= 155 && name.size() - slash - 1 <= 100 && name.size() - slash - 1 > 0) {
      prefix = name.substr(0, slash);
      rest = name.substr(slash + 1);
      return true;
    }
  }
  return false;
}

// One pax record: "<len> key=value\n", where <len> counts the whole record including itself.
std::string pax_record(const std::string& key, const std::string& value) {
  size_t body = 1 + key.size() + 1 + value.size() + 1;  // " key=value\n"
  size_t len = body + 1;
  while (std::to_string(len).size() + body != len) len = std::to_string(len).size() + body;
  return std::to_string(len) + " " + key + "=" + value + "\n";
}

}  // namespace

TarGzWriter::~TarGzWriter() {
  if (gz_) gzclose(gz_);
}

bool TarGzWriter::fail(const std::string& message) {
  if (error_.empty()) error_ = path_ + ": " + message;
  return false;
}

bool TarGzWriter::open(const std::string& path, int level) {
  path_ = path;
  std::string mode = "wb" + std::to_string(level);
  // O_EXCL | O_NOFOLLOW: never through a planted symlink, never over an existing file.
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return fail(std::strerror(errno));
  gz_ = gzdopen(fd, mode.c_str());
  if (!gz_) {
    ::close(fd);
    return fail("cannot open a gzip stream");
  }
  gzbuffer(gz_, 256 * 1024);
  return true;
}

bool TarGzWriter::write(const void* data, size_t len) {
  if (!gz_) return fail("archive is not open");
  const char* p = static_cast<const char*>(data);
  while (len > 0) {
    unsigned chunk = static_cast<unsigned>(std::min<size_t>(len, 1u << 30));
    if (gzwrite(gz_, p, chunk) != static_cast<int>(chunk)) {
      int errnum = 0;
      const char* msg = gzerror(gz_, &errnum);
      return fail(errnum == Z_ERRNO ? std::strerror(errno) : msg);
    }
    p += chunk;
    len -= chunk;
    bytes_in_ += chunk;
  }
  return true;
}

bool TarGzWriter::pad(uint64_t size) {
  static const char zeros[kBlock] = {};
  size_t rem = size % kBlock;
  return rem == 0 || write(zeros, kBlock - rem);
}

bool TarGzWriter::write_pax(const std::string& name, uint64_t size, int64_t mtime) {
  std::string records;
  std::string prefix, rest;
  if (!split_ustar_name(name, prefix, rest)) records += pax_record("path", name);
  if (size > kMaxUstarSize) records += pax_record("size", std::to_string(size));
  if (records.empty()) return true;
  char header[kBlock] = {};
  std::string base = name.substr(name.find_last_of('/') + 1);
  std::string pax_name = ("PaxHeaders/" + base).substr(0, 100);
  std::memcpy(header, pax_name.data(), pax_name.size());
  put_octal(header + 100, 8, 0644);
  put_octal(header + 108, 8, 0);
  put_octal(header + 116, 8, 0);
  put_octal(header + 124, 12, records.size());
  put_octal(header + 136, 12, static_cast<uint64_t>(mtime));
  header[156] = 'x';
  std::memcpy(header + 257, "ustar", 6);
  std::memcpy(header + 263, "00", 2);
  std::memset(header + 148, ' ', 8);
  unsigned sum = 0;
  for (unsigned char c : header) sum += c;
  std::snprintf(header + 148, 8, "%06o", sum);
  return write(header, kBlock) && write(records.data(), records.size()) && pad(records.size());
}

bool TarGzWriter::write_header(const std::string& name, uint64_t size, int64_t mtime) {
  if (name.empty() || name[0] == '/') return fail("bad archive entry name '" + name + "'");
  if (!write_pax(name, size, mtime)) return false;
  char header[kBlock] = {};
  std::string prefix, rest;
  if (!split_ustar_name(name, prefix, rest)) {
    // The pax "path" record holds the full name; the ustar field keeps its tail for old readers.
    prefix.clear();
    rest = name.substr(name.size() - 100);
  }
  std::memcpy(header, rest.data(), rest.size());
  put_octal(header + 100, 8, 0644);
  put_octal(header + 108, 8, 0);
  put_octal(header + 116, 8, 0);
  put_octal(header + 124, 12, size > kMaxUstarSize ? 0 : size);
  put_octal(header + 136, 12, static_cast<uint64_t>(mtime));
  header[156] = '0';
  std::memcpy(header + 257, "ustar", 6);
  std::memcpy(header + 263, "00", 2);
  std::memcpy(header + 345, prefix.data(), prefix.size());
  std::memset(header + 148, ' ', 8);
  unsigned sum = 0;
  for (unsigned char c : header) sum += c;
  std::snprintf(header + 148, 8, "%06o", sum);
  return write(header, kBlock);
}

bool TarGzWriter::add_bytes(const std::string& name, std::string_view data, TarEntry* entry) {
  if (!write_header(name, data.size(), std::time(nullptr))) return false;
  if (!write(data.data(), data.size()) || !pad(data.size())) return false;
  if (entry) {
    entry->name = name;
    entry->size = data.size();
    entry->md5 = parser::Md5::hex_of(data);
  }
  return true;
}

bool TarGzWriter::add_file(const std::string& name, const std::string& source, TarEntry* entry) {
  struct stat st {};
  if (::stat(source.c_str(), &st) != 0) {
    error_ = source + ": " + std::strerror(errno);
    return false;
  }
  std::FILE* in = std::fopen(source.c_str(), "rb");
  if (!in) {
    error_ = source + ": " + std::strerror(errno);
    return false;
  }
  uint64_t size = static_cast<uint64_t>(st.st_size);
  if (!write_header(name, size, st.st_mtime)) {
    std::fclose(in);
    return false;
  }
  parser::Md5 md5;
  // Sized by the file: a fresh 256 KiB per file was most of the time of a bundle of thousands
  // of small rank logs.
  std::vector<char> buffer(static_cast<size_t>(std::clamp<uint64_t>(size, 1, 256 * 1024)));
  uint64_t left = size;
  while (left > 0) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(left, buffer.size()));
    size_t got = std::fread(buffer.data(), 1, want, in);
    if (got == 0) break;
    md5.update(buffer.data(), got);
    if (!write(buffer.data(), got)) {
      std::fclose(in);
      return false;
    }
    left -= got;
  }
  bool read_error = std::ferror(in);
  std::fclose(in);
  if (left > 0) {
    error_ = source + (read_error ? ": read error" : ": file shrank while being archived");
    return false;
  }
  if (!pad(size)) return false;
  if (entry) {
    entry->name = name;
    entry->size = size;
    entry->md5 = parser::Md5::hex(md5.finish());
  }
  return true;
}

bool TarGzWriter::close() {
  if (!gz_) return error_.empty();
  static const char zeros[2 * kBlock] = {};
  bool ok = error_.empty() && write(zeros, sizeof zeros);
  int rc = gzclose(gz_);
  gz_ = nullptr;
  if (rc != Z_OK) ok = fail(rc == Z_ERRNO ? std::strerror(errno) : "gzip stream failed on close");
  return ok;
}

}  // namespace tlscope::exporters::rage
