// Compile panel: one compile in full (views::CompileDetailReader): status, failure, restarts and
// recompile reason, links to its graph breaks and recompiles, metrics, runtime and autotuning,
// symbolic shapes (compile_shapes_view.hpp), input tensors, cache outcomes, then its graphs,
// guards, generated code and other artifacts with line numbers and syntax colours, and records of
// kinds nothing else reads. Payload texts are read when first shown.
#include <algorithm>
#include <map>
#include <memory>

#include "code_view.hpp"
#include "compile_shapes_view.hpp"
#include "panel.hpp"
#include "status_colours.hpp"
#include "tlscope/views/compile_detail.hpp"
#include "tlscope/views/time_format.hpp"

namespace tlscope::gui {
namespace {

// Payloads longer than this are cut for drawing; the SQL console reads them whole.
constexpr size_t kMaxPayloadBytes = 4u << 20;
// An other record's metadata is drawn up to this (wrapped text is laid out every frame), as the
// report shows it.
constexpr size_t kMaxRecordBytes = 8u << 10;

class CompilePanel : public Panel {
 public:
  CompilePanel() : Panel(views::ScreenId::compile) {}

  void draw(ViewerSession& session) override {
    const Selection& current = session.nav().current();
    if (session.id() != session_id_ ||
        (current.kind == SelectionKind::kCompile && current.key != key_))
      show(session, current.kind == SelectionKind::kCompile ? current.key : key_);
    if (key_.empty()) {
      ui::text_disabled("label", "No compile chosen: pick one in Compiles, a finding or Ctrl+F.");
      return;
    }
    if (!error_.empty()) ui::text_colored("error", kColourError, error_);
    if (!detail_) return;
    const views::CompileDetail& d = *detail_;
    const views::CompileRow& c = d.compile;
    ui::text("heading",
             "Compile " + c.compile_id + (c.rank >= 0 ? " on rank " + std::to_string(c.rank) : "") +
                 "  (" + std::to_string(c.attempts) + " attempt" + (c.attempts == 1 ? ")" : "s)"));
    ui::text_colored(
        "label", compile_status_colour(c.status, false, !c.recompile_reason.empty(), c.cache_hit()),
        "status: " + c.status + (c.cache.empty() ? "" : ", cache " + c.cache));
    ui::text_wrapped("label", "frame: " + c.co_name + " at " + c.co_filename + ":" +
                                  std::to_string(c.co_firstlineno));
    if (c.duration_us >= 0)
      ui::text("label",
               "compile time: " + views::format_duration_us(static_cast<double>(c.duration_us)));
    if (c.failed()) {
      ui::text_colored("failure", kColourError, "failed: " + c.fail_type);
      ui::text_wrapped("failure", c.fail_reason);
    }
    if (c.restart_count > 0)
      ui::text_colored("label", kColourWarning, "restarts: " + std::to_string(c.restart_count));
    if (!c.recompile_reason.empty()) {
      ui::text_colored("label", kColourNotice, "recompiled because: " + c.recompile_reason);
      ImGui::SameLine();
      if (ui::button("link", "Recompiles")) session.nav().show_panel(views::ScreenId::recompiles);
    }
    if (graph_breaks_ > 0) {
      ui::text_colored("label", kColourWarning, std::to_string(graph_breaks_) + " graph breaks");
      ImGui::SameLine();
      if (ui::button("link", "Graph breaks"))
        session.nav().show_panel(views::ScreenId::graph_breaks);
    }
    for (const auto& cache : d.cache) ui::text("cache", cache.cache + ": " + cache.result);

    if (!d.missing_metrics.empty()) ui::text_colored("label", kColourWarning, d.missing_metrics);
    if (!d.metrics.empty() && ImGui::CollapsingHeader("Metrics")) {
      for (const auto& m : d.metrics) {
        ui::text("label", m.kind);
        for (const auto& f : m.fields) ui::text("metric", "  " + f.name + " = " + f.value);
        for (const auto& f : m.more_fields) {
          const bool unknown = std::find(m.unknown_fields.begin(), m.unknown_fields.end(),
                                         f.name) != m.unknown_fields.end();
          ui::text("metric", "  " + f.name + " = " + f.value + (unknown ? "  (new)" : ""));
        }
      }
    }
    draw_compile_runtime(runtime_);
    draw_compile_shapes(shapes_);
    if (!d.tensors.empty()) {
      ImGui::SetNextItemOpen(true, ImGuiCond_Appearing);
      if (ImGui::CollapsingHeader("Input tensors")) {
        ui::record("section", "Input tensors");
        for (const auto& t : d.tensors) {
          ui::text_wrapped(
              "tensor", (t.source.empty() ? "tensor " + std::to_string(t.tensor_id) : t.source) +
                            "  " + t.dtype + " " + t.size + " stride " + t.stride + " " + t.device);
        }
      }
    }
    auto draw_payload = [&](const views::PayloadEntry& p, bool open_first) {
      const std::string label = p.title() + "  (line " + std::to_string(p.line) + ", " +
                                std::to_string(p.size) + " bytes)";
      ImGui::SetNextItemOpen(open_first, ImGuiCond_Appearing);
      ImGui::PushID(static_cast<int>(p.event_id));
      const bool open = ImGui::TreeNode("##payload", "%s", label.c_str());
      ui::record("payload", label);
      if (open) {
        draw_code("##code", text_of(p));
        ImGui::TreePop();
      }
      ImGui::PopID();
    };
    for (const auto& [section, title] : views::kPayloadSections) {
      size_t n = 0;
      for (const auto& p : d.payloads) n += p.section == section && p.subgraph.empty();
      if (n == 0) continue;
      ImGui::SetNextItemOpen(section != views::PayloadSection::kArtifacts, ImGuiCond_Appearing);
      std::string header = std::string(title) + "  (" + std::to_string(n) + ")";
      if (section == views::PayloadSection::kGuards && !d.guard_latency.empty())
        header += "  guard latency " + d.guard_latency;
      if (!ImGui::CollapsingHeader((header + "###" + title).c_str())) continue;
      ui::record("section", header);
      bool first = true;
      for (const auto& p : d.payloads) {
        if (p.section != section || !p.subgraph.empty()) continue;
        draw_payload(p, first && section != views::PayloadSection::kArtifacts);
        first = false;
      }
    }
    // A subgraph's records (subgraph_name) under its name, as the report groups them.
    const std::vector<views::SubgraphPayloads> subgraphs = views::payloads_by_subgraph(d);
    if (!subgraphs.empty()) {
      const std::string header = "Subgraphs  (" + std::to_string(subgraphs.size()) + ")";
      ImGui::SetNextItemOpen(true, ImGuiCond_Appearing);
      if (ImGui::CollapsingHeader((header + "###Subgraphs").c_str())) {
        ui::record("section", header);
        for (const auto& s : subgraphs) {
          const std::string label = s.name + "  (" + std::to_string(s.payloads.size()) + ")";
          ImGui::PushID(s.name.c_str());
          const bool open = ImGui::TreeNode("##subgraph", "%s", label.c_str());
          ui::record("subgraph", label);
          if (open) {
            for (size_t i : s.payloads) draw_payload(d.payloads[i], false);
            ImGui::TreePop();
          }
          ImGui::PopID();
        }
      }
    }
    // Records of kinds no other section reads (a newer PyTorch's), as the report lists them.
    if (!d.other_records.empty()) {
      const std::string header = "Other records  (" + std::to_string(d.other_records.size()) + ")";
      ImGui::SetNextItemOpen(true, ImGuiCond_Appearing);
      if (ImGui::CollapsingHeader((header + "###Other records").c_str())) {
        ui::record("section", header);
        for (const auto& r : d.other_records)
          ui::text_wrapped("record", r.kind + "  (line " + std::to_string(r.line) + ", attempt " +
                                         std::to_string(r.attempt) +
                                         "): " + r.metadata.substr(0, kMaxRecordBytes));
      }
    }
  }

