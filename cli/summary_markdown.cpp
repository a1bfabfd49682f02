// The summary's markdown tables (summary_markdown.hpp), from the same model as its JSON.
#include "summary_markdown.hpp"

#include "markdown_table.hpp"
#include "tlscope/views/rank_words.hpp"

namespace tlscope::cli {
namespace {

std::string number(int64_t n) {
  return std::to_string(n);
}

// "0-3, 5": a 1,024-rank set stays a few ranges.
std::string ranks_cell(const std::vector<int64_t>& ranks) {
  return markdown_text(views::rank_runs(ranks));
}

}  // namespace

std::string summary_markdown(const views::RunSummary& s, const std::string& source) {
  std::string out = std::string("<!-- ") + kSummaryMarkdownSchema + " -->\n";
  out += "## tlscope summary of " + markdown_text(source) + "\n\n";

  const int64_t job_ranks = static_cast<int64_t>(s.ranks.size());
  MarkdownTable run({"PyTorch", "ranks", "files", "incomplete files", "analysed"});
  run.row(
      {s.torch_version ? markdown_text(*s.torch_version) : "",
       s.ranks.empty() ? "single process" : number(job_ranks) + " (" + ranks_cell(s.ranks) + ")",
       number(s.health.files), number(s.health.incomplete_files), s.analysed ? "yes" : "no"});
  out += run.text();

  out += "\n### Compiles\n\n";
  MarkdownTable compiles({"attempted", "completed", "failed", "unfinished", "restarts",
                          "recompiles", "graph breaks", "distinct graph breaks"});
  compiles.row({number(s.compiles.attempted), number(s.compiles.completed),
                number(s.compiles.failed), number(s.compiles.unfinished),
                number(s.compiles.restarts), number(s.recompiles), number(s.graph_break_records),
                number(s.graph_breaks_distinct)});
  out += compiles.text();

  out += "\n### Frames\n\n";
  MarkdownTable frames(
      {"function", "file", "line", "compiles", "completed", "failed", "recompile reasons"});
  for (const views::FrameSummary& f : s.frames) {
    std::string reasons;
    for (const std::string& r : f.recompile_reasons)
      reasons += (reasons.empty() ? "" : "; ") + markdown_text(r);
    frames.row({markdown_text(f.function), markdown_text(f.file), f.line >= 0 ? number(f.line) : "",
                number(f.compiles), number(f.completed), number(f.failed), reasons});
  }
  out += frames.empty() ? "_No frames compiled._\n" : frames.text();

  out += "\n### Findings\n\n";
  MarkdownTable findings({"kind", "severity", "ranks", "compile", "finding"});
  for (const views::FindingSummary& f : s.findings)
    findings.row({markdown_text(f.kind), markdown_text(f.severity), ranks_cell(f.ranks),
                  markdown_text(f.compile_id), markdown_text(f.text)});
  if (!s.analysed)
    out += "_Not analysed yet (tlscope analyze DB)._\n";
  else
    out += findings.empty() ? "_No findings._\n" : findings.text();
  return out;
}

}  // namespace tlscope::cli
