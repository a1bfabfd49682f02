// The shell's layout: a full-window frame with the menu bar, then navigation list | tabs |
// details pane (widths follow the window and the user's drags), or the start screen while
// nothing is open.
#include "viewer_shell.hpp"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace tlscope::gui {
namespace {

// The one window that fills the viewport, for one run and for two compared alike.
void begin_main_window() {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  ImGui::Begin("##tlscope", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_MenuBar |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  ImGui::PopStyleVar();
}

constexpr float kSplitter = 6.0f;
const ImVec4 kErrorColour(1.0f, 0.45f, 0.45f, 1.0f);

// Where a selection kind lives when --select names no panel.
views::ScreenId default_panel(SelectionKind kind) {
  switch (kind) {
    case SelectionKind::kCompile:
      return views::ScreenId::compile;
    case SelectionKind::kZone:
    case SelectionKind::kCollective:
      return views::ScreenId::collectives;
    case SelectionKind::kQuery:
      return views::ScreenId::sql;
    case SelectionKind::kRecord:
      return views::ScreenId::errors;
    default:
      return views::ScreenId::summary;
  }
}

}  // namespace

ViewerShell::ViewerShell(const ViewerOptions& options, ViewerSettings settings,
                         std::function<void()> wake)
    : options_(options),
      settings_(std::move(settings)),
      wake_(std::move(wake)),
      panels_(make_panels()) {
  tabs_.push_back(views::ScreenId::summary);
}

Panel* ViewerShell::panel_for(views::ScreenId screen) const {
  for (const auto& p : panels_)
    if (p->screen() == screen) return p.get();
  return nullptr;
}

Panel* ViewerShell::panel_named(std::string_view name) const {
  for (const auto& p : panels_)
    if (p->name() == name) return p.get();
  return nullptr;
}

Panel* ViewerShell::active_panel() const {
  return panel_for(active_);
}

void ViewerShell::open(const std::vector<std::string>& inputs) {
  if (busy()) {
    open_error_ = "still opening " + title_ + "; try again when it is done";
    return;
  }
  open_error_.clear();
  OpenPlan plan = plan_open(inputs);
  if (!plan.ok) {
    open_error_ = plan.error;
    return;
  }
  opening_ = plan.inputs;
  opening_title_ = plan.title;
  job_ = std::make_unique<OpenJob>();
  job_->start(plan, wake_, options_);
}

void ViewerShell::open_compare(const std::string& a, const std::string& b) {
  if (busy()) {
    open_error_ = "still opening " + title_ + "; try again when it is done";
    return;
  }
  open_error_.clear();
  OpenPlan plan_a = plan_open({a}), plan_b = plan_open({b});
  for (const OpenPlan* plan : {&plan_a, &plan_b}) {
    if (!plan->ok) {
      open_error_ = plan->error;
      return;
    }
  }
  opening_ = {};
  opening_title_ = plan_a.title;
  opening_title_b_ = plan_b.title;
  job_ = std::make_unique<OpenJob>();
  job_b_ = std::make_unique<OpenJob>();
  // The two opens run at once (each ingest on its own thread), as `tlscope compare` ingests both.
  job_->start(plan_a, wake_, options_, FirstFrame::kCompare);
  job_b_->start(plan_b, wake_, options_, FirstFrame::kCompare);
}

std::optional<OpenProgress> ViewerShell::open_progress() const {
  if (!busy()) return std::nullopt;
  if (comparing_.valid()) {
    OpenProgress p;
    p.fraction = 1;
    p.stage = "comparing the runs";
    return p;
  }
  return job_ && job_->running() ? job_->progress() : job_b_->progress();
}

void ViewerShell::poll_compare_jobs() {
  if (comparing_.valid()) {
    if (comparing_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    compare_ = std::make_unique<CompareView>(comparing_.get());
    job_b_.reset();
    session_.reset();
    test_selection_done_ = false;
    title_ = opening_title_ + " vs " + opening_title_b_;
    return;
  }
  if (!job_->done() || !job_b_->done()) return;
  views::Result<std::string> db_a = job_->result(), db_b = job_b_->result();
  std::shared_ptr<ViewerSession> a = job_->take_session(), b = job_b_->take_session();
  job_.reset();
  std::string error;
  for (const auto* db : {&db_a, &db_b})
    if (!db->ok() && error.empty()) error = db->error;
  if (error.empty() && (!a || !b))
    error = "cannot read the panels of " + (a ? opening_title_b_ : opening_title_);
  if (!error.empty()) {
    job_b_.reset();
    open_error_ = error;
    return;
  }
  // job_b_ stays (done) until the comparison is in: poll_job comes back here meanwhile.
  comparing_ =
      std::async(std::launch::async, [a = std::move(a), b = std::move(b), ta = opening_title_,
                                      tb = opening_title_b_, wake = wake_]() mutable {
        CompareRuns runs = compare_runs(std::move(a), std::move(b), ta, tb);
        if (wake) wake();
        return runs;
      });
}

void ViewerShell::poll_job() {
  if (job_b_) {
    poll_compare_jobs();
    return;
  }
  if (!job_ || !job_->done()) return;
  views::Result<std::string> db = job_->result();
  // Read on the job's thread: taking it here costs the frame nothing.
  std::shared_ptr<ViewerSession> session = job_->take_session();
  job_.reset();
  if (!db.ok() || !session) {
    open_error_ = db.error;
    return;
  }
  session_ = std::move(session);
  compare_.reset();
  test_selection_done_ = false;
  title_ = opening_title_;
  settings_.add_recent(opening_);
}

void ViewerShell::apply_test_selection() {
  if (test_selection_done_ || !session_) return;
  test_selection_done_ = true;
  Panel* panel = nullptr;
  if (!options_.panel.empty()) {
    panel = panel_named(options_.panel);
    if (!panel) {
      open_error_ = "--panel " + options_.panel + ": this viewer has no such panel yet";
      selection_failed_ = true;
      return;
    }
    show_panel(panel->screen());
  }
  if (options_.select.empty()) return;
  auto s = parse_selection(options_.select);
  if (!s.ok()) {
    open_error_ = s.error;
    selection_failed_ = true;
    return;
  }
  if (!panel) panel = panel_for(default_panel(s->kind));
  if (!panel) panel = panel_for(views::ScreenId::compile_tree);
  if (!panel) return;
  s->panel = panel->screen();
  if (views::Status r = panel->select(*session_, *s); !r.ok()) {
    open_error_ = "--select " + options_.select + ": " + r.error;
    selection_failed_ = true;
    return;
  }
  session_->nav().select(*s);
  show_panel(panel->screen());
}

void ViewerShell::show_panel(views::ScreenId screen) {
  if (!panel_for(screen)) return;
  if (std::find(tabs_.begin(), tabs_.end(), screen) == tabs_.end()) tabs_.push_back(screen);
  focus_tab_ = screen;
  active_ = screen;
}

void ViewerShell::handle_shortcuts() {
  ImGuiIO& io = ImGui::GetIO();
  // GLFW key codes of letters are their upper-case ASCII codes (the 1.86 GLFW backend's KeysDown).
  if (io.KeyCtrl && ImGui::IsKeyPressed('O', false)) browser_.open(".");
  if (io.KeyCtrl && ImGui::IsKeyPressed('F', false) && session_) search_.open();
  if (io.KeyCtrl && ImGui::IsKeyPressed('Q', false)) quit_ = true;
  const bool back = (io.KeyAlt && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) ||
                    ImGui::IsMouseClicked(3);
  const bool forward =
      (io.KeyAlt && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) ||
      ImGui::IsMouseClicked(4);
  if (session_ && back) session_->nav().back();
  if (session_ && forward) session_->nav().forward();
}

void ViewerShell::frame() {
  poll_job();
  if (compare_) {
    draw_compare();
    return;
  }
  if (session_) apply_test_selection();
  if (session_) {
    if (auto request = session_->nav().take_panel_request()) {
      show_panel(*request);
      // A click-through to an item the target panel lacks shows the panel as it is.
      if (Panel* target = panel_for(*request)) target->select(*session_, session_->nav().current());
    }
  }
  begin_main_window();
  dump_.begin_frame(session_ && active_panel() ? active_panel()->name() : "start");
  set_current_dump(&dump_);
  draw_menu_bar();
  if (!session_) {
    draw_start_screen();
  } else {
    ImVec2 avail = ImGui::GetContentRegionAvail();
    // While another open runs, what is open stays usable above a strip with its progress.
    const float strip = busy() ? ImGui::GetFrameHeightWithSpacing() + 4 : 0.0f;
    avail.y -= strip;
    // The layout follows the window: the side panes keep their width within bounds that leave
    // the central area at least half the window.
    const float nav_max = std::max(120.0f, avail.x * 0.22f);
    const float details_max = std::max(180.0f, avail.x * 0.28f);
    float nav_w = std::clamp(settings_.nav_width, 120.0f, nav_max);
    float details_w = std::clamp(settings_.details_width, 180.0f, details_max);
    const float center_w = std::max(
        100.0f, avail.x - nav_w - details_w - 2 * kSplitter - 2 * ImGui::GetStyle().ItemSpacing.x);
    draw_navigation(nav_w, avail.y);
    ImGui::SameLine(0, 0);
    if (splitter("##split_nav", &nav_w, 120.0f, nav_max, false, avail.y))
      settings_.nav_width = nav_w;
    ImGui::SameLine(0, 0);
    draw_tabs(center_w, avail.y);
    ImGui::SameLine(0, 0);
    if (splitter("##split_details", &details_w, 180.0f, details_max, true, avail.y))
      settings_.details_width = details_w;
    ImGui::SameLine(0, 0);
    draw_details(details_w, avail.y);
    if (busy()) draw_open_progress(ImGui::GetContentRegionAvail().x);
  }
  ImGui::End();
  std::string picked;
  if (browser_.draw(&picked)) open({picked});
  if (session_) search_.draw(*session_);
  set_current_dump(nullptr);
}

void ViewerShell::draw_compare() {
  if (!test_selection_done_) {
    test_selection_done_ = true;
    if (!options_.panel.empty() && options_.panel != "compare") {
      open_error_ = "--panel " + options_.panel + ": compare mode shows the compare panel only";
      selection_failed_ = true;
    } else if (!options_.select.empty()) {
      if (views::Status r = compare_->select(options_.select); !r.ok()) {
        open_error_ = "--select " + options_.select + ": " + r.error;
        selection_failed_ = true;
      }
    }
  }
  begin_main_window();
  dump_.begin_frame("compare");
  set_current_dump(&dump_);
  draw_menu_bar();
  float height = ImGui::GetContentRegionAvail().y;
  const bool strip = busy();  // another open runs: its progress under the comparison
  if (strip) height -= ImGui::GetFrameHeightWithSpacing() + 4;
  compare_->draw(std::max(100.0f, height));
  if (strip) draw_open_progress(ImGui::GetContentRegionAvail().x);
  ImGui::End();
  std::string picked;
  if (browser_.draw(&picked)) open({picked});
  set_current_dump(nullptr);
}

bool ViewerShell::splitter(const char* id, float* width, float min, float max, bool right_side,
                           float height) {
  ImGui::InvisibleButton(id, ImVec2(kSplitter, height));
  const bool active = ImGui::IsItemActive();
  if (ImGui::IsItemHovered() || active) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  dl->AddRectFilled(ImVec2(a.x + 2, a.y), ImVec2(b.x - 2, b.y),
                    ImGui::GetColorU32(active ? ImGuiCol_SeparatorActive : ImGuiCol_Separator));
  if (!active) return false;
  const float dx = ImGui::GetIO().MouseDelta.x;
  if (dx == 0.0f) return false;
  *width = std::clamp(*width + (right_side ? -dx : dx), min, max);
  return true;
}

void ViewerShell::draw_menu_bar() {
  if (!ImGui::BeginMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open...", "Ctrl+O")) browser_.open(".");
    if (ImGui::BeginMenu("Recent", !settings_.recent.empty())) {
      for (const auto& entry : settings_.recent) {
        if (ImGui::MenuItem(ui::imgui_label(entry).c_str())) {
          open(split_recent(entry));
          break;  // open() may reorder the list
        }
      }
      ImGui::EndMenu();
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) quit_ = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View", session_ != nullptr)) {
    Navigator& nav = session_->nav();
    for (const auto& p : panels_) {
      if (!p->shown(*session_)) continue;
      if (ImGui::MenuItem(std::string(p->label()).c_str())) show_panel(p->screen());
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Search...", "Ctrl+F")) search_.open();
    if (ImGui::MenuItem("Back", "Alt+Left", false, nav.can_back())) nav.back();
    if (ImGui::MenuItem("Forward", "Alt+Right", false, nav.can_forward())) nav.forward();
    ImGui::EndMenu();
  }
  if (!title_.empty()) {
    ImGui::SameLine(0, 24);
    ImGui::TextDisabled("%s", title_.c_str());
  }
  // A failed (or cancelled) open while something else stays on screen says so here.
  if (session() && !open_error_.empty()) {
    ImGui::SameLine(0, 24);
    ui::text_colored("error", kErrorColour, open_error_);
  }
  ImGui::EndMenuBar();
}

void ViewerShell::draw_start_screen() {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float w = std::min(640.0f, avail.x - 40);
  ImGui::SetCursorPos(ImVec2((ImGui::GetWindowWidth() - w) / 2, ImGui::GetCursorPosY() + 40));
  ImGui::BeginGroup();
  ui::text("title", "tlscope");
  ui::text_disabled("label", "torch.compile trace logs: compiles, graph breaks, collectives");
  ImGui::Spacing();
  if (busy()) {
    ui::text("label", "Opening " + opening_title_);
    draw_open_progress(w);
  } else {
    if (ui::button("button", "Open... (Ctrl+O)")) browser_.open(".");
    ui::text_disabled("label",
                      "or drop log files, a rank directory, a database or a rage bundle here");
  }
  if (!open_error_.empty()) ui::text_colored("error", kErrorColour, open_error_);
  if (!settings_.recent.empty() && !busy()) {
    ImGui::Spacing();
    ui::text("heading", "Recent");
    for (size_t i = 0; i < settings_.recent.size(); ++i) {
      if (ui::selectable("recent", settings_.recent[i], false, 0, std::to_string(i).c_str())) {
        open(split_recent(settings_.recent[i]));
        break;
      }
    }
  }
  ImGui::EndGroup();
}

void ViewerShell::draw_open_progress(float width) {
  const OpenProgress p = open_progress().value_or(OpenProgress{});
  char bar[64];
  std::snprintf(bar, sizeof bar, "%s %.0f%%", p.stage.c_str(), 100.0 * p.fraction);
  // What is stored so far: the database itself cannot be read yet (a new one is written with
  // an exclusive lock under a temporary name), so the counts are the ingest's own.
  char counts[160];
  std::snprintf(
      counts, sizeof counts, "%llu of %llu files, %llu records, %llu errors",
      static_cast<unsigned long long>(p.files_done), static_cast<unsigned long long>(p.files_total),
      static_cast<unsigned long long>(p.events), static_cast<unsigned long long>(p.errors));
  const float button_w = ImGui::CalcTextSize("Cancel").x + 2 * ImGui::GetStyle().FramePadding.x;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float counts_w = ImGui::CalcTextSize(counts).x;
  const bool one_line = session() != nullptr;  // the strip under the panels; else the start screen
  const float bar_w = one_line ? std::max(120.0f, width - counts_w - button_w - 3 * spacing)
                               : width - button_w - spacing;
  ImGui::ProgressBar(static_cast<float>(p.fraction), ImVec2(bar_w, 0), bar);
  ui::record("progress", bar);
  ImGui::SameLine();
  if (ui::button("button", "Cancel")) cancel_open();
  if (one_line) ImGui::SameLine();
  ui::text("progress", counts);
}

void ViewerShell::draw_navigation(float width, float height) {
  ImGui::BeginChild("##navigation", ImVec2(width, height), true);
  for (const auto& p : panels_) {
    if (!p->shown(*session_)) continue;
    std::string label(p->label());
    if (auto n = p->count(*session_)) label += "  (" + std::to_string(*n) + ")";
    if (ui::selectable("nav", label, p->screen() == active_, 0, std::string(p->name()).c_str()))
      show_panel(p->screen());
  }
  ImGui::EndChild();
}

void ViewerShell::draw_tabs(float width, float height) {
  ImGui::BeginChild("##central", ImVec2(width, height), false);
  if (ImGui::BeginTabBar("##tabs", ImGuiTabBarFlags_Reorderable |
                                       ImGuiTabBarFlags_FittingPolicyScroll |
                                       ImGuiTabBarFlags_NoCloseWithMiddleMouseButton)) {
    std::vector<views::ScreenId> closed;
    for (views::ScreenId id : tabs_) {
      Panel* p = panel_for(id);
      if (!p) continue;
      bool open = true;
      ImGuiTabItemFlags flags = focus_tab_ == id ? ImGuiTabItemFlags_SetSelected : 0;
      std::string label = std::string(p->label()) + "###tab_" + std::string(p->name());
      bool* can_close = tabs_.size() > 1 ? &open : nullptr;
      if (ImGui::BeginTabItem(label.c_str(), can_close, flags)) {
        if (!focus_tab_ || *focus_tab_ == id) active_ = id;
        ui::record("tab", p->label());
        dump_.set_panel(p->name());
        ImGui::BeginChild(("##panel_" + std::string(p->name())).c_str(), ImVec2(0, 0), false,
                          ImGuiWindowFlags_HorizontalScrollbar);
        // The panel's visible area, so a test can tell a text that runs past it.
        const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
        dump_.add("panel-area", p->name(), Rect{at.x, at.y, size.x, size.y});
        p->draw(*session_);
        ImGui::EndChild();
        ImGui::EndTabItem();
      }
      if (!open) closed.push_back(id);
    }
    focus_tab_.reset();
    for (views::ScreenId id : closed) tabs_.erase(std::find(tabs_.begin(), tabs_.end(), id));
    ImGui::EndTabBar();
  }
  ImGui::EndChild();
}

void ViewerShell::draw_details(float width, float height) {
  ImGui::BeginChild("##details", ImVec2(width, height), true);
  Navigator& nav = session_->nav();
  ImGui::BeginDisabled(!nav.can_back());
  if (ImGui::ArrowButton("##back", ImGuiDir_Left)) nav.back();
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!nav.can_forward());
  if (ImGui::ArrowButton("##forward", ImGuiDir_Right)) nav.forward();
  ImGui::EndDisabled();
  ImGui::SameLine();
  ui::text("heading", "Details");
  ImGui::Separator();
  ImGui::PushTextWrapPos(0.0f);  // the pane is narrow: every line of details wraps
  const Selection& s = nav.current();
  if (s.empty()) {
    ui::text_disabled("details", "Nothing selected: click a row, a finding or a zone.");
  } else if (Panel* p = panel_for(s.panel)) {
    p->draw_details(*session_, s);
  }
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
}

}  // namespace tlscope::gui
