// The provenance section of index.html. Every text in it (paths, command lines, the version read
// off a log) may be hostile and is escaped.
#include "provenance_html.hpp"

#include "site.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

void item(std::string& h, std::string_view id, std::string_view label, std::string_view value,
          std::string_view if_empty) {
  h += "<tr id=\"provenance-" + std::string(id) + "\"><th>" + std::string(label) + "</th><td>";
  if (value.empty()) {
    h += "<span class=\"muted\">" + std::string(if_empty) + "</span>";
  } else {
    h += "<code>";
    append_html_escaped(h, value);
    h += "</code>";
  }
  h += "</td></tr>\n";
}

}  // namespace

std::string report_provenance_html(const views::ReportProvenance& p) {
  std::string h =
      "<h2 id=\"provenance\">Where this report came from</h2>\n"
      "<table id=\"provenance-table\"><tbody>\n";
  std::string tlscope = p.tlscope_version;
  if (!p.ingest_version.empty() && p.ingest_version != p.tlscope_version)
    tlscope += " (database written by tlscope " + p.ingest_version + ")";
  item(h, "tlscope", "tlscope", tlscope, "");
  item(h, "command", "command line", p.command_line, "not given");
  item(h, "host", "host", p.host, "not given");
  std::string versions;
  for (const std::string& v : p.pytorch_versions) versions += (versions.empty() ? "" : ", ") + v;
  // A source build's version names its short commit already ("+git86df3ff").
  if (!versions.empty() && !p.pytorch_commit.empty() && versions.find("+git") == std::string::npos)
    versions += " (commit " + p.pytorch_commit.substr(0, 12) + ")";
  item(h, "pytorch", "PyTorch", versions, "the logs do not say");
  h += "</tbody></table>\n";
  h += "<table id=\"provenance-inputs\" data-count=\"" + std::to_string(p.input_count) +
       "\"><thead><tr><th>input</th><th>rank</th><th class=\"num\">bytes</th>"
       "<th>first record</th><th>last record</th></tr></thead><tbody>\n";
  for (const views::InputProvenance& in : p.inputs) {
    h += "<tr><td>";
    append_html_escaped(h, in.path);
    h += "</td><td>" + (in.rank < 0 ? std::string("-") : std::to_string(in.rank)) +
         "</td><td class=\"num\">" + std::to_string(in.bytes) + "</td><td>";
    append_html_escaped(h, in.first_record);
    h += "</td><td>";
    append_html_escaped(h, in.last_record);
    h += "</td></tr>\n";
  }
  h += "</tbody></table>\n";
  if (p.input_count > static_cast<int64_t>(p.inputs.size()))
    h += "<p class=\"muted\">and " +
         plural(p.input_count - static_cast<int64_t>(p.inputs.size()), "more input") + "</p>\n";
  return h;
}

}  // namespace tlscope::exporters
