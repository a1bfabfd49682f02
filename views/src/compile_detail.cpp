// One compile's detail. Tensors and cache outcomes are read once for all compiles when the
// reader is made, so showing thousands of compiles costs no query per compile for them.
#include "tlscope/views/compile_detail.hpp"

#include <algorithm>
#include <optional>

#include "json_read.hpp"
#include "read_rows.hpp"
#include "tlscope/model/metrics_fields.hpp"
#include "tlscope/views/cell_text.hpp"

namespace tlscope::views {

namespace {

// The compilation_metrics columns a compile's page lists, each clipped in SQL (tlscope_clip,
// cell_text.hpp), without the record's JSON, which the page does not list: the statement sorts
// a compile's records by event, and the sort copies every value it selects. With `SELECT *`, one
// record whose line held a 100 MB reason or name (in its column and in the JSON) put 1 GB in
// the sorter.
std::string listed_metrics_columns(const Database& db) {
  Statement probe = db.prepare("SELECT * FROM compilation_metrics LIMIT 0");
  std::string out;
  for (int i = 0; i < probe.column_count(); ++i) {
    std::string name(probe.column_name(i)), quoted = "\"";
    if (name == "json") continue;
    for (char c : name) quoted += c == '"' ? std::string(2, c) : std::string(1, c);
    quoted += '"';
    out += (out.empty() ? "tlscope_clip(" : ", tlscope_clip(") + quoted + ") AS " + quoted;
  }
  return out.empty() ? "*" : out;
}

// events.subgraph_name, or NULL for a database written before schema version 4.
std::string subgraph_column(const Database& db) {
  return db.has_column("events", "subgraph_name") ? "coalesce(e.subgraph_name, '')" : "''";
}

// compile_directory classifies by the real kinds and artifact names (docs/schema.md).
PayloadSection section_of(std::string_view category) {
  if (category == "graph") return PayloadSection::kGraphs;
  if (category == "code") return PayloadSection::kCode;
  if (category == "guards") return PayloadSection::kGuards;
  return PayloadSection::kArtifacts;
}

PayloadLanguage language_of(std::string_view kind, PayloadSection section,
                            std::string_view metadata) {
  if (kind == "graph_dump" && metadata.find("\"cpp\"") != std::string_view::npos)
    return PayloadLanguage::kCpp;
  return section == PayloadSection::kGraphs || section == PayloadSection::kCode
             ? PayloadLanguage::kPython
             : PayloadLanguage::kPlain;
}

}  // namespace

// compile_directory's name of an artifact, json_extract(metadata, '$.name'), read from the
// metadata the reader fetches anyway: the SQL function parsed each artifact's metadata once more
// (a quarter of the compile pages' reads on the 1 GB benchmark log). Metadata with a backslash
// (an escaped key might read differently), that is not an object, or whose name is not a string
// goes to SQLite's json_extract itself, so the name is always the view's.
struct CompileDetailReader::ArtifactNames {
  explicit ArtifactNames(const Database& db) : db_(db) {}

  std::string name(std::string_view metadata, std::string& error) {
    // Empty is NULL metadata (the reader's coalesce): json_extract gives NULL. Malformed metadata
    // never gets here: the view's category already failed on it.
    if (metadata.empty()) return {};
    simdjson::dom::element doc, name;
    if (metadata.find('\\') == std::string_view::npos && !parse_json(metadata, parser_, doc) &&
        doc.is_object()) {
      auto found = doc.get_object().at_key("name");
      if (found.error() == simdjson::NO_SUCH_FIELD) return {};
      if (!found.get(name)) {
        if (name.is_null()) return {};
        if (name.is_string()) return std::string(std::string_view(name));
      }
    }
    if (!sql_) sql_.emplace(db_.prepare("SELECT coalesce(json_extract(?1, '$.name'), '')"));
    sql_->reset();
    sql_->bind(1, metadata);
    std::string value = sql_->step() ? sql_->text(0) : std::string();
    if (!sql_->error().empty() && error.empty()) error = sql_->error();
    return value;
  }

