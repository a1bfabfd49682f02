// Drawing the compare mode (compare_view.hpp) from views::Comparison: every text shown is either
// a run's own value (a compile id and status from its compile list) or the comparison's wording.
#include "compare_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "status_colours.hpp"
#include "tlscope/views/time_format.hpp"
#include "ui_dump.hpp"

namespace tlscope::gui {
namespace {

constexpr float kGap = 6.0f;

ImVec4 status_colour(views::FrameStatus s) {
  switch (s) {
    case views::FrameStatus::matched:
      return kColourMuted;
    case views::FrameStatus::only_a:
      return kColourWarning;
    case views::FrameStatus::only_b:
      return kColourNotice;
  }
  return kColourMuted;
}

// A marker's colour says how serious its kind is: a failure or a collective gone wrong, a
// change of what compiled, a change of what was produced, the run's setting.
ImVec4 mark_colour(views::DifferenceKind kind) {
  using K = views::DifferenceKind;
  if (kind == K::failure_added || kind == K::failure_changed) return kColourError;
  const std::string_view section = views::kind_info(kind).section;
  if (section == "collectives") return kColourError;
  if (section == "compiles" || section == "graph breaks" || section == "frames")
    return kColourWarning;
  if (section == "cache") return kColourCacheHit;
  if (section == "environment") return kColourMuted;
  return kColourNotice;  // graphs, guards, output code, compile time
}

// The row a click on a difference selects: its anchor, else the first row it holds on (a
// phase's compile time, on the compiles it comes from), else none.
int64_t first_row(const views::Difference& d) {
  if (d.compile >= 0) return d.compile;
  return d.compile_rows.empty() ? -1 : d.compile_rows.front();
}

std::string lines_text(int64_t a, int64_t b) {
  auto one = [](int64_t l) { return l >= 0 ? std::to_string(l) : std::string("-"); };
  return "lines " + one(a) + " / " + one(b);
}

}  // namespace

CompareRuns compare_runs(std::shared_ptr<ViewerSession> a, std::shared_ptr<ViewerSession> b,
                         std::string title_a, std::string title_b) {
  CompareRuns runs;
  auto c = views::compare_runs(a->db(), b->db());
  if (!c.ok()) runs.error = c.error;
  runs.comparison = std::move(c.value);
  runs.a = std::move(a);
  runs.b = std::move(b);
  runs.title_a = std::move(title_a);
  runs.title_b = std::move(title_b);
  return runs;
}

CompareView::CompareView(CompareRuns runs) : runs_(std::move(runs)) {
  const views::Comparison& c = runs_.comparison;
  // The table's rows: each frame, then its compiles (they are listed by frame, in frame order).
  size_t next = 0;
  for (size_t f = 0; f < c.frames.size(); ++f) {
    all_rows_.push_back({true, f});
    for (; next < c.compiles.size() && c.compiles[next].frame == static_cast<int64_t>(f); ++next)
      all_rows_.push_back({false, next});
  }
  // Each difference marks the rows the model says it is about (Difference::compile_rows, else
  // its frame); one about no row (environment, collectives, compile time per phase) is marked
  // in the strip above the rows.
  row_marks_.resize(c.compiles.size());
  frame_marks_.resize(c.frames.size());
  auto add = [](Marks& marks, views::DifferenceKind kind, size_t diff) {
    for (Mark& m : marks)
      if (m.kind == kind) {
        m.differences.push_back(diff);
        return;
      }
    marks.push_back({kind, {diff}});
  };
  for (size_t i = 0; i < c.differences.size(); ++i) {
    const views::Difference& d = c.differences[i];
    bool on_row = false;
    for (int64_t row : d.compile_rows)
      if (row >= 0 && static_cast<size_t>(row) < row_marks_.size()) {
        add(row_marks_[static_cast<size_t>(row)], d.kind, i);
        on_row = true;
      }
    if (on_row) continue;
    if (d.frame >= 0 && static_cast<size_t>(d.frame) < frame_marks_.size())
      add(frame_marks_[static_cast<size_t>(d.frame)], d.kind, i);
    else
      add(run_marks_, d.kind, i);
  }
  filter_rows();
}

void CompareView::filter_rows() {
  if (!only_differences_) {
    rows_ = all_rows_;
    return;
  }
  rows_.clear();
  // A frame's row stays when it or one of its compiles differs, so a compile shown is under its
  // frame.
  for (size_t i = 0; i < all_rows_.size(); ++i) {
    const AlignedRow& r = all_rows_[i];
    if (!r.frame) {
      if (!row_marks_[r.index].empty()) rows_.push_back(r);
      continue;
    }
    bool keep = !frame_marks_[r.index].empty();
    for (size_t j = i + 1; !keep && j < all_rows_.size() && !all_rows_[j].frame; ++j)
      keep = !row_marks_[all_rows_[j].index].empty();
    if (keep) rows_.push_back(r);
  }
}

void CompareView::select_row(int64_t row) {
  selected_row_ = row;
  if (row >= 0) selected_frame_ = runs_.comparison.compiles[static_cast<size_t>(row)].frame;
  scroll_to_row_ = true;
  focus_timelines();
}

void CompareView::focus_timelines() {
  zone_a_ = zone_b_ = -1;
  if (selected_row_ < 0) return;
  const views::CompilePair& p = runs_.comparison.compiles[static_cast<size_t>(selected_row_)];
  double start = INFINITY, end = -INFINITY;
  auto focus = [&](ViewerSession& run, TimelinePanel& panel, const std::optional<std::string>& id,
                   int64_t rank, int& zone) {
    const views::CompileRow* c = id ? run.find_compile(compile_key(*id, rank)) : nullptr;
    if (!c) return;
    const auto scene = run.timeline_scene();
    zone = longest_zone_of_compile(*scene, c->compile_id, c->file_id);
    if (zone < 0) return;
    panel.select(run, Selection{SelectionKind::kZone, "#" + std::to_string(zone), panel.screen()});
    const auto& iv = scene->timeline.intervals[static_cast<size_t>(zone)];
    start = std::min(start, iv.start_us);
    end = std::max(end, iv.end_us);
  };
  focus(*runs_.a, timeline_a_, p.compile_a, p.rank_a, zone_a_);
  focus(*runs_.b, timeline_b_, p.compile_b, p.rank_b, zone_b_);
  if (start > end) return;  // neither log timed the compile's phases
  TimeRange both;
  both.focus(start, end, 0.5);
  shared_range_ = both;
}

views::Status CompareView::select(std::string_view what) {
  const views::Comparison& c = runs_.comparison;
  views::Status r;
  constexpr std::string_view kDifference = "difference:", kCompile = "compile:";
  if (what.substr(0, kDifference.size()) == kDifference) {
    const std::string_view number = what.substr(kDifference.size());
    size_t k = 0;
    auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), k);
    if (ec != std::errc() || end != number.data() + number.size() || k == 0 ||
        k > c.differences.size()) {
      r.fail("no difference " + std::string(number) + " (there are " +
             std::to_string(c.differences.size()) + ")");
      return r;
    }
    const views::Difference& d = c.differences[k - 1];
    selected_diff_ = static_cast<int64_t>(k - 1);
    selected_frame_ = d.frame;
    select_row(first_row(d));
    selected_frame_ = d.frame;
    return r;
  }
  if (what.substr(0, kCompile.size()) == kCompile) {
    std::string_view key = what.substr(kCompile.size());
    const bool in_b = key.substr(0, 2) == "b:";
    if (in_b) key.remove_prefix(2);
    ViewerSession& run = in_b ? *runs_.b : *runs_.a;
    const views::CompileRow* row = run.find_compile(key);
    const views::CompilePair* pair =
        row ? views::find_compile_pair(c, in_b ? views::RunSide::b : views::RunSide::a, row->rank,
                                       row->compile_id)
            : nullptr;
    if (!pair) {
      r.fail("no compile " + std::string(key) + " of run " + (in_b ? "B" : "A") +
             " in the aligned lists");
      return r;
    }
    selected_diff_ = -1;
    select_row(pair - c.compiles.data());
    return r;
  }
  if (what == "only-differences") {
    only_differences_ = true;
    filter_rows();
    return r;
  }
  r.fail("compare mode selects compile:KEY, compile:b:KEY, difference:K or only-differences");
  return r;
}

