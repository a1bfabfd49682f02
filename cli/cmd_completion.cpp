// `tlscope completion bash [-o FILE]`: a bash completion script written from the command tree
// itself, so every command and option in it is one tlscope has. The build writes it (cli/
// CMakeLists.txt) and the install puts it in share/bash-completion/completions; users without
// the install can `source <(tlscope completion bash)`.
#include <cstdio>
#include <memory>

#include "command.hpp"
#include "tlscope/model/safe_output.hpp"
#include "tlscope/version.hpp"

namespace tlscope::cli {
namespace {

std::vector<CLI::App*> all_subcommands(CLI::App* app) {
  return app->get_subcommands([](CLI::App*) { return true; });
}

// Every option name of `app`: --long and -s forms.
std::string option_words(CLI::App* app) {
  std::string words;
  for (const CLI::Option* opt : app->get_options()) {
    for (const std::string& l : opt->get_lnames()) words += " --" + l;
    for (const std::string& s : opt->get_snames()) words += " -" + s;
  }
  for (CLI::App* sub : all_subcommands(app)) words += " " + sub->get_name();
  return words.empty() ? words : words.substr(1);
}

std::string bash_script(CLI::App* root) {
  std::string commands;
  std::string cases;
  for (CLI::App* sub : all_subcommands(root)) {
    if (sub->get_name() == "completion") continue;
    commands += (commands.empty() ? "" : " ") + sub->get_name();
    cases += "    " + sub->get_name() + ") words=\"" + option_words(sub) + "\" ;;\n";
    for (CLI::App* nested : all_subcommands(sub))
      cases += "    " + sub->get_name() + "/" + nested->get_name() + ") words=\"" +
               option_words(nested) + "\" ;;\n";
  }
  return "# bash completion for tlscope, written by `tlscope completion bash` (tlscope " +
         std::string(tlscope::kVersion) +
         ").\n"
         "_tlscope() {\n"
         "  local cur=${COMP_WORDS[COMP_CWORD]} path= w i words\n"
         "  local commands=\"" +
         commands +
         "\"\n"
         "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
         "    w=${COMP_WORDS[i]}\n"
         "    [[ $w == -- ]] && return 0  # tlscope run -- CMD: bash completes CMD as usual\n"
         "    if [[ -z $path && \" $commands \" == *\" $w \"* ]]; then path=$w\n"
         "    elif [[ -n $path && $path != */* && $w != -* && \" $words \" == *\" $w \"* ]]; "
         "then path=$path/$w\n"
         "    fi\n"
         "    case $path in\n" +
         cases +
         "    esac\n"
         "  done\n"
         "  if [[ -z $path ]]; then\n"
         "    COMPREPLY=($(compgen -W \"$commands --help --version\" -- \"$cur\"))\n"
         "    [[ $cur != -* ]] && COMPREPLY+=($(compgen -f -- \"$cur\"))\n"
         "    return 0\n"
         "  fi\n"
         "  case $path in\n" +
         cases +
         "  esac\n"
         "  if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
         "  else COMPREPLY=($(compgen -f -- \"$cur\"))\n"
         "  fi\n"
         "}\n"
         "complete -o filenames -o bashdefault -F _tlscope tlscope\n";
}

struct CompletionArgs {
  std::string shell = "bash";
  std::string out;
};

const CommandRegistration completion_registration(95, [](CLI::App& app, int& exit_code) {
  auto args = std::make_shared<CompletionArgs>();
  CLI::App* cmd = app.add_subcommand("completion", "Print a shell completion script (bash)");
  cmd->add_option("shell", args->shell, "Shell (bash)")->check(CLI::IsMember({"bash"}));
  cmd->add_option("-o,--out", args->out, "Write the script to this file instead of stdout");
  CLI::App* root = &app;
  cmd->callback([root, args, &exit_code] {
    std::string script = bash_script(root);
    if (args->out.empty()) {
      std::fputs(script.c_str(), stdout);
      return;
    }
    // Replaced atomically, never written through a link there (model/safe_output.hpp).
    if (std::string why = model::write_file_atomically(args->out, script); !why.empty()) {
      std::fprintf(stderr, "tlscope completion: %s\n", why.c_str());
      exit_code = kUsageOrIo;
    }
  });
});

}  // namespace
}  // namespace tlscope::cli
