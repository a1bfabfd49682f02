// Independent log reader (see log_reader.hpp).
#include "log_reader.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <regex>
#include <set>

namespace check {

const JValue* JValue::get(const std::string& key) const {
  for (const auto& [k, v] : fields) {
    if (k == key) return &v;
  }
  return nullptr;
}

namespace {

struct Parser {
  const std::string& s;
  size_t i = 0;
  std::string err;
  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')) ++i;
  }
  bool fail(const std::string& e) {
    if (err.empty()) err = e + " at offset " + std::to_string(i);
    return false;
  }
  bool lit(const char* w) {
    size_t n = std::char_traits<char>::length(w);
    if (s.compare(i, n, w) != 0) return fail(std::string("expected ") + w);
    i += n;
    return true;
  }
  bool str(std::string& out) {
    if (i >= s.size() || s[i] != '"') return fail("expected string");
    ++i;
    while (i < s.size() && s[i] != '"') {
      unsigned char c = static_cast<unsigned char>(s[i]);
      if (c < 0x20) return fail("control character in string");
      if (c == '\\') {
        ++i;
        if (i >= s.size()) return fail("bad escape");
        char e = s[i];
        if (e == 'u') {
          if (i + 4 >= s.size()) return fail("bad \\u escape");
          unsigned cp = std::stoul(s.substr(i + 1, 4), nullptr, 16);
          out += cp < 0x80 ? static_cast<char>(cp) : '?';
          i += 4;
        } else {
          const char* from = "\"\\/bfnrt";
          const char* to = "\"\\/\b\f\n\r\t";
          const char* p = std::strchr(from, e);
          if (!p || !*p) return fail("bad escape");
          out += to[p - from];
        }
        ++i;
      } else {
        out += static_cast<char>(c);
        ++i;
      }
    }
    if (i >= s.size()) return fail("unterminated string");
    ++i;
    return true;
  }
  bool value(JValue& v) {
    ws();
    if (i >= s.size()) return fail("unexpected end");
    char c = s[i];
    if (c == '{') {
      v.kind = JValue::object;
      ++i;
      ws();
      if (i < s.size() && s[i] == '}') return ++i, true;
      for (;;) {
        ws();
        std::string k;
        if (!str(k)) return false;
        ws();
        if (i >= s.size() || s[i] != ':') return fail("expected ':'");
        ++i;
        JValue item;
        if (!value(item)) return false;
        v.fields.push_back(JField{k, std::move(item)});
        ws();
        if (i < s.size() && s[i] == ',') {
          ++i;
          continue;
        }
        if (i < s.size() && s[i] == '}') return ++i, true;
        return fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      v.kind = JValue::array;
      ++i;
      ws();
      if (i < s.size() && s[i] == ']') return ++i, true;
      for (;;) {
        JValue item;
        if (!value(item)) return false;
        v.items.push_back(std::move(item));
        ws();
        if (i < s.size() && s[i] == ',') {
          ++i;
          continue;
        }
        if (i < s.size() && s[i] == ']') return ++i, true;
        return fail("expected ',' or ']'");
      }
    }
    if (c == '"') {
      v.kind = JValue::string;
      return str(v.str);
    }
    if (c == 't') return v.kind = JValue::boolean, v.b = true, lit("true");
    if (c == 'f') return v.kind = JValue::boolean, lit("false");
    if (c == 'n') return v.kind = JValue::null, lit("null");
    size_t start = i;
    if (s[i] == '-') ++i;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.' ||
                            s[i] == 'e' || s[i] == 'E' || s[i] == '+' || s[i] == '-'))
      ++i;
    if (start == i || (i - start == 1 && s[start] == '-')) return fail("unexpected character");
    v.kind = JValue::number;
    v.num = std::strtod(s.c_str() + start, nullptr);
    return true;
  }
};

}  // namespace

bool parse_json(const std::string& text, JValue& out, std::string& error) {
  Parser p{text, 0, {}};
  if (!p.value(out)) {
    error = p.err;
    return false;
  }
  p.ws();
  if (p.i != text.size()) {
    error = "trailing characters at offset " + std::to_string(p.i);
    return false;
  }
  return true;
}

