// The summary of a long job folds: quiet files into one line, ranks that logged alike into one.
#include <catch2/catch.hpp>

#include "tlscope/views/findings.hpp"
#include "tlscope/views/summary_folding.hpp"

using namespace tlscope::views;

namespace {

FileRow quiet_rank_file(int64_t id, int64_t rank) {
  FileRow f;
  f.id = id;
  f.path = "rank_" + std::to_string(rank) + ".log";
  f.rank = rank;
  f.bytes = 1000;
  f.lines = 10;
  f.envelope_lines = 6;
  f.payload_lines = 4;
  f.events = 6;
  f.completed = true;
  return f;
}

Summary job_of(int64_t ranks) {
  Summary s;
  for (int64_t r = 0; r < ranks; ++r) {
    s.files.push_back(quiet_rank_file(r + 1, r));
    s.ranks.push_back({r, 1, 6});
  }
  s.rank_count = ranks;
  return s;
}

}  // namespace

TEST_CASE("summary folding: a small job lists every file and every rank") {
  Summary s = job_of(static_cast<int64_t>(kListedFiles));
  FileFolding fold = fold_files(s);
  CHECK(fold.listed.size() == kListedFiles);
  CHECK(fold.files == 0);
  CHECK(group_ranks(s).size() == kListedFiles);
}

TEST_CASE("summary folding: 1,024 quiet files fold into one line, the odd ones stay listed") {
  Summary s = job_of(1024);
  s.files[2].errors = 3;         // rank 2: input errors
  s.files[7].completed = false;  // rank 7: a killed ingest
  s.files[9].blank_lines = 1;    // rank 9: buckets no longer add up
  s.ranks[2].events = 5;
  FileFolding fold = fold_files(s);
  REQUIRE(fold.listed == std::vector<size_t>{2, 7, 9});
  CHECK(fold.files == 1021);
  CHECK(fold.ranks.size() == 1021);
  CHECK(rank_words(fold.ranks, s.rank_count) == "ranks 0-1, 3-6, 8, 10-1023 (1,021 of 1,024)");
  CHECK(fold.bytes == 1021 * 1000);
  CHECK(fold.lines == 1021 * 10);
  CHECK(fold.envelope_lines + fold.payload_lines == fold.lines);
  CHECK(fold_files(s, kListedFiles, true).listed.size() == 1024);

  std::vector<RankGroup> groups = group_ranks(s);
  REQUIRE(groups.size() == 2);
  CHECK(groups[0].ranks.size() == 1023);
  CHECK(groups[0].events == 6);
  CHECK(groups[1].ranks == std::vector<int64_t>{2});
  CHECK(groups[1].events == 5);
  CHECK(group_ranks(s, kListedFiles, true).size() == 1024);
}

TEST_CASE("summary folding: files without a rank are a group and a count of their own") {
  Summary s = job_of(20);
  FileRow plain = quiet_rank_file(21, -1);
  s.files.push_back(plain);
  s.ranks.insert(s.ranks.begin(), RankRow{-1, 1, 6});
  FileFolding fold = fold_files(s);
  CHECK(fold.files == 21);
  CHECK(fold.without_rank == 1);
  CHECK(fold.ranks.size() == 20);
  std::vector<RankGroup> groups = group_ranks(s);
  REQUIRE(groups.size() == 2);
  CHECK(groups[0].ranks.size() == 20);
  CHECK(groups[1].ranks == std::vector<int64_t>{-1});
}

TEST_CASE("summary folding: empty files fold into one line of their own, past 16 files") {
  Summary s = job_of(40);
  for (int64_t r = 0; r < 30; ++r) {
    FileRow& f = s.files[static_cast<size_t>(r)];
    f.bytes = f.lines = f.envelope_lines = f.payload_lines = f.events = 0;
    f.errors = 1;  // "input is empty"
  }
  s.files[3].completed = false;  // a killed read of an empty file still needs a look
  FileFolding fold = fold_files(s);
  CHECK(fold.empty.files == 29);
  CHECK(rank_words(fold.empty.ranks, s.rank_count) == "ranks 0-2, 4-29 (29 of 40)");
  CHECK(fold.listed == std::vector<size_t>{3});
  CHECK(fold.files == 10);
  // A small job still lists each.
  Summary small = job_of(4);
  small.files[0].bytes = small.files[0].lines = small.files[0].events = 0;
  CHECK(fold_files(small).empty.files == 0);
  CHECK(fold_files(small).listed.size() == 4);
}
