// env.txt: build, machine and relevant environment variables (see environment.hpp).
#include "tlscope/exporters/rage/environment.hpp"

#include <gnu/libc-version.h>
#include <sqlite3.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include <simdjson.h>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <thread>

#include "probe_command.hpp"

extern char** environ;

namespace tlscope::exporters::rage {
namespace {

std::string last_line(const std::string& text) {
  size_t nl = text.rfind('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

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

// What env.txt says about a probe that did not answer; `missing` when it is not installed.
std::string probe_problem(const ProbeResult& r, double timeout, const std::string& missing) {
  char buf[64];
  switch (r.status) {
    case ProbeResult::Status::kNotFound:
      return missing;
    case ProbeResult::Status::kTimedOut:
      std::snprintf(buf, sizeof buf, "timed out after %g s", timeout);
      return buf;
    case ProbeResult::Status::kFailed:
    case ProbeResult::Status::kOk:
      break;
  }
  return "failed (exit " + std::to_string(r.exit_code) + ")" +
         (r.output.empty() ? "" : ": " + last_line(r.output));
}

// env.txt is one `key: value` or `NAME=value` a line, read by people and by scripts: a value
// holding a newline could forge lines of its own (a fake `TORCH_VERSION=` or a whole section),
// and raw control bytes (ESC) would drive the terminal of whoever cats the file. So every
// control byte and the backslash are written as C escapes (\n, \r, \t, \\, \xHH).
std::string escaped_env_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    switch (c) {
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
      default:
        break;
    }
    if (u < 0x20 || u == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
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
    redactor.redact_text(value, counts);  // a value with newlines: each line as a line
    out.append(escaped_env_text(key));
    out += ": ";
    out += escaped_env_text(value);
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
  line("libc", std::string("glibc ") + gnu_get_libc_version());

  if (options.probe_python) {
    out += "\n[python]\n";
    double timeout = options.probe_timeout_seconds;
    ProbeResult py = run_probe({options.python, "--version"}, timeout);
    bool have_python = py.status == ProbeResult::Status::kOk && !py.output.empty();
    line("python3", have_python ? py.output : probe_problem(py, timeout, "not found"));
    if (have_python) {
      ProbeResult torch = run_probe(
          {options.python, "-c",
           "import torch; print(torch.__version__, 'cuda', torch.version.cuda, 'available', "
           "torch.cuda.is_available())"},
          timeout);
      bool ok = torch.status == ProbeResult::Status::kOk && !torch.output.empty();
      line("torch", ok ? last_line(torch.output)
                    : torch.status == ProbeResult::Status::kFailed
                        ? "not importable: " + last_line(torch.output)
                        : probe_problem(torch, timeout, "not importable"));
    }
    ProbeResult smi = run_probe(
        {options.nvidia_smi, "--query-gpu=name,driver_version", "--format=csv,noheader"}, timeout);
    bool gpus = smi.status == ProbeResult::Status::kOk && !smi.output.empty();
    line("gpus (nvidia-smi)", gpus ? smi.output
                              : smi.status == ProbeResult::Status::kTimedOut
                                  ? probe_problem(smi, timeout, "")
                                  : "none found");
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
    std::string v;
    if (is_secret_env_name(name)) {
      counts.add(SecretKind::kSecretEnvVar);
      v = "<redacted:" + std::string(to_string(SecretKind::kSecretEnvVar)) + ">";
    } else {
      // Redacted with its name in front, so the rules that read `NAME=value` see both
      // (MASTER_ADDR=user:password@host, a secret-named suffix the env rule does not know).
      std::string assignment = name + "=" + value;
      redactor.redact_text(assignment, counts);
      v = assignment.compare(0, name.size() + 1, name + "=") == 0
              ? assignment.substr(name.size() + 1)
              : "<redacted:" + std::string(to_string(SecretKind::kSecretEnvVar)) + ">";
    }
    out += escaped_env_text(name);
    out += '=';
    out += escaped_env_text(v);
    out += '\n';
  }
  return out;
}

}  // namespace tlscope::exporters::rage
