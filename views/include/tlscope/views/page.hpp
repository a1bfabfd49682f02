// Pagination shared by every list that grows with the log: a front end asks for a Page of rows
// and gets those rows plus the total, so the report and the viewer page the same way.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tlscope::views {

struct Page {
  static constexpr size_t kAll = SIZE_MAX;
  size_t offset = 0;
  size_t limit = kAll;
};

template <typename Row>
struct Paged {
  std::vector<Row> rows;  // the requested rows only
  size_t total = 0;       // rows in the whole list
};

// Pages of `per_page` rows needed for `total` rows; an empty list still has one (empty) page.
inline size_t page_count(size_t total, size_t per_page) {
  per_page = std::max<size_t>(per_page, 1);
  return std::max<size_t>(1, (total + per_page - 1) / per_page);
}

// The rows of `page` from a list already loaded whole.
template <typename Row>
Paged<Row> slice(std::vector<Row> all, Page page) {
  Paged<Row> out;
  out.total = all.size();
  size_t begin = std::min(page.offset, all.size());
  size_t end = begin + std::min(page.limit, all.size() - begin);
  out.rows.assign(std::make_move_iterator(all.begin() + begin),
                  std::make_move_iterator(all.begin() + end));
  return out;
}

}  // namespace tlscope::views
