// See run_report.hpp.
#include "run_report.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "dpfl/error.hpp"
#include "dpfl/format.hpp"

extern char** environ;

namespace dpfl::cli {
namespace {

namespace fs = std::filesystem;

std::string Clock(double seconds) {
  const long s = std::lround(seconds);
  std::ostringstream o;
  o << std::setfill('0') << std::setw(2) << s / 3600 << ':' << std::setw(2) << (s / 60) % 60 << ':' << std::setw(2)
    << s % 60;
  return o.str();
}

// A path inside a gnuplot single-quoted string: rejected if it could end the string or the line.
std::string GnuplotPath(const fs::path& p, const std::string& argument) {
  const std::string s = p.string();
  for (char ch : s)
    if (ch == '\'' || ch == '\n' || ch == '\r')
      throw InvalidArgument(argument, "path '" + s + "' contains a quote or a line break, which gnuplot cannot take");
  return s;
}

// Label or title text from a file or the command line, for a single-quoted gnuplot string with
// the terminal's enhanced text mode off: printable ASCII without quotes or backslashes ('?'
// stands for anything else).
std::string GnuplotText(const std::string& text) {
  std::string out;
  for (char ch : text) out += ch >= 0x20 && ch < 0x7f && ch != '\'' && ch != '"' && ch != '\\' ? ch : '?';
  return out;
}

// Runs `gnuplot SCRIPT` without a shell; stderr goes to SCRIPT.err. Returns "" on success, else
// why it failed.
std::string RunGnuplot(const fs::path& script) {
  const std::string err_path = script.string() + ".err";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  std::string script_arg = script.string();
  std::string program = "gnuplot";
  char* argv[] = {program.data(), script_arg.data(), nullptr};
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return rc == ENOENT ? "gnuplot not found (apt-get install gnuplot-nox)" : "cannot start gnuplot";
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::ifstream err(err_path);
  std::string first_error;
  for (std::string line; std::getline(err, line);)
    if (!line.empty() && first_error.empty()) first_error = line;
  err.close();
  std::error_code ignored;
  fs::remove(err_path, ignored);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  return "gnuplot failed" + (first_error.empty() ? std::string() : ": " + first_error);
}

// The start of every script: CSV with dpfl's header line, a PNG of width × height, and no
// enhanced-text markup (labels come from files and are passed through GnuplotText).
std::string GnuplotPreamble(int width, int height) {
  return "set datafile separator ','\nset datafile columnheaders\nset terminal png size " + std::to_string(width) +
         "," + std::to_string(height) + " noenhanced\n";
}

struct RunSeries {
  std::string dir, label, metrics;
  std::size_t rounds = 0;
  double final_val = 0, final_test = 0;
  nlohmann::json configuration;  // from certificate.json, or null
};

constexpr const char* kMetricsHeader = "round,train_loss,val_loss,val_accuracy,test_loss,test_accuracy";

RunSeries ReadRun(const std::string& dir) {
  RunSeries run;
  run.dir = dir;
  const fs::path metrics = fs::path(dir) / "metrics.csv";
  run.metrics = GnuplotPath(metrics, "RUN_DIR");
  std::ifstream in(metrics);
  if (!in) throw InvalidArgument("RUN_DIR", "'" + dir + "' has no readable metrics.csv (is it a dpfl train --out directory?)");
  std::string line;
  if (!std::getline(in, line) || line.rfind(kMetricsHeader, 0) != 0)
    throw InvalidArgument("RUN_DIR", "'" + metrics.string() + "' does not start with dpfl's header '" + kMetricsHeader + "'");
  for (std::size_t row = 2; std::getline(in, line); ++row) {
    if (line.empty()) continue;
    std::vector<double> v;
    std::istringstream fields(line);
    for (std::string f; v.size() < 6 && std::getline(fields, f, ',');) {
      try {
        std::size_t used = 0;
        v.push_back(std::stod(f, &used));
        if (used != f.size()) throw std::invalid_argument(f);
      } catch (const std::exception&) {
        throw InvalidArgument("RUN_DIR", "'" + metrics.string() + "' row " + std::to_string(row) + ": '" + f +
                                             "' is not a number");
      }
    }
    if (v.size() < 6)
      throw InvalidArgument("RUN_DIR", "'" + metrics.string() + "' row " + std::to_string(row) + " has fewer than 6 fields");
    ++run.rounds;
    run.final_val = v[3];
    run.final_test = v[5];
  }
  if (run.rounds == 0) throw InvalidArgument("RUN_DIR", "'" + metrics.string() + "' has no rounds");
  run.label = fs::path(dir).lexically_normal().filename().string();
  if (run.label.empty()) run.label = fs::path(dir).lexically_normal().parent_path().filename().string();
  std::ifstream cert_in(fs::path(dir) / "certificate.json");
  if (cert_in) {
    try {
      const nlohmann::json cert = nlohmann::json::parse(cert_in);
      run.configuration = cert.at("configuration");
      const std::string mechanism = run.configuration.at("mechanism").get<std::string>();
      run.label = mechanism == "vanilla" ? mechanism
                                         : mechanism + " (eps_p " + ShortestDouble(run.configuration.at("eps_p").get<double>()) + ")";
    } catch (const std::exception&) {
      run.configuration = nullptr;  // not a certificate this reader understands: label by directory
    }
  }
  run.label = GnuplotText(run.label);
  return run;
}

// "fashion-mnist, 100 clients, 8 rounds" when every run agrees on these, else a generic title.
std::string DefaultTitle(const std::vector<RunSeries>& runs) {
  std::string common;
  for (const auto& r : runs) {
    if (!r.configuration.is_object()) return "accuracy per round";
    std::string t;
    try {
      t = r.configuration.at("dataset").get<std::string>() + ", " +
          std::to_string(r.configuration.at("clients").get<std::uint64_t>()) + " clients, seed " +
          std::to_string(r.configuration.at("seed").get<std::uint64_t>());
    } catch (const std::exception&) {
      return "accuracy per round";
    }
    if (!common.empty() && t != common) return "accuracy per round";
    common = t;
  }
  return common;
}

}  // namespace

std::function<void(const fl::TrainProgress&)> TerminalProgress() {
  return [](const fl::TrainProgress& p) {
    if (p.finished) {
      std::cerr << "\n";
      return;
    }
    const double done = (p.round - p.first_round) + static_cast<double>(p.clients_done) / p.clients;
    const double eta = done > 0 ? p.elapsed_seconds / done * (p.rounds - p.first_round - done) : 0;
    std::cerr << "\r[" << p.mechanism << "] round " << p.round + 1 << '/' << p.rounds << "  clients " << p.clients_done
              << '/' << p.clients << "  val acc "
              << (p.last_val_accuracy ? ShortestDouble(*p.last_val_accuracy) : std::string("-")) << "  ETA "
              << Clock(eta) << "   " << std::flush;
  };
}

std::vector<std::string> PlotRun(const std::string& run_dir, const std::string& title) {
  const fs::path dir(run_dir);
  try {
    const std::string csv = GnuplotPath(dir / "metrics.csv", "--out");
    const std::string accuracy = GnuplotPath(dir / "accuracy.png", "--out"), loss = GnuplotPath(dir / "loss.png", "--out");
    const fs::path script = dir / "plots.gp";
    {
      std::ofstream gp(script);
      gp << GnuplotPreamble(900, 540) << "set key bottom right\nset grid\nset xlabel 'round'\nset title '" << GnuplotText(title) << "'\n"
         << "set output '" << accuracy << "'\nset ylabel 'accuracy'\n"
         << "plot '" << csv << "' using 1:4 with linespoints title 'validation', '' using 1:6 with linespoints title 'test'\n"
         << "set key top right\nset output '" << loss << "'\nset ylabel 'loss'\n"
         << "plot '" << csv << "' using 1:2 with linespoints title 'train', '' using 1:3 with linespoints title 'validation', "
         << "'' using 1:5 with linespoints title 'test'\n";
    }
    const std::string failure = RunGnuplot(script);
    if (!failure.empty()) {
      std::cerr << "dpfl: warning: " << failure << "; accuracy.png and loss.png not written\n";
      return {};
    }
    return {accuracy, loss};
  } catch (const InvalidArgument& e) {
    std::cerr << "dpfl: warning: " << e.what() << "; plots not written\n";
    return {};
  }
}

std::string PlotRoc(const std::string& audit_dir) {
  const fs::path dir(audit_dir);
  try {
    const std::string dat = GnuplotPath(dir / "roc.dat", "--out"), png = GnuplotPath(dir / "roc.png", "--out");
    const fs::path script = dir / "roc.gp";
    {
      std::ofstream gp(script);
      // roc.dat is whitespace-separated without a header (the preamble is set up for CSV files).
      gp << GnuplotPreamble(700, 600) << "set datafile separator whitespace\nset datafile nocolumnheaders\n"
         << "set key bottom right\nset grid\nset logscale xy\nset xrange [1e-4:1]\n"
         << "set yrange [1e-4:1]\nset xlabel 'false positive rate'\nset ylabel 'true positive rate'\n"
         << "set title 'LiRA ROC (log-log)'\nset output '" << png << "'\n"
         << "plot '" << dat << "' index 0 using 1:2 with lines title 'offline', '' index 1 using 1:2 with lines "
         << "title 'online', x with lines dashtype 2 title 'chance'\n";
    }
    const std::string failure = RunGnuplot(script);
    if (!failure.empty()) {
      std::cerr << "dpfl: warning: " << failure << "; roc.png not written\n";
      return "";
    }
    return png;
  } catch (const InvalidArgument& e) {
    std::cerr << "dpfl: warning: " << e.what() << "; roc.png not written\n";
    return "";
  }
}

nlohmann::json PlotCompare(const CompareOptions& options) {
  if (options.run_dirs.empty()) throw InvalidArgument("RUN_DIR", "give at least one run directory");
  std::vector<RunSeries> runs;
  for (const auto& d : options.run_dirs) runs.push_back(ReadRun(d));
  const fs::path out = options.out.empty() ? fs::path(options.run_dirs.front()).lexically_normal().parent_path() /
                                                 "accuracy_compare.png"
                                           : fs::path(options.out);
  const std::string out_text = GnuplotPath(out, "--out");
  const std::string title = GnuplotText(options.title.empty() ? DefaultTitle(runs) : options.title);
  if (!out.parent_path().empty()) fs::create_directories(out.parent_path());
  const fs::path script = out.string() + ".gp";
  {
    std::ofstream gp(script);
    if (!gp) throw InvalidArgument("--out", "cannot write '" + script.string() + "'");
    gp << GnuplotPreamble(1400, 560) << "set output '" << out_text << "'\nset multiplot layout 1,2 title '" << title << "'\n"
       << "set grid\nset key bottom right\nset xlabel 'round'\nset ylabel 'accuracy'\n";
    for (const auto& [panel, column] : {std::pair{"validation accuracy", 4}, std::pair{"test accuracy", 6}}) {
      gp << "set title '" << panel << "'\nplot ";
      for (std::size_t k = 0; k < runs.size(); ++k)
        gp << (k ? ", " : "") << "'" << runs[k].metrics << "' using 1:" << column << " with linespoints title '"
           << runs[k].label << "'";
      gp << "\n";
    }
    gp << "unset multiplot\n";
  }
  const std::string failure = RunGnuplot(script);
  if (!failure.empty()) throw ExternalToolError(failure + " (script " + script.string() + ")");
  nlohmann::json list = nlohmann::json::array();
  for (const auto& r : runs)
    list.push_back({{"dir", r.dir}, {"label", r.label}, {"rounds", r.rounds}, {"final_val_accuracy", r.final_val},
                    {"final_test_accuracy", r.final_test}});
  return {{"plot", out.string()}, {"script", script.string()}, {"title", title}, {"runs", list}};
}

void RegisterPlotCommand(CLI::App& root, std::vector<Command>& commands) {
  auto* plot = root.add_subcommand("plot", "Pictures of training runs (gnuplot)");
  plot->require_subcommand(1);
  auto* app = plot->add_subcommand("compare",
                                   "Validation and test accuracy per round of several `dpfl train --out` directories, "
                                   "side by side in one PNG");
  auto o = std::make_shared<CompareOptions>();
  app->add_option("RUN_DIR", o->run_dirs, "run directories (each with metrics.csv; certificate.json names the mechanism)")
      ->required();
  app->add_option("--out", o->out, "PNG file (default: accuracy_compare.png beside the first run directory)");
  app->add_option("--title", o->title, "picture title (default: the runs' common data set, clients and seed)");
  commands.push_back({app, [o]() -> nlohmann::json { return PlotCompare(*o); }});
}

}  // namespace dpfl::cli
