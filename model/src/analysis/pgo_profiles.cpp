// PGO code state records (torch/_dynamo/pgo.py): the dynamic-shape profile Dynamo loaded at its
// first compile (`get_local_code_state`, `get_remote_code_state`, `get_extra_remote_code_state`)
// and the one it saved when the profile changed (`put_local_code_state`, `put_remote_code_state`,
// `put_extra_remote_code_state`). The payload is render_code_state's text: per code object a line
// "hash(<file hash>)<file>:<first line>:<name>:" (older releases: "<file>:<line>:<name>:") and
// under it "  <source>: <entry>", the entry one of "tensor size=[?, 3] stride=[S(1), 1]",
// "scalar 4", "fully dynamic scalar or tensor" or "unusual ..."; a `?` is a dynamic dimension.
// When PGO saw a shape recompile the text ends with the TORCH_COMPILE_DYNAMIC_SOURCES it suggests.
#include <array>
#include <cstdlib>
#include <string>

#include "artifact_records.hpp"
#include "passes.hpp"

namespace tlscope::model::analysis {

namespace {

struct Frame {
  std::string code_id, filename, function;
  std::optional<int64_t> firstlineno;
};

// "hash(1a2b)/x/model.py:12:forward:" -> /x/model.py, 12, forward.
Frame frame_of(std::string_view line) {
  Frame f;
  line.remove_suffix(1);  // the closing ':'
  f.code_id = std::string(line);
  if (line.starts_with("hash(")) {
    size_t close = line.find(')');
    if (close != std::string_view::npos) line.remove_prefix(close + 1);
  }
  size_t name_at = line.rfind(':');
  if (name_at == std::string_view::npos) {
    f.function = std::string(line);
    return f;
  }
  f.function = std::string(line.substr(name_at + 1));
  std::string_view rest = line.substr(0, name_at);
  size_t line_at = rest.rfind(':');
  std::string_view number = line_at == std::string_view::npos ? rest : rest.substr(line_at + 1);
  if (!number.empty() && number.size() < 10 &&
      number.find_first_not_of("0123456789") == std::string_view::npos) {
    f.firstlineno = std::strtoll(std::string(number).c_str(), nullptr, 10);
    f.filename = std::string(line_at == std::string_view::npos ? "" : rest.substr(0, line_at));
  } else {
    f.filename = std::string(rest);
  }
  return f;
}

// "  L['x']: tensor size=[?, 3] stride=[3, 1]" -> source and entry. The entry is found by what
// FrameStateSizeEntry.render writes, since a source may itself hold ": ".
std::pair<std::string_view, std::string_view> entry_of(std::string_view line) {
  line.remove_prefix(line.find_first_not_of(' '));
  static constexpr std::array<std::string_view, 4> kEntries{": tensor size=", ": scalar ",
                                                            ": fully dynamic", ": unusual "};
  size_t at = std::string_view::npos;
  for (std::string_view e : kEntries) at = std::min(at, line.find(e));
  if (at == std::string_view::npos) at = line.rfind(": ");
  if (at == std::string_view::npos) return {line, {}};
  return {line.substr(0, at), line.substr(at + 2)};
}

bool dynamic_entry(std::string_view entry) {
  return entry.find('?') != std::string_view::npos || entry.starts_with("fully dynamic");
}

}  // namespace

void build_pgo_profiles(sqlite3* db) {
  Statement add_profile(db,
                        "INSERT INTO pgo_profiles(file_id, rank, compile_id, event_id, name, "
                        "action, store, frames, entries, dynamic_entries, suggested_sources) "
                        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  Statement add_entry(db,
                      "INSERT INTO pgo_profile_entries(profile_id, file_id, rank, code_id, "
                      "filename, firstlineno, function, source, entry, dynamic) VALUES "
                      "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
  Statement set_counts(db,
                       "UPDATE pgo_profiles SET frames = ?2, entries = ?3, dynamic_entries = ?4, "
                       "suggested_sources = ?5 WHERE id = ?1");
  for_each_artifact(db, "a.name GLOB 'get_*_code_state' OR a.name GLOB 'put_*_code_state'",
                    [&](const ArtifactRecord& r) {
                      const std::string action = r.name.substr(0, 3);
                      const std::string store = r.name.substr(4, r.name.size() - 4 - 11);
                      add_profile.bind(1, r.file_id).bind(2, r.rank).bind(3, r.compile_id);
                      add_profile.bind(4, r.event_id).bind_clipped(5, r.name).bind(6, action);
                      add_profile.bind(7, store).bind(8, int64_t{0}).bind(9, int64_t{0});
                      add_profile.bind(10, int64_t{0}).bind_null(11).run();
                      const int64_t profile = sqlite3_last_insert_rowid(db);
                      int64_t frames = 0, entries = 0, dynamic = 0;
                      std::optional<std::string> suggested;
                      Frame frame;
                      for_each_line(r.payload, [&](std::string_view line) {
                        constexpr std::string_view kSources = "TORCH_COMPILE_DYNAMIC_SOURCES=\"";
                        if (size_t s = line.find(kSources); s != std::string_view::npos) {
                          std::string_view v = line.substr(s + kSources.size());
                          suggested = std::string(v.substr(0, v.find('"')));
                        } else if (line.starts_with("  ") && !frame.code_id.empty()) {
                          auto [source, entry] = entry_of(line);
                          const bool dyn = dynamic_entry(entry);
                          ++entries;
                          dynamic += dyn;
                          add_entry.bind(1, profile).bind(2, r.file_id).bind(3, r.rank);
                          add_entry.bind_clipped(4, frame.code_id).bind_clipped(5, frame.filename);
                          add_entry.bind(6, frame.firstlineno).bind_clipped(7, frame.function);
                          add_entry.bind_clipped(8, source).bind_clipped(9, entry);
                          add_entry.bind(10, int64_t{dyn}).run();
                        } else if (!line.empty() && line.front() != ' ' && line.back() == ':') {
                          frame = frame_of(line);
                          ++frames;
                        } else if (!line.empty() && line.front() != ' ') {
                          frame = Frame{};  // prose (the suggestion's paragraph)
                        }
                      });
                      set_counts.bind(1, profile).bind(2, frames).bind(3, entries);
                      set_counts.bind(4, dynamic).bind_clipped(5, suggested).run();
                    });
}

}  // namespace tlscope::model::analysis