void CompareView::draw(float height) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float side_w = std::max(200.0f, avail.x * 0.27f);
  const float details_w = std::max(180.0f, avail.x * 0.2f);
  const float center_w = std::max(100.0f, avail.x - side_w - details_w - 2 * kGap);
  draw_differences(side_w, height);
  ImGui::SameLine(0, kGap);
  ImGui::BeginChild("##compare_center", ImVec2(center_w, height), false);
  const float aligned_h = std::max(120.0f, height * 0.42f);
  draw_aligned(center_w, aligned_h);
  draw_timelines(center_w, std::max(120.0f, ImGui::GetContentRegionAvail().y));
  ImGui::EndChild();
  ImGui::SameLine(0, kGap);
  draw_details(details_w, height);
}

void CompareView::draw_differences(float width, float height) {
  const views::Comparison& c = runs_.comparison;
  ImGui::BeginChild("##compare_differences", ImVec2(width, height), true);
  ui::text("run", "A: " + runs_.title_a);
  ui::text("run", "B: " + runs_.title_b);
  if (!runs_.error.empty()) ui::text_colored_wrapped("error", kColourError, runs_.error);
  ImGui::Separator();
  for (const std::string& line : views::verdict(c)) ui::text_wrapped("verdict", line);
  ImGui::Separator();
  ui::text("heading", "Differences (" + std::to_string(c.differences.size()) + ")");
  std::string_view section;
  for (size_t i = 0; i < c.differences.size(); ++i) {
    const views::Difference& d = c.differences[i];
    const views::DifferenceKindInfo& info = views::kind_info(d.kind);
    if (info.section != section) {
      section = info.section;
      ui::text_disabled("section", section);
    }
    const bool selected = selected_diff_ == static_cast<int64_t>(i);
    if (ui::selectable_wrapped("difference", views::difference_text(d), selected,
                               ImGui::GetStyleColorVec4(ImGuiCol_Text),
                               ("##diff" + std::to_string(i)).c_str())) {
      selected_diff_ = static_cast<int64_t>(i);
      select_row(first_row(d));
      selected_frame_ = d.frame;
    }
  }
  if (c.differences.empty() && runs_.error.empty())
    ui::text_disabled("label", "No differences: the runs compiled the same way.");
  if (!c.notes.empty()) {
    ImGui::Separator();
    ui::text("heading", "Notes");
    for (const std::string& n : c.notes) ui::text_wrapped("note", n);
  }
  ImGui::EndChild();
}

