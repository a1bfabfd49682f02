// The viewer session: the connection opened once, each panel's model read through views/ the
// first time it is asked for.
#include "viewer_session.hpp"

#include <atomic>

#include "timeline_scene.hpp"

namespace tlscope::gui {
namespace {

std::atomic<uint64_t> g_next_session_id{1};

}  // namespace

std::string compile_key(std::string_view compile_id, int64_t rank) {
  std::string key(compile_id);
  return rank >= 0 ? key + "@r" + std::to_string(rank) : key;
}

std::string compile_key(const views::CompileRow& c) {
  return compile_key(c.compile_id, c.rank);
}

views::Result<std::shared_ptr<ViewerSession>> ViewerSession::open(const std::string& db_path,
                                                                  const ViewerOptions& options) {
  views::Result<std::shared_ptr<ViewerSession>> r;
  auto db = std::make_shared<const views::Database>(db_path);
  if (std::string refused = db->not_tlscope_reason(); !refused.empty()) {
    r.fail(refused);
    return r;
  }
  r.value.reset(new ViewerSession(db_path, std::move(db), options));
  return r;
}

ViewerSession::ViewerSession(std::string db_path, std::shared_ptr<const views::Database> db,
                             const ViewerOptions& options)
    : db_path_(std::move(db_path)),
      db_(std::move(db)),
      options_(options),
      id_(g_next_session_id++) {
  auto env = views::load_run_environment(*db_);
  if (!env.ok()) load_problems_.push_back(env.error);
  environment_ = std::move(env.value);
}

ViewerSession::~ViewerSession() = default;

template <typename T, typename Load>
const T& ViewerSession::cached(std::optional<T>& slot, Load load) {
  if (!slot) {
    auto r = load();
    if (!r.ok()) load_problems_.push_back(r.error);
    slot = std::move(r.value);
  }
  return *slot;
}

const views::Summary& ViewerSession::summary() {
  return cached(summary_, [&] { return views::load_summary(*db_); });
}

const FindingList& ViewerSession::findings() {
  if (findings_) return *findings_;
  findings_ = std::make_unique<FindingList>();
  FindingList& f = *findings_;
  auto findings = views::load_findings(*db_);
  if (!findings.ok()) load_problems_.push_back(findings.error);
  f.findings = std::move(findings.value);
  auto places = views::load_finding_places(*db_);
  if (!places.ok()) load_problems_.push_back(places.error);
  f.places = std::move(places.value);
  for (const auto& group : f.findings.groups)
    for (const auto& row : group.rows) f.order.push_back({&row, &group, nullptr});
  for (const auto& row : f.findings.unknown) f.order.push_back({&row, nullptr, nullptr});
  for (auto& entry : f.order) {
    auto at = f.places.find(entry.row->id);
    if (at != f.places.end()) entry.place = &at->second;
  }
  return f;
}

const views::CompileTree& ViewerSession::compile_tree() {
  return cached(compile_tree_, [&] { return views::load_compile_tree(*db_); });
}

const std::vector<views::IngestErrorRow>& ViewerSession::ingest_errors() {
  return cached(ingest_errors_, [&] {
    auto page = views::load_ingest_errors(*db_, views::Page{0, kMaxErrors});
    views::Result<std::vector<views::IngestErrorRow>> rows;
    rows.error = std::move(page.error);
    rows.value = std::move(page.value.rows);
    return rows;
  });
}

const views::OccurrenceGroups& ViewerSession::occurrences(views::OccurrenceList list) {
  auto at = occurrences_.find(list);
  if (at != occurrences_.end()) return at->second;
  auto r = views::load_occurrence_groups(*db_, list);
  if (!r.ok()) load_problems_.push_back(r.error);
  return occurrences_.emplace(list, std::move(r.value)).first->second;
}

const views::CacheTotals& ViewerSession::cache_totals() {
  return cached(cache_totals_, [&] { return views::load_cache_totals(*db_); });
}

const views::RankDivergence& ViewerSession::divergence() {
  return cached(divergence_, [&] { return views::load_rank_divergence(*db_); });
}

const views::CollectiveParity& ViewerSession::collective_parity() {
  return cached(collective_parity_, [&] { return views::load_collective_parity(*db_); });
}

const views::GraphRuntimes& ViewerSession::graph_runtimes() {
  return cached(graph_runtimes_, [&] { return views::load_graph_runtimes(*db_); });
}

const views::TensorSnapshots& ViewerSession::tensor_snapshots() {
  return cached(snapshots_, [&] { return views::load_tensor_snapshots(*db_); });
}

const views::TensorLayouts& ViewerSession::tensor_layouts() {
  return cached(layouts_, [&] { return views::load_tensor_layouts(*db_); });
}

const std::vector<views::TensorRow>& ViewerSession::tensors() {
  return cached(tensors_, [&] { return views::load_tensors(*db_); });
}

const views::ExportReport& ViewerSession::export_report() {
  return cached(export_report_, [&] { return views::load_export_report(*db_); });
}

const views::CompilePhases& ViewerSession::compile_phases() {
  return cached(compile_phases_, [&] { return views::load_compile_phases(*db_); });
}

const views::VllmReport& ViewerSession::vllm() {
  return cached(vllm_, [&] { return views::load_vllm(*db_); });
}

std::shared_ptr<TimelineScene> ViewerSession::timeline_scene() {
  if (!timeline_scene_) timeline_scene_ = load_timeline_scene(*db_);
  return timeline_scene_;
}

const views::CompileRow* ViewerSession::find_compile(std::string_view key) {
  const bool with_rank = key.find("@r") != std::string_view::npos;
  for (const auto& c : compile_tree().compiles) {
    if (with_rank ? compile_key(c) == key : c.compile_id == key) return &c;
  }
  return nullptr;
}

views::Status ViewerSession::check_compile(std::string_view key) {
  views::Status r;
  if (!find_compile(key)) r.fail("no compile " + std::string(key) + " in this database");
  return r;
}

}  // namespace tlscope::gui
