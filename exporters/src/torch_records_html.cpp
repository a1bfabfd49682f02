// The PGO / Dynamo cache section of cache.html and the collective scheduling section of
// collectives.html, from views/dynamo_profiles.hpp and views/collective_scheduling.hpp.
#include "torch_records_html.hpp"

#include <cstdio>

#include "tlscope/exporters/html.hpp"
#include "tlscope/views/collective_scheduling.hpp"
#include "tlscope/views/dynamo_profiles.hpp"

namespace tlscope::exporters {

namespace {

std::string ms_text(const std::optional<double>& ms) {
  if (!ms) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", *ms);
  return buf;
}

std::string opt_text(const std::optional<int64_t>& v) {
  return v ? std::to_string(*v) : std::string();
}

}  // namespace

std::string dynamo_profiles_html(ReportContext& ctx) {
  const views::Result<views::DynamoProfiles> loaded = views::load_dynamo_profiles(ctx.db);
  const views::DynamoProfiles& d = noted(ctx, "dynamo profiles", loaded);
  if (d.empty()) return "";
  std::string h;
  if (!d.profiles.empty()) {
    h += "<h2>PGO profiles (" + std::to_string(d.profiles.size()) +
         ")</h2>\n<p>The dynamic-shape profile Dynamo loaded from earlier runs and the one it "
         "saved (<code>get_*_code_state</code>, <code>put_*_code_state</code>); <code>?</code> "
         "is a dimension it compiles dynamically from the start.</p>\n";
    for (const views::PgoProfile& p : d.profiles) {
      h += "<details class=\"pgo-profile\" data-action=\"" + html_escape(p.action) +
           "\" data-store=\"" + html_escape(p.store) + "\" data-entries=\"" +
           std::to_string(p.entries) + "\" data-dynamic=\"" + std::to_string(p.dynamic_entries) +
           "\"><summary>" + rank_label(p.rank) + " ";
      append_html_escaped(h, views::profile_words(p));
      if (!p.compile_id.empty()) h += " at compile " + html_escape(p.compile_id);
      h += "</summary>\n";
      if (!p.suggested_sources.empty())
        h += "<p>PGO suggests <code>TORCH_COMPILE_DYNAMIC_SOURCES=\"" +
             html_escape(p.suggested_sources) + "\"</code></p>\n";
      h += "<table class=\"pgo-entries\"><thead><tr><th>frame</th><th>input</th><th>profile</th>"
           "</tr></thead><tbody>\n";
      for (const views::PgoEntry& e : p.rows)
        h += std::string("<tr") + (e.dynamic ? " class=\"warn\"" : "") + "><td>" +
             html_escape(e.code_id) + "</td><td>" + html_escape(e.source) + "</td><td>" +
             html_escape(e.entry) + "</td></tr>\n";
      if (static_cast<int64_t>(p.rows.size()) < p.entries)
        h += "<tr><td colspan=\"3\" class=\"muted\">" +
             std::to_string(p.entries - static_cast<int64_t>(p.rows.size())) +
             " more (pgo_profile_entries)</td></tr>\n";
      h += "</tbody></table></details>\n";
    }
  }
  if (!d.records.empty()) {
    h += "<h2>Dynamo cache (" + std::to_string(d.records.size()) +
         ")</h2>\n<table id=\"dynamo-cache\"><thead><tr><th>rank</th><th>record</th><th>outcome"
         "</th><th>entries</th><th>backends</th><th>keys</th><th>detail</th></tr></thead>"
         "<tbody>\n";
    for (const views::DynamoCacheRecord& r : d.records)
      h += "<tr data-outcome=\"" + html_escape(r.outcome) + "\"><td>" + rank_label(r.rank) +
           "</td><td>" + html_escape(r.name) + "</td><td>" + html_escape(r.outcome) + "</td><td>" +
           opt_text(r.entries) + "</td><td>" + opt_text(r.backends) + "</td><td>" +
           html_escape(r.keys) + "</td><td>" + html_escape(r.detail) + "</td></tr>\n";
    h += "</tbody></table>\n";
  }
  return h;
}

std::string collective_scheduling_html(ReportContext& ctx) {
  const views::Result<views::CollectiveScheduling> loaded =
      views::load_collective_scheduling(ctx.db);
  const views::CollectiveScheduling& c = noted(ctx, "collective scheduling", loaded);
  if (c.empty()) return "";
  std::string h = "<h2>Collective bucketing and overlap scheduling</h2>\n";
  if (!c.spmd_mismatches.empty()) {
    h += "<h3>SPMD graph check</h3>\n<ul id=\"spmd-mismatches\">";
    for (const std::string& m : c.spmd_mismatches)
      h += "<li class=\"bad\">" + html_escape(m) + "</li>";
    h += "</ul>\n";
  }
  if (!c.buckets.empty()) {
    h += "<h3>Buckets (" + std::to_string(c.buckets.size()) +
         ")</h3>\n<table id=\"fx-buckets\"><thead><tr><th>rank</th><th>compile</th><th>"
         "collective</th><th>bucket</th><th>size</th><th>nodes</th></tr></thead><tbody>\n";
    for (const views::CollectiveBucket& b : c.buckets)
      h += "<tr><td>" + rank_label(b.rank) + "</td><td>" + html_escape(b.compile_id) + "</td><td>" +
           html_escape(b.collective) + "</td><td>" + std::to_string(b.index) + "</td><td>" +
           std::to_string(b.size) + "</td><td>" + html_escape(b.nodes) + "</td></tr>\n";
    h += "</tbody></table>\n";
  }
  if (!c.schedules.empty()) {
    h += "<h3>Overlap scheduler graphs (" + std::to_string(c.schedules.size()) +
         ")</h3>\n<table id=\"overlap-schedules\"><thead><tr><th>rank</th><th>compile</th><th>"
         "scheduler</th><th>graph</th><th>lines</th><th>collectives</th><th>waits</th><th>"
         "changed</th></tr></thead><tbody>\n";
    for (const views::OverlapSchedule& s : c.schedules)
      h += "<tr><td>" + rank_label(s.rank) + "</td><td>" + html_escape(s.compile_id) + "</td><td>" +
           html_escape(s.scheduler) + "</td><td>" + html_escape(s.stage) + "</td><td>" +
           std::to_string(s.lines) + "</td><td>" + std::to_string(s.collectives) + "</td><td>" +
           std::to_string(s.waits) + "</td><td>" +
           (s.lines_added ? "+" + std::to_string(*s.lines_added) + " -" +
                                std::to_string(s.lines_removed.value_or(0))
                          : std::string()) +
           "</td></tr>\n";
    h += "</tbody></table>\n";
  }
  if (!c.estimates.empty()) {
    h += "<h3>Collective runtime estimates (" + std::to_string(c.estimates.size()) +
         ")</h3>\n<table id=\"runtime-estimates\"><thead><tr><th>rank</th><th>compile</th><th>"
         "collective</th><th>world size</th><th>benchmarked ms</th><th>NCCL model ms</th><th>"
         "Inductor model ms</th></tr></thead><tbody>\n";
    for (const views::RuntimeEstimate& e : c.estimates)
      h += "<tr><td>" + rank_label(e.rank) + "</td><td>" + html_escape(e.compile_id) + "</td><td>" +
           html_escape(e.collective) + "</td><td>" + opt_text(e.world_size) + "</td><td>" +
           ms_text(e.benchmarked_ms) + "</td><td>" + ms_text(e.nccl_ms) + "</td><td>" +
           ms_text(e.inductor_ms) + "</td></tr>\n";
    h += "</tbody></table>\n";
  }
  return h;
}

}  // namespace tlscope::exporters
