// The recompiles page's "what changed" column (the viewer's recompiles panel shows the same view
// model): read against the reason text of real PyTorch logs and the sample runtime's truth.json.
// A scalar guard such as `L['step'] == 0.0` names only the old value, so the words say the new
// one is not in the log instead of leaving an arrow pointing at nothing.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>
#include <regex>

#include "exporters/report_site.hpp"
#include "exporters/report_support.hpp"
#include "tlscope/exporters/report.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/views/database.hpp"
#include "tlscope/views/occurrences.hpp"

using namespace tlscope::test;
namespace fs = std::filesystem;
namespace views = tlscope::views;

namespace {

const std::string kArrow = " \xE2\x86\x92 ";

// Ingests `inputs` into dir/tlscope.db, writes the report to dir/site; the reason -> change
// cells of the recompiles view model.
std::map<std::string, std::string> changes_of(const std::vector<std::string>& inputs,
                                              const fs::path& dir) {
  auto report = tlscope::test::ingest_and_report(inputs, dir);
  INFO(report.error);
  REQUIRE(report.ok);
  views::Database db((dir / "tlscope.db").string());
  auto groups = views::load_occurrence_groups(db, views::OccurrenceList::kRecompiles);
  INFO(groups.error);
  REQUIRE(groups.ok());
  std::map<std::string, std::string> out;
  for (const views::OccurrenceGroup& g : groups->groups)
    out[g.cells.at(0).text] = g.cells.at(1).text;
  return out;
}

// No change ends in an arrow or a colon with nothing after it.
void check_nothing_dangles(const std::map<std::string, std::string>& changes) {
  for (const auto& [reason, change] : changes) {
    INFO(reason << " -> " << change);
    CHECK(change.find(kArrow + ",") == std::string::npos);
    CHECK((change.size() < kArrow.size() ||
           change.compare(change.size() - kArrow.size(), kArrow.size(), kArrow) != 0));
    CHECK((change.empty() || change.back() != ' '));
    CHECK((change.empty() || change.back() != ':'));
  }
}

}  // namespace

TEST_CASE("recompile changes of multi_rank_logs are the sizes the reason text gives") {
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "recompile-change-real";
  auto changes = changes_of({std::string(TLSCOPE_SHARED_LOGS) + "/multi_rank_logs"}, dir);
  // Ranks 1 and 3 recompile on x's size: 14 distinct reasons (rank 3's six repeat rank 1's).
  REQUIRE(changes.size() == 14);
  const std::regex size_reason(R"(tensor '(\w+)' size mismatch at index (\d+)\. )"
                               R"(expected (\d+), actual (\d+))");
  for (const auto& [reason, change] : changes) {
    INFO(reason);
    std::smatch m;
    REQUIRE(std::regex_match(reason, m, size_reason));
    CHECK(change == m[1].str() + " size[" + m[2].str() + "]: " + m[3].str() + kArrow + m[4].str());
  }
  check_nothing_dangles(changes);
}

TEST_CASE("recompiles sample: a scalar guard's change says the new value is not in the log") {
  fs::path root = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "recompile-change-sample";
  fs::path logs = root / "logs";
  fs::remove_all(root);
  std::string cmd =
      (fs::path(TLSCOPE_BINARY_DIR) / "samples" / "runtime" / "tlscope-sample").string() +
      " recompiles --out " + logs.string() + " > /dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::string truth = slurp(logs / "truth.json");
  auto changes = changes_of({logs.string()}, root / "report");

  // truth.json's recompiles: the guard that failed (the logged reason without its compile id).
  const std::regex entry(R"json("failed_guard": "([^"]*)")json");
  const std::regex scalar(R"(L\['(\w+)'\] == ([-0-9.e]+))");
  const std::regex tensor(R"(tensor '(\w+)' (\w+) mismatch.*expected (\w+), actual (\w+))");
  int scalars = 0, tensors = 0, reasons = 0;
  for (auto it = std::sregex_iterator(truth.begin(), truth.end(), entry);
       it != std::sregex_iterator(); ++it) {
    const std::string reason = (*it)[1].str();
    INFO(reason);
    ++reasons;
    REQUIRE(changes.count(reason) == 1);
    const std::string& change = changes[reason];
    std::smatch m;
    if (std::regex_match(reason, m, scalar)) {
      ++scalars;
      CHECK(change == m[1].str() + " value: was " + m[2].str() + ", new value not in the log");
    } else if (std::regex_match(reason, m, tensor)) {
      ++tensors;
      CHECK(change.rfind(m[1].str() + " " + m[2].str(), 0) == 0);
      CHECK(change.find(": " + m[3].str() + kArrow + m[4].str()) != std::string::npos);
    }
  }
  CHECK(reasons == static_cast<int>(changes.size()));
  CHECK(scalars == 9);  // L['scale'] once, L['step'] 0.0..7.0 (the storm up to the cache limit)
  CHECK(tensors == 3);  // two dtype changes and one size change
  check_nothing_dangles(changes);

  // The report page shows those words, escaped, and no arrow before the cell closes.
  std::string page = slurp(root / "report" / "site" / "recompiles.html");
  CHECK(page.find("step value: was 0.0, new value not in the log") != std::string::npos);
  CHECK(page.find(kArrow + "<") == std::string::npos);
}
