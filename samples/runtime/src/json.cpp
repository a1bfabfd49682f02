// Python-compatible JSON text (see json.hpp).
#include "tlrt/json.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace tlrt {

Json& Json::set(std::string key, Json value) {
  if (!std::holds_alternative<Object>(v_)) v_ = Object{};
  std::get<Object>(v_).emplace_back(std::move(key), std::move(value));
  return *this;
}

Json& Json::push(Json value) {
  if (!std::holds_alternative<Array>(v_)) v_ = Array{};
  std::get<Array>(v_).push_back(std::move(value));
  return *this;
}

std::string python_float(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  char buf[64];
  if (d == std::floor(d) && std::fabs(d) < 1e16) {
    std::snprintf(buf, sizeof buf, "%.1f", d);
    return buf;
  }
  // Python switches to exponent form at 1e16 and below 1e-4; to_chars' shortest form is close
  // enough for the values the runtime writes (timestamps, durations, tensor values).
  auto r = std::to_chars(buf, buf + sizeof buf, d);
  return std::string(buf, r.ptr);
}

static void append_u16(std::string& out, unsigned cp) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\u%04x", cp);
  out += buf;
}

void append_json_string(std::string& out, const std::string& s) {
  out += '"';
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"':
        out += "\\\"";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case '\t':
        out += "\\t";
        continue;
      case '\b':
        out += "\\b";
        continue;
      case '\f':
        out += "\\f";
        continue;
      default:
        break;
    }
    if (c < 0x20) {
      append_u16(out, c);
    } else if (c < 0x80) {
      out += static_cast<char>(c);
    } else {
      // Decode one UTF-8 sequence; invalid bytes become U+FFFD so the line stays pure ASCII.
      unsigned cp = 0xFFFD;
      int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : -1;
      if (extra > 0 && i + extra < s.size() + 0) {
        cp = c & (0x3F >> extra);
        bool ok = true;
        for (int k = 1; k <= extra; ++k) {
          unsigned char cc = static_cast<unsigned char>(s[i + k]);
          if ((cc & 0xC0) != 0x80) ok = false;
          cp = (cp << 6) | (cc & 0x3F);
        }
        if (ok) {
          i += extra;
        } else {
          cp = 0xFFFD;
        }
      }
      if (cp >= 0x10000) {
        cp -= 0x10000;
        append_u16(out, 0xD800 + (cp >> 10));
        append_u16(out, 0xDC00 + (cp & 0x3FF));
      } else {
        append_u16(out, cp);
      }
    }
  }
  out += '"';
}

void Json::write(std::string& out, bool indent0) const {
  const char* sep = indent0 ? ",\n" : ", ";
  if (std::holds_alternative<std::nullptr_t>(v_)) {
    out += "null";
  } else if (auto* b = std::get_if<bool>(&v_)) {
    out += *b ? "true" : "false";
  } else if (auto* i = std::get_if<int64_t>(&v_)) {
    out += std::to_string(*i);
  } else if (auto* d = std::get_if<double>(&v_)) {
    out += python_float(*d);
  } else if (auto* s = std::get_if<std::string>(&v_)) {
    append_json_string(out, *s);
  } else if (auto* a = std::get_if<Array>(&v_)) {
    if (a->empty()) {
      out += "[]";
      return;
    }
    out += indent0 ? "[\n" : "[";
    for (size_t k = 0; k < a->size(); ++k) {
      if (k) out += sep;
      (*a)[k].write(out, indent0);
    }
    out += indent0 ? "\n]" : "]";
  } else if (auto* o = std::get_if<Object>(&v_)) {
    if (o->empty()) {
      out += "{}";
      return;
    }
    out += indent0 ? "{\n" : "{";
    for (size_t k = 0; k < o->size(); ++k) {
      if (k) out += sep;
      append_json_string(out, (*o)[k].first);
      out += ": ";
      (*o)[k].second.write(out, indent0);
    }
    out += indent0 ? "\n}" : "}";
  }
}

std::string Json::dump() const {
  std::string out;
  write(out, false);
  return out;
}

std::string Json::dump_indent0() const {
  std::string out;
  write(out, true);
  return out;
}

}  // namespace tlrt