void CompareView::draw_compile_cell(ViewerSession& run, const std::optional<std::string>& id,
                                    int64_t rank, const char* kind, bool selected, size_t row) {
  ImGui::TableNextColumn();
  if (!id) {
    ui::text_disabled("absent", "-");
    return;
  }
  const std::string key = compile_key(*id, rank);
  const views::CompileRow* compile = run.find_compile(key);
  std::string text = key;
  if (compile) {
    text += "  " + compile->status;
    if (compile->duration_us >= 0) text += "  " + views::format_duration_us(compile->duration_us);
  }
  const std::string suffix = std::string(kind) + std::to_string(row);
  if (ui::selectable(kind, text, selected, 0, suffix.c_str()))
    select_row(static_cast<int64_t>(row));
}

void CompareView::draw_frame_row(size_t f) {
  const views::FrameMatch& m = runs_.comparison.frames[f];
  ui::cell_colored("frame-status", status_colour(m.status), views::frame_status_name(m.status));
  ImGui::TableNextColumn();
  if (m.status == views::FrameStatus::only_b) ImGui::TableNextColumn();  // on B's side
  const bool selected = selected_frame_ == static_cast<int64_t>(f) && selected_row_ < 0;
  if (ui::selectable("frame", m.function + " (" + m.file + ") " + lines_text(m.line_a, m.line_b),
                     selected, 0, ("frame" + std::to_string(f)).c_str())) {
    selected_frame_ = static_cast<int64_t>(f);
    selected_row_ = -1;
    selected_diff_ = -1;
  }
  if (m.status != views::FrameStatus::only_b) ImGui::TableNextColumn();
  ImGui::TableNextColumn();
  draw_marks(frame_marks_[f], "frame " + m.function + " (" + m.file + ")", "mark");
}

