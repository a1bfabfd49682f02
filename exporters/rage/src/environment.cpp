// env.txt: build, machine and relevant environment variables (see environment.hpp).
#include "tlscope/exporters/rage/environment.hpp"

#include <sqlite3.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include <simdjson.h>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <thread>

extern char** environ;

namespace tlscope::exporters::rage {
namespace {

std::string first_line_with(const char* path, std::string_view key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) == 0) {
      size_t colon = line.find(':');
      if (colon == std::string::npos) return line;
      size_t start = line.find_first_not_of(" \t", colon + 1);
      return start == std::string::npos ? "" : line.substr(start);
    }
  }
  return "";
}

std::string os_release() {
  std::string pretty = first_line_with("/etc/os-release", "PRETTY_NAME=");
  if (pretty.empty()) return "unknown";
  std::ifstream in("/etc/os-release");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      std::string v = line.substr(12);
      v.erase(std::remove(v.begin(), v.end(), '"'), v.end());
      return v;
    }
  }
  return "unknown";
}

// Runs a fixed command (no user input reaches the shell) and returns its trimmed output.
std::string command_output(const char* command) {
  std::FILE* p = popen(command, "r");
  if (!p) return "";
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0 && out.size() < 64 * 1024) out.append(buf, n);
  pclose(p);
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

}  // namespace

bool is_relevant_env_name(std::string_view name) {
  static constexpr std::string_view kPrefixes[] = {
      "TORCH",         "PYTORCH",     "CUDA",    "NCCL",   "PYTHON", "OMP_",  "MKL_",
      "CUBLAS",        "CUDNN",       "NVIDIA_", "HIP",    "ROCM",   "HSA_",  "TRITON",
      "GLOO_",         "TLSCOPE",     "KINETO",  "CONDA_", "HF_",    "NVTE_", "XLA_",
      "TRANSFORMERS_", "ACCELERATE_", "TP_",     "FI_",    "UCX_",   "LD_"};
  static constexpr std::string_view kNames[] = {
      "PATH",         "VIRTUAL_ENV", "MASTER_ADDR",      "MASTER_PORT", "WORLD_SIZE",
      "RANK",         "LOCAL_RANK",  "LOCAL_WORLD_SIZE", "GROUP_RANK",  "CC",
      "CXX",          "LANG",        "LC_ALL",           "TZ",          "SLURM_JOB_ID",
      "SLURM_NTASKS", "SLURM_PROCID"};
  for (auto p : kPrefixes)
    if (name.substr(0, p.size()) == p) return true;
  for (auto n : kNames)
    if (name == n) return true;
  return false;
}

std::string describe_environment(const EnvironmentOptions& options, Redactor& redactor,
                                 RedactionCounts& counts) {
  std::string out;
  auto line = [&](std::string_view key, std::string value) {
    redactor.redact_line(value, counts);
    redactor.end_block();
    out.append(key);
    out += ": ";
    out += value;
    out += '\n';
  };
  out += "# tlscope rage: environment\n\n[tlscope]\n";
  line("version", options.tlscope_version);
#if defined(__clang__)
  line("compiler", std::string("clang ") + __clang_version__);
#elif defined(__GNUC__)
  line("compiler", std::string("gcc ") + __VERSION__);
#endif
  line("c++ standard", std::to_string(__cplusplus));
  line("sqlite", sqlite3_libversion());
  line("zlib", zlibVersion());
  line("simdjson", std::to_string(simdjson::SIMDJSON_VERSION_MAJOR) + "." +
                       std::to_string(simdjson::SIMDJSON_VERSION_MINOR) + "." +
                       std::to_string(simdjson::SIMDJSON_VERSION_REVISION));
  for (const std::string& v : options.extra_versions) {
    size_t sp = v.find(' ');
    line(v.substr(0, sp), sp == std::string::npos ? "" : v.substr(sp + 1));
  }

  out += "\n[machine]\n";
  struct utsname u {};
  if (uname(&u) == 0) {
    line("kernel", std::string(u.sysname) + " " + u.release + " " + u.version);
    line("architecture", u.machine);
  }
  line("os", os_release());
  line("cpus (online)", std::to_string(std::thread::hardware_concurrency()));
  std::string model = first_line_with("/proc/cpuinfo", "model name");
  if (!model.empty()) line("cpu model", model);
  std::string mem = first_line_with("/proc/meminfo", "MemTotal");
  if (!mem.empty()) line("memory", mem);
  std::string libc = command_output("getconf GNU_LIBC_VERSION 2>/dev/null");
  if (!libc.empty()) line("libc", libc);

  if (options.probe_python) {
    out += "\n[python]\n";
    std::string py = command_output("timeout 20 python3 --version 2>&1");
    line("python3", py.empty() ? "not found" : py);
    if (!py.empty()) {
      std::string torch = command_output(
          "timeout 20 python3 -c \"import torch; print(torch.__version__, "
          "'cuda', torch.version.cuda, 'available', torch.cuda.is_available())\" 2>&1 | tail -n 1");
      line("torch", torch.empty() ? "not importable" : torch);
    }
    std::string smi = command_output(
        "timeout 20 nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null");
    line("gpus (nvidia-smi)", smi.empty() ? "none found" : smi);
  }

  std::vector<std::pair<std::string, std::string>> vars = options.variables;
  if (options.use_process_environment && vars.empty()) {
    for (char** e = environ; e && *e; ++e) {
      std::string_view kv(*e);
      size_t eq = kv.find('=');
      if (eq == std::string_view::npos) continue;
      vars.emplace_back(std::string(kv.substr(0, eq)), std::string(kv.substr(eq + 1)));
    }
  }
  std::sort(vars.begin(), vars.end());
  out += "\n[environment variables]\n";
  out +=
      "# only variables that affect PyTorch/CUDA/NCCL/Python runs; secret-named ones are "
      "redacted\n";
  for (auto& [name, value] : vars) {
    if (!is_relevant_env_name(name)) continue;
    std::string v = value;
    if (is_secret_env_name(name)) {
      counts.add(SecretKind::kSecretEnvVar);
      v = "<redacted:" + std::string(to_string(SecretKind::kSecretEnvVar)) + ">";
    } else {
      redactor.redact_line(v, counts);
      redactor.end_block();
    }
    out += name;
    out += '=';
    out += v;
    out += '\n';
  }
  return out;
}

}  // namespace tlscope::exporters::rage
