// The sentence of each finding kind (finding_words.hpp). Every kind of the one list has exactly
// one wording function below; kWordings is built from TLSCOPE_FINDING_KINDS, so a kind added
// there without its words here fails to build.
#include "tlscope/views/finding_words.hpp"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "json_read.hpp"
#include "tlscope/model/analysis/finding_kinds.hpp"
#include "tlscope/model/cell_text.hpp"
#include "tlscope/views/rank_words.hpp"

namespace tlscope::views {

namespace {

using model::analysis::FindingKind;
using model::analysis::kFindingKinds;

std::string number_text(int64_t n) {
  return std::to_string(n);
}

// One reused parser per thread: the report words findings on several threads.
simdjson::dom::parser& json_parser() {
  thread_local simdjson::dom::parser parser;
  return parser;
}

// A detail value's text: strings as they are, other scalars and containers as JSON.
std::optional<std::string> value_text(simdjson::dom::element e) {
  switch (e.type()) {
    case simdjson::dom::element_type::NULL_VALUE:
      return std::nullopt;
    case simdjson::dom::element_type::STRING:
      return std::string(std::string_view(e));
    default:
      return simdjson::to_string(e);
  }
}

// ---- pieces every kind uses ----

FindingSentence& frame_of(FindingSentence& s, const FindingFacts& f) {
  return f.frame.empty() ? s.words("(unknown frame)") : s.quote(f.frame);
}

// " at train.py:41" when the finding names a source file.
FindingSentence& at_place(FindingSentence& s, const FindingFacts& f) {
  if (f.file.empty()) return s;
  return s.words(" at ").quote(f.file).words(":").words(f.line ? number_text(*f.line) : "?");
}

// "group dp" (the group's description when it has one, else its name).
FindingSentence& group_of(FindingSentence& s, const FindingFacts& f) {
  return s.words("group ").quote(f.pg_desc.empty() ? f.pg_name : f.pg_desc);
}

std::string seq_text(const FindingFacts& f) {
  return f.seq ? number_text(*f.seq) : "?";
}

// "12.3 ms" from a detail value in microseconds.
std::string ms(const FindingFacts& f, std::string_view key) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.1f ms", std::strtod(f.value(key).c_str(), nullptr) / 1000.0);
  return buf;
}

std::string has_have(const std::vector<int64_t>& ranks) {
  return ranks.size() == 1 ? " has " : " have ";
}

// A JSON list of strings or integers from a detail value; empty when it is not one.
std::vector<std::string> string_list(std::string_view json) {
  std::vector<std::string> out;
  simdjson::dom::element doc;
  if (json.empty() || parse_json(json, json_parser(), doc) || !doc.is_array()) return out;
  for (simdjson::dom::element e : doc.get_array())
    if (auto t = value_text(e)) out.push_back(*t);
  return out;
}

std::vector<int64_t> int_list_of(simdjson::dom::element e) {
  std::vector<int64_t> out;
  if (!e.is_array()) return out;
  for (simdjson::dom::element v : e.get_array())
    if (v.is_int64()) out.push_back(int64_t(v));
  return out;
}

std::string field(simdjson::dom::element obj, std::string_view key) {
  simdjson::dom::element v;
  if (!obj.is_object() || obj.at_key(key).get(v)) return {};
  return value_text(v).value_or("");
}

// ---- one function per kind ----

void word_compile_failure(FindingSentence& s, const FindingFacts& f, int64_t) {
  s.words("compile ").quote(f.compile_id).words(" of ");
  frame_of(s, f).words(" failed with ").quote(f.value("fail_type")).words(": ");
  if (f.has("fail_reason"))
    s.quote(f.value("fail_reason"));
  else
    s.words("(no reason)");
  at_place(s, f);
}

void word_desync(FindingSentence& s, const FindingFacts& f, int64_t job_ranks) {
  if (f.has("more")) {
    s.words(f.value("more") + " more sequence ids of ");
    group_of(s, f).words(" disagree, from " + seq_text(f) + " to " + f.value("last_seq") +
                         ": the ranks' collective streams stay out of step");
    return;
  }
  struct Issued {
    std::vector<int64_t> ranks;
    std::string op, sizes, dtype;
  };
  std::vector<Issued> groups;
  simdjson::dom::element doc;
  if (!parse_json(f.value("groups"), json_parser(), doc) && doc.is_array())
    for (simdjson::dom::element g : doc.get_array()) {
      simdjson::dom::element ranks;
      groups.push_back({g.at_key("ranks").get(ranks) ? std::vector<int64_t>{} : int_list_of(ranks),
                        field(g, "op"), field(g, "input_sizes"), field(g, "dtype")});
    }
  const size_t ref = static_cast<size_t>(std::strtoll(f.value("reference").c_str(), nullptr, 10));
  if (ref >= groups.size()) {
    s.words("ranks disagree at sequence " + seq_text(f) + " of ");
    group_of(s, f);
    return;
  }
  const Issued& reference = groups[ref];
  bool ops_differ = false, sizes_differ = false, dtypes_differ = false;
  for (const Issued& g : groups) {
    ops_differ |= g.op != reference.op;
    sizes_differ |= g.sizes != reference.sizes;
    dtypes_differ |= g.dtype != reference.dtype;
  }
  auto issued = [&](const Issued& g) {
    s.words(rank_words(g.ranks, job_ranks) + " issued ").quote(g.op);
    if (!ops_differ && sizes_differ) s.words(" of ").quote(g.sizes);
    if (!ops_differ && dtypes_differ) s.words(" in ").quote(g.dtype);
  };
  bool first = true;
  for (size_t i = 0; i < groups.size(); ++i) {
    if (i == ref) continue;
    if (!first) s.words(" and ");
    first = false;
    issued(groups[i]);
  }
  s.words(" where ");
  issued(reference);
  s.words(" at sequence " + seq_text(f) + " of ");
  group_of(s, f);
}

void word_missing_collective(FindingSentence& s, const FindingFacts& f, int64_t job_ranks) {
  s.words(rank_words(f.other_ranks, job_ranks) + " reached sequence " + seq_text(f) + " of ");
  group_of(s, f).words(" (").quote(f.value("op"));
  s.words(") but " + rank_words(f.ranks, job_ranks) + " never did");
  std::vector<int64_t> timed_out = ranks_from_json(f.value("timed_out_ranks"));
  if (!timed_out.empty()) s.words("; " + rank_words(timed_out, job_ranks) + " timed out waiting");
}

void word_straggler(FindingSentence& s, const FindingFacts& f, int64_t job_ranks) {
  s.words(rank_words(f.ranks, job_ranks) + " arrived " + ms(f, "lag_us") +
          " after the others' median arrival at sequence " + seq_text(f) + " of ");
  group_of(s, f).words(" (").quote(f.value("op"));
  s.words("); " + rank_words(f.other_ranks, job_ranks) + " waited " + ms(f, "wait_us") +
          " in total");
}

// What a divergence aspect (rank_divergence.aspect) compares, in words.
std::string aspect_words(std::string_view aspect) {
  static constexpr std::pair<std::string_view, std::string_view> kAspects[] = {
      {"compile_ids", "the set of compile ids"},
      {"cache", "the cache hit/miss sequence"},
      {"execution_order", "the graph execution order"},
      {"collective_schedule", "the collective schedule"},
      {"runtime_estimates", "the estimated runtime"},
      {"tensor_meta", "the tensor metadata"}};
  for (const auto& [name, words] : kAspects)
    if (name == aspect) return std::string(words);
  return std::string(aspect);
}

// "all_reduce" from "torch.ops._c10d_functional.all_reduce.default".
std::string short_op(std::string op) {
  for (std::string_view strip : {"torch.ops._c10d_functional.", "torch.ops.c10d_functional."})
    if (std::string_view(op).substr(0, strip.size()) == strip) op.erase(0, strip.size());
  constexpr std::string_view kDefault = ".default";
  if (op.size() > kDefault.size() &&
      std::string_view(op).substr(op.size() - kDefault.size()) == kDefault)
    op.resize(op.size() - kDefault.size());
  return op;
}

// A divergence value as a person reads it: a schedule (a JSON list of op names) as the short op
// names, anything longer than a line shortened.
std::string readable(std::string_view aspect, const std::string& value) {
  if (value.empty()) return "nothing";
  std::string out = value;
  if (aspect == "collective_schedule") {
    std::string list;
    for (const std::string& op : string_list(value))
      list += (list.empty() ? "" : ", ") + short_op(op);
    out = "[" + list + "]";
  }
  constexpr size_t kLongest = 160;
  if (out.size() > kLongest) out = out.substr(0, kLongest - 3) + "...";
  return out;
}

void word_rank_divergence(FindingSentence& s, const FindingFacts& f, int64_t job_ranks) {
  const std::string aspect = f.value("aspect");
  s.words(aspect_words(aspect));
  if (!f.compile_id.empty()) s.words(" of compile ").quote(f.compile_id);
  s.words(" differs between ranks: ");
  struct Differing {
    std::vector<int64_t> ranks;
    std::string value;
  };
  std::vector<Differing> differing;
  simdjson::dom::element doc;
  if (!parse_json(f.value("differing"), json_parser(), doc) && doc.is_array())
    for (simdjson::dom::element d : doc.get_array()) {
      simdjson::dom::element ranks;
      differing.push_back(
          {d.at_key("ranks").get(ranks) ? std::vector<int64_t>{} : int_list_of(ranks),
           field(d, "value")});
    }
  // A sentence names at most this many differing values; the rest are counted.
  constexpr size_t kValuesPerLine = 4;
  std::vector<int64_t> rest;
  for (size_t i = 0; i < differing.size(); ++i) {
    const Differing& d = differing[i];
    if (i >= kValuesPerLine) {
      rest.insert(rest.end(), d.ranks.begin(), d.ranks.end());
      continue;
    }
    if (i) s.words(" and ");
    s.words(rank_words(d.ranks, job_ranks) + has_have(d.ranks)).quote(readable(aspect, d.value));
  }
  if (differing.size() > kValuesPerLine)
    s.words(" and " + rank_words(rest, job_ranks) + " " +
            std::to_string(differing.size() - kValuesPerLine) + " other values");
  s.words(" where " + rank_words(f.other_ranks, job_ranks) + has_have(f.other_ranks))
      .quote(readable(aspect, f.value("other_value")));
}

void word_collective_parity(FindingSentence& s, const FindingFacts& f, int64_t) {
  s.words("compile ").quote(f.compile_id);
  const int64_t graph = std::strtoll(f.value("graph").c_str(), nullptr, 10);
  if (graph) s.words(" (graph " + number_text(graph + 1) + ")");
  s.words(": ");
  struct Op {
    std::string op;
    std::optional<int64_t> scheduled, generated, unwaited;
  };
  std::vector<Op> ops;
  simdjson::dom::element doc;
  auto opt = [](simdjson::dom::element o, std::string_view key) -> std::optional<int64_t> {
    simdjson::dom::element v;
    if (o.at_key(key).get(v) || !v.is_int64()) return std::nullopt;
    return int64_t(v);
  };
  if (!parse_json(f.value("ops"), json_parser(), doc) && doc.is_array())
    for (simdjson::dom::element o : doc.get_array())
      ops.push_back({field(o, "op"), opt(o, "scheduled"), opt(o, "generated"), opt(o, "unwaited")});
  bool any_part = false;
  auto part = [&]() -> FindingSentence& {
    return s.words(std::exchange(any_part, true) ? "; " : "");
  };
  bool differ = false;
  for (const Op& o : ops) {
    if (!o.generated || *o.generated == o.scheduled.value_or(0)) continue;
    if (!differ) part().words("the collective schedule and the generated code disagree: ");
    s.words(differ ? ", " : "");
    differ = true;
    s.quote(o.op).words(" scheduled " + number_text(o.scheduled.value_or(0)) + " time(s), called " +
                        number_text(*o.generated));
  }
  for (const Op& o : ops) {
    if (!o.unwaited || *o.unwaited <= 0) continue;
    part().words(number_text(*o.unwaited) + " ").quote(o.op);
    s.words(" in the generated code never waited on (no wait_tensor for its buffer)");
  }
  const std::string issued = f.value("issued"), waits = f.value("waits");
  if (std::strtoll(waits.c_str(), nullptr, 10) < std::strtoll(issued.c_str(), nullptr, 10))
    part().words("the schedule issues " + issued + " collective(s) but waits " + waits +
                 " time(s)");
}

void word_spmd_graph_mismatch(FindingSentence& s, const FindingFacts& f, int64_t job_ranks) {
  s.words(f.ranks.empty() ? std::string("ranks") : rank_words(f.ranks, job_ranks));
  s.words(" compiled different graphs");
  if (!f.compile_id.empty()) s.words(" for compile ").quote(f.compile_id);
  const std::string graph = f.value("graph");
  if (!graph.empty()) s.words(" (subgraph ").quote(graph).words(")");
  if (f.has("node_index")) {
    s.words(": first difference at node " + f.value("node_index") + ", rank 0 has ");
    s.quote(f.value("reference_node")).words(" where rank " + f.value("other_rank") + " has ");
    s.quote(f.value("other_node"));
  }
  s.words("; their collectives can be issued in different orders (a hang)");
}

void word_recompile_storm(FindingSentence& s, const FindingFacts& f, int64_t) {
  frame_of(s, f).words(" was recompiled " + f.value("recompiles") + " times");
}

void word_cache_limit(FindingSentence& s, const FindingFacts& f, int64_t) {
  frame_of(s, f).words(" hit the cache size limit at compile ").quote(f.compile_id);
  if (f.has("limit")) s.words(" (limit " + f.value("limit") + ")");
  s.words("; dynamo stops compiling it");
}

void word_recompile(FindingSentence& s, const FindingFacts& f, int64_t) {
  frame_of(s, f).words(" recompiled as ").quote(f.compile_id).words(" because ");
  s.quote(f.value("failed_guard"));
  if (f.has("prev_compile_id")) s.words(" (guard of ").quote(f.value("prev_compile_id")).words(")");
}

void word_graph_break(FindingSentence& s, const FindingFacts& f, int64_t) {
  s.words("graph break in ");
  frame_of(s, f).words(" (compile ").quote(f.compile_id).words(")");
  at_place(s, f).words(": ").quote(f.value("reason"));
}

void word_shape_specialized(FindingSentence& s, const FindingFacts& f, int64_t) {
  if (f.has("symbol"))
    s.quote(f.value("symbol"));
  else
    s.words("(unnamed symbol)");
  std::vector<std::string> sources = string_list(f.value("sources"));
  if (!sources.empty()) {
    s.words(" (");
    for (size_t i = 0; i < sources.size(); ++i) s.words(i ? ", " : "").quote(sources[i]);
    s.words(")");
  }
  s.words(" was specialized to ");
  if (f.has("value"))
    s.quote(f.value("value"));
  else
    s.words("?");
  at_place(s, f);
  if (f.has("reason")) s.words(" because ").quote(f.value("reason"));
  if (!f.compile_id.empty()) s.words(" (compile ").quote(f.compile_id).words(")");
}

void word_bad_record(FindingSentence& s, const FindingFacts& f, int64_t) {
  s.words("collective record at ").quote(f.file);
  s.words(":" + (f.line ? number_text(*f.line) : std::string("?")) + " was skipped: ");
  const std::string problem = f.value("problem");
  s.words(problem == "no_payload"     ? "it has no payload"
          : problem == "invalid_json" ? "its payload is not valid JSON"
                                      : "it has no collective_seq_id");
}

using Wording = void (*)(FindingSentence&, const FindingFacts&, int64_t);

struct KindWords {
  FindingKind kind;
  Wording word;
  bool about_one_process;  // the sentence starts with the finding's one rank
};

// Which kinds are about one process: the single-process analyses and the per-rank parity check.
constexpr bool one_process(FindingKind k) {
  switch (k) {
    case FindingKind::desync:
    case FindingKind::missing_collective:
    case FindingKind::straggler:
    case FindingKind::rank_divergence:
    case FindingKind::bad_record:
    case FindingKind::spmd_graph_mismatch:
      return false;
    default:
      return true;
  }
}

constexpr std::array kWordings = {
#define TLSCOPE_FINDING_WORDS_ROW(kind, severity, title, page, colour, values) \
  KindWords{FindingKind::kind, &word_##kind, one_process(FindingKind::kind)},
    TLSCOPE_FINDING_KINDS(TLSCOPE_FINDING_WORDS_ROW)
#undef TLSCOPE_FINDING_WORDS_ROW
};
static_assert(kWordings.size() == kFindingKinds.size());

const KindWords* words_of(std::string_view kind) {
  for (size_t i = 0; i < kFindingKinds.size(); ++i)
    if (kFindingKinds[i].kind == kind) return &kWordings[i];
  return nullptr;
}

}  // namespace

std::string FindingFacts::value(std::string_view key) const {
  auto it = values.find(key);
  return it == values.end() ? std::string() : it->second;
}

FindingFacts read_finding_facts(const Statement& s, int c) {
  FindingFacts f;
  f.id = s.int64(c);
  f.kind = s.text(c + 1);
  f.severity = s.text(c + 2);
  f.ranks = ranks_from_json(s.text_view(c + 3));
  f.other_ranks = ranks_from_json(s.text_view(c + 4));
  f.pg_name = s.text(c + 5);
  f.pg_desc = s.text(c + 6);
  f.seq = s.opt_int64(c + 7);
  f.compile_id = s.text(c + 8);
  f.frame = s.text(c + 9);
  f.file = s.text(c + 10);
  f.line = s.opt_int64(c + 11);
  simdjson::dom::element doc;
  std::string_view detail = s.text_view(c + 12);
  if (!detail.empty() && !parse_json(detail, json_parser(), doc) && doc.is_object())
    for (auto [key, value] : doc.get_object())
      if (auto text = value_text(value))  // a hostile database's value is clipped like a cell
        f.values.emplace(std::string(key), model::clip_cell_text(*text));
  return f;
}

FindingSentence& FindingSentence::words(std::string_view w) {
  append_fact(fact_, w, false);
  text_ += w;
  return *this;
}

FindingSentence& FindingSentence::quote(std::string_view log_text) {
  append_fact(fact_, log_text, true);
  text_ += log_text;
  return *this;
}

bool finding_about_one_process(std::string_view kind) {
  const KindWords* w = words_of(kind);
  return w && w->about_one_process;
}

FindingSentence finding_body(const FindingFacts& f, int64_t job_ranks) {
  FindingSentence s;
  if (const KindWords* w = words_of(f.kind)) {
    w->word(s, f, job_ranks);
    return s;
  }
  // A kind from a newer tlscope: what the place columns say.
  s.words("a finding of kind ").quote(f.kind);
  if (!f.compile_id.empty()) s.words(" (compile ").quote(f.compile_id).words(")");
  if (!f.ranks.empty()) s.words(" on " + rank_words(f.ranks, job_ranks));
  return s;
}

std::string finding_sentence(const FindingFacts& f, int64_t job_ranks) {
  std::string body = finding_body(f, job_ranks).text();
  if (f.ranks.size() == 1 && finding_about_one_process(f.kind))
    return "rank " + std::to_string(f.ranks[0]) + ": " + body;
  return body;
}

Result<std::vector<WordedFinding>> word_findings(const Database& db) {
  Result<std::vector<WordedFinding>> out;
  if (!db.has_table("findings")) return out;
  const int64_t job_ranks =
      db.has_table("files") ? db.scalar("SELECT count(DISTINCT rank) FROM files") : 0;
  db.prepare("SELECT " + std::string(kFindingFactColumns) + " FROM findings ORDER BY id")
      .for_each(
          [&](const Statement& s) {
            WordedFinding w{read_finding_facts(s), {}};
            w.sentence = finding_sentence(w.facts, job_ranks);
            out.value.push_back(std::move(w));
          },
          out);
  return out;
}

}  // namespace tlscope::views
