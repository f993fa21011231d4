// dpfl — the production engine from the command line. JSON on stdout; exit codes:
//   0 success, 2 bad input (one line on stderr naming the flag, nothing on stdout),
//   1 a failure that is not the input's fault (a failing CUDA call, gnuplot missing or failing),
//   3 (dpfl train) the runtime monitor rejected a round, 4 (dpfl train --world-size N) another
//   rank failed, left, stalled past its timeout or could not be reached.
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/fl/remote_fleet.hpp"
#include "bench_command.hpp"
#include "run_report.hpp"
#include "sample_command.hpp"
#include "train_command.hpp"

namespace {

// CLI11 messages may span lines; the contract is one line on stderr.
std::string OneLine(std::string text) {
  for (char& ch : text)
    if (ch == '\n' || ch == '\r') ch = ' ';
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

// "cannot create directories: Permission denied: '/proc/x'" from libstdc++'s
// "filesystem error: cannot create directories: Permission denied [/proc/x]".
std::string FileSystemMessage(const std::filesystem::filesystem_error& e) {
  std::string what = e.what();
  const std::string prefix = "filesystem error: ";
  if (what.rfind(prefix, 0) == 0) what.erase(0, prefix.size());
  const auto bracket = what.find(" [");
  if (bracket != std::string::npos) what.erase(bracket);
  std::string out = OneLine(what);
  if (!e.path1().empty()) out += ": '" + e.path1().string() + "'";
  if (!e.path2().empty()) out += " -> '" + e.path2().string() + "'";
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  using dpfl::cli::Command;
  CLI::App app{
      "dpfl: production engine of verified differentially private quantized federated learning.\n"
      "Numbers are decimals (no NaN/Inf, hex or fractions); output is JSON."};
  app.require_subcommand(1);
  std::vector<Command> commands;
  dpfl::cli::RegisterSampleCommand(app, commands);
  dpfl::cli::RegisterBenchCommand(app, commands);
  dpfl::cli::RegisterTrainCommand(app, commands);
  dpfl::cli::RegisterAuditCommand(app, commands);
  dpfl::cli::RegisterVerifyCommand(app, commands);
  dpfl::cli::RegisterKeygenCommand(app, commands);
  dpfl::cli::RegisterPlotCommand(app, commands);
  dpfl::cli::RegisterCheckCommand(app, commands);
  dpfl::cli::RegisterServeCommand(app, commands);
  // Name an unknown (sub)command: CLI11 would only say that one is required.
  auto known = [&](const std::string& name, bool top_level) {
    for (const Command& command : commands) {
      const CLI::App* parent = command.app->get_parent();
      const bool nested = parent != nullptr && parent != &app;
      if (top_level ? (nested ? parent->get_name() == name : command.app->get_name() == name)
                    : command.app->get_name() == name)
        return true;
    }
    return false;
  };
  // A second word is a subcommand only when the first command is a group (sample, bench, check);
  // otherwise it is a positional argument (e.g. `dpfl verify-certificate FILE`).
  auto is_group = [&](const std::string& name) {
    for (const Command& command : commands) {
      const CLI::App* parent = command.app->get_parent();
      if (parent != nullptr && parent != &app && parent->get_name() == name) return true;
    }
    return false;
  };
  for (int depth = 1; depth <= 2 && depth < argc && argv[depth][0] != '-'; ++depth) {
    if (depth == 2 && !is_group(argv[1])) break;
    if (!known(argv[depth], depth == 1)) {
      std::cerr << "dpfl: error: unknown " << (depth == 1 ? std::string("command") : std::string("subcommand of ") + argv[1])
                << " '" << argv[depth] << "' (see --help)\n";
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "dpfl: error: " << OneLine(e.what()) << " (see --help)\n";
    return 2;
  }
  try {
    for (const Command& command : commands) {
      if (!command.app->parsed()) continue;
      if (command.run_with_status) return command.run_with_status();
      const nlohmann::json result = command.run();
      if (!result.is_null()) std::cout << result.dump(2) << "\n";
      return 0;
    }
  } catch (const dpfl::InvalidArgument& e) {
    std::cerr << "dpfl: error: " << OneLine(e.what()) << "\n";
    return 2;
  } catch (const std::filesystem::filesystem_error& e) {
    // An output or input path that cannot be used (e.g. --out /proc/x) is bad input: one line
    // naming the operation, the reason and the path(s), exit 2.
    std::cerr << "dpfl: error: " << FileSystemMessage(e) << "\n";
    return 2;
  } catch (const dpfl::fl::PeerFailure& e) {
    // Multi-process training: another rank failed, left, stalled or could not be reached.
    std::cerr << "dpfl: error: " << OneLine(e.what()) << "\n";
    return 4;
  } catch (const dpfl::cli::ExternalToolError& e) {
    std::cerr << "dpfl: error: " << OneLine(e.what()) << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "dpfl: internal error: " << OneLine(e.what()) << "\n";
    return 1;
  }
  std::cerr << "dpfl: error: no subcommand (see --help)\n";
  return 2;
}
