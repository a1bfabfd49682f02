// Export panel: the torch.export screen (views::ExportReport, the view model the report's
// export.html draws): what export could not trace exactly (data-dependent expressions, fake
// kernels), each with its user line, the expression, where its symbols came from and the
// expression's provenance back to its source line; then the specializations, the guards export
// added, the symbols it created and the exported programs as code.
#include <imgui.h>

#include <algorithm>
#include <map>
#include <memory>

#include "code_view.hpp"
#include "panel.hpp"
#include "status_colours.hpp"
#include "tlscope/views/compile_detail.hpp"

namespace tlscope::gui {
namespace {

// Provenance chains nest one level per step; past this depth the indent stops growing, so a deep
// chain stays readable in a narrow window instead of running off the right edge.
constexpr int kMaxIndentDepth = 10;
constexpr size_t kMaxProgramBytes = 4 << 20;

std::string plural(size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string frame_words(const views::UserFrame& at) {
  if (!at.known()) return "(no user frame)";
  return at.where() + (at.name.empty() ? "" : " in " + at.name);
}

// An issue is what export failed at (red); a guard is an assumption it made (muted title).
ImVec4 title_colour(const views::ExportIssue& i) {
  if (i.kind == "guard_added" || i.kind == "guard_added_fast") return kColourNotice;
  return kColourError;
}

void draw_provenance(const std::vector<views::ProvenanceStep>& steps) {
  const float step_px = ImGui::GetFontSize() * 0.6f;
  for (const views::ProvenanceStep& s : steps) {
    const float indent = step_px * static_cast<float>(std::min(s.depth, kMaxIndentDepth));
    if (indent > 0) ImGui::Indent(indent);
    if (!s.method.empty()) {
      std::string line = s.result + " = " + s.method + "(";
      for (size_t a = 0; a < s.arguments.size(); ++a) line += (a ? ", " : "") + s.arguments[a];
      // The user frame above names the file in full; a step names its base name and line, so
      // the chain reads as the lines of one function.
      line += ")";
      if (s.at.known())
        line += "  at " + s.at.file.substr(s.at.file.find_last_of('/') + 1) + ":" +
                (s.at.line >= 0 ? std::to_string(s.at.line) : "?");
      if (!s.at.code.empty()) line += "  " + s.at.code;
      ui::text_wrapped("provenance", line);
    } else {
      ui::text_colored_wrapped("provenance", kColourOk, s.origin);
    }
    if (indent > 0) ImGui::Unindent(indent);
  }
}

void draw_issue(const views::ExportIssue& i) {
  ImGui::PushID(static_cast<int>(i.event_id));
  ui::text_colored_wrapped("issue", title_colour(i), i.title());
  ImGui::Indent();
  ui::text_wrapped("frame", "user frame: " + frame_words(i.at));
  if (!i.at.code.empty()) ui::text_wrapped("code", "    " + i.at.code);
  if (!i.expr.empty()) ui::text_wrapped("expression", "expression: " + i.expr);
  if (!i.result.empty()) ui::text_wrapped("result", "evaluated to: " + i.result);
  if (!i.op.empty()) ui::text_wrapped("operator", "operator: " + i.op);
  if (!i.reason.empty()) ui::text_wrapped("reason", "reason: " + i.reason);
  for (const views::SymbolOrigin& o : i.symbols) ui::text_wrapped("symbol", "symbol " + o.words());
  for (const auto& [name, value] : i.locals)
    ui::text_wrapped("local", "local " + name + " = " + value);
  if (!i.provenance.empty()) {
    ImGui::SetNextItemOpen(true, ImGuiCond_Appearing);
    const std::string header =
        "Provenance of the expression (" + plural(i.provenance.size(), "step") + ")";
    if (ImGui::TreeNode("##provenance", "%s", header.c_str())) {
      ui::record("section", header);
      draw_provenance(i.provenance);
      ImGui::TreePop();
    }
  }
  ImGui::Unindent();
  ImGui::Spacing();
  ImGui::PopID();
}

// A collapsing section "Title (n)", open when first shown; true when open (and recorded).
bool section(const std::string& title, size_t n) {
  const std::string header = title + " (" + std::to_string(n) + ")";
  ImGui::SetNextItemOpen(true, ImGuiCond_Appearing);
  if (!ImGui::CollapsingHeader((header + "###" + title).c_str())) return false;
  ui::record("section", header);
  return true;
}

class ExportPanel : public Panel {
 public:
  ExportPanel() : Panel(views::ScreenId::torch_export) {}

  std::optional<int64_t> count(ViewerSession& session) const override {
    return static_cast<int64_t>(session.export_report().issues.size());
  }

  void draw(ViewerSession& session) override {
    const views::ExportReport& r = session.export_report();
    if (r.empty()) {
      ui::text_wrapped("label",
                       "The logs hold no torch.export records (exported_program, guard_added, "
                       "propagate_real_tensors_provenance, fake-kernel records, symbols created "
                       "outside a compile).");
      return;
    }
    ui::text_wrapped("summary", plural(r.programs.size(), "exported program") + ", " +
                                    plural(r.issues.size(), "issue") +
                                    " (what export could not trace exactly), " +
                                    plural(r.assumptions.size(), "guard") + " it added, " +
                                    plural(r.symbols.size(), "symbol") + " it created.");
    ImGui::BeginChild("##export", ImVec2(0, 0), false);
    if (!r.issues.empty() && section("Issues", r.issues.size()))
      for (const views::ExportIssue& i : r.issues) draw_issue(i);
    if (!r.specializations.empty() && section("Specializations", r.specializations.size())) {
      for (const views::ShapeSpecialization& s : r.specializations) {
        ui::text_colored_wrapped("specialization", kColourWarning, s.sentence());
        if (!s.at.code.empty()) ui::text_wrapped("code", "    " + s.at.code);
      }
    }
    if (!r.assumptions.empty() && section("Guards added", r.assumptions.size()))
      for (const views::ExportIssue& i : r.assumptions) draw_issue(i);
    if (!r.symbols.empty() && section("Symbols", r.symbols.size())) {
      for (const views::ShapeSymbol& s : r.symbols) {
        std::string line = s.symbol + (s.unbacked ? "  unbacked" : "  = " + s.value);
        if (!s.range.empty()) line += "  range " + s.range;
        if (!s.source.empty()) line += "  " + s.source;
        ui::text_wrapped("created-symbol", line + "  at " + frame_words(s.at));
      }
    }
    if (!r.programs.empty() && section("Exported programs", r.programs.size()))
      for (const views::ExportedProgramEntry& p : r.programs) draw_program(session, p);
    ImGui::EndChild();
  }

 private:
  void draw_program(ViewerSession& session, const views::ExportedProgramEntry& p) {
    const std::string label =
        p.file + ":" + std::to_string(p.line) + "  (" + std::to_string(p.size) + " bytes)";
    ImGui::PushID(static_cast<int>(p.event_id));
    ImGui::SetNextItemOpen(true, ImGuiCond_Appearing);
    const bool open = ImGui::TreeNode("##program", "%s", ui::font_safe(label).c_str());
    ui::record("program", label);
    if (open) {
      if (p.payload_id < 0)
        ui::text_disabled("label", "(no payload)");
      else
        draw_code("##code", text_of(session, p.payload_id));
      ImGui::TreePop();
    }
    ImGui::PopID();
  }

  // The program's text, read once per payload (the reader reads the log's tensors when made).
  const CodeText& text_of(ViewerSession& session, int64_t payload_id) {
    if (db_ != session.connection()) {
      texts_.clear();
      reader_.reset();
      db_ = session.connection();
      reader_ = std::make_unique<views::CompileDetailReader>(*db_);
    }
    auto at = texts_.find(payload_id);
    if (at != texts_.end()) return at->second;
    // Read clipped at kMaxProgramBytes, with a note of the full size: never copied whole.
    auto r = reader_->payload_text(payload_id, kMaxProgramBytes);
    std::string text = r.ok() ? std::move(r.value) : r.error;
    return texts_
        .emplace(payload_id, make_code_text(std::move(text), views::PayloadLanguage::kPython))
        .first->second;
  }

  // The session's connection, shared while what this panel read from it lives: a new open
  // replaces the session, and a reader must not outlive its connection.
  std::shared_ptr<const views::Database> db_;
  std::unique_ptr<views::CompileDetailReader> reader_;
  std::map<int64_t, CodeText> texts_;  // by payload id
};

}  // namespace

std::unique_ptr<Panel> make_export_panel() {
  return std::make_unique<ExportPanel>();
}

}  // namespace tlscope::gui
