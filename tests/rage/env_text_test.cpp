// env.txt against forged environment values (issue 27, item 11): a newline in a value must not
// start a line of its own, and raw control bytes (ESC) must not reach whoever reads the file.
#include <catch2/catch.hpp>

#include <sstream>

#include "tlscope/exporters/rage/environment.hpp"

using namespace tlscope::exporters::rage;

namespace {

std::string env_of(std::vector<std::pair<std::string, std::string>> variables) {
  EnvironmentOptions options;
  options.tlscope_version = "test";
  options.probe_python = false;
  options.use_process_environment = false;
  options.variables = std::move(variables);
  Redactor redactor;
  RedactionCounts counts;
  return describe_environment(options, redactor, counts);
}

}  // namespace

TEST_CASE("env.txt: a newline in a value cannot forge a line, control bytes are escaped",
          "[rage][env]") {
  std::string env = env_of({
      {"TORCH_LOGS", "+dynamo\nTORCH_VERSION=9.9.9-forged\n[python]"},
      {"CUDA_NOTE", "red \x1b[31mALERT\x1b[0m\r\x07 tab\there back\\slash"},
      {"NCCL_NAME\nTORCH_FAKE", "x"},
  });
  INFO(env);
  // No line starts with what the value tried to forge.
  std::istringstream lines(env);
  std::string line;
  int torch_logs = 0;
  while (std::getline(lines, line)) {
    CHECK(line.rfind("TORCH_VERSION=", 0) != 0);
    CHECK(line.rfind("TORCH_FAKE", 0) != 0);
    CHECK(line != "[python]");
    torch_logs += line.rfind("TORCH_LOGS=", 0) == 0;
  }
  CHECK(torch_logs == 1);
  CHECK(env.find("TORCH_LOGS=+dynamo\\nTORCH_VERSION=9.9.9-forged\\n[python]\n") !=
        std::string::npos);
  // No control byte but the line ends.
  for (char c : env) {
    unsigned char u = static_cast<unsigned char>(c);
    CHECK((c == '\n' || (u >= 0x20 && u != 0x7f)));
  }
  CHECK(env.find("CUDA_NOTE=red \\x1b[31mALERT\\x1b[0m\\r\\x07 tab\\there back\\\\slash\n") !=
        std::string::npos);
  CHECK(env.find("NCCL_NAME\\nTORCH_FAKE=x\n") != std::string::npos);
}

TEST_CASE("env.txt: a secret on the second line of a value is redacted", "[rage][env]") {
  std::string env = env_of({{"TORCH_OPTS", "first line\npassword=hunter2secret"}});
  INFO(env);
  CHECK(env.find("hunter2secret") == std::string::npos);
  CHECK(env.find("TORCH_OPTS=first line\\npassword=<redacted:secret_assignment>") !=
        std::string::npos);
}
