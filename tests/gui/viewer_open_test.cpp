// What the viewer opens and how, without a window: classifying inputs, the cache key, reusing a
// cached database, extracting a rage bundle's database (also from a hostile archive), the
// background open, the UI dump's JSON, selections and history, and the remembered settings.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "gui_support.hpp"
#include "open_job.hpp"
#include "selection.hpp"
#include "settings.hpp"
#include "tlscope/model/input_cache.hpp"
#include "tlscope/views/database.hpp"
#include "ui_dump.hpp"

namespace fs = std::filesystem;
using namespace tlscope::gui;

namespace {

// Runs an OpenJob to the end (the ingest of a small log takes well under a second).
std::string open_now(const OpenPlan& plan, std::string* error) {
  OpenJob job;
  int wakes = 0;
  job.start(plan, [&] { ++wakes; });
  while (!job.done()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (!plan.ready) CHECK(wakes > 0);  // the window is woken, never polled
  tlscope::views::Result<std::string> r = job.result();
  *error = r.error;
  return r.value;
}

}  // namespace

namespace {

// Runs an OpenJob to the end; `ingested` says whether it built the database.
std::string open_now(const OpenPlan& plan, std::string* error, bool* ingested) {
  OpenJob job;
  job.start(plan, [] {});
  while (!job.done()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  *ingested = job.ingested();
  tlscope::views::Result<std::string> r = job.result();
  *error = r.error;
  return r.value;
}

// `tlscope summary INPUT` with the test's XDG_CACHE_HOME; its stderr says whether it ingested.
std::string cli_summary_stderr(const fs::path& dir, const std::string& input) {
  const std::string err = (dir / "summary.err").string();
  const std::string cmd = "'" + std::string(TLSCOPE_BINARY_DIR) + "/cli/tlscope' summary '" +
                          input + "' >/dev/null 2>'" + err + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  return tlscope::test::slurp(err);
}

ino_t inode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_ino;
}

}  // namespace

TEST_CASE("logs open through the CLI's cache: one database, reused while the logs are unchanged") {
  auto dir = gui_test::scratch("open_plan");
  const fs::path log = dir / "rank0.log";
  fs::copy_file(gui_test::kLogs + "/simple.log", log);

  OpenPlan plan = plan_open({log.string()});
  INFO(plan.error);
  REQUIRE(plan.ok);
  CHECK(plan.kind == InputKind::kLogs);
  CHECK_FALSE(plan.ready);  // the resolver decides, on the job's thread
  // The very file the CLI reads for these inputs, in the cache under XDG_CACHE_HOME.
  CHECK(plan.db_path ==
        tlscope::model::cached_database_path(tlscope::model::identify_inputs({log.string()})));
  CHECK(plan.db_path.rfind((dir / "cache" / "tlscope").string() + "/", 0) == 0);
  std::string error;
  bool ingested = false;
  const std::string db = open_now(plan, &error, &ingested);
  INFO(error);
  REQUIRE(db == plan.db_path);
  CHECK(ingested);
  tlscope::views::Database opened(db);
  CHECK(opened.not_tlscope_reason().empty());
  CHECK(opened.scalar("SELECT count(*) FROM events") == 76);  // simple.log's records
  CHECK(opened.has_table("findings"));                        // analysed, not only ingested
  const ino_t built = inode_of(db);

  // Unchanged input: the same database, not ingested again.
  OpenPlan again = plan_open({log.string()});
  CHECK(again.db_path == plan.db_path);
  REQUIRE(open_now(again, &error, &ingested) == db);
  CHECK_FALSE(ingested);
  CHECK(inode_of(db) == built);
  // ...and the CLI reads that same database without ingesting.
  std::string cli = cli_summary_stderr(dir, log.string());
  CHECK(cli.find("ingested") == std::string::npos);
  CHECK(inode_of(db) == built);

  // A changed file (new mtime) is ingested again into the same path (one file per inputs).
  fs::last_write_time(log, fs::last_write_time(log) + std::chrono::seconds(5));
  OpenPlan changed = plan_open({log.string()});
  CHECK(changed.db_path == plan.db_path);
  REQUIRE(open_now(changed, &error, &ingested) == db);
  CHECK(ingested);

  // The database itself opens as it is.
  OpenPlan direct = plan_open({db});
  CHECK(direct.kind == InputKind::kDatabase);
  CHECK(direct.db_path == db);
  CHECK(direct.ready);
}

TEST_CASE("logs the CLI ingested first open in the viewer without an ingest") {
  auto dir = gui_test::scratch("open_after_cli");
  const fs::path log = dir / "comp_failure.log";
  fs::copy_file(gui_test::kLogs + "/comp_failure.log", log);
  std::string cli = cli_summary_stderr(dir, log.string());
  CHECK(cli.find("ingested 1 file(s)") != std::string::npos);
  OpenPlan plan = plan_open({log.string()});
  REQUIRE(plan.ok);
  REQUIRE(fs::exists(plan.db_path));  // the CLI left it there
  const ino_t built = inode_of(plan.db_path);
  std::string error;
  bool ingested = true;
  CHECK(open_now(plan, &error, &ingested) == plan.db_path);
  CHECK_FALSE(ingested);
  CHECK(inode_of(plan.db_path) == built);
}

TEST_CASE("closing the viewer during an ingest cancels it: no database is left in the cache") {
  auto dir = gui_test::scratch("open_cancel");
  // simple.log 200 times over (50 MB, a dozen batches): long enough to be caught mid-way.
  const std::string one = tlscope::test::slurp(gui_test::kLogs + "/simple.log");
  std::string all;
  for (int i = 0; i < 200; ++i) all += one;
  const fs::path log = dir / "big.log";
  tlscope::test::spit(log, all);
  OpenPlan plan = plan_open({log.string()});
  REQUIRE(plan.ok);
  auto started = std::chrono::steady_clock::now();
  double stopped_after = 0;
  {
    OpenJob job;
    job.start(plan, [] {});
    // Wait for the first batch to be written, then go away as a closed window does.
    while (job.progress().events == 0 && !job.done())
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    REQUIRE_FALSE(job.done());
    CHECK(job.progress().files_total == 1);
    auto leaving = std::chrono::steady_clock::now();
    job.cancel();
    while (!job.done()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    stopped_after =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - leaving).count();
    CHECK(job.result().value.empty());
    CHECK(job.result().error == plan.db_path + ": cancelled; nothing was kept");
  }
  INFO("stopped "
       << stopped_after << " s after the cancel, "
       << std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()
       << " s after the start");
  CHECK_FALSE(fs::exists(plan.db_path));
  // Nothing half-built beside it either (the resolver's and the ingest's temporary files).
  for (const auto& e : fs::directory_iterator(fs::path(plan.db_path).parent_path()))
    CHECK(e.path().filename().string().find(fs::path(plan.db_path).filename().string()) ==
          std::string::npos);
  // The next open builds it whole.
  std::string error;
  bool ingested = false;
  OpenPlan again = plan_open({log.string()});
  CHECK(open_now(again, &error, &ingested) == plan.db_path);
  CHECK(ingested);
}

TEST_CASE("bad inputs are refused with their name") {
  auto dir = gui_test::scratch("open_refused");
  OpenPlan missing = plan_open({(dir / "nope.log").string()});
  CHECK_FALSE(missing.ok);
  CHECK(missing.error == (dir / "nope.log").string() + ": no such file or directory");
  CHECK_FALSE(plan_open({}).ok);
  // One database at a time, never mixed with logs.
  OpenPlan logs = plan_open({gui_test::kLogs + "/simple.log"});
  REQUIRE(logs.ok);
  std::string error;
  const std::string db = open_now(logs, &error);
  REQUIRE_FALSE(db.empty());
  OpenPlan mixed = plan_open({db, gui_test::kLogs + "/simple.log"});
  CHECK_FALSE(mixed.ok);
  CHECK(mixed.error.find("one database or one rage bundle at a time") != std::string::npos);
  // A FIFO is neither a file nor a directory: refused before anything reads it.
  const fs::path fifo = dir / "fifo.log";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  OpenPlan special = plan_open({fifo.string()});
  CHECK_FALSE(special.ok);
  CHECK(special.error == fifo.string() + ": not a regular file or a directory");
}

TEST_CASE("a rage bundle's database is extracted to the cache, whatever the archive names it") {
  auto dir = gui_test::scratch("bundle");
  // A database to bundle: ingest a log through the viewer's own open.
  OpenPlan logs = plan_open({gui_test::kLogs + "/comp_failure.log"});
  REQUIRE(logs.ok);
  std::string error;
  const std::string db = open_now(logs, &error);
  REQUIRE_FALSE(db.empty());
  // The bundle's layout (TOP/tlscope.db beside TOP/logs/...), and a hostile name beside it.
  fs::create_directories(dir / "b" / "bug" / "logs");
  fs::copy_file(gui_test::kLogs + "/comp_failure.log", dir / "b" / "bug" / "logs" / "rank0.log");
  fs::copy_file(db, dir / "b" / "bug" / "tlscope.db");
  const std::string bundle = (dir / "bug.tar.gz").string();
  REQUIRE(std::system(("tar -C '" + (dir / "b").string() + "' -czf '" + bundle +
                       "' bug/logs bug/tlscope.db")
                          .c_str()) == 0);
  OpenPlan plan = plan_open({bundle});
  INFO(plan.error);
  REQUIRE(plan.ok);
  CHECK(plan.kind == InputKind::kBundle);
  const std::string extracted = open_now(plan, &error);
  INFO(error);
  REQUIRE(extracted == plan.db_path);
  CHECK(fs::file_size(extracted) == fs::file_size(db));
  CHECK(tlscope::views::Database(extracted).not_tlscope_reason().empty());

  // Entry names with ../ choose nothing but which entry is read: the file lands at db_path only.
  fs::create_directories(dir / "h" / "x");
  fs::copy_file(db, dir / "h" / "x" / "evil.db");
  const std::string hostile = (dir / "hostile.tar.gz").string();
  REQUIRE(std::system(("tar -C '" + (dir / "h" / "x").string() +
                       "' --transform 's,^,../../,' -czf '" + hostile + "' evil.db")
                          .c_str()) == 0);
  const std::string out = (dir / "out.db").string();
  REQUIRE(tlscope::views::extract_bundle_database(hostile, out).ok());
  CHECK(fs::file_size(out) == fs::file_size(db));
  CHECK_FALSE(fs::exists(dir.parent_path().parent_path() / "evil.db"));

  // Not an archive, or no database in it: the bundle is named in the message.
  const fs::path junk = dir / "junk.tar.gz";
  tlscope::test::spit(junk, "this is not gzip");
  auto junk_read = tlscope::views::extract_bundle_database(junk.string(), out);
  CHECK_FALSE(junk_read.value);
  CHECK(junk_read.error.rfind(junk.string() + ": ", 0) == 0);
  const std::string logs_only = (dir / "logs_only.tar.gz").string();
  REQUIRE(std::system(("tar -C '" + (dir / "b").string() + "' -czf '" + logs_only + "' bug/logs")
                          .c_str()) == 0);
  auto logs_read = tlscope::views::extract_bundle_database(logs_only, out);
  CHECK_FALSE(logs_read.value);
  CHECK(logs_read.error == logs_only + ": no database in the bundle (no tlscope.db entry)");
}

TEST_CASE("the UI dump is valid JSON whatever the log text holds") {
  UiDump dump;
  dump.begin_frame("errors");
  dump.add("cell", "quote \" backslash \\ tab \t newline \n bell \x07");
  dump.add("cell", std::string("bad utf-8 \xff\xfe end"));
  dump.add("cell", "\xc3\xa9t\xc3\xa9 ok", Rect{1, 2, 3, 4});
  auto dir = gui_test::scratch("dump_json");
  const std::string path = (dir / "d.json").string();
  REQUIRE(dump.write(path, 7).ok());
  gui_test::Dump d = gui_test::read_dump(path);
  INFO(d.error);
  REQUIRE(d.ok);
  CHECK(d.panel == "errors");
  CHECK(d.frame == 7);
  REQUIRE(d.items.size() == 3);
  CHECK(d.items[0].text == "quote \" backslash \\ tab \t newline \n bell \x07");
  CHECK(d.items[1].text == "bad utf-8 \xEF\xBF\xBD\xEF\xBF\xBD end");
  CHECK(d.items[2].text == "\xc3\xa9t\xc3\xa9 ok");
  CHECK(d.items[2].x == 1);
  CHECK(d.items[2].h == 4);
  CHECK(d.items[0].x == -1);  // draw-list texts carry no rectangle
}

TEST_CASE(
    "selections parse each --select kind and refuse the rest, and history goes back and forward") {
  auto f = parse_selection("finding:3");
  REQUIRE(f.ok());
  CHECK(f->kind == SelectionKind::kFinding);
  CHECK(f->key == "3");
  CHECK(parse_selection("collective:default_pg:20")->key == "default_pg:20");
  CHECK(parse_selection("sql:SELECT 1")->kind == SelectionKind::kQuery);
  CHECK(parse_selection("zone:dynamo")->kind == SelectionKind::kZone);
  CHECK(parse_selection("finding:0").error ==
        "--select finding:0: a finding is its 1-based position in the findings list");
  CHECK_FALSE(parse_selection("finding:x").ok());
  CHECK_FALSE(parse_selection("collective:7").ok());
  CHECK(parse_selection("bogus:1").error == "--select bogus:1: unknown kind 'bogus'");
  CHECK_FALSE(parse_selection("compile").ok());

  Navigator nav;
  CHECK(nav.current().empty());
  const Selection a{SelectionKind::kFinding, "1", tlscope::views::ScreenId::summary};
  const Selection b{SelectionKind::kCompile, "0/0", tlscope::views::ScreenId::compile};
  const Selection c{SelectionKind::kQuery, "SELECT 1", tlscope::views::ScreenId::sql};
  nav.select(a);
  nav.open(b);
  CHECK(nav.take_panel_request() == tlscope::views::ScreenId::compile);
  CHECK_FALSE(nav.take_panel_request());
  nav.select(b);  // the same again is no new step
  REQUIRE(nav.back());
  CHECK(nav.current() == a);
  CHECK(nav.take_panel_request() == tlscope::views::ScreenId::summary);
  CHECK_FALSE(nav.back());
  REQUIRE(nav.forward());
  CHECK(nav.current() == b);
  nav.back();
  nav.select(c);  // a new step drops the forward part
  CHECK_FALSE(nav.can_forward());
  nav.back();
  CHECK(nav.current() == a);
}

TEST_CASE("settings keep the layout and recent files between runs") {
  auto dir = gui_test::scratch("settings");
  const std::string config = (dir / "config" / "tlscope").string();
  ViewerSettings s = load_settings(config);  // nothing there yet: the defaults
  CHECK(s.window_width == 1280);
  CHECK(s.recent.empty());
  s.window_width = 1500;
  s.nav_width = 222;
  s.add_recent({"/logs/a", "/logs/b"});
  s.add_recent({"/run.db"});
  s.add_recent({"/logs/a", "/logs/b"});  // moves to the front, not twice
  s.add_recent({"bad\nname"});           // could not be read back: not kept
  REQUIRE(save_settings(config, s).ok());
  ViewerSettings back = load_settings(config);
  CHECK(back.window_width == 1500);
  CHECK(back.nav_width == 222);
  REQUIRE(back.recent.size() == 2);
  CHECK(split_recent(back.recent[0]) == std::vector<std::string>{"/logs/a", "/logs/b"});
  CHECK(back.recent[1] == "/run.db");
  // A hand-edited file with nonsense keeps the defaults for what it cannot read.
  tlscope::test::spit(fs::path(config) / "viewer.conf", "window_width=huge\nnav_width=-5\n");
  ViewerSettings odd = load_settings(config);
  CHECK(odd.window_width == 1280);
  CHECK(odd.nav_width == 100.0f);  // clamped to the smallest usable width
}

TEST_CASE("the viewer's files never go through a link planted at or beside them") {
  auto dir = gui_test::scratch("planted_links");
  const fs::path victim = dir / "victim";
  tlscope::test::spit(victim, "precious");
  // The UI dump, with the old predictable FILE.part and FILE itself planted.
  const fs::path dump_path = dir / "d.json";
  fs::create_symlink(victim, dump_path.string() + ".part");
  fs::create_symlink(victim, dump_path);
  UiDump dump;
  dump.begin_frame("errors");
  REQUIRE(dump.write(dump_path.string(), 1).ok());
  CHECK(tlscope::test::slurp(victim) == "precious");
  CHECK_FALSE(fs::is_symlink(dump_path));
  // The settings file: written 0600 in a private folder; a planted .part is ignored.
  const fs::path config = dir / "config" / "tlscope";
  fs::create_directories(config);
  fs::permissions(config, fs::perms::owner_all);
  fs::create_symlink(victim, config / "viewer.conf.part");
  REQUIRE(save_settings(config.string(), ViewerSettings{}).ok());
  CHECK(tlscope::test::slurp(victim) == "precious");
  CHECK((fs::status(config / "viewer.conf").permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write));
  // A settings folder that is a link is refused, its target untouched.
  fs::create_directory_symlink(dir, dir / "config" / "linked");
  const tlscope::views::Status refused =
      save_settings((dir / "config" / "linked").string(), ViewerSettings{});
  CHECK_FALSE(refused.ok());
  CHECK(refused.error.find("symbolic link") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "viewer.conf"));
}

TEST_CASE("viewer: test mode is its own flag, not a side effect of --panel or --screenshot") {
  ViewerOptions opts;
  opts.panel = "compile-tree";
  opts.select = "compile:0/0";
  opts.screenshot_path = "shot.png";
  opts.dump_ui_path = "dump.json";
  // Starting on a panel, or taking a picture, keeps the user's layout and recent files in play.
  CHECK_FALSE(opts.test_mode());
  opts.test = true;
  CHECK(opts.test_mode());
}