void CompareView::draw_compile_row(size_t row) {
  const views::CompilePair& p = runs_.comparison.compiles[row];
  const bool selected = selected_row_ == static_cast<int64_t>(row);
  if (p.status != views::FrameStatus::matched)
    ui::cell_colored("compile-status", status_colour(p.status), views::frame_status_name(p.status));
  else
    ImGui::TableNextColumn();
  draw_compile_cell(*runs_.a, p.compile_a, p.rank_a, "compile-a", selected, row);
  draw_compile_cell(*runs_.b, p.compile_b, p.rank_b, "compile-b", selected, row);
  ImGui::TableNextColumn();
  auto side = [](const std::optional<std::string>& id, int64_t rank) {
    return id ? compile_key(*id, rank) : std::string("-");
  };
  draw_marks(row_marks_[row],
             p.subject + " [A " + side(p.compile_a, p.rank_a) + " | B " +
                 side(p.compile_b, p.rank_b) + "]",
             "mark");
}

void CompareView::draw_marks(const Marks& marks, const std::string& row, const char* kind,
                             bool wrap) {
  if (marks.empty()) return;
  const views::Comparison& c = runs_.comparison;
  // The sentences of a marker's differences, as the differences list words them.
  auto tip_of = [&](const Mark& m) {
    std::string tip;
    for (size_t d : m.differences)
      tip += (tip.empty() ? "" : "\n") + views::difference_text(c.differences[d]);
    return tip;
  };
  auto tooltip = [](const std::string& tip) {
    if (!ImGui::IsItemHovered()) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.0f);
    ImGui::TextUnformatted(ui::font_safe(tip).c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  };
  const std::string tip_kind = std::string(kind) + "-tip";
  std::string kinds;
  for (const Mark& m : marks)
    kinds += (kinds.empty() ? "" : ", ") + std::string(views::kind_info(m.kind).name);
  // What the row carries, by kind id, for tests (the markers show tags).
  ui::record(std::string(kind) + "s-of", row + ": " + kinds);
  // One line per row (the table's rows are as tall as each other): the markers that fit, then
  // "+N" whose tooltip holds the rest. The run's strip wraps instead: it is one line of its own.
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  float left = ImGui::GetContentRegionAvail().x;
  const float more_w = ImGui::CalcTextSize("+99").x + spacing;
  std::vector<std::string> tags;
  std::vector<float> widths;
  float rest_w = 0;  // the width of the tags from i on
  for (const Mark& m : marks) {
    std::string& tag = tags.emplace_back(views::kind_info(m.kind).tag);
    if (m.differences.size() > 1) tag += " x" + std::to_string(m.differences.size());
    rest_w += widths.emplace_back(ImGui::CalcTextSize(tag.c_str()).x + spacing);
  }
  for (size_t i = 0; i < marks.size(); ++i) {
    const Mark& m = marks[i];
    const std::string& tag = tags[i];
    const float w = widths[i];
    // Room for "+N" is kept only when the tags left do not all fit.
    if (wrap) {
      if (i > 0) ui::same_line_if_fits(w);
    } else if (i > 0 && rest_w > left && w + more_w > left) {
      std::string rest;
      for (size_t j = i; j < marks.size(); ++j)
        rest += (rest.empty() ? "" : "\n") + tip_of(marks[j]);
      ImGui::SameLine();
      ui::text_colored(kind, kColourMuted, "+" + std::to_string(marks.size() - i));
      ui::record(tip_kind, rest);
      tooltip(rest);
      return;
    } else if (i > 0) {
      ImGui::SameLine();
    }
    ui::text_colored(kind, mark_colour(m.kind), tag);
    const std::string tip = tip_of(m);
    ui::record(tip_kind, tip);
    tooltip(tip);
    left -= w;
    rest_w -= w;
  }
}

