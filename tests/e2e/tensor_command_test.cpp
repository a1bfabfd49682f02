// `tlscope tensor` and `tlscope export chrome-trace` end to end: the tensor command reads a
// describe_tensor row through views/ and colours sharded blocks with the one rank-colour rule;
// both refuse what they cannot read with a message naming it and exit 2.
#include <catch2/catch.hpp>

#include "e2e/e2e_support.hpp"

using namespace e2e;

TEST_CASE("tlscope tensor draws a database's tensor and a coloured sharded shape") {
  fs::path dir = scratch("tensor_command");
  std::string db = (dir / "simple.db").string();
  REQUIRE(run_tlscope(dir, "ingest " + q(kLogs + "/simple.log") + " --db " + q(db)).exit_code == 0);
  // simple.log's one describe_tensor (id 0): float32, size [1, 320, 128, 128], summarised.
  RunResult shown = run_tlscope(dir, "tensor " + q(db) + " --id 0");
  INFO(shown.err);
  REQUIRE(shown.exit_code == 0);
  CHECK(shown.out.find("tensor 0 (compile 0/0") != std::string::npos);
  CHECK(shown.out.find("size [1, 320, 128, 128]") != std::string::npos);
  CHECK(shown.out.find("summarised") != std::string::npos);

  // Shard(0) over 2 ranks: rank 0's rows black on xterm 217, rank 1's on 229 (views::rank_color).
  RunResult sharded = run_tlscope(
      dir, "tensor --shape 4,2 --mesh 2 --placement 'Shard(0)' --values arange --color always");
  REQUIRE(sharded.exit_code == 0);
  CHECK(sharded.out.find("\x1b[30;48;5;217m") != std::string::npos);
  CHECK(sharded.out.find("\x1b[30;48;5;229m") != std::string::npos);
  CHECK(sharded.out.find("owners (mesh of 2 ranks):") != std::string::npos);
  RunResult plain = run_tlscope(dir, "tensor --shape 4,2 --mesh 2 --placement 'Shard(0)'");
  CHECK(plain.out.find("\x1b[") == std::string::npos);  // not a terminal: no colour

  RunResult missing = run_tlscope(dir, "tensor " + q(db) + " --id 99");
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find(db) != std::string::npos);
  // export takes logs as well as a database (issue 15); a missing input is named.
  RunResult from_log = run_tlscope(dir, "export chrome-trace " + q(kLogs + "/simple.log") +
                                            " -o " + q((dir / "t.json").string()));
  CHECK(from_log.exit_code == 0);
  CHECK(fs::file_size(dir / "t.json") > 0);
  RunResult no_input = run_tlscope(dir, "export chrome-trace " + q((dir / "none.log").string()) +
                                            " -o " + q((dir / "u.json").string()));
  CHECK(no_input.exit_code == 2);
  CHECK(no_input.err.find("none.log") != std::string::npos);
}
