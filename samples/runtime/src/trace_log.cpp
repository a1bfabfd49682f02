// TORCH_TRACE writer (see trace_log.hpp and /work/shared/docs/torch-trace-format.md section 7).
#include "tlrt/trace_log.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <stdexcept>

#include "tlrt/md5.hpp"

namespace tlrt {

namespace {
thread_local TraceLog* g_current = nullptr;
}

TraceLog* TraceLog::current() {
  return g_current;
}
void TraceLog::set_current(TraceLog* log) {
  g_current = log;
}

double now_us() {
  auto t = std::chrono::system_clock::now().time_since_epoch();
  return static_cast<double>(std::chrono::duration_cast<std::chrono::microseconds>(t).count());
}

std::string short_function_name(const char* pretty) {
  std::string s = pretty;
  size_t paren = s.find('(');
  if (paren != std::string::npos) s.resize(paren);
  size_t cut = s.find_last_of(": ");
  return cut == std::string::npos ? s : s.substr(cut + 1);
}

std::string relative_source(const char* file) {
  std::string f = file;
  size_t p = f.rfind("/samples/");
  if (p != std::string::npos) return f.substr(p + 1);
  return f;
}

TraceLog::TraceLog(const std::string& dir, std::optional<int> rank, const std::string& suffix)
    : rank_(rank), pid_(static_cast<long>(::getpid())) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::string name = "dedicated_log_torch_trace_";
  if (rank) name += "rank_" + std::to_string(*rank) + "_";
  name += suffix + ".log";
  path_ = (std::filesystem::path(dir) / name).string();
  // Created (and truncated) now, so a bad directory fails before the run starts.
  std::FILE* f = std::fopen(path_.c_str(), "w");
  if (!f) {
    throw std::runtime_error(path_ +
                             ": cannot open trace log for writing: " + std::strerror(errno));
  }
  std::fclose(f);
}

namespace {
constexpr size_t kSpillBytes = 32 * 1024;  // per rank: 128 MiB of buffers at 4,096 ranks at most
}

TraceLog::~TraceLog() {
  try {
    flush();
  } catch (const std::exception&) {
    // A destructor cannot report; flush() at the end of a run already did.
  }
}

void TraceLog::flush() {
  if (pending_.empty()) return;
  std::FILE* f = std::fopen(path_.c_str(), "a");
  bool ok = f && std::fwrite(pending_.data(), 1, pending_.size(), f) == pending_.size();
  int err = errno;
  if (f && std::fclose(f) != 0) ok = false;
  if (!ok) throw std::runtime_error(path_ + ": cannot write trace log: " + std::strerror(err));
  pending_.clear();
}

void TraceLog::put(const std::string& text) {
  pending_ += text;
  if (pending_.size() >= kSpillBytes) flush();
}

void TraceLog::write_header(std::source_location where) {
  auto now = std::chrono::system_clock::now();
  std::time_t tt = std::chrono::system_clock::to_time_t(now);
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  localtime_r(&tt, &tm);
  // PyTorch's formatter prints milliseconds * 1000 in the 6-digit field, so it always ends in 000.
  char head[64];
  std::snprintf(head, sizeof head, "V%02d%02d %02d:%02d:%02d.%06d %ld ", tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms) * 1000, pid_);
  pending_ += head;
  pending_ += relative_source(where.file_name());
  pending_ += ':';
  pending_ += std::to_string(where.line());
  pending_ += "] ";
}

int TraceLog::intern(const std::string& file, std::source_location where) {
  auto it = strings_.find(file);
  if (it != strings_.end()) return it->second;
  int idx = static_cast<int>(strings_.size());
  strings_.emplace(file, idx);
  write_header(where);
  Json meta = Json::object();
  std::string line = "{\"str\": " + Json(Json::Array{Json(file), Json(idx)}).dump() + "}\n";
  put(line);
  ++records_;
  return idx;
}

Json TraceLog::frames(const std::vector<StackFrame>& stack, std::source_location where) {
  Json out = Json::array();
  for (const auto& fr : stack) {
    Json j = Json::object();
    j.set("line", fr.line).set("name", fr.name).set("filename", intern(fr.file, where));
    if (!fr.loc.empty()) j.set("loc", fr.loc);
    out.push(std::move(j));
  }
  return out;
}

void TraceLog::emit(const std::string& key, const Json& metadata, const EventContext& ctx,
                    const std::optional<std::string>& payload, std::source_location where) {
  // Frames are interned (and their str records written) before this record's header.
  Json stack_json;
  if (ctx.stack) stack_json = frames(*ctx.stack, where);
  std::string env = "{";
  append_json_string(env, key);
  env += ": " + metadata.dump();
  if (rank_) env += ", \"rank\": " + std::to_string(*rank_);
  if (ctx.stack) {
    env += ", \"stack\": " + stack_json.dump();
  } else if (ctx.ctx) {
    env += ", \"frame_id\": " + std::to_string(ctx.ctx->frame_id) +
           ", \"frame_compile_id\": " + std::to_string(ctx.ctx->frame_compile_id);
    if (ctx.ctx->has_attempt) env += ", \"attempt\": " + std::to_string(ctx.ctx->attempt);
    if (!ctx.subgraph_name.empty()) {
      env += ", \"subgraph_name\": ";
      append_json_string(env, ctx.subgraph_name);
    }
  }
  if (payload) env += ", \"has_payload\": \"" + md5_hex(*payload) + "\"";
  env += "}\n";
  write_header(where);
  put(env);
  if (payload) {
    std::string body;
    body.reserve(payload->size() + 64);
    size_t start = 0;
    while (true) {
      size_t nl = payload->find('\n', start);
      body += '\t';
      body.append(*payload, start, nl == std::string::npos ? std::string::npos : nl - start);
      body += '\n';
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
    put(body);
  }
  ++records_;
}

double TraceLog::chromium(const std::string& name, char ph, const std::optional<CompileCtx>& ctx,
                          Json extra_args, const char* cat) {
  double ts = now_us();
  Json args = Json::object();
  const Json::Object* extra = extra_args.as_object();
  if (extra) {
    for (const auto& [k, v] : *extra) args.set(k, v);
  }
  args.set("compile_id", ctx ? Json(ctx->str()) : Json("None"));
  Json ev = Json::object();
  ev.set("name", name).set("ts", ts).set("args", args).set("ph", std::string(1, ph));
  ev.set("cat", cat).set("tid", 0).set("pid", 0);
  if (ph == 'i') ev.set("s", "p");
  EventContext ec;
  ec.ctx = ctx;
  emit("chromium_event", Json::object(), ec, ev.dump_indent0());
  return ts;
}

RecordFunction::RecordFunction(std::string name, Json args)
    : log_(TraceLog::current()), name_(std::move(name)) {
  if (log_) log_->chromium(name_, 'B', std::nullopt, std::move(args), "user_annotation");
}

RecordFunction::~RecordFunction() {
  if (log_) log_->chromium(name_, 'E', std::nullopt, Json::object(), "user_annotation");
}

}  // namespace tlrt
