// A streaming .tar.gz writer (POSIX ustar, with pax headers for long names and huge files) on top
// of zlib: the rage bundle is written with it, one file at a time, in bounded memory.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace tlscope::exporters::rage {

struct TarEntry {
  std::string name;  // path inside the archive, '/'-separated, no leading '/'
  uint64_t size = 0;
  std::string md5;  // lowercase hex MD5 of the entry's bytes
};

class TarGzWriter {
 public:
  TarGzWriter() = default;
  ~TarGzWriter();
  TarGzWriter(const TarGzWriter&) = delete;
  TarGzWriter& operator=(const TarGzWriter&) = delete;

  // Creates `path`, which must not exist yet (it is never a symlink followed or a file replaced).
  // False with error() naming the path when it cannot.
  bool open(const std::string& path, int level = 6);
  // Streams the file at `source` into the archive as `name`. The size is taken when the header is
  // written; a file that grows meanwhile is cut at that size, one that shrinks is an error.
  bool add_file(const std::string& name, const std::string& source, TarEntry* entry = nullptr);
  bool add_bytes(const std::string& name, std::string_view data, TarEntry* entry = nullptr);
  // Writes the end-of-archive blocks and closes the gzip stream; false if any write failed.
  bool close();
  const std::string& error() const { return error_; }
  uint64_t bytes_in() const { return bytes_in_; }  // uncompressed tar bytes written so far

 private:
  bool write_header(const std::string& name, uint64_t size, int64_t mtime);
  bool write_pax(const std::string& name, uint64_t size, int64_t mtime);
  bool write(const void* data, size_t len);
  bool pad(uint64_t size);
  bool fail(const std::string& message);

  gzFile gz_ = nullptr;
  std::string path_;
  std::string error_;
  uint64_t bytes_in_ = 0;
};

}  // namespace tlscope::exporters::rage