 private:
  const Database& db_;
  simdjson::dom::parser parser_;
  std::optional<Statement> sql_;
};

CompileDetailReader::~CompileDetailReader() = default;

CompileDetailReader::CompileDetailReader(const Database& db)
    : db_(db),
      payloads_(db.prepare(
          "SELECT d.event_id, d.line, d.attempt, d.payload_id, coalesce(d.payload_size, 0), "
          "d.kind, d.category, coalesce(e.metadata, ''), " +
          subgraph_column(db) +
          " FROM compile_directory d JOIN events e ON e.id = d.event_id "
          "WHERE d.compile_row = ? AND d.payload_id IS NOT NULL ORDER BY d.event_id")),
      text_(db.prepare("SELECT text FROM payloads WHERE id = ?")),
      // A record without its own compile id (PyTorch before mid-2024) has the envelope's, with
      // the attempt it was logged at ("0/0_1" after a graph break): it belongs to compile 0/0.
      // The range ['0/0_', '0/0`') is every "0/0_N" and keeps the compile_id index usable.
      metrics_(db.prepare("SELECT " + listed_metrics_columns(db) +
                          " FROM compilation_metrics WHERE (compile_id = ?1 OR "
                          "(compile_id >= ?1 || '_' AND compile_id < ?1 || '`')) "
                          "AND file_id = ?2 ORDER BY event_id")),
      // Booleans and None as the record's Python wrote them; other values as their JSON text.
      metrics_json_(db.prepare(
          "SELECT j.key, CASE j.type WHEN 'true' THEN 'True' WHEN 'false' THEN 'False' ELSE "
          "tlscope_clip(CASE WHEN j.type IN ('object', 'array') THEN j.value ELSE j.atom END) "
          "END FROM events e, json_each(CASE WHEN json_valid(e.metadata) THEN e.metadata ELSE "
          "'{}' END) j WHERE e.id = ?1 AND j.type <> 'null' ORDER BY j.id")),
      // The line is the dump's last: searched from where it starts, never copied whole.
      guard_latency_(db.prepare(
          "SELECT substr(text, instr(text, 'Guard latency = ') + 16, 40) FROM payloads WHERE id "
          "= ?1 AND instr(text, 'Guard latency = ') > 0")),
      artifact_names_(std::make_unique<ArtifactNames>(db)) {
  Result<int> loaded;
  if (db.has_table("tensors")) {
    read_rows(db,
              "SELECT file_id, compile_id, coalesce(tensor_id, -1), coalesce(source, ''), "
              "coalesce(size, ''), coalesce(stride, ''), coalesce(dtype, ''), "
              "coalesce(device, ''), coalesce(attempt, 0), coalesce(input, source, '') "
              "FROM tensors ORDER BY id",
              loaded, [&](const Statement& t) {
                Key key{t.int64(0), t.text(1)};
                inputs_[key].insert(t.text(9));
                tensors_[key].push_back({t.int64(8), t.int64(2), t.text(3), t.text(4), t.text(5),
                                         t.text(6), t.text(7)});
              });
  }
  if (db.has_table("cache_events")) {
    read_rows(db,
              "SELECT file_id, coalesce(compile_id, ''), coalesce(cache, ''), "
              "coalesce(result, '') FROM cache_events ORDER BY id",
              loaded, [&](const Statement& c) {
                cache_[{c.int64(0), c.text(1)}].push_back({c.text(2), c.text(3)});
              });
  }
  load_other_records(db, loaded);
  load_error_ = loaded.error;
}

namespace {

// The kinds without a payload that another part of a compile's page, or another page, shows:
// the tree (dynamo_start), tensors, links, metrics, symbolic shapes, export, the timeline.
constexpr std::string_view kKindsShownElsewhere[] = {
    "str",
    "chromium_event",
    "dynamo_start",
    "describe_tensor",
    "describe_storage",
    "describe_source",
    "link",
    "compilation_metrics",
    "bwd_compilation_metrics",
    "compilation_metrics_runtime",
    "bwd_compilation_metrics_runtime",
    "aot_autograd_backward_compilation_metrics",
    "create_symbol",
    "create_unbacked_symbol",
    "symbolic_shape_specialization",
    "guard_added",
    "guard_added_fast",
    "expression_created",
    "propagate_real_tensors_provenance",
    "missing_fake_kernel",
    "mismatched_fake_kernel",
};

// "0/1_2" -> "0/1": compile pages are per compile, all attempts together.
std::string without_attempt(std::string id) {
  if (size_t u = id.find('_'); u != std::string::npos) id.resize(u);
  return id;
}

}  // namespace

void CompileDetailReader::load_other_records(const Database& db, Result<int>& loaded) {
  if (!db.has_table("events")) return;
  // The distinct kinds by one index seek each (a log has a few dozen kinds and up to millions
  // of events), then the records of the kinds nobody else shows.
  std::vector<std::string> other_kinds;
  read_rows(db,
            "WITH RECURSIVE k(kind) AS (SELECT min(kind) FROM events UNION ALL "
            "SELECT (SELECT min(kind) FROM events WHERE kind > k.kind) FROM k "
            "WHERE k.kind IS NOT NULL) SELECT kind FROM k WHERE kind IS NOT NULL",
            loaded, [&](const Statement& s) {
              std::string kind = s.text(0);
              for (std::string_view known : kKindsShownElsewhere)
                if (kind == known) return;
              other_kinds.push_back(std::move(kind));
            });
  for (const std::string& kind : other_kinds) {
    read_rows_bound(
        db,
        "SELECT file_id, compile_id, id, line, coalesce(attempt, 0), metadata FROM events "
        "WHERE kind = ?1 AND payload_id IS NULL AND compile_id IS NOT NULL ORDER BY id",
        loaded, [&](Statement& st) { st.bind(1, std::string_view(kind)); },
        [&](const Statement& s) {
          other_records_[{s.int64(0), without_attempt(s.text(1))}].push_back(
              {s.int64(2), s.int64(3), s.int64(4), kind, s.text(5)});
        });
  }
  // Log order within a compile, whatever order the kinds were read in.
  for (auto& [key, records] : other_records_)
    std::sort(records.begin(), records.end(),
              [](const OtherRecord& a, const OtherRecord& b) { return a.event_id < b.event_id; });
}

PayloadEntry CompileDetailReader::payload_entry(const Statement& s, int column,
                                                std::string& error) {
  PayloadEntry e;
  e.event_id = s.int64(column);
  e.line = s.int64(column + 1);
  e.attempt = s.int64(column + 2);
  e.payload_id = s.int64(column + 3);
  e.size = s.int64(column + 4);
  e.kind = s.text(column + 5);
  std::string_view metadata = s.text_view(column + 7);
  e.name = e.kind == "artifact" ? artifact_names_->name(metadata, error) : e.kind;
  e.section = section_of(s.text_view(column + 6));
  e.language = language_of(e.kind, e.section, metadata);
  e.subgraph = s.text(column + 8);
  return e;
}

// Front ends read compiles in row order (the compile tree lists them so), and each run of the
// directory statement builds its IN lists' tables anew (a sixth of the compile pages' reads of
// the 4-rank log): one run for a window of kWindowRows compile rows serves them all.
constexpr int64_t kWindowRows = 64;

bool CompileDetailReader::window_payloads(int64_t compile_row,
                                          std::vector<PayloadEntry>& payloads) {
  if (window_off_ || ++reads_ < 2) return false;
  if (compile_row < window_first_ || compile_row > window_last_) {
    if (!window_)
      window_.emplace(db_.prepare(
          "SELECT d.compile_row, d.event_id, d.line, d.attempt, d.payload_id, "
          "coalesce(d.payload_size, 0), d.kind, d.category, coalesce(e.metadata, ''), " +
          subgraph_column(db_) +
          " FROM compile_directory d JOIN events e ON e.id = d.event_id "
          "WHERE d.compile_row BETWEEN ?1 AND ?2 AND d.payload_id IS NOT NULL "
          "ORDER BY d.compile_row, d.event_id"));
    window_rows_.clear();
    // Forward from the row, or back from it when the reader moves backwards (a viewer).
    bool backwards = compile_row < window_first_ && window_last_ >= window_first_;
    window_first_ = backwards ? compile_row - kWindowRows + 1 : compile_row;
    window_last_ = window_first_ + kWindowRows - 1;
    window_->reset();
    window_->bind(1, window_first_).bind(2, window_last_);
    std::string name_error;
    while (window_->step())
      window_rows_[window_->int64(0)].push_back(payload_entry(*window_, 1, name_error));
    // Any failure: the compiles read one by one, so each fails (or not) as it did alone.
    if (!window_->ok() || !window_->error().empty() || !name_error.empty()) {
      window_off_ = true;
      window_rows_.clear();
      return false;
    }
  }
  auto it = window_rows_.find(compile_row);
  if (it != window_rows_.end()) payloads = it->second;  // a copy: a viewer may read it again
  return true;
}

Result<CompileDetail> CompileDetailReader::read(const CompileRow& compile) {
  Result<CompileDetail> out;
  CompileDetail& d = out.value;
  d.compile = compile;
  out.fail(load_error_);
  if (!payloads_.ok()) out.fail(payloads_.error());
  if (metrics_.ok()) {
    metrics_.reset();
    metrics_.bind(1, compile.compile_id).bind(2, compile.file_id);
    while (metrics_.step()) {
      CompileMetrics m;
      std::set<std::string, std::less<>> columns;
      int64_t event_id = -1;
      for (int i = 0; i < metrics_.column_count(); ++i) {
        std::string_view name = metrics_.column_name(i);
        columns.emplace(name);
        if (name == "kind") m.kind = metrics_.text(i);
        if (name == "event_id") event_id = metrics_.int64_or(i, -1);
        if (metrics_.is_null(i) || name == "json" || name == "event_id" || name == "file_id")
          continue;
        m.fields.push_back({std::string(name), metrics_.text(i)});
      }
      if (metrics_json_.ok() && event_id >= 0) {
        metrics_json_.reset();
        metrics_json_.bind(1, event_id);
        while (metrics_json_.step()) {
          std::string name = metrics_json_.text(0);
          if (columns.count(name)) continue;
          if (!model::is_known_metrics_field(name)) m.unknown_fields.push_back(name);
          m.more_fields.push_back({std::move(name), metrics_json_.text(1)});
        }
        if (!metrics_json_.error().empty()) out.fail(metrics_json_.error());
      }
      d.metrics.push_back(std::move(m));
    }
    if (!metrics_.error().empty()) out.fail(metrics_.error());
  }
  if (compile.status == "no_metrics")
    d.missing_metrics =
        "compile " + compile.compile_id + " has no compilation_metrics: its times are unknown";
  if (payloads_.ok() && !window_payloads(compile.row, d.payloads)) {
    payloads_.reset();
    payloads_.bind(1, compile.row);
    std::string name_error;
    while (payloads_.step()) d.payloads.push_back(payload_entry(payloads_, 0, name_error));
    if (!name_error.empty()) out.fail(name_error);
    if (!payloads_.error().empty()) out.fail(payloads_.error());
  }
  for (const PayloadEntry& p : d.payloads) {
    if (p.kind != "dynamo_cpp_guards_str" || !guard_latency_.ok()) continue;
    guard_latency_.reset();
    guard_latency_.bind(1, p.payload_id);
    if (guard_latency_.step()) {
      std::string rest = guard_latency_.text(0);
      size_t end = rest.find_first_of("\r\n");
      if (end != std::string::npos) rest.resize(end);
      d.guard_latency = rest;
    }
    if (!guard_latency_.error().empty()) out.fail(guard_latency_.error());
  }
  if (d.guard_latency.empty()) {
    for (const CompileMetrics& m : d.metrics)
      for (const MetricsField& f : m.more_fields)
        if (f.name == "guard_latency_us") d.guard_latency = f.value + " us";
  }
  Key key{compile.file_id, compile.compile_id};
  if (auto it = tensors_.find(key); it != tensors_.end()) d.tensors = it->second;
  if (auto it = inputs_.find(key); it != inputs_.end()) d.inputs = it->second;
  if (auto it = cache_.find(key); it != cache_.end()) d.cache = it->second;
  if (auto it = other_records_.find(key); it != other_records_.end()) d.other_records = it->second;
  return out;
}

Result<std::string> CompileDetailReader::payload_text(int64_t payload_id, size_t limit) {
  Result<std::string> out;
  std::string error;
  if (!with_payload_text(
          payload_id, [&](std::string_view text) { out.value = clip_cell_text(text, limit); },
          error))
    out.fail(error);
  return out;
}

bool CompileDetailReader::with_payload_text(int64_t payload_id,
                                            const std::function<void(std::string_view)>& use,
                                            std::string& error) {
  if (!text_.ok()) {
    error = text_.error();
    return false;
  }
  text_.reset();
  text_.bind(1, payload_id);
  const bool found = text_.step();
  if (found)
    use(text_.text_view(0));
  else
    error = text_.error().empty() ? db_.path() + ": no payload " + std::to_string(payload_id)
                                  : text_.error();
  // SQLite keeps the row's text until the statement is reset: a large payload is let go now.
  text_.reset();
  return found;
}

Result<std::vector<DirectoryEntry>> load_compile_directory(const Database& db,
                                                           int64_t compile_row) {
  Result<std::vector<DirectoryEntry>> out;
  read_rows_bound(
      db,
      "SELECT event_id, line, attempt, kind, coalesce(name, kind), category, payload_id, "
      "payload_size FROM compile_directory WHERE compile_row = ?1 ORDER BY event_id",
      out, [&](Statement& s) { s.bind(1, compile_row); },
      [&](const Statement& s) {
        out.value.push_back({s.int64(0), s.int64(1), s.int64(2), s.text(3), s.text(4), s.text(5),
                             s.int64_or(6, -1), s.int64_or(7, -1)});
      });
  return out;
}

Result<CompileDetail> load_compile_detail(const Database& db, const CompileRow& compile) {
  return CompileDetailReader(db).read(compile);
}

std::vector<SubgraphPayloads> payloads_by_subgraph(const CompileDetail& detail) {
  std::vector<SubgraphPayloads> out;
  for (size_t i = 0; i < detail.payloads.size(); ++i) {
    const std::string& name = detail.payloads[i].subgraph;
    if (name.empty()) continue;
    auto it = std::find_if(out.begin(), out.end(),
                           [&](const SubgraphPayloads& s) { return s.name == name; });
    if (it == out.end()) it = out.insert(out.end(), SubgraphPayloads{name, {}});
    it->payloads.push_back(i);
  }
  return out;
}

}  // namespace tlscope::views
