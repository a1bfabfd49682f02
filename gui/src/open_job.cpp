// The viewer's open: a views::RunOpener whose last step reads the panels (open_job.hpp).
#include "open_job.hpp"


namespace tlscope::gui {

void OpenJob::start(const OpenPlan& plan, std::function<void()> wake,
                    std::optional<ViewerOptions> load) {
  stop();  // a previous open's thread must be done with data_
  data_.reset();
  views::AfterOpen after;
  if (load) {
    after.stage = "reading the panels";
    after.run = [this, options = *load](const std::string& db_path) {
      auto data = std::make_unique<ViewerData>();
      std::string error;
      if (load_viewer_data(db_path, options, *data, &error)) data_ = std::move(data);
      return error;
    };
  }
  views::RunOpener::start(plan, std::move(wake), std::move(after));
}

std::string user_config_dir() { return views::user_config_dir(); }

}  // namespace tlscope::gui
