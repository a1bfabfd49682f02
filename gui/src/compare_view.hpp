// The viewer's compare mode (`tlscope gui --compare A B`): two runs open at once, drawn from the
// one comparison model of views/compare.hpp. The differences list (the rows `tlscope compare`
// prints, in its order), the compile lists aligned (a frame's compiles side by side, a compile only
// one run made on its side alone, each row marked with a tag per kind of difference the model
// says it is about, with the sentences as its tooltip, and a filter to only such rows; the
// differences about no row, e.g. environment and collectives, in a strip above the rows) and
// the two runs' timelines stacked on one time axis (each run starts at 0). Selecting a compile of
// either run selects its match in the other; clicking a difference selects what it is about.
// Nothing here decides what differs or words it: that is views::compare_runs and difference_text.
// Each run is a viewer session of its own (viewer_session.hpp): its connection, its models, its
// selection (a zone clicked on one run's timeline is that run's).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "selection.hpp"
#include "timeline_panel.hpp"
#include "tlscope/views/compare.hpp"
#include "viewer_session.hpp"

namespace tlscope::gui {

// Both runs and their comparison, read once the two opens are done.
struct CompareRuns {
  std::shared_ptr<ViewerSession> a, b;
  std::string title_a, title_b;
  views::Comparison comparison;
  std::string error;  // compare_runs failed: the lists are empty and this says why
};

// Reads the comparison of the two runs' databases (through their sessions' connections).
CompareRuns compare_runs(std::shared_ptr<ViewerSession> a, std::shared_ptr<ViewerSession> b,
                         std::string title_a, std::string title_b);

class CompareView {
 public:
  explicit CompareView(CompareRuns runs);

  // The whole compare layout into the current window: differences | aligned compiles over the
  // stacked timelines | details, `height` pixels tall.
  void draw(float height);
  // --select in compare mode: "compile:KEY" (a compile of A, as the compile panel names it, or
  // "b:KEY" for one of B), "difference:K" (1-based, in the differences list's order) or
  // "only-differences" (the filter on: only the rows with a difference). An error saying why when
  // there is no such item.
  views::Status select(std::string_view what);

  ViewerSession& run_a() const { return *runs_.a; }
  ViewerSession& run_b() const { return *runs_.b; }

 private:
  void draw_differences(float width, float height);
  // The run-wide differences (environment, collectives, compile time per phase, what no row
  // holds) as marks above the aligned rows.
  void draw_run_marks();
  void draw_aligned(float width, float height);
  void draw_frame_row(size_t frame);
  void draw_compile_row(size_t row);
  void draw_compile_cell(ViewerSession& run, const std::optional<std::string>& id, int64_t rank,
                         const char* kind, bool selected, size_t row);
  void draw_timelines(float width, float height);
  void draw_details(float width, float height);
  void describe_compile(const char* side, ViewerSession& run, const std::optional<std::string>& id,
                        int64_t rank);
  // The rows the table shows: all of them, or only those with a difference.
  void filter_rows();
  void select_row(int64_t row);
  // Puts each timeline on its run's side of the selected compile (its longest phase zone) and
  // the shared axis on both.
  void focus_timelines();

  CompareRuns runs_;
  struct AlignedRow {
    bool frame;    // a frame's row, else a compile pair's
    size_t index;  // into comparison.frames or comparison.compiles
  };
  // The differences of one kind on a row (or in the run-wide strip): one marker, whose tooltip
  // is their sentences.
  struct Mark {
    views::DifferenceKind kind;
    std::vector<size_t> differences;  // indices into comparison.differences
  };
  using Marks = std::vector<Mark>;  // in kDifferenceKinds order
  // A tag per kind of `marks` (dump item `kind`, its tooltip `kind`-tip), and what `row` carries
  // as `kind`s-of; on one line ending in "+N", or wrapped over lines when `wrap`.
  void draw_marks(const Marks& marks, const std::string& row, const char* kind, bool wrap = false);

  std::vector<AlignedRow> all_rows_, rows_;     // every row; those shown
  std::vector<Marks> row_marks_, frame_marks_;  // per compile row, per frame (without its compiles)
  Marks run_marks_;                             // the differences no row holds
  bool only_differences_ = false;               // the filter: only rows with a difference
  int64_t selected_row_ = -1;                   // index into comparison.compiles
  int64_t selected_frame_ = -1;                 // index into comparison.frames
  int64_t selected_diff_ = -1;                  // index into comparison.differences
  bool scroll_to_row_ = false;
  // Each run's timeline panel, drawing its run's session.
  TimelinePanel timeline_a_, timeline_b_;
  std::optional<TimeRange> shared_range_;  // the one axis both timelines show
  int zone_a_ = -1, zone_b_ = -1;          // the selected compile's zone on each timeline
};

}  // namespace tlscope::gui
