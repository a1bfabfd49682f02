// `tlscope tensor`: prints the matrix-of-matrices layout of a tensor shape (optionally with
// values, dim names and a device-mesh sharding) as aligned text.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "command.hpp"
#include "input_database.hpp"
#include "tensor_grid_text.hpp"
#include "terminal_text.hpp"
#include "tlscope/views/tensor_grid.hpp"
#include "tlscope/views/tensor_values.hpp"
#include "tlscope/views/trace_queries.hpp"

namespace tlscope::cli {
namespace {

struct TensorArgs {
  std::string db;
  ReadInputs inputs;
  int64_t id = -1;
  std::string compile_id;
  std::string shape;
  std::string values;
  std::string names;
  std::string mesh;
  std::string placement;
  std::string color = "auto";
  int edge_items = 3;
  int64_t threshold = 1000;
};

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(item);
  if (!s.empty() && s.back() == ',') out.push_back("");
  return out;
}

bool parse_shape(const std::string& text, std::vector<int64_t>& shape, std::string& error) {
  shape.clear();
  if (text.empty() || text == "()" || text == "[]") return true;
  std::string t = text;
  if (t.front() == '(' || t.front() == '[') t = t.substr(1, t.size() - 2);
  for (const auto& part : split_commas(t)) {
    try {
      size_t used = 0;
      long long v = std::stoll(part, &used);
      if (used != part.size() || v < 0) throw std::invalid_argument("");
      shape.push_back(v);
    } catch (const std::exception&) {
      error = "bad --shape '" + text + "': want sizes like 2,3,4";
      return false;
    }
  }
  return true;
}

int run_tensor(const TensorArgs& a) {
  views::TensorGridInput in;
  std::string error;
  std::string header;
  if (!a.db.empty()) {
    views::Database db(a.db);
    if (!db.ok()) {
      std::fprintf(stderr, "tlscope tensor: %s\n", db.error().c_str());
      return kUsageOrIo;
    }
    views::Result<std::vector<views::TensorRow>> loaded = views::load_tensors(db);
    if (!loaded.ok()) {
      std::fprintf(stderr, "tlscope tensor: %s\n", loaded.error.c_str());
      return kUsageOrIo;
    }
    const std::vector<views::TensorRow>& rows = loaded.value;
    const views::TensorRow* found = nullptr;
    size_t matches = 0;
    for (const auto& r : rows) {
      if (r.tensor_id != a.id) continue;
      if (!a.compile_id.empty() && r.compile_id != a.compile_id) continue;
      if (!found) found = &r;
      ++matches;
    }
    if (!found) {
      std::fprintf(stderr, "tlscope tensor: %s: no describe_tensor row with id %lld%s\n",
                   a.db.c_str(), static_cast<long long>(a.id),
                   a.compile_id.empty() ? "" : (" in compile " + a.compile_id).c_str());
      return kUsageOrIo;
    }
    if (!found->shape && a.shape.empty()) {
      std::fprintf(stderr, "tlscope tensor: %s: tensor %lld has size %s: %s; pass --shape\n",
                   a.db.c_str(), static_cast<long long>(a.id),
                   terminal_safe(found->size_json).c_str(),
                   terminal_safe(found->shape_error).c_str());
      return kUsageOrIo;
    }
    if (found->shape) in.shape = *found->shape;
    // Log text, each field escaped: an escape sequence or line break in a dtype must not reach
    // the terminal as one.
    header = "tensor " + std::to_string(found->tensor_id) + " (compile " +
             terminal_safe(found->compile_id) + ", rank " + std::to_string(found->rank) + ") " +
             terminal_safe(found->dtype) + " " + terminal_safe(found->device) + " size " +
             terminal_safe(found->size_json) + " stride " + terminal_safe(found->stride_json);
    if (matches > 1) {
      header += "\n(" + std::to_string(matches) + " rows match; showing event " +
                std::to_string(found->event_id) + ", narrow with --compile-id)";
    }
  }
  if (!a.shape.empty() && !parse_shape(a.shape, in.shape, error)) {
    std::fprintf(stderr, "tlscope tensor: %s\n", error.c_str());
    return kUsageOrIo;
  }
  bool have_shape = !a.shape.empty() || !a.db.empty();
  if (a.values.empty() || a.values == "arange") {
    if (!have_shape) {
      std::fprintf(stderr, "tlscope tensor: give --shape, --values FILE.json or DB --id N\n");
      return kUsageOrIo;
    }
    // Sharded tensors show owner tags; values only when asked for.
    in.flat_index_values = a.values == "arange" || a.mesh.empty();
  } else {
    // Only a regular file: /dev/zero or a FIFO would be read forever (or block) into memory.
    std::error_code ec;
    if (!std::filesystem::is_regular_file(a.values, ec)) {
      std::fprintf(stderr, "tlscope tensor: %s: not a regular file\n", a.values.c_str());
      return kUsageOrIo;
    }
    std::ifstream f(a.values, std::ios::binary);
    if (!f) {
      std::fprintf(stderr, "tlscope tensor: cannot read %s\n", a.values.c_str());
      return kUsageOrIo;
    }
    std::stringstream buf;
    buf << f.rdbuf();
    auto tv = views::parse_tensor_values_json(buf.str(), a.values);
    if (!tv.ok()) {
      std::fprintf(stderr, "tlscope tensor: %s\n", tv.error.c_str());
      return kUsageOrIo;
    }
    if (!have_shape) in.shape = tv->shape;
    in.values = std::move(tv->values);
  }
  if (!a.names.empty()) in.names = split_commas(a.names);
  if (!a.mesh.empty() || !a.placement.empty()) {
    views::DeviceMesh mesh;
    auto shape = views::parse_mesh_shape(a.mesh.empty() ? "1" : a.mesh);
    auto placements = views::parse_placements(a.placement.empty() ? "Replicate()" : a.placement);
    if (!shape.ok() || !placements.ok()) {
      std::fprintf(stderr, "tlscope tensor: %s\n",
                   (shape.ok() ? placements.error : shape.error).c_str());
      return kUsageOrIo;
    }
    mesh.shape = std::move(shape.value);
    mesh.placements = std::move(placements.value);
    in.mesh = mesh;
  }
  views::TensorGridOptions opts;
  opts.edge_items = a.edge_items;
  opts.summarize_threshold = a.threshold;
  auto result = views::layout_tensor_grid(in, opts);
  if (!result.grid) {
    std::fprintf(stderr, "tlscope tensor: %s\n", result.error.c_str());
    return kUsageOrIo;
  }
  TensorTextOptions text_opts;
  text_opts.color = a.color == "always" || (a.color == "auto" && isatty(STDOUT_FILENO));
  if (!header.empty()) std::printf("%s\n", header.c_str());
  std::fputs(render_tensor_grid_text(*result.grid, text_opts).c_str(), stdout);
  return kOk;
}

const CommandRegistration tensor_registration(60, [](CLI::App& app, int& exit_code) {
  auto args = std::make_shared<TensorArgs>();
  auto* cmd =
      app.add_subcommand("tensor", "Print a tensor as nested matrices (matrix-of-matrices layout)");
  add_read_inputs(cmd, args->inputs)
      ->description("A database or logs: show a describe_tensor row (with --id)");
  cmd->add_option("--id", args->id, "describe_tensor tensor_id to show (with DB)");
  cmd->add_option("--compile-id", args->compile_id, "only rows of this compile id, e.g. 0/0");
  cmd->add_option("--shape", args->shape, "sizes, e.g. 2,3,4,5 (empty or () for a scalar)");
  cmd->add_option("--values", args->values, "arange (default) or a JSON file of values");
  cmd->add_option("--names", args->names, "dim names, e.g. b,h,s,d");
  cmd->add_option("--mesh", args->mesh, "device mesh shape, e.g. 2x2");
  cmd->add_option("--placement", args->placement,
                  "one placement per mesh dim, e.g. \"Shard(0),Replicate()\"");
  cmd->add_option("--edge-items", args->edge_items, "items kept at each end of a summarised dim")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--threshold", args->threshold, "summarise when numel exceeds this");
  cmd->add_option("--color", args->color, "auto, always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  cmd->callback([args, &exit_code]() {
    bool from_database = !args->inputs.paths.empty() || !args->inputs.db.empty();
    if (from_database && args->id < 0) {
      std::fprintf(stderr, "tlscope tensor: with a database, give --id N\n");
      exit_code = kUsageOrIo;
      return;
    }
    if (from_database) {
      auto db = resolve_read_database("tensor", args->inputs);
      if (!db) {
        exit_code = kUsageOrIo;
        return;
      }
      args->db = *db;
    }
    exit_code = run_tensor(*args);
  });
});

}  // namespace
}  // namespace tlscope::cli
