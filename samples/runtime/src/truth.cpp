// truth.json collection and writing.
#include "tlrt/truth.hpp"

#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace tlrt {

void Truth::add(const std::string& section, Json entry) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [k, v] : sections_) {
    if (k == section) {
      v.push(std::move(entry));
      return;
    }
  }
  throw std::invalid_argument("unknown truth section '" + section + "'");
}

size_t Truth::count(const std::string& section) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [k, v] : sections_) {
    if (k == section) return v.as_array() ? v.as_array()->size() : 0;
  }
  return 0;
}

void Truth::write(const std::string& path, const std::string& scenario, int ranks, uint64_t seed,
                  int steps) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string out = "{\n";
  out += "  \"scenario\": " + Json(scenario).dump() + ", \"ranks\": " + std::to_string(ranks) +
         ", \"seed\": " + std::to_string(seed) + ", \"steps\": " + std::to_string(steps);
  for (const auto& [k, v] : sections_) {
    out += ",\n  \"" + k + "\": [";
    const auto* arr = v.as_array();
    for (size_t i = 0; i < arr->size(); ++i) out += (i ? ",\n    " : "\n    ") + (*arr)[i].dump();
    out += arr->empty() ? "]" : "\n  ]";
  }
  out += "\n}\n";
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw std::runtime_error(path + ": cannot write truth.json: " + std::strerror(errno));
  std::fwrite(out.data(), 1, out.size(), f);
  std::fclose(f);
}

}  // namespace tlrt
