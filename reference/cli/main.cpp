// dpfl-ref — the exact reference from the command line. JSON on stdout; exit codes:
//   0 success, 2 bad input (one line on stderr naming the argument), 3 undecidable at the
//   requested precision (an enclosure straddles a cell boundary; give E exactly or more bits).
#include <iostream>

#include "cli_common.hpp"

int main(int argc, char** argv) {
  using dpfl::cli::Command;
  CLI::App app{
      "dpfl-ref: exact reference for differentially private quantized FL (specs 000-004).\n"
      "Numbers: integers, decimals read exactly (0.1 = 1/10, 1e-6) or fractions p/q.\n"
      "Output: JSON; exact values as \"p/q\" strings with --E, 40-digit enclosures with --eps."};
  app.require_subcommand(1);
  std::vector<Command> commands;
  dpfl::cli::RegisterQuantizerCommands(app, commands);
  dpfl::cli::RegisterCoqCommands(app, commands);
  dpfl::cli::RegisterCorbinFlCommands(app, commands);
  dpfl::cli::RegisterReportCommand(app, commands);
  dpfl::cli::RegisterAccountingCommands(app, commands);
  dpfl::cli::RegisterNoiseCommands(app, commands);
  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    for (const Command& command : commands) known = known || command.app->get_name() == argv[1];
    if (!known) {
      std::cerr << "dpfl-ref: error: unknown subcommand '" << argv[1] << "' (see --help)\n";
      return 2;
    }
  }
  // Name an unknown second word of a group (rdp, calibrate, cepam, …) instead of CLI11's
  // generic "A subcommand is required".
  auto find_child = [](CLI::App* parent, const std::string& name) -> CLI::App* {
    for (CLI::App* child : parent->get_subcommands({}))
      if (child->get_name() == name) return child;
    return nullptr;
  };
  if (argc > 2 && argv[2][0] != '-') {
    CLI::App* group = find_child(&app, argv[1]);
    if (group != nullptr && !group->get_subcommands({}).empty() && find_child(group, argv[2]) == nullptr) {
      std::cerr << "dpfl-ref: error: unknown subcommand of " << argv[1] << " '" << argv[2] << "' (see " << argv[1]
                << " --help)\n";
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
    std::string what = e.what();
    for (char& ch : what) if (ch == '\n') ch = ' ';
    std::cerr << "dpfl-ref: error: " << what << " (see --help)\n";
    return 2;
  }
  try {
    for (const Command& command : commands) {
      if (!command.app->parsed()) continue;
      const nlohmann::json result = command.run();
      if (result.is_string()) std::cout << result.get<std::string>();  // human-readable report
      else std::cout << result.dump(2) << "\n";
      return 0;
    }
  } catch (const dpfl::InvalidArgument& e) {
    // Library parameters are named like C++ identifiers (eps_tilde); flags use dashes (--eps-tilde).
    const std::string arg = e.argument();
    std::string what = e.what();
    if (!arg.empty() && arg[0] != '-') {
      for (std::size_t i = 0; i < arg.size() && i < what.size(); ++i)
        if (what[i] == '_') what[i] = '-';
      what = "--" + what;
    }
    std::cerr << "dpfl-ref: error: " << what << "\n";
    return 2;
  } catch (const dpfl::Undecidable& e) {
    std::cerr << "dpfl-ref: undecidable: " << e.what() << "\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "dpfl-ref: internal error: " << e.what() << "\n";
    return 1;
  }
  std::cerr << "dpfl-ref: error: no subcommand (see --help)\n";
  return 2;
}
