// dpfl train / dpfl verify-certificate / dpfl keygen (docs/training.md). See train_command.cpp.
#pragma once

#include <nlohmann/json.hpp>

#include "dpfl/data/datasets.hpp"
#include "sample_command.hpp"
#include "dpfl/fl/training.hpp"
#include "train_config.hpp"
#include "train_execution.hpp"

namespace dpfl::cli {

// `dpfl train ...`: certified federated training (needs dpfl_fl_torch; without it the command
// exists and exits 2 saying LibTorch was not built in).
void RegisterTrainCommand(CLI::App& root, std::vector<Command>& commands);
// `dpfl audit lira` (audit_lira.cpp): LiRA membership inference against FL trainings of the seed-003
// loop (qgauss, qgauss-gaussian, vanilla) and of the seed-000/001 loop (ldp-fl, corbin-fl, …).
// One unsigned `dpfl train` run of the seed-000/001 loop (vanilla, gaussian, laplace, ldp-fl, corbin-fl,
// augcorbin-fl, cq, coq-fl) on `split`, into a.out: the flags are validated first (InvalidArgument
// naming the flag), then metrics.csv, final_weights.bin and certificate.json are written; returns the
// summary `dpfl train` prints. For the audit, which trains many runs on its own subsets.
nlohmann::json RunPldpTrain(const TrainArgs& a, const data::Split& split, const nlohmann::json& dataset);
// The rounds of one seed-000/001 `dpfl train` with `a`'s flags and no certificate, the clients
// placed by `ex` (train_execution.hpp); for `dpfl bench rounds --scaling`. A client host
// (ex.IsHost()) serves its clients and returns an empty result.
fl::TrainResult RunPldpRounds(const TrainArgs& a, const data::Split& split, const Execution& ex);
void RegisterAuditCommand(CLI::App& root, std::vector<Command>& commands);
// The bytes of a text file named by `argument`; InvalidArgument for a directory or an unreadable path.
std::string ReadText(const std::string& path, const std::string& argument);
// `verify-certificate --replay`: the training again from the certificate's configuration (one
// process), every round's transcript hash and the final weights compared bit for bit; what did
// not match is appended to `problems`.
nlohmann::json Replay(const nlohmann::json& cert, const std::string& data_dir, const std::string& replay_dir, bool quiet,
                      std::vector<std::string>& problems);
// `dpfl verify-certificate FILE [--public-key KEY.pub] [--replay]`: exit 0 verified, 1 rejected,
// 2 bad input.
void RegisterVerifyCommand(CLI::App& root, std::vector<Command>& commands);
// `dpfl keygen --out KEY`: an Ed25519 key pair for signing certificates.
void RegisterKeygenCommand(CLI::App& root, std::vector<Command>& commands);

}  // namespace dpfl::cli
