// The bundle's scratch folder: made fresh (mkdtemp) beside the output and removed however the
// command ends, including SIGINT, SIGTERM and SIGHUP. The signal handler removes the tree with
// async-signal-safe calls only, then re-raises the signal with its default action, so the exit
// status still says what ended the command.
#pragma once

#include <filesystem>
#include <string>

namespace tlscope::exporters::rage {

class ScratchDir {
 public:
  ScratchDir() = default;
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  // Creates `<prefix>XXXXXX` and arms the signal handlers (one ScratchDir at a time). False with
  // `error` naming the folder's parent when it cannot.
  bool create(const std::string& prefix, std::string& error);
  const std::filesystem::path& path() const { return dir_; }

 private:
  std::filesystem::path dir_;
  bool armed_ = false;
};

}  // namespace tlscope::exporters::rage
