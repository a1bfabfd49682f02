// Reads the vLLM screen from the vllm_* analysis tables (see vllm.hpp).
#include "tlscope/views/vllm.hpp"

#include <map>

#include "read_rows.hpp"
#include "tlscope/model/analysis/line_diff.hpp"
#include "tlscope/model/cell_text.hpp"

namespace tlscope::views {

namespace {

// A graph shown in a diff is read clipped, as the report inlines payloads (1 MiB).
constexpr size_t kDiffTextLimit = size_t{1} << 20;

std::string group_label(const VllmPiecewise& p) {
  auto num = [](const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "?"; };
  if (p.single_size || (p.range_start && p.range_start == p.range_end))
    return "size " + num(p.range_start);
  return "range [" + num(p.range_start) + ", " + num(p.range_end) + "]";
}

}  // namespace

std::string VllmReport::config_value(std::string_view key) const {
  if (calls.empty()) return {};
  for (const VllmConfigEntry& e : calls.front().config)
    if (e.key == key) return e.value;
  return {};
}

Result<VllmReport> load_vllm(const Database& db, VllmRead what) {
  Result<VllmReport> out;
  VllmReport& v = out.value;
  if (!db.has_table("vllm_artifacts") || !db.has_table("vllm_config") ||
      !db.has_table("vllm_piecewise") || !db.has_table("vllm_post_grad_passes"))
    return out;
  // The calls: every (file, call) that has a record, in log order.
  std::map<std::pair<int64_t, int64_t>, size_t> call_of;
  read_rows(db,
            "SELECT file_id, call_index, min(rank), min(compile_id) FROM vllm_artifacts "
            "WHERE role <> 'other' GROUP BY file_id, call_index ORDER BY min(event_id)",
            out, [&](const Statement& s) {
              VllmCall& c = v.calls.emplace_back();
              c.file_id = s.int64(0);
              c.index = s.int64(1);
              c.rank = s.opt_int64(2);
              c.compile_id = s.text(3);
              call_of[{c.file_id, c.index}] = v.calls.size() - 1;
            });
  v.present = !v.calls.empty();
  if (!v.present) return out;
  auto call = [&](const Statement& s, int file_col) -> VllmCall* {
    auto it = call_of.find({s.int64(file_col), s.int64(file_col + 1)});
    return it == call_of.end() ? nullptr : &v.calls[it->second];
  };
  read_rows(db,
            "SELECT file_id, call_index, coalesce(key, ''), coalesce(value, ''), type FROM "
            "vllm_config ORDER BY id",
            out, [&](const Statement& s) {
              if (VllmCall* c = call(s, 0)) c->config.push_back({s.text(2), s.text(3), s.text(4)});
            });
  // Piecewise compiles, grouped by size or range in first-seen order.
  std::map<int64_t, std::pair<size_t, std::pair<size_t, size_t>>> piece_at;  // id -> call, group, i
  read_rows(db,
            "SELECT file_id, call_index, id, piecewise_index, total_piecewise_compiles, "
            "range_start, range_end, coalesce(submod_name, ''), is_single_size, "
            "is_cudagraph_capture_size, event_id FROM vllm_piecewise ORDER BY id",
            out, [&](const Statement& s) {
              VllmCall* c = call(s, 0);
              if (!c) return;
              VllmPiecewise p;
              p.id = s.int64(2);
              p.index = s.opt_int64(3);
              p.total = s.opt_int64(4);
              p.range_start = s.opt_int64(5);
              p.range_end = s.opt_int64(6);
              p.submod_name = s.text(7);
              p.single_size = s.int64_or(8, 0) != 0;
              p.cudagraph_capture_size = s.int64_or(9, 0) != 0;
              p.event_id = s.int64(10);
              const std::string label = group_label(p);
              size_t g = 0;
              while (g < c->groups.size() && c->groups[g].label != label) ++g;
              if (g == c->groups.size()) {
                c->groups.push_back({label, p.single_size, false, {}});
              }
              VllmSizeGroup& group = c->groups[g];
              group.cudagraph_capture_size |= p.cudagraph_capture_size;
              group.piecewise.push_back(std::move(p));
              piece_at[group.piecewise.back().id] = {static_cast<size_t>(c - v.calls.data()),
                                                     {g, group.piecewise.size() - 1}};
            });
  if (what == VllmRead::full)
    read_rows(db,
              "SELECT file_id, call_index, piecewise_id, event_id, coalesce(payload_id, 0), kind, "
              "name, role FROM vllm_artifacts ORDER BY event_id",
              out, [&](const Statement& s) {
                VllmCall* c = call(s, 0);
                if (!c) return;
                VllmArtifact a{s.int64(3), s.int64(4), s.text(5), s.text(6), s.text(7)};
                if (a.role == "split_graph" && c->split_graph_event_id == 0) {
                  c->split_graph_event_id = a.event_id;
                  c->split_graph_payload_id = a.payload_id;
                }
                if (a.role == "patterns") c->patterns.push_back(a);
                if (a.role == "config" || a.role == "compile_start") return;
                auto it = s.is_null(2) ? piece_at.end() : piece_at.find(s.int64(2));
                if (it == piece_at.end()) {
                  c->before_piecewise.push_back(std::move(a));
                } else {
                  VllmCall& owner = v.calls[it->second.first];
                  owner.groups[it->second.second.first]
                      .piecewise[it->second.second.second]
                      .artifacts.push_back(std::move(a));
                }
              });
  read_rows(db,
            "SELECT p.file_id, p.call_index, p.pass_index, coalesce(p.pass_name, ''), p.chain, "
            "p.event_id, coalesce(a.payload_id, 0), coalesce(p.base_event_id, 0), "
            "coalesce(p.patterns_event_id, 0), coalesce(pa.payload_id, 0), p.lines_added, "
            "p.lines_removed, p.piecewise_id, coalesce(p.compile_id, '') FROM "
            "vllm_post_grad_passes p LEFT JOIN vllm_artifacts a ON a.event_id = p.event_id "
            "LEFT JOIN vllm_artifacts pa ON pa.event_id = p.patterns_event_id ORDER BY p.id",
            out, [&](const Statement& s) {
              VllmCall* c = call(s, 0);
              if (!c) return;
              VllmPass& p = c->passes.emplace_back();
              p.index = s.opt_int64(2);
              p.name = s.text(3);
              p.chain = s.int64(4);
              p.event_id = s.int64(5);
              p.payload_id = s.int64(6);
              p.base_event_id = s.int64(7);
              p.patterns_event_id = s.int64(8);
              p.patterns_payload_id = s.int64(9);
              p.lines_added = s.opt_int64(10);
              p.lines_removed = s.opt_int64(11);
              p.piecewise_id = s.opt_int64(12);
              p.compile_id = s.text(13);
            });
  return out;
}

std::vector<VllmDiffLine> pass_diff(std::string_view before, std::string_view after,
                                    size_t context) {
  const std::vector<model::analysis::DiffLine> diff = model::analysis::line_diff(before, after);
  // Keep the changed lines and `context` lines either side of each.
  std::vector<bool> keep(diff.size(), false);
  for (size_t i = 0; i < diff.size(); ++i) {
    if (diff[i].op == ' ') continue;
    const size_t from = i >= context ? i - context : 0;
    for (size_t k = from; k < diff.size() && k <= i + context; ++k) keep[k] = true;
  }
  std::vector<VllmDiffLine> out;
  bool elided = false;
  for (size_t i = 0; i < diff.size(); ++i) {
    if (!keep[i]) {
      if (!elided) out.push_back({'@', "...", 0, 0});
      elided = true;
      continue;
    }
    elided = false;
    out.push_back(
        {diff[i].op, model::clip_cell_text(diff[i].text), diff[i].old_line, diff[i].new_line});
  }
  return out;
}

Result<VllmPassTexts> load_pass_texts(const Database& db, const VllmPass& pass) {
  Result<VllmPassTexts> out;
  Statement st = db.prepare(
      "SELECT (SELECT p.text FROM events e JOIN payloads p ON p.id = e.payload_id WHERE e.id = "
      "?1), (SELECT p.text FROM events e JOIN payloads p ON p.id = e.payload_id WHERE e.id = "
      "?2)");
  st.bind(1, pass.base_event_id).bind(2, pass.event_id);
  if (st.step()) {
    out.value.before = model::clip_cell_text(st.text_view(0), kDiffTextLimit);
    out.value.after = model::clip_cell_text(st.text_view(1), kDiffTextLimit);
  }
  if (!st.error().empty()) out.fail(st.error());
  return out;
}

}  // namespace tlscope::views
