// The run on screen: one session per open database (two in compare mode). It owns the one read
// connection, the run's identity (database path, environment, how it was opened), the current
// selection with its history, and each panel's view model, read through views/ the first time a
// panel asks for it and kept for the session's life. Panels take the session and ask it for their
// own model; none reaches into another panel's state.
//
// Threads: a session is made and first read on the open's thread (open_job.cpp reads there what
// the first frame draws: the navigation's counts and the summary, the timeline scene among them),
// then handed to the UI thread, which alone uses it from then on. A model no first frame needs
// (ingest error rows, describe_tensor rows, the ranks panel's parity sections: tens of ms on the
// 1 GB log) is read on the UI thread when its panel first draws.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "selection.hpp"
#include "tlscope/gui/viewer.hpp"
#include "tlscope/views/collective_parity.hpp"
#include "tlscope/views/compile_phases.hpp"
#include "tlscope/views/compile_tree.hpp"
#include "tlscope/views/database.hpp"
#include "tlscope/views/export_report.hpp"
#include "tlscope/views/finding_places.hpp"
#include "tlscope/views/findings.hpp"
#include "tlscope/views/graph_runtimes.hpp"
#include "tlscope/views/ingest_errors.hpp"
#include "tlscope/views/occurrences.hpp"
#include "tlscope/views/rank_divergence.hpp"
#include "tlscope/views/result.hpp"
#include "tlscope/views/run_environment.hpp"
#include "tlscope/views/summary.hpp"
#include "tlscope/views/tensor_screens.hpp"
#include "tlscope/views/timeline.hpp"
#include "tlscope/views/trace_queries.hpp"
#include "tlscope/views/vllm.hpp"

namespace tlscope::gui {

struct TimelineScene;  // timeline_scene.hpp

// One findings row in the findings order (groups most serious first, then kinds this build does
// not know), as `--select finding:K` counts them.
struct FindingEntry {
  const views::FindingRow* row = nullptr;
  const views::FindingGroup* group = nullptr;  // null for an unknown kind
  const views::FindingPlace* place = nullptr;  // null when the finding has no place row
};

// The findings panel's model: the findings, their places, and the order that points into both
// (built in place and never moved, so the pointers stay valid).
struct FindingList {
  views::Findings findings;
  std::map<int64_t, views::FindingPlace> places;
  std::vector<FindingEntry> order;
};

// What the last frame drew, counted by the panels that drew it (the viewer's FrameStats, so tests
// check the drawing, not just that a window opened).
struct DrawnCounts {
  size_t timeline_items = 0;   // timeline rectangles drawn (folded ones count once)
  size_t timeline_folded = 0;  // of which folded
  size_t timeline_zones = 0;   // zones overlapping the visible time range
  size_t tensor_cells = 0;     // tensor cells drawn (after clipping)
};

// A compile's selection key: "0/0", with "@rN" for a compile of rank N's log ("0/0@r2").
std::string compile_key(const views::CompileRow& c);
std::string compile_key(std::string_view compile_id, int64_t rank);

class ViewerSession {
 public:
  // Opens `db_path`'s read connection and reads the run's environment; an error (naming the file)
  // when it cannot be opened or is not a tlscope database.
  static views::Result<std::shared_ptr<ViewerSession>> open(const std::string& db_path,
                                                            const ViewerOptions& options);
  ~ViewerSession();
  ViewerSession(const ViewerSession&) = delete;
  ViewerSession& operator=(const ViewerSession&) = delete;

  // The run's identity.
  const std::string& db_path() const { return db_path_; }
  const views::RunEnvironment& environment() const { return environment_; }
  // How the viewer was started (the tensors panel's start-up shape, mesh and placement).
  const ViewerOptions& options() const { return options_; }
  // Differs for every session made: a panel keeps what it built for one session until it is
  // given another (an address could be reused by the next session).
  uint64_t id() const { return id_; }

  // The one read connection. Shared, so a reader a panel keeps (a compile's payload reader) can
  // hold it while what it read lives, even past the session's replacement.
  const views::Database& db() const { return *db_; }
  const std::shared_ptr<const views::Database>& connection() const { return db_; }

  // The current selection and back/forward history.
  Navigator& nav() { return nav_; }
  const Navigator& nav() const { return nav_; }

  // View models, each read on first use and kept. A loader that fails leaves its model empty and
  // its message in load_problems() (the summary shows them); the rest still shows.
  const views::Summary& summary();
  const FindingList& findings();
  const views::CompileTree& compile_tree();
  // The first kMaxErrors ingest errors (summary().errors says how many there are in all).
  const std::vector<views::IngestErrorRow>& ingest_errors();
  const views::OccurrenceGroups& occurrences(views::OccurrenceList list);
  const views::CacheTotals& cache_totals();
  const views::RankDivergence& divergence();
  const views::CollectiveParity& collective_parity();
  const views::GraphRuntimes& graph_runtimes();
  const views::TensorSnapshots& tensor_snapshots();
  const views::TensorLayouts& tensor_layouts();
  const std::vector<views::TensorRow>& tensors();
  const views::ExportReport& export_report();
  const views::CompilePhases& compile_phases();
  const views::VllmReport& vllm();
  // The timeline and find-zone panels' scene (the costliest model: on a 1 GB log it took 200 ms,
  // a frame's worth four times over, so the open reads it before the first frame).
  std::shared_ptr<TimelineScene> timeline_scene();
  const std::vector<std::string>& load_problems() const { return load_problems_; }

  // The compile a key names; a key without "@r" names the first compile with that id.
  const views::CompileRow* find_compile(std::string_view key);
  // An error naming `key` when find_compile finds no compile (a --select or click-through).
  views::Status check_compile(std::string_view key);

  // Counted by the panels as they draw, read by the viewer after the frame.
  DrawnCounts& drawn() { return drawn_; }

  static constexpr size_t kMaxErrors = 10000;

 private:
  ViewerSession(std::string db_path, std::shared_ptr<const views::Database> db,
                const ViewerOptions& options);
  // The model in `slot`, read with `load` (a views::Result) the first time.
  template <typename T, typename Load>
  const T& cached(std::optional<T>& slot, Load load);

  std::string db_path_;
  std::shared_ptr<const views::Database> db_;
  ViewerOptions options_;
  uint64_t id_;
  views::RunEnvironment environment_;
  Navigator nav_;
  std::vector<std::string> load_problems_;
  DrawnCounts drawn_;

  std::optional<views::Summary> summary_;
  std::unique_ptr<FindingList> findings_;
  std::optional<views::CompileTree> compile_tree_;
  std::optional<std::vector<views::IngestErrorRow>> ingest_errors_;
  std::map<views::OccurrenceList, views::OccurrenceGroups> occurrences_;
  std::optional<views::CacheTotals> cache_totals_;
  std::optional<views::RankDivergence> divergence_;
  std::optional<views::CollectiveParity> collective_parity_;
  std::optional<views::GraphRuntimes> graph_runtimes_;
  std::optional<views::TensorSnapshots> snapshots_;
  std::optional<views::TensorLayouts> layouts_;
  std::optional<std::vector<views::TensorRow>> tensors_;
  std::optional<views::ExportReport> export_report_;
  std::optional<views::CompilePhases> compile_phases_;
  std::optional<views::VllmReport> vllm_;
  std::shared_ptr<TimelineScene> timeline_scene_;
};

}  // namespace tlscope::gui
