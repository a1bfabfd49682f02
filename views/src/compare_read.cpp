// Reading both runs of a comparison (compare_read.hpp).
#include "compare_read.hpp"

#include <exception>
#include <thread>
#include <utility>

namespace tlscope::views {

namespace {

// One read's rows into the facts; its failure, if any, into `out` (the other reads still run).
template <typename T, typename U>
void take(Status& out, Result<T>&& part, U& into) {
  if (!part.ok()) out.fail(part.error);
  into = std::move(part.value);
}

// `read` holds the compiles and graph breaks the run's summary read (the same queries).
RunFacts load_facts(const Database& db, const Result<RunEnvironment>& env, SummaryReads& read,
                    Status& out) {
  RunFacts f;
  take(out, std::move(read.compiles), f.compiles);
  take(out, std::move(read.breaks), f.breaks);
  take(out, read_cache_results(db), f.caches);
  take(out, read_compile_phases(db), f.phases);
  take(out, read_finding_facts(db), f.findings);
  take(out, read_collectives(db), f.collectives);
  take(out, read_compile_inputs(db), f.inputs);
  take(out, read_compile_texts(db), f.texts);
  take(out, read_collective_waits(db, f.collectives), f.waits);
  if (!env.ok()) out.fail(env.error);
  f.config = env.value.config;
  return f;
}

RunRead read_run(const Database& db) {
  RunRead r;
  const Result<RunEnvironment> env = load_run_environment(db);
  SummaryReads read;
  r.summary = load_run_summary(db, env, &read);
  r.facts = load_facts(db, env, read, r.facts_status);
  r.spans = read_compile_spans(db);
  return r;
}

}  // namespace

// A and B side by side: each Database is its own SQLite connection, used by one thread only
// (the caller's thread waits here and does not touch either), so the two reads, each most of a
// second on a 1 GB run, overlap on two cores. One Database given twice (one connection) is read
// on this thread, twice.
void read_runs(const Database& db_a, const Database& db_b, RunRead& ra, RunRead& rb) {
  if (&db_a == &db_b || std::thread::hardware_concurrency() < 2) {
    ra = read_run(db_a);
    rb = read_run(db_b);
    return;
  }
  std::exception_ptr failed;  // bad_alloc on B's thread: rethrown here, as on one thread
  std::thread other([&] {
    try {
      rb = read_run(db_b);
    } catch (...) {
      failed = std::current_exception();
    }
  });
  try {
    ra = read_run(db_a);
  } catch (...) {
    other.join();
    throw;
  }
  other.join();
  if (failed) std::rethrow_exception(failed);
}

}  // namespace tlscope::views
