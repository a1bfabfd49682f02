// File descriptors and zlib behind one read() call. The gzip reader inflates multi-member files
// and reports a stream cut short, which is the common way a copied .gz log arrives damaged.
#include "byte_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace tlscope::parser {
namespace {

class FdSource final : public ByteSource {
 public:
  FdSource(int fd, bool owned) : fd_(fd), owned_(owned) {}
  ~FdSource() override {
    if (owned_) ::close(fd_);
  }

  // Bytes peeked for the gzip check are handed out first.
  void unread(std::string bytes) { pushback_ = std::move(bytes); }

  long read(char* dst, size_t cap, std::string& error) override {
    if (!pushback_.empty()) {
      size_t n = std::min(cap, pushback_.size());
      std::memcpy(dst, pushback_.data(), n);
      pushback_.erase(0, n);
      return static_cast<long>(n);
    }
    while (true) {
      ssize_t n = ::read(fd_, dst, cap);
      if (n >= 0) return static_cast<long>(n);
      if (errno == EINTR) continue;
      error = std::string("read failed: ") + std::strerror(errno);
      return -1;
    }
  }

 private:
  int fd_;
  bool owned_;
  std::string pushback_;
};

class GzipSource final : public ByteSource {
 public:
  GzipSource(std::unique_ptr<ByteSource> raw, size_t chunk_bytes)
      : raw_(std::move(raw)), in_(chunk_bytes) {
    std::memset(&zs_, 0, sizeof zs_);
    if (inflateInit2(&zs_, 16 + MAX_WBITS) != Z_OK) failure_ = "zlib initialisation failed";
  }
  ~GzipSource() override { inflateEnd(&zs_); }

  long read(char* dst, size_t cap, std::string& error) override {
    if (!failure_.empty()) {
      error = failure_;
      return -1;
    }
    if (done_) return 0;
    zs_.next_out = reinterpret_cast<Bytef*>(dst);
    zs_.avail_out = static_cast<uInt>(std::min<size_t>(cap, 1u << 30));
    while (zs_.avail_out > 0) {
      if (zs_.avail_in == 0) {
        long n = raw_->read(in_.data(), in_.size(), error);
        if (n < 0) return fail_or_partial(dst, error);
        if (n == 0) {
          // End of the compressed bytes: fine only between gzip members.
          if (in_member_) {
            error = "gzip stream cut short (no end-of-stream marker)";
            return fail_or_partial(dst, error);
          }
          done_ = true;
          break;
        }
        zs_.next_in = reinterpret_cast<Bytef*>(in_.data());
        zs_.avail_in = static_cast<uInt>(n);
      }
      in_member_ = true;
      int rc = inflate(&zs_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        in_member_ = false;
        inflateReset(&zs_);  // another member may follow (concatenated .gz files)
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        error = std::string("gzip data corrupt: ") + (zs_.msg ? zs_.msg : "inflate error");
        return fail_or_partial(dst, error);
      }
    }
    return static_cast<long>(reinterpret_cast<char*>(zs_.next_out) - dst);
  }

 private:
  // Bytes inflated before the failure are returned now; the error comes on the next call.
  long fail_or_partial(char* dst, const std::string& error) {
    failure_ = error;
    long got = static_cast<long>(reinterpret_cast<char*>(zs_.next_out) - dst);
    return got > 0 ? got : -1;
  }

  std::unique_ptr<ByteSource> raw_;
  std::vector<char> in_;
  z_stream zs_;
  std::string failure_;  // once set, every later read reports it
  bool done_ = false;
  bool in_member_ = false;
};

}  // namespace

std::unique_ptr<ByteSource> open_byte_source(const std::string& path, size_t chunk_bytes,
                                             std::string& error) {
  int fd = 0;
  bool owned = false;
  if (path != "-") {
    // O_NONBLOCK so that opening a FIFO does not wait for a writer; only regular files are read
    // (plan_inputs refuses the others, this catches one swapped in since).
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
      error = std::strerror(errno);
      return nullptr;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      error = S_ISFIFO(st.st_mode)  ? "a FIFO, not a regular file"
              : S_ISCHR(st.st_mode) ? "a character device, not a regular file"
              : S_ISDIR(st.st_mode) ? "a directory, not a regular file"
                                    : "not a regular file";
      return nullptr;
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    owned = true;
  }
  auto raw = std::make_unique<FdSource>(fd, owned);
  // The gzip magic decides, not the name: a compressed log is read right whatever it is called
  // (or on stdin), and a plain log that was only named .gz is read as text rather than refused
  // at its first byte as corrupt gzip.
  bool gzip = false;
  {
    char magic[2];
    size_t got = 0;
    while (got < 2) {
      long n = raw->read(magic + got, 2 - got, error);
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    gzip = got == 2 && static_cast<unsigned char>(magic[0]) == 0x1f &&
           static_cast<unsigned char>(magic[1]) == 0x8b;
    raw->unread(std::string(magic, got));
    error.clear();
  }
  if (gzip) return std::make_unique<GzipSource>(std::move(raw), chunk_bytes);
  return raw;
}

}  // namespace tlscope::parser