std::string md5(const std::string& data) {
  uint32_t k[64];
  for (int i = 0; i < 64; ++i)
    k[i] = static_cast<uint32_t>(std::floor(std::fabs(std::sin(i + 1.0)) * 4294967296.0));
  static const int r[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                            5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
                            4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                            6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
  std::string msg = data;
  uint64_t bitlen = static_cast<uint64_t>(data.size()) * 8;
  msg += static_cast<char>(0x80);
  while (msg.size() % 64 != 56) msg += '\0';
  for (int i = 0; i < 8; ++i) msg += static_cast<char>((bitlen >> (8 * i)) & 0xff);
  uint32_t h[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
  for (size_t off = 0; off < msg.size(); off += 64) {
    uint32_t w[16];
    for (int i = 0; i < 16; ++i) {
      w[i] = 0;
      for (int b = 3; b >= 0; --b)
        w[i] = (w[i] << 8) | static_cast<unsigned char>(msg[off + i * 4 + b]);
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
    for (int i = 0; i < 64; ++i) {
      uint32_t f;
      int g;
      if (i < 16) {
        f = (b & c) | ((~b) & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | ((~d) & c);
        g = (5 * i + 1) % 16;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) % 16;
      } else {
        f = c ^ (b | (~d));
        g = (7 * i) % 16;
      }
      uint32_t sum = a + f + k[i] + w[g];
      a = d;
      d = c;
      c = b;
      b = b + ((sum << r[i]) | (sum >> (32 - r[i])));
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
  }
  char out[33];
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j)
      std::snprintf(out + i * 8 + j * 2, 3, "%02x", (h[i] >> (8 * j)) & 0xff);
  }
  return std::string(out, 32);
}

namespace {
void collect_filename_refs(const JValue& v, std::vector<int>& out) {
  if (v.kind == JValue::object) {
    const JValue* f = v.get("filename");
    if (f && f->kind == JValue::number && v.has("line") && v.has("name"))
      out.push_back(static_cast<int>(f->num));
    for (const auto& [k, x] : v.fields) collect_filename_refs(x, out);
  } else if (v.kind == JValue::array) {
    for (const auto& x : v.items) collect_filename_refs(x, out);
  }
}
}  // namespace

LogCheck read_log(const std::string& path) {
  LogCheck out;
  std::ifstream in(path);
  if (!in) {
    out.errors.push_back(path + ": cannot open");
    return out;
  }
  static const std::regex header(
      R"(^V(\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{3})000 (\d+) ([^:\s]+):(\d+)\] (\{.*\})$)");
  std::string line;
  int no = 0;
  Record* open = nullptr;
  std::vector<std::string> payload_lines;
  std::set<int> strings;
  std::optional<double> rank;
  std::map<std::string, int> chromium_depth;
  auto err = [&](int n, const std::string& what) {
    out.errors.push_back(path + ":" + std::to_string(n) + ": " + what);
  };
  auto close = [&]() {
    if (!open) return;
    std::string joined;
    for (size_t i = 0; i < payload_lines.size(); ++i) joined += (i ? "\n" : "") + payload_lines[i];
    open->payload = joined;
    const JValue* hp = open->envelope.get("has_payload");
    if (payload_lines.empty()) err(open->line_no, "has_payload but no payload lines");
    if (hp && md5(joined) != hp->str) err(open->line_no, "payload MD5 mismatch");
    if (open->key == "chromium_event") {
      JValue ev;
      std::string e;
      if (!parse_json(joined, ev, e)) {
        err(open->line_no, "chromium payload is not JSON: " + e);
      } else {
        const JValue* ph = ev.get("ph");
        const JValue* name = ev.get("name");
        const JValue* ts = ev.get("ts");
        if (!ph || !name || !ts || ts->kind != JValue::number)
          err(open->line_no, "chromium event lacks ph/name/ts");
        else if (ph->str == "B")
          ++chromium_depth[name->str];
        else if (ph->str == "E" && --chromium_depth[name->str] < 0)
          err(open->line_no, "E without B for " + name->str);
        else if (ph->str != "B" && ph->str != "E" && ph->str != "i")
          err(open->line_no, "bad ph");
      }
    }
    open = nullptr;
    payload_lines.clear();
  };
  while (std::getline(in, line)) {
    ++no;
    if (!line.empty() && line[0] == '\t') {
      if (!open)
        err(no, "payload line without a has_payload header");
      else
        payload_lines.push_back(line.substr(1));
      continue;
    }
    close();
    std::smatch m;
    if (!std::regex_match(line, m, header)) {
      err(no, "header does not match the glog format");
      continue;
    }
    Record rec;
    rec.line_no = no;
    std::string e;
    if (!parse_json(m[10].str(), rec.envelope, e)) {
      err(no, "envelope is not JSON: " + e);
      continue;
    }
    static const std::set<std::string> ctx_keys = {
        "rank",        "frame_id", "frame_compile_id",    "attempt",
        "has_payload", "stack",    "compiled_autograd_id"};
    int event_keys = 0;
    for (const auto& [k, v] : rec.envelope.fields) {
      if (!ctx_keys.count(k)) {
        ++event_keys;
        rec.key = k;
      }
    }
    if (event_keys != 1) err(no, "envelope must hold exactly one event key");
    if (rec.key == "str") {
      const JValue* s = rec.envelope.get("str");
      if (!s || s->items.size() != 2 || s->items[1].kind != JValue::number)
        err(no, "bad str record");
      else
        strings.insert(static_cast<int>(s->items[1].num));
    } else {
      const JValue* r = rec.envelope.get("rank");
      if (r) {
        if (rank && *rank != r->num) err(no, "rank differs from earlier lines");
        rank = r->num;
      } else if (rank) {
        err(no, "line without rank after ranked lines");
      }
      std::vector<int> refs;
      collect_filename_refs(rec.envelope, refs);
      for (int idx : refs) {
        if (!strings.count(idx))
          err(no, "string index " + std::to_string(idx) + " used before its str record");
      }
      if (rec.envelope.has("frame_id") && !rec.envelope.has("frame_compile_id"))
        err(no, "frame_id without frame_compile_id");
    }
    const JValue* hp = rec.envelope.get("has_payload");
    rec.has_payload = hp != nullptr;
    out.records.push_back(std::move(rec));
    if (hp) open = &out.records.back();
  }
  close();
  for (const auto& [name, depth] : chromium_depth) {
    if (depth != 0) err(no, "unbalanced chromium B/E for " + name);
  }
  return out;
}

}  // namespace check
