// Compile id text in PyTorch's CompileId/TraceId form, both directions.
#include "tlscope/parser/compile_id.hpp"

#include <charconv>

namespace tlscope::parser {
namespace {

void append_int(std::string& out, int64_t v) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, res.ptr);
}

// Reads a non-negative decimal integer that spans all of `text`.
std::optional<int64_t> read_id(std::string_view text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

}  // namespace

std::string compile_id_string(const CompileContext& ctx) {
  bool has_frame = ctx.frame_id || ctx.frame_compile_id;
  if (!ctx.compiled_autograd_id && !has_frame) return {};
  std::string out;
  if (ctx.compiled_autograd_id) {
    out += '!';
    append_int(out, *ctx.compiled_autograd_id);
    if (has_frame) out += '/';
  }
  if (has_frame) {
    // A half-present frame id is not something PyTorch writes; tlparse shows the gap as '-'.
    if (ctx.frame_id)
      append_int(out, *ctx.frame_id);
    else
      out += '-';
    out += '/';
    if (ctx.frame_compile_id)
      append_int(out, *ctx.frame_compile_id);
    else
      out += '-';
  }
  if (ctx.attempt && *ctx.attempt != 0) {
    out += '_';
    append_int(out, *ctx.attempt);
  }
  return out;
}

namespace {

// The PyTorch form: "0/1", "0/1_2", "!0/3/0", "!0", "!0_1".
std::optional<CompileContext> parse_pytorch_form(std::string_view text) {
  CompileContext ctx;
  // An attempt suffix "_N" (TraceId form) applies to the whole id.
  if (auto us = text.rfind('_'); us != std::string_view::npos) {
    ctx.attempt = read_id(text.substr(us + 1));
    if (!ctx.attempt) return std::nullopt;
    text = text.substr(0, us);
  }
  std::optional<int64_t> parts[3];
  int n = 0;
  bool autograd = !text.empty() && text[0] == '!';
  if (autograd) text.remove_prefix(1);
  while (true) {
    if (n == 3) return std::nullopt;
    auto slash = text.find('/');
    parts[n] = read_id(text.substr(0, slash));
    if (!parts[n]) return std::nullopt;
    ++n;
    if (slash == std::string_view::npos) break;
    text.remove_prefix(slash + 1);
  }
  if (autograd) {
    // "!CA" or "!CA/F/C"; PyTorch rejects the two-part "!CA/F".
    if (n == 2) return std::nullopt;
    ctx.compiled_autograd_id = parts[0];
    if (n == 3) {
      ctx.frame_id = parts[1];
      ctx.frame_compile_id = parts[2];
    }
  } else {
    if (n != 2) return std::nullopt;
    ctx.frame_id = parts[0];
    ctx.frame_compile_id = parts[1];
  }
  return ctx;
}

}  // namespace

std::optional<CompileContext> parse_compile_id(std::string_view text) {
  // tlparse's display form, which tools built on its output copy into records: the PyTorch form
  // in brackets, and a compiled-autograd graph outside any frame as "!0/-/-" (PyTorch: "!0").
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']') {
    text = text.substr(1, text.size() - 2);
    constexpr std::string_view kNoFrame = "/-/-";
    if (size_t gap = text.find(kNoFrame); !text.empty() && text[0] == '!' && gap != text.npos) {
      std::string joined(text.substr(0, gap));
      joined += text.substr(gap + kNoFrame.size());
      return parse_pytorch_form(joined);
    }
  }
  return parse_pytorch_form(text);
}

}  // namespace tlscope::parser
