// Folding a long job's files and ranks for the summary (summary_folding.hpp).
#include "tlscope/views/summary_folding.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace tlscope::views {

bool lines_accounted(const FileRow& f) {
  return f.envelope_lines + f.payload_lines + f.blank_lines + f.error_lines == f.lines;
}

bool quiet_file(const FileRow& f) {
  return f.completed && f.errors == 0 && lines_accounted(f);
}

bool empty_file(const FileRow& f) {
  return f.completed && f.bytes == 0 && f.lines == 0 && f.events == 0;
}

FileFolding fold_files(const Summary& s, size_t max_listed, bool all) {
  FileFolding out;
  const bool fold = !all && s.files.size() > max_listed;
  for (size_t i = 0; i < s.files.size(); ++i) {
    const FileRow& f = s.files[i];
    if (fold && empty_file(f)) {
      ++out.empty.files;
      if (f.rank < 0)
        ++out.empty.without_rank;
      else
        out.empty.ranks.push_back(f.rank);
      continue;
    }
    if (!fold || !quiet_file(f)) {
      out.listed.push_back(i);
      continue;
    }
    ++out.files;
    if (f.rank < 0)
      ++out.without_rank;
    else
      out.ranks.push_back(f.rank);
    out.bytes += f.bytes;
    out.lines += f.lines;
    out.events += f.events;
    out.envelope_lines += f.envelope_lines;
    out.payload_lines += f.payload_lines;
    out.blank_lines += f.blank_lines;
    out.error_lines += f.error_lines;
  }
  std::sort(out.ranks.begin(), out.ranks.end());
  std::sort(out.empty.ranks.begin(), out.empty.ranks.end());
  return out;
}

std::vector<RankGroup> group_ranks(const Summary& s, size_t max_listed, bool all) {
  std::vector<RankGroup> out;
  if (all || s.ranks.size() <= max_listed) {
    for (const RankRow& r : s.ranks) out.push_back({{r.rank}, r.files, r.events});
    return out;
  }
  // Files without a rank stay a group of their own: they are not one of the ranks alike.
  std::map<std::pair<int64_t, int64_t>, size_t> by_counts;
  for (const RankRow& r : s.ranks) {
    if (r.rank < 0) {
      out.push_back({{r.rank}, r.files, r.events});
      continue;
    }
    auto [it, fresh] = by_counts.emplace(std::make_pair(r.files, r.events), out.size());
    if (fresh) out.push_back({{}, r.files, r.events});
    out[it->second].ranks.push_back(r.rank);
  }
  std::stable_sort(out.begin(), out.end(), [](const RankGroup& a, const RankGroup& b) {
    if (a.ranks.size() != b.ranks.size()) return a.ranks.size() > b.ranks.size();
    return a.ranks.front() < b.ranks.front();
  });
  return out;
}

}  // namespace tlscope::views
