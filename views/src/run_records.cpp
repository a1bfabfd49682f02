// The parts of a run's summary that today's logs add (run_records.hpp), each from the view model
// that already shows it: run_environment, compile_phases, unknown_records, vllm.
#include "tlscope/views/run_records.hpp"

#include <algorithm>
#include <map>

#include "read_rows.hpp"
#include "tlscope/views/run_environment.hpp"
#include "tlscope/views/unknown_records.hpp"
#include "tlscope/views/vllm.hpp"

namespace tlscope::views {

Result<RunRecords> load_run_records(const Database& db) {
  return load_run_records(db, load_run_environment(db));
}

Result<RunRecords> load_run_records(const Database& db, const Result<RunEnvironment>& env) {
  Result<RunRecords> out;
  RunRecords& r = out.value;
  if (!env.ok()) out.fail(env.error);
  r.torch_commit = env.value.torch_commit;
  r.config.assign(env.value.config.begin(), env.value.config.end());

  Result<std::vector<PhaseTotal>> phases = load_phase_totals(db);
  if (!phases.ok()) out.fail(phases.error);
  r.compile_phases = std::move(phases.value);

  if (db.has_table("events")) {
    std::vector<KindCount> kinds;
    read_rows(db, "SELECT kind, count(*) AS n FROM events GROUP BY kind ORDER BY n DESC, kind", out,
              [&](const Statement& s) {
                kinds.push_back({s.text(0), s.int64(1)});
              });
    r.unknown_record_kinds = unknown_kinds(kinds);
  }

  if (db.has_column("events", "subgraph_name")) {
    std::map<std::pair<std::string, std::string>, size_t> at;
    read_rows(db,
              "SELECT coalesce(e.compile_id, ''), e.subgraph_name, coalesce(a.name, e.kind) FROM "
              "events e LEFT JOIN artifacts a ON a.event_id = e.id WHERE e.subgraph_name IS NOT "
              "NULL ORDER BY e.id",
              out, [&](const Statement& s) {
                auto [it, fresh] = at.try_emplace({s.text(0), s.text(1)}, r.subgraphs.size());
                if (fresh) r.subgraphs.push_back({s.text(0), s.text(1), {}});
                r.subgraphs[it->second].artifacts.push_back(s.text(2));
              });
  }

  // The summary lists calls, config, piecewise compiles and passes, never their records.
  Result<VllmReport> vllm = load_vllm(db, VllmRead::without_artifacts);
  if (!vllm.ok()) out.fail(vllm.error);
  if (vllm.value.present) {
    VllmSummary& v = r.vllm.emplace();
    for (const VllmCall& c : vllm.value.calls) {
      if (v.config.empty())
        for (const VllmConfigEntry& e : c.config) v.config.emplace_back(e.key, e.value);
      std::vector<const VllmPiecewise*> pieces;
      for (const VllmSizeGroup& g : c.groups)
        for (const VllmPiecewise& p : g.piecewise) pieces.push_back(&p);
      // The groups gather a call's piecewise compiles by size; the summary lists them as logged.
      std::sort(pieces.begin(), pieces.end(),
                [](const VllmPiecewise* a, const VllmPiecewise* b) { return a->id < b->id; });
      for (const VllmPiecewise* p : pieces)
        v.piecewise.push_back({p->index, p->range_start, p->range_end, p->submod_name,
                               p->single_size, p->cudagraph_capture_size});
      for (const VllmPass& p : c.passes) v.post_grad_passes.push_back(p.name);
    }
  }
  return out;
}

}  // namespace tlscope::views
