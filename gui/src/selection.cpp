// Selection parsing and the back/forward history.
#include "selection.hpp"

namespace tlscope::gui {
namespace {

constexpr size_t kMaxHistory = 256;  // older entries fall off; nobody goes back further

const Selection kNothing;

}  // namespace

std::string_view selection_kind_name(SelectionKind kind) {
  switch (kind) {
    case SelectionKind::kNone:
      return "none";
    case SelectionKind::kFinding:
      return "finding";
    case SelectionKind::kCompile:
      return "compile";
    case SelectionKind::kZone:
      return "zone";
    case SelectionKind::kCollective:
      return "collective";
    case SelectionKind::kRecord:
      return "record";
    case SelectionKind::kQuery:
      return "sql";
  }
  return "none";
}

views::Result<Selection> parse_selection(std::string_view what) {
  const size_t colon = what.find(':');
  auto fail = [&](const std::string& why) {
    views::Result<Selection> r;
    r.fail("--select " + std::string(what) + ": " + why);
    return r;
  };
  if (colon == std::string_view::npos || colon + 1 == what.size()) {
    return fail(
        "want KIND:WHAT (finding:1, compile:0/0, collective:GROUP:SEQ, zone:NAME, sql:QUERY)");
  }
  const std::string_view kind = what.substr(0, colon);
  views::Result<Selection> r;
  Selection& s = r.value;
  s.key = std::string(what.substr(colon + 1));
  if (kind == "finding") {
    s.kind = SelectionKind::kFinding;
    if (s.key.find_first_not_of("0123456789") != std::string::npos || s.key.size() > 9 ||
        std::stoi(s.key) < 1) {
      return fail("a finding is its 1-based position in the findings list");
    }
  } else if (kind == "compile") {
    s.kind = SelectionKind::kCompile;
  } else if (kind == "collective") {
    s.kind = SelectionKind::kCollective;
    if (s.key.find(':') == std::string::npos) return fail("a collective is GROUP:SEQ");
  } else if (kind == "zone") {
    s.kind = SelectionKind::kZone;
  } else if (kind == "sql") {
    s.kind = SelectionKind::kQuery;
  } else if (kind == "record") {
    s.kind = SelectionKind::kRecord;
  } else {
    return fail("unknown kind '" + std::string(kind) + "'");
  }
  return r;
}

void Navigator::select(const Selection& s) {
  if (!history_.empty() && history_[at_] == s) return;
  if (!history_.empty()) history_.resize(at_ + 1);
  history_.push_back(s);
  if (history_.size() > kMaxHistory) history_.erase(history_.begin());
  at_ = history_.size() - 1;
}

void Navigator::open(const Selection& s) {
  select(s);
  panel_request_ = s.panel;
  scroll_request_ = true;
}

bool Navigator::back() {
  if (!can_back()) return false;
  --at_;
  panel_request_ = history_[at_].panel;
  scroll_request_ = true;
  return true;
}

bool Navigator::forward() {
  if (!can_forward()) return false;
  ++at_;
  panel_request_ = history_[at_].panel;
  scroll_request_ = true;
  return true;
}

const Selection& Navigator::current() const {
  return history_.empty() ? kNothing : history_[at_];
}

std::optional<views::ScreenId> Navigator::take_panel_request() {
  auto r = panel_request_;
  panel_request_.reset();
  return r;
}

bool Navigator::take_scroll_request() {
  bool r = scroll_request_;
  scroll_request_ = false;
  return r;
}

void Navigator::clear() {
  history_.clear();
  at_ = 0;
  panel_request_.reset();
  scroll_request_ = false;
}

}  // namespace tlscope::gui
