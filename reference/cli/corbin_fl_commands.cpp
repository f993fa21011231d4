// PLACEHOLDER — replaced in this session.
#include "cli_common.hpp"
namespace dpfl::cli {
void RegisterCorbinFlCommands(CLI::App&, std::vector<Command>&) {}
}  // namespace dpfl::cli
