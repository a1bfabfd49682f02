// tlscope-sample: runs a named scenario of the sample runtime and writes TORCH_TRACE logs plus
// truth.json into --out (else $TORCH_TRACE, else ./tlscope-trace).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>

#include "tlrt/scenario.hpp"

int main(int argc, char** argv) {
  CLI::App app{"tlscope-sample: run a sample-runtime scenario and write its TORCH_TRACE logs"};
  std::string scenario;
  tlrt::ScenarioOptions o;
  std::string out;
  bool list = false;
  app.add_option("scenario", scenario, "scenario name (see --list)");
  app.add_option("--out", out, "output directory (default: $TORCH_TRACE, else ./tlscope-trace)");
  app.add_option("--ranks", o.ranks, "number of ranks (distributed scenarios)");
  app.add_option("--steps", o.steps, "training steps / calls");
  app.add_option("--seed", o.seed,
                 "random seed (same seed, same logs apart from timestamps and ids)");
  app.add_option("--timeout-ms", o.timeout_ms, "collective timeout in ms (hang detection)");
  app.add_option("--desync-kind", o.desync_kind, "desync: op, shape, dtype or order")
      ->check(CLI::IsMember({"op", "shape", "dtype", "order"}));
  app.add_flag("--list", list, "list the scenarios");
  CLI11_PARSE(app, argc, argv);

  if (list) {
    for (const auto& s : tlrt::scenarios()) {
      std::printf("%-16s ranks=%d steps=%-3d %s\n", s.name.c_str(), s.default_ranks,
                  s.default_steps, s.description.c_str());
    }
    return 0;
  }
  if (scenario.empty()) {
    std::fprintf(stderr, "tlscope-sample: name a scenario (see --list)\n");
    return 2;
  }
  if (out.empty()) {
    const char* env = std::getenv("TORCH_TRACE");
    out = env && *env ? env : "tlscope-trace";
  }
  o.out_dir = out;
  try {
    tlrt::ScenarioResult r = tlrt::run_scenario(scenario, o);
    std::printf("%s: %zu log file(s), %lld records, %.2f s, truth: %s\n", scenario.c_str(),
                r.logs.size(), static_cast<long long>(r.records), r.seconds, r.truth_path.c_str());
    if (!r.compiled_matches_eager) {
      std::fprintf(stderr, "tlscope-sample: compiled results differ from eager: %s\n",
                   r.detail.c_str());
      return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tlscope-sample: %s\n", e.what());
    return 1;
  }
  return 0;
}
