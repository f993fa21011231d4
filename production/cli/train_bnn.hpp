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
#include "dpfl/fl/trainer.hpp"
#include "dpfl/fl/training.hpp"
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

// The data set of a run (data::LoadNamedDataset) and its description for the certificate
// (defined in train_command.cpp; `dpfl audit lira` loads its pool with it too).
struct LoadedData {
  data::Dataset all;
  nlohmann::json description;
};
LoadedData LoadData(const TrainArgs& a);
// The LocalTrainer options of a run (model, optimizer, lr, momentum, threads, seed), shared by every loop.
fl::TrainerOptions TrainerOptionsFor(const TrainArgs& a);

// The operator's public key as hex, when the certificate is signed (shared by every loop).
std::optional<std::string> SigningPublicHex(const std::optional<certify::KeyPair>& signing);
// Writes OUT_DIR/certificate.json (atomically) and, with a key, its Ed25519 signature
// certificate.json.sig (summary["signature"] = its path); without one a stale .sig of an earlier
// run is removed. Returns the certificate's path. Shared by every loop.
std::string WriteCertificateFiles(const nlohmann::json& cert, const std::string& out_dir,
                                  const std::optional<certify::KeyPair>& signing, nlohmann::json& summary);
// The replay's verdict, shared by every loop: the re-run's transcripts against the certificate's
// rounds (CompareTranscripts) and the re-run's output file hash `sha` against `expected`
// (`what_file` names it in the problem, `match_key` in the JSON). `environment_differences` lists
// where the certificate's environment differs from this machine's; when the replay differs and so
// does the environment, one more problem line says that the difference may be the kernels'.
nlohmann::json ReplayVerdict(const nlohmann::json& cert, const std::vector<std::string>& replayed,
                             const std::string& transcript_start, const std::string& what_differs, const std::string& sha,
                             const nlohmann::json& expected, const std::string& match_key, const std::string& what_file,
                             std::vector<std::string>& problems);

// The replay verdict of an update-based loop (seed 002 and 003: Run has .configuration and .result
// with history[].transcript, transcript_start and weights_path): the re-derived configuration must
// equal the certificate's, then ReplayVerdict on the transcripts and final_weights.bin.
template <class Run>
nlohmann::json ReplayUpdateLoop(const nlohmann::json& cert, const Run& run, std::vector<std::string>& problems) {
  if (run.configuration != cert.at("configuration"))
    problems.push_back("replay: the re-derived configuration differs: " +
                       nlohmann::json::diff(cert.at("configuration"), run.configuration).dump().substr(0, 300));
  std::vector<std::string> replayed;
  for (const auto& r : run.result.history) replayed.push_back(r.transcript);
  return ReplayVerdict(cert, replayed, run.result.transcript_start, "messages or global model differ",
                       fl::Sha256Files({run.result.weights_path}), cert.at("final").at("weights_sha256"), "weights_match",
                       "final weights", problems);
}

// verify-certificate --replay for a dpfl-bnn certificate: re-trains in `dir` from the
// configuration and compares every round's transcript hash and the final models.
nlohmann::json ReplayBnn(const nlohmann::json& cert, const TrainArgs& a, const data::Split& split, const std::string& dir,
                         std::vector<std::string>& problems);

}  // namespace dpfl::cli
