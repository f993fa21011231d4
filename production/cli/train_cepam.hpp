// `dpfl train --mechanism cepam-gaussian|cepam-laplace|fl|fl-sdq|fl-gaussian[-sdq]|fl-laplace[-sdq]`
// (seed 002) and its replay: the seed-002 round loop (dpfl/fl/cepam_training.hpp) with the LibTorch
// trainer, the §3.11 calibration and certificate.json from dpfl_certify (BuildCepamCertificate).
// docs/training.md "CEPAM".
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "certificate.hpp"
#include "dpfl/data/datasets.hpp"
#include "train_bnn.hpp"
#include "train_config.hpp"

namespace dpfl::cli {

// InvalidArgument naming the flag for a seed-002-only flag with another mechanism, or a flag the
// seed-002 loop does not take (call for every run).
void CheckCepamFlags(const TrainArgs& a, const GivenFlag& given);

// Trains, writes metrics.csv, final_weights.bin, certificate.json (and .sig); returns the JSON
// summary `dpfl train` prints. `given` decides the family's defaults (seed 002 §5.2: K = 30,
// τ = 15, lr 0.01, momentum 0.9, model cepam-mlp) for flags absent from the command line.
nlohmann::json RunCepamTrain(TrainArgs a, const GivenFlag& given, const data::Split& split,
                             const nlohmann::json& dataset, const std::optional<certify::KeyPair>& signing);

// verify-certificate --replay for a seed-002 certificate: re-trains in `dir` from the configuration
// (re-calibrating the noise if it was calibrated) and compares every round's transcript hash and the
// final weights.
nlohmann::json ReplayCepam(const nlohmann::json& cert, const TrainArgs& a, const data::Split& split,
                           const std::string& dir, std::vector<std::string>& problems);

}  // namespace dpfl::cli