  views::Status select(ViewerSession& session, const Selection& s) override {
    if (s.kind != SelectionKind::kCompile) return Panel::select(session, s);
    views::Status r = session.check_compile(s.key);
    if (r.ok()) show(session, s.key);
    return r;
  }

  void draw_details(ViewerSession& session, const Selection& s) override {
    const views::CompileRow* c = session.find_compile(s.key);
    if (!c) return;
    ui::text("details", "Compile " + c->compile_id);
    ui::text("details", "status: " + c->status);
    if (c->failed()) ui::text_colored("details", kColourError, c->fail_type);
  }

 private:
  void show(ViewerSession& session, const std::string& key) {
    session_id_ = session.id();
    key_ = key;
    detail_.reset();
    texts_.clear();
    error_.clear();
    graph_breaks_ = 0;
    if (key.empty()) return;
    const views::CompileRow* c = session.find_compile(key);
    if (!c) {
      error_ = "no compile " + key + " in this database";
      return;
    }
    if (db_ != session.connection()) {
      reader_.reset();  // every reader before the connection it reads
      shapes_reader_.reset();
      runtime_reader_.reset();
      db_ = session.connection();
      reader_ = std::make_unique<views::CompileDetailReader>(*db_);
      shapes_reader_ = std::make_unique<views::CompileShapesReader>(*db_);
      runtime_reader_ = std::make_unique<views::CompileRuntimeReader>(*db_);
    }
    auto r = reader_->read(*c);
    if (!r.ok()) error_ = r.error;
    detail_ = std::move(r.value);
    auto shapes = shapes_reader_->read(c->file_id, c->compile_id);
    auto runtime = runtime_reader_->read(c->file_id, c->compile_id);
    if (error_.empty()) error_ = shapes.ok() ? runtime.error : shapes.error;
    shapes_ = std::move(shapes.value);
    runtime_ = std::move(runtime.value);
    for (const auto& g : session.occurrences(views::OccurrenceList::kGraphBreaks).groups)
      for (const auto& o : g.occurrences)
        graph_breaks_ += o.file_id == c->file_id && o.compile_id == c->compile_id;
  }

  const CodeText& text_of(const views::PayloadEntry& p) {
    auto at = texts_.find(p.payload_id);
    if (at != texts_.end()) return at->second;
    // Read clipped at kMaxPayloadBytes, with a note of the full size: never copied whole.
    auto r = reader_->payload_text(p.payload_id, kMaxPayloadBytes);
    std::string text = r.ok() ? std::move(r.value) : r.error;
    return texts_.emplace(p.payload_id, make_code_text(std::move(text), p.language)).first->second;
  }

  std::string key_, error_;
  uint64_t session_id_ = 0;  // the session key_ was read from
  // The session's connection, shared while what this panel read from it lives: a new open
  // replaces the session, and a reader must not outlive its connection.
  std::shared_ptr<const views::Database> db_;
  std::unique_ptr<views::CompileDetailReader> reader_;
  std::unique_ptr<views::CompileShapesReader> shapes_reader_;
  std::unique_ptr<views::CompileRuntimeReader> runtime_reader_;
  views::CompileShapes shapes_;
  views::CompileRuntime runtime_;
  std::optional<views::CompileDetail> detail_;
  std::map<int64_t, CodeText> texts_;  // by payload id
  int64_t graph_breaks_ = 0;
};

}  // namespace

std::unique_ptr<Panel> make_compile_panel() {
  return std::make_unique<CompilePanel>();
}

}  // namespace tlscope::gui
