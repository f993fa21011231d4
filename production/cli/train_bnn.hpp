// `dpfl train --mechanism dpfl-bnn` (seed 004) and its replay: the binary-network round loop
// (dpfl/fl/bnn_training.hpp) with the LibTorch model, certificate.json from dpfl_certify
// (BuildBnnCertificate), progress on stderr. docs/training.md "DPFL-BNN".
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "certificate.hpp"
#include "dpfl/data/datasets.hpp"
#include "train_config.hpp"

namespace dpfl::cli {

// Which flags the user gave on the command line (for the checks of flags that dpfl-bnn does not
// take, and the BNN-only flags given to another mechanism).
using GivenFlag = std::function<bool(const std::string& flag)>;

// InvalidArgument naming the flag for a BNN-only flag with another mechanism (call for every run).
void CheckBnnOnlyFlags(const TrainArgs& a, const GivenFlag& given);

// Trains, writes metrics.csv, final_models.bin, certificate.json (and .sig); returns the JSON
// summary `dpfl train` prints.
nlohmann::json RunBnnTrain(const TrainArgs& a, const GivenFlag& given, const data::Split& split,
                           const nlohmann::json& dataset, const std::optional<certify::KeyPair>& signing);

// The number of leading rounds whose transcript hash (certificate's `rounds[t].transcript`) the
// replay reproduced; adds a problem unless every round matches and the counts agree. Shared by
// both replays.
std::size_t CompareTranscripts(const nlohmann::json& rounds, const std::vector<std::string>& replayed,
                               const std::string& what_differs, std::vector<std::string>& problems);

// verify-certificate --replay for a dpfl-bnn certificate: re-trains in `dir` from the
// configuration and compares every round's transcript hash and the final models.
nlohmann::json ReplayBnn(const nlohmann::json& cert, const TrainArgs& a, const data::Split& split, const std::string& dir,
                         std::vector<std::string>& problems);

}  // namespace dpfl::cli
