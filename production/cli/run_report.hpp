// The CLI's reporting module: the terminal progress line of `dpfl train` and the gnuplot
// pictures of training runs. The training library (dpfl/fl/training.hpp) never writes to a
// terminal or starts a program; it calls TrainHooks::progress, and the pictures are drawn here
// from the files a run leaves behind (metrics.csv, certificate.json).
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpfl/fl/training.hpp"
#include "sample_command.hpp"

namespace dpfl::cli {

// A program the CLI needs (gnuplot) is missing or failed: exit 1, not 2 — the input was fine.
class ExternalToolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A TrainHooks::progress handler that redraws one line on stderr:
//   [corbin-fl] round 3/8  clients 40/100  val acc 0.8125  ETA 00:01:12
// and ends it with a newline when the run finishes.
std::function<void(const fl::TrainProgress&)> TerminalProgress();

// accuracy.png and loss.png of one run directory, from its metrics.csv. Returns their paths, or
// nothing (with one warning line on stderr) if gnuplot is missing or fails: per-run plots are a
// convenience of `dpfl train`, never a reason to fail a finished run.
std::vector<std::string> PlotRun(const std::string& run_dir, const std::string& title);

// roc.png of a `dpfl audit lira` directory from its roc.dat (two blocks: offline, online; fpr tpr); the path, or "" (with
// one warning line on stderr) if gnuplot is missing or fails.
std::string PlotRoc(const std::string& audit_dir);

struct CompareOptions {
  std::vector<std::string> run_dirs;  // each holds metrics.csv (and certificate.json for a label)
  std::string out;                    // PNG path; default: accuracy_compare.png beside the first run
  std::string title;                  // default: the data set and the runs' common settings
};
// One picture, two panels side by side: validation and test accuracy per round, one line per
// run, labelled with the run's mechanism (and ε_p) from its certificate.json, else the
// directory's name. Throws InvalidArgument for a run directory without a readable metrics.csv,
// and ExternalToolError if gnuplot is missing or fails. Returns {"plot": path, "runs": […]}.
nlohmann::json PlotCompare(const CompareOptions& options);

// `dpfl plot compare RUN_DIR... [--out FILE.png] [--title T]`.
void RegisterPlotCommand(CLI::App& root, std::vector<Command>& commands);

}  // namespace dpfl::cli
