// Compiles panel: the compile tree (stack trie of dynamo_start stacks) with expand/collapse,
// each compile coloured by what happened to it, and a filter box; a compile opens the compile
// panel on it.
#include <algorithm>
#include <cctype>
#include <set>

#include "panel.hpp"
#include "status_colours.hpp"
#include "tlscope/views/time_format.hpp"

namespace tlscope::gui {
namespace {

bool contains_nocase(std::string_view text, std::string_view needle) {
  return std::search(text.begin(), text.end(), needle.begin(), needle.end(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) ==
                  std::tolower(static_cast<unsigned char>(b));
         }) != text.end();
}

std::string base_name(const std::string& path) {
  return path.substr(path.find_last_of('/') + 1);
}

class CompileTreePanel : public Panel {
 public:
  CompileTreePanel() : Panel(views::ScreenId::compile_tree) {}

  std::optional<int64_t> count(ViewerSession& session) const override {
    return static_cast<int64_t>(session.compile_tree().compiles.size());
  }

  void draw(ViewerSession& session) override {
    const views::CompileTree& tree = session.compile_tree();
    if (indexed_for_ != session.id()) index(session);
    ImGui::SetNextItemWidth(std::min(320.0f, ImGui::GetContentRegionAvail().x * 0.4f));
    ImGui::InputTextWithHint("##compile_filter", "filter: compile id, function, file", filter_,
                             sizeof filter_);
    ui::record_item("filter", filter_);
    if (ImGui::IsItemActive()) ui::record("focus", "filter");  // typing goes here
    ImGui::SameLine();
    if (ui::button("button", "Expand all")) collapsed_.clear();
    ImGui::SameLine();
    if (ui::button("button", "Collapse all")) {
      for (const auto& f : tree.frames) collapsed_.insert(f.id);
    }
    const std::string counts = std::to_string(tree.compiles.size()) + " compiles, " +
                               std::to_string(tree.frames_total) + " frames";
    ui::same_line_if_fits(ImGui::CalcTextSize(counts.c_str()).x);
    ui::text_disabled("label", counts);
    if (tree.compiles.empty()) {
      ui::text("label", "No compiles in this database.");
      return;
    }
    ImGui::BeginChild("##tree", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    const std::string needle = filter_;
    const float indent = ImGui::GetFontSize();
    int64_t hidden_below = -1;  // depth of a collapsed frame whose subtree is skipped
    for (const auto& frame : tree.frames) {
      if (hidden_below >= 0 && frame.depth > hidden_below) continue;
      hidden_below = -1;
      const bool frame_matches = needle.empty() || contains_nocase(frame.name, needle) ||
                                 contains_nocase(frame.filename, needle);
      std::vector<size_t> shown;
      for (size_t ci : frame.compiles) {
        if (frame_matches || contains_nocase(tree.compiles[ci].compile_id, needle))
          shown.push_back(ci);
      }
      // Filtering shows matching frames and compiles flat; otherwise the trie with its depths.
      if (!needle.empty() && !frame_matches && shown.empty()) continue;
      if (frame.first_of_file && needle.empty()) {
        ui::text_disabled("rank", frame.rank >= 0 ? "rank " + std::to_string(frame.rank)
                                                  : "log file " + std::to_string(frame.file_id));
      }
      const float x = needle.empty() ? static_cast<float>(frame.depth) * indent : 0.0f;
      ImGui::SetCursorPosX(ImGui::GetCursorPosX() + x);
      const bool open = !needle.empty() || !collapsed_.count(frame.id);
      ImGui::PushID(static_cast<int>(frame.id));
      if (ImGui::ArrowButton("##toggle", open ? ImGuiDir_Down : ImGuiDir_Right)) {
        if (open) {
          collapsed_.insert(frame.id);
        } else {
          collapsed_.erase(frame.id);
        }
      }
      ImGui::PopID();
      ImGui::SameLine();
      ui::text("frame",
               frame.name + "  " + base_name(frame.filename) + ":" + std::to_string(frame.line));
      if (!open) {
        hidden_below = frame.depth;
        continue;
      }
      for (size_t ci : shown) draw_compile(session, tree.compiles[ci], x + indent * 1.5f);
    }
    if (!tree.without_stack.empty() && needle.empty()) {
      ui::text_disabled("label", "Compiles without a dynamo_start stack");
      for (size_t ci : tree.without_stack) draw_compile(session, tree.compiles[ci], indent);
    }
    ImGui::EndChild();
  }

  views::Status select(ViewerSession& session, const Selection& s) override {
    if (s.kind != SelectionKind::kCompile) return Panel::select(session, s);
    views::Status r = session.check_compile(s.key);
    if (r.ok()) scroll_to_ = s.key;
    return r;
  }

  void draw_details(ViewerSession& session, const Selection& s) override {
    if (indexed_for_ != session.id()) index(session);
    const views::CompileRow* c = session.find_compile(s.key);
    if (!c) {
      ui::text_disabled("details", "compile " + s.key + " is not in this database");
      return;
    }
    ui::text("details", "Compile " + c->compile_id +
                            (c->rank >= 0 ? " on rank " + std::to_string(c->rank) : ""));
    ui::text_colored("details", colour_of(*c), "status: " + status_words(*c));
    ui::text("details", "frame: " + c->co_name + " at " + c->co_filename + ":" +
                            std::to_string(c->co_firstlineno));
    if (!c->recompile_reason.empty()) ui::text("details", "recompiled: " + c->recompile_reason);
    if (c->failed())
      ui::text_colored("details", kColourError, c->fail_type + ": " + c->fail_reason);
    if (ui::button("button", "Open compile")) {
      session.nav().open(Selection{SelectionKind::kCompile, s.key, views::ScreenId::compile});
    }
  }

 private:
  // Which compiles had a graph break, from the graph-break panel's model (read, never changed).
  void index(ViewerSession& session) {
    indexed_for_ = session.id();
    graph_breaks_.clear();
    for (const auto& g : session.occurrences(views::OccurrenceList::kGraphBreaks).groups)
      for (const auto& o : g.occurrences) graph_breaks_.insert({o.file_id, o.compile_id});
  }

  bool had_graph_break(const views::CompileRow& c) const {
    return graph_breaks_.count({c.file_id, c.compile_id}) > 0;
  }

  ImVec4 colour_of(const views::CompileRow& c) const {
    return compile_status_colour(c.status, had_graph_break(c), !c.recompile_reason.empty(),
                                 c.cache_hit());
  }

  std::string status_words(const views::CompileRow& c) const {
    std::string words = c.status;
    if (had_graph_break(c)) words += ", graph break";
    if (!c.recompile_reason.empty()) words += ", recompile";
    if (c.cache_hit()) words += ", cache hit";
    return words;
  }

  void draw_compile(ViewerSession& session, const views::CompileRow& c, float x) {
    const std::string key = compile_key(c);
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + x);
    std::string label = "[" + c.compile_id + "] " + status_words(c);
    if (c.duration_us >= 0) label += "  " + views::format_duration_us(c.duration_us);
    if (c.graph_op_count >= 0) label += "  " + std::to_string(c.graph_op_count) + " ops";
    if (c.failed()) label += "  " + c.fail_type;
    ImGui::PushStyleColor(ImGuiCol_Text, colour_of(c));
    const bool selected = session.nav().current().kind == SelectionKind::kCompile &&
                          session.nav().current().key == key;
    if (ui::selectable("compile", label, selected, ImGuiSelectableFlags_AllowDoubleClick,
                       key.c_str())) {
      session.nav().select(Selection{SelectionKind::kCompile, key, screen()});
      if (ImGui::IsMouseDoubleClicked(0))
        session.nav().open(Selection{SelectionKind::kCompile, key, views::ScreenId::compile});
    }
    ImGui::PopStyleColor();
    if (scroll_to_ == key ||
        (scroll_to_ == c.compile_id && scroll_to_.find("@r") == std::string::npos)) {
      ImGui::SetScrollHereY(0.3f);
      scroll_to_.clear();
    }
  }

  char filter_[256] = "";
  std::set<int64_t> collapsed_;                             // frame ids
  std::set<std::pair<int64_t, std::string>> graph_breaks_;  // (file_id, compile_id)
  uint64_t indexed_for_ = 0;  // the session graph_breaks_ was read from
  std::string scroll_to_;
};

}  // namespace

std::unique_ptr<Panel> make_compile_tree_panel() {
  return std::make_unique<CompileTreePanel>();
}

}  // namespace tlscope::gui
