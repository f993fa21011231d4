// `dpfl train --mechanism qgauss|qgauss-gaussian|qgauss-vanilla` (seed 003) and its replay: the
// seed-003 round loop (dpfl/fl/qgauss_training.hpp) with the LibTorch trainer and certificate.json
// from dpfl_certify (BuildQgaussCertificate). docs/training.md "Quantized Gaussian".
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

// InvalidArgument naming the flag for a seed-003-only flag (--levels, --client-sampling) with another
// mechanism, or a flag the seed-003 loop does not take (call for every run).
void CheckQgaussFlags(const TrainArgs& a, const GivenFlag& given);

// Trains, writes metrics.csv, final_weights.bin, certificate.json (and .sig); returns the JSON
// summary `dpfl train` prints. The seed's setting (spec 003 Table I: Adam, lr 0.001, batch 128)
// for the flags absent from the command line; model auto means mlp.
nlohmann::json RunQgaussTrain(TrainArgs a, const GivenFlag& given, const data::Split& split,
                              const nlohmann::json& dataset, const std::optional<certify::KeyPair>& signing);

// verify-certificate --replay for a seed-003 certificate: re-trains in `dir` from the configuration
// and compares every round's transcript hash and the final weights.
nlohmann::json ReplayQgauss(const nlohmann::json& cert, const TrainArgs& a, const data::Split& split,
                            const std::string& dir, std::vector<std::string>& problems);

}  // namespace dpfl::cli
