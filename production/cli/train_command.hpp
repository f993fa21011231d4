// dpfl train / dpfl verify-certificate (issue 6). See train_command.cpp.
#pragma once

#include "sample_command.hpp"

namespace dpfl::cli {

// `dpfl train ...`: certified federated training (needs dpfl_fl_torch; without it the command
// exists and exits 2 saying LibTorch was not built in).
void RegisterTrainCommand(CLI::App& root, std::vector<Command>& commands);
// `dpfl verify-certificate FILE`: exit 0 if every privacy number recomputes, else 1.
void RegisterVerifyCommand(CLI::App& root, std::vector<Command>& commands);

}  // namespace dpfl::cli
