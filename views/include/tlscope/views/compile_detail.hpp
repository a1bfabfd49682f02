// One compile's detail: its row, the compilation metrics of each attempt, the payloads it logged
// (graphs, guards, generated code, other artifacts), its input tensors and cache outcomes.
// A CompileDetailReader keeps its statements prepared, for front ends that show many compiles.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tlscope/views/compile_row.hpp"

namespace tlscope::views {

// Sections in the order front ends show them.
enum class PayloadSection { kGraphs, kGuards, kCode, kArtifacts };
inline constexpr std::pair<PayloadSection, const char*> kPayloadSections[] = {
    {PayloadSection::kGraphs, "Graphs"},
    {PayloadSection::kGuards, "Guards"},
    {PayloadSection::kCode, "Generated code"},
    {PayloadSection::kArtifacts, "Other artifacts"}};

enum class PayloadLanguage { kPython, kCpp, kPlain };

struct PayloadEntry {
  int64_t event_id = 0, line = 0, attempt = 0, payload_id = 0, size = 0;
  std::string kind, name;  // name: the artifact name, "" when the kind is the name
  PayloadSection section = PayloadSection::kArtifacts;
  PayloadLanguage language = PayloadLanguage::kPlain;
  // The envelope's subgraph_name (PyTorch 2.8+), "" when the record belongs to the compile's
  // main graph: the report and the viewer group a compile's artifacts by it.
  std::string subgraph;
  const std::string& title() const { return name.empty() ? kind : name; }
};

struct MetricsField {
  std::string name, value;
};

struct CompileMetrics {
  std::string kind;                  // compilation_metrics, bwd_compilation_metrics, ...
  std::vector<MetricsField> fields;  // non-NULL columns other than the raw json and ids
  // The record's other fields (it is kept whole): every non-null field that is not a column,
  // in the record's order, values as Python prints them, each clipped like a cell.
  std::vector<MetricsField> more_fields;
  // The names among more_fields that model::kKnownMetricsFields does not list (a newer
  // PyTorch's): shown flagged, never dropped.
  std::vector<std::string> unknown_fields;
};

struct InputTensorRow {
  int64_t attempt = 0, tensor_id = -1;
  std::string source, size, stride, dtype, device;
};

struct CacheOutcome {
  std::string cache, result;  // result: hit, miss, bypass
};

// A record without a payload of a kind no other section reads (one a newer PyTorch writes):
// shown as its metadata, so nothing a compile logged is out of sight.
struct OtherRecord {
  int64_t event_id = 0, line = 0, attempt = 0;
  std::string kind, metadata;  // metadata: the JSON as written
};

struct CompileDetail {
  CompileRow compile;
  // "compile 1/0 has no compilation_metrics: its times are unknown" when it logged none, else "".
  std::string missing_metrics;
  // What checking the guards cost, shown beside them: the guard dump's closing "Guard latency =
  // 14.50 us" line (PyTorch 2.14), else compilation_metrics' guard_latency_us; "" when neither.
  std::string guard_latency;  // status, failure (fail_type, fail_reason), recompile reason
  std::vector<CompileMetrics> metrics;
  std::vector<PayloadEntry> payloads;  // log order
  std::vector<InputTensorRow> tensors;
  std::set<std::string> inputs;  // each input tensor's input (or source) name, for logged values
  std::vector<CacheOutcome> cache;
  std::vector<OtherRecord> other_records;  // log order
};

class CompileDetailReader {
 public:
  explicit CompileDetailReader(const Database& db);
  ~CompileDetailReader();
  Result<CompileDetail> read(const CompileRow& compile);
  // A payload's text (payloads.text), read only when a front end shows it: at most `limit`
  // bytes, clipped with a note that says its size beyond that (cell_text.hpp). A payload's size
  // column may not tell (a damaged or hostile file), so a front end that highlights or draws the
  // text passes the most it can take.
  Result<std::string> payload_text(int64_t payload_id, size_t limit = SIZE_MAX);
  // Calls `use` with the whole payload text, uncopied (valid only during the call), for a front
  // end that writes it out; false with `error` set when it cannot be read.
  bool with_payload_text(int64_t payload_id, const std::function<void(std::string_view)>& use,
                         std::string& error);

 private:
  const Database& db_;
  // Fills other_records_ (see OtherRecord).
  void load_other_records(const Database& db, Result<int>& loaded);
  // The payload list of `column`'s row (the columns from `column` on), its name error in `error`.
  PayloadEntry payload_entry(const Statement& s, int column, std::string& error);
  // The payloads of `compile_row` from the window of compiles read in one statement, false when
  // the window cannot give them (then the compile's own statement runs, as it always did).
  bool window_payloads(int64_t compile_row, std::vector<PayloadEntry>& payloads);

  Statement payloads_, text_, metrics_, metrics_json_, guard_latency_;
  struct ArtifactNames;  // compile_detail.cpp
  std::unique_ptr<ArtifactNames> artifact_names_;
  size_t reads_ = 0;
  std::optional<Statement> window_;  // prepared at the second read: one compile needs none
  bool window_off_ = false;          // it failed once: every compile reads on its own from then
  int64_t window_first_ = 1, window_last_ = 0;  // the compile rows the window covers
  std::map<int64_t, std::vector<PayloadEntry>> window_rows_;
  std::string load_error_;
  using Key = std::pair<int64_t, std::string>;  // (file_id, compile_id)
  std::map<Key, std::vector<InputTensorRow>> tensors_;
  std::map<Key, std::set<std::string>> inputs_;
  std::map<Key, std::vector<CacheOutcome>> cache_;
  std::map<Key, std::vector<OtherRecord>> other_records_;  // Key's compile id without attempt
};

// One entry of a compile's directory: everything the compile logged, payload or not.
// A compile's records of one subgraph (the envelope's subgraph_name, PyTorch 2.8+): indices into
// CompileDetail::payloads, log order. Subgraphs come in the order they first appear.
struct SubgraphPayloads {
  std::string name;
  std::vector<size_t> payloads;
};
std::vector<SubgraphPayloads> payloads_by_subgraph(const CompileDetail& detail);

struct DirectoryEntry {
  int64_t event_id = 0, line = 0, attempt = 0;
  std::string kind, name, category;  // category: graph, guards, code, artifact, metrics, tensor
  int64_t payload_id = -1, payload_size = -1;
};

// Everything one compile (compiles.id) logged, in log order.
Result<std::vector<DirectoryEntry>> load_compile_directory(const Database& db, int64_t compile_row);

// One compile's detail without keeping a reader.
Result<CompileDetail> load_compile_detail(const Database& db, const CompileRow& compile);

}  // namespace tlscope::views
