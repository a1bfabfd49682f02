// A finding in words. The findings table holds facts (kind, ranks, place columns and the kind's
// values in `detail`, docs/schema.md); this is the one place that turns them into the sentence the
// summary, the report, the viewer and every other front end show: one wording function per kind,
// in a table built from the one list of kinds (finding_kinds.hpp), so a kind without words does
// not build.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/finding_facts.hpp"

namespace tlscope::views {

// One findings row, as read (read_finding_facts). Texts are "" where the column is NULL.
struct FindingFacts {
  int64_t id = 0;
  std::string kind, severity;
  std::vector<int64_t> ranks, other_ranks;
  std::string pg_name, pg_desc, compile_id, frame, file;
  std::optional<int64_t> seq, line;
  // The kind's detail values by key (finding_kinds.hpp `values`): strings as they are, numbers as
  // JSON writes them, lists and objects as their JSON text. Null values are left out.
  std::map<std::string, std::string, std::less<>> values;

  std::string value(std::string_view key) const;  // "" when missing
  bool has(std::string_view key) const { return values.find(key) != values.end(); }
};

// The columns read_finding_facts takes, in its order: `SELECT <kFindingFactColumns> FROM findings`.
inline constexpr std::string_view kFindingFactColumns =
    "id, kind, severity, ranks, other_ranks, pg_name, pg_desc, seq, compile_id, frame, file, "
    "line, detail";
// A row of kFindingFactColumns starting at column `first`.
FindingFacts read_finding_facts(const Statement& s, int first = 0);

// A sentence as it is built: tlscope's own words, literal, and the log texts it quotes, scanned
// for per-process and per-occurrence values (finding_facts.hpp) so findings of one fact merge.
class FindingSentence {
 public:
  FindingSentence& words(std::string_view w);
  FindingSentence& quote(std::string_view log_text);
  const Fact& fact() const { return fact_; }
  const std::string& text() const { return text_; }

 private:
  Fact fact_;
  std::string text_;
};

// Whether a finding of `kind` is about one process: its sentence starts with its rank ("rank 2:
// ..."), and one fact on several ranks is one line with their rank set in front. The other kinds
// name their ranks inside the sentence ("rank 3 arrived ... ranks 0-2 (3 of 4) waited ...").
bool finding_about_one_process(std::string_view kind);

// The sentence of one finding without its rank in front (what merges across ranks); `job_ranks`
// is the job's rank count, the "of N" of the rank sets it names. A kind this build does not know
// is worded from its place columns.
FindingSentence finding_body(const FindingFacts& f, int64_t job_ranks);

// The whole sentence of one finding: "rank 2: " (finding_about_one_process, one rank) and its body.
std::string finding_sentence(const FindingFacts& f, int64_t job_ranks);

// Every finding of the database in id order, each with its sentence: what the analysis tests and
// `tlscope query`-like tools read instead of a stored message. Empty before analysis.
struct WordedFinding {
  FindingFacts facts;
  std::string sentence;
};
Result<std::vector<WordedFinding>> word_findings(const Database& db);

}  // namespace tlscope::views
