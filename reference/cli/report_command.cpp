// PLACEHOLDER — replaced in this session.
#include "cli_common.hpp"
namespace dpfl::cli {
void RegisterReportCommand(CLI::App&, std::vector<Command>&) {}
}  // namespace dpfl::cli
