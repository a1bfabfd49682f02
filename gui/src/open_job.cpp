// The viewer's open: a views::RunOpener whose last step opens the session (open_job.hpp).
#include "open_job.hpp"

#include "panel.hpp"

namespace tlscope::gui {

void read_first_frame(ViewerSession& session, FirstFrame first) {
  if (first == FirstFrame::kCompare) {
    // The compare view names each run's compiles and draws each run's timeline; a run's other
    // models are read only if a panel ever asks (the compile-time phases took 4 s of the 1 GB
    // log's open).
    session.compile_tree();
    session.timeline_scene();
    return;
  }
  // The panels' own questions, asked of a set made for the purpose: what the navigation list
  // shows is exactly what is read here, with no second list of models to keep in step.
  for (const auto& panel : make_panels())
    if (panel->shown(session)) panel->count(session);
  session.summary();
}

void OpenJob::start(const OpenPlan& plan, std::function<void()> wake,
                    std::optional<ViewerOptions> session_options, FirstFrame first) {
  stop();  // a previous open's thread must be done with session_
  session_.reset();
  views::AfterOpen after;
  if (session_options) {
    after.stage = "reading the panels";
    after.run = [this, options = *session_options, first](const std::string& db_path) {
      auto session = ViewerSession::open(db_path, options);
      if (!session.ok()) return session.error;
      read_first_frame(**session, first);
      session_ = std::move(session.value);
      return std::string();
    };
  }
  views::RunOpener::start(plan, std::move(wake), std::move(after));
}

std::string user_config_dir() {
  return views::user_config_dir();
}

}  // namespace tlscope::gui
