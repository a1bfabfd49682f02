// `tlscope report --serve`: a small HTTP/1.1 server for one report folder, on 127.0.0.1 only, for
// a report on a remote machine reached through an ssh tunnel (as tlparse's --serve).
//
// What it serves: regular files under the folder, GET and HEAD, one request per connection
// (Connection: close). A folder's URL serves its index.html. It never follows a symbolic link
// (each path component is opened with O_NOFOLLOW under the folder's descriptor, so neither a
// link nor a rename during the request leads out of the folder), never serves dot files (the
// report's stamp), and refuses ".." (http_request.hpp). A client that sends its request slower
// than kHeadSeconds, or reads the answer slower than kSendIdleSeconds per chunk, is dropped, and
// a pool of kWorkers threads serves connections side by side, so a stalled client delays no one.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace tlscope::cli {

inline constexpr int kDefaultServePort = 8000;  // tlparse's default
inline constexpr int kHeadSeconds = 10;
inline constexpr int kSendIdleSeconds = 30;
inline constexpr int kWorkers = 8;

struct ServeOptions {
  std::string folder;
  // The port; 0 lets the system pick a free one. With `port_given` false, a busy default port
  // falls back to a free one (with a note); a port asked for by name is never replaced.
  int port = kDefaultServePort;
  bool port_given = false;
  const char* command = "report";  // for messages: "tlscope <command>: ..."
  // Called once the socket listens, with its URL (e.g. to open a browser on it).
  std::function<void(const std::string& url)> on_listening;
};

// Serves until SIGINT or SIGTERM, then closes every connection and returns kOk; kUsageOrIo when
// the folder cannot be opened or the port cannot be bound (the message printed).
int serve_folder(const ServeOptions& options);

}  // namespace tlscope::cli