void CompareView::draw_run_marks() {
  if (run_marks_.empty()) return;
  ui::text_disabled("label", "Whole run:");
  ImGui::SameLine();
  draw_marks(run_marks_, "run", "run-mark", true);
}

void CompareView::draw_aligned(float width, float height) {
  ImGui::BeginChild("##compare_aligned", ImVec2(width, height), true);
  ui::text("heading", "Compiles, A beside B");
  draw_run_marks();
  if (ImGui::Checkbox("only rows with differences", &only_differences_)) filter_rows();
  ui::record_item("toggle",
                  std::string("only rows with differences: ") + (only_differences_ ? "on" : "off"));
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp;
  if (ImGui::BeginTable("##aligned", 4, flags)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, 70.0f);
    // A and B as wide as each other, whatever their texts: the two runs side by side.
    ImGui::TableSetupColumn("A", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("B", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    // The differences' tags are what the aligned lists are for: as wide as a run's column.
    ImGui::TableSetupColumn("differences", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableHeadersRow();
    // Only the rows in sight are drawn: two runs of 1,024 ranks have many thousands.
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(rows_.size()));
    int scroll_to = -1;
    if (scroll_to_row_ && selected_row_ >= 0) {
      const auto at = std::find_if(rows_.begin(), rows_.end(), [&](const AlignedRow& r) {
        return !r.frame && r.index == static_cast<size_t>(selected_row_);
      });
      if (at != rows_.end()) {
        scroll_to = static_cast<int>(at - rows_.begin());
        clipper.ForceDisplayRangeByIndices(scroll_to, scroll_to + 1);
      }
      scroll_to_row_ = false;
    }
    while (clipper.Step()) {
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        const AlignedRow& r = rows_[static_cast<size_t>(i)];
        ImGui::TableNextRow();
        if (r.frame)
          draw_frame_row(r.index);
        else
          draw_compile_row(r.index);
        if (i == scroll_to) ImGui::SetScrollHereY(0.3f);
      }
    }
    ImGui::EndTable();
  }
  ImGui::EndChild();
}

