// dpfl train / dpfl verify-certificate / dpfl keygen (docs/training.md). See train_command.cpp.
#pragma once

#include "sample_command.hpp"

namespace dpfl::cli {

// `dpfl train ...`: certified federated training (needs dpfl_fl_torch; without it the command
// exists and exits 2 saying LibTorch was not built in).
void RegisterTrainCommand(CLI::App& root, std::vector<Command>& commands);
// `dpfl audit lira` (audit_lira.cpp): LiRA membership inference against seed-003 FL trainings.
void RegisterAuditCommand(CLI::App& root, std::vector<Command>& commands);
// `dpfl verify-certificate FILE [--public-key KEY.pub] [--replay]`: exit 0 verified, 1 rejected,
// 2 bad input.
void RegisterVerifyCommand(CLI::App& root, std::vector<Command>& commands);
// `dpfl keygen --out KEY`: an Ed25519 key pair for signing certificates.
void RegisterKeygenCommand(CLI::App& root, std::vector<Command>& commands);

}  // namespace dpfl::cli
