// The buffer a log is read through, sized by the log: it starts at 64 KiB and doubles while reads
// fill it, up to 1 MiB. A fresh 1 MiB per file cost a memset and 256 page faults even for an
// empty file (about 7 ms on the test VM): `rage --list` over 10,000 empty rank files took 70 s.
#pragma once

#include <cstddef>
#include <vector>

namespace tlscope::exporters::rage {

class ReadBuffer {
 public:
  char* data() { return bytes_.data(); }
  unsigned capacity() const { return static_cast<unsigned>(bytes_.size()); }

  // Called with what a read returned; a read that filled the buffer says the file is large.
  void grow_after(long got) {
    if (got == static_cast<long>(bytes_.size()) && bytes_.size() < kMost) {
      bytes_.resize(bytes_.size() * 2);
    }
  }

 private:
  static constexpr size_t kFirst = size_t{64} << 10;
  static constexpr size_t kMost = size_t{1} << 20;
  std::vector<char> bytes_ = std::vector<char>(kFirst);
};

}  // namespace tlscope::exporters::rage