void CompareView::draw_timelines(float width, float height) {
  const float each = std::max(60.0f, (height - ImGui::GetStyle().ItemSpacing.y) / 2);
  struct Side {
    const char* id;
    const char* label;
    ViewerSession* run;
    TimelinePanel* panel;
  };
  const Side sides[] = {{"##timeline_a", "A", runs_.a.get(), &timeline_a_},
                        {"##timeline_b", "B", runs_.b.get(), &timeline_b_}};
  // One axis: both panels show the shared range; whichever the user moved this frame leads.
  std::optional<TimeRange> moved;
  for (const Side& s : sides) {
    ImGui::BeginChild(s.id, ImVec2(width, each), true);
    ui::text("timeline", std::string("Timeline ") + s.label + " (from its run's start)");
    const int zone = s.panel == &timeline_a_ ? zone_a_ : zone_b_;
    if (zone >= 0)
      ui::record("selected-zone",
                 std::string(s.label) + ": " +
                     s.run->timeline_scene()->timeline.intervals[static_cast<size_t>(zone)].name);
    if (shared_range_) s.panel->set_view_range(*shared_range_);
    s.panel->draw(*s.run);
    const TimeRange now = s.panel->view_range();
    if (shared_range_ &&
        (now.start_us != shared_range_->start_us || now.end_us != shared_range_->end_us))
      moved = now;
    ImGui::EndChild();
  }
  if (!shared_range_) {
    // The first frame: each panel fitted its own run; the axis spans both.
    const TimeRange a = timeline_a_.view_range(), b = timeline_b_.view_range();
    shared_range_ = TimeRange{std::min(a.start_us, b.start_us), std::max(a.end_us, b.end_us)};
  } else if (moved) {
    shared_range_ = moved;
  }
}

void CompareView::describe_compile(const char* side, ViewerSession& run,
                                   const std::optional<std::string>& id, int64_t rank) {
  if (!id) {
    ui::text_disabled("details", std::string(side) + ": no such compile");
    return;
  }
  const views::CompileRow* c = run.find_compile(compile_key(*id, rank));
  if (!c) {
    ui::text("details", std::string(side) + ": compile " + *id);
    return;
  }
  ui::text("details", std::string(side) + ": compile " + compile_key(*c));
  ui::text("details", "status: " + c->status);
  if (c->duration_us >= 0)
    ui::text("details", "compile time: " + views::format_duration_us(c->duration_us));
  if (c->failed()) ui::text_colored_wrapped("details", kColourError, c->fail_type);
  if (!c->recompile_reason.empty())
    ui::text_wrapped("details", "recompiled for: " + c->recompile_reason);
}

void CompareView::draw_details(float width, float height) {
  const views::Comparison& c = runs_.comparison;
  ImGui::BeginChild("##compare_details", ImVec2(width, height), true);
  ui::text("heading", "Details");
  ImGui::Separator();
  ImGui::PushTextWrapPos(0.0f);
  if (selected_diff_ >= 0)
    ui::text("details", views::difference_text(c.differences[static_cast<size_t>(selected_diff_)]));
  if (selected_row_ >= 0) {
    const views::CompilePair& p = c.compiles[static_cast<size_t>(selected_row_)];
    ui::text("details", p.subject);
    // The synchronised selection: the compile picked and its match in the other run.
    if (p.compile_a) ui::record("selected-a", compile_key(*p.compile_a, p.rank_a));
    if (p.compile_b) ui::record("selected-b", compile_key(*p.compile_b, p.rank_b));
    describe_compile("A", *runs_.a, p.compile_a, p.rank_a);
    describe_compile("B", *runs_.b, p.compile_b, p.rank_b);
    // What differs about it, as the list words it (the one picked is already above).
    for (const Mark& m : row_marks_[static_cast<size_t>(selected_row_)])
      for (size_t i : m.differences)
        if (static_cast<int64_t>(i) != selected_diff_)
          ui::text_colored("details", mark_colour(m.kind),
                           views::difference_text(c.differences[i]));
  } else if (selected_frame_ >= 0) {
    const views::FrameMatch& m = c.frames[static_cast<size_t>(selected_frame_)];
    ui::text("details", m.function + " (" + m.file + ")");
    ui::text("details", std::string(views::frame_status_name(m.status)) + ", " +
                            lines_text(m.line_a, m.line_b));
    ui::text("details", "compiles " + std::to_string(m.compiles_a) + " / " +
                            std::to_string(m.compiles_b) + ", failed " +
                            std::to_string(m.failed_a) + " / " + std::to_string(m.failed_b));
  } else if (selected_diff_ < 0) {
    ui::text_disabled("details", "Nothing selected: click a difference or a compile.");
  }
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
}

}  // namespace tlscope::gui
