// `tlscope report` states on index.html the command line that made it (quoted as a shell would
// take it back, escaped as HTML), the host, and the PyTorch version read off the log.
#include <unistd.h>

#include <catch2/catch.hpp>

#include "everyday_support.hpp"

using namespace e2e;

TEST_CASE("report: index.html states its command line, host and the logs' PyTorch version") {
  fs::path dir = scratch("report_provenance");
  fs::copy_file(kLogs + "/simple.log", dir / "it's <b>.log");
  RunResult r = tlscope_in(dir, "report \"it's <b>.log\" -o out");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  std::string index = slurp(dir / "out" / "index.html");
  // argv[1..] as given, the file name single-quoted (its ' written '\'') and HTML-escaped.
  CHECK(contains(index, " report &#39;it&#39;\\&#39;&#39;s &lt;b&gt;.log&#39; -o out</code>"));
  CHECK_FALSE(contains(index, "<b>.log"));
  char host[256] = {};
  REQUIRE(gethostname(host, sizeof host - 1) == 0);
  CHECK(contains(index, "id=\"provenance-host\"><th>host</th><td><code>" + std::string(host)));
  // simple.log line 358: "# torch version: 2.6.0a0+giteece9ec".
  CHECK(contains(index, "<code>2.6.0a0+giteece9ec</code>"));
}
