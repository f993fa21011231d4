// The FL round loop (issue 6; DESIGN.md "FL loop"; seed-000 §3.3–3.6, §5). Free of LibTorch:
// the model is a LocalTrainer.
//
// Round t (0-based): the server computes per-layer (c, r) from the current global model
// (min/max of the previous round's result, RangesFromWeights), draws the pairing and dropout
// (BeginRound); every present client trains locally from the global weights on its shard
// (sample order from its counter-based "shuffle" stream, so no torch RNG is used), clips and
// encodes (EncodeClient); the server aggregates from its view (ServerAggregate) and applies the
// smoothed update w_g = (1 − λ) w_init + λ w_final (eq. 6). Validation; patience: if the
// validation accuracy has not improved for `patience` rounds the best model is reloaded.
// A checkpoint (atomic: temp file, fsync, rename) is written after every round; --resume
// restarts after the last completed round and reaches bit-identical final weights.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dpfl/data/datasets.hpp"
#include "dpfl/fl/mechanisms.hpp"
#include "dpfl/fl/trainer.hpp"

namespace dpfl::fl {

struct TrainConfig {
  MechanismConfig mechanism;
  std::uint32_t clients = 10;
  std::uint32_t rounds = 10;
  double lambda = 1.0;
  std::uint64_t seed = 1;
  int local_epochs = 1;       // passes over the shard per round (ignored if local_steps > 0)
  int local_steps = 0;        // mini-batches per round (0: use local_epochs)
  int batch = 64;
  int patience = 5;
  double radius_scale = 1.25;
  std::string split = "iid";  // iid | dirichlet
  double dirichlet_beta = 0.5;
  std::size_t monitor_samples = 64;  // coordinates per client per round for the runtime monitor
  std::string out_dir;
  bool resume = false;
  bool progress = true;
  bool plots = true;
};
// Throws InvalidArgument (one line, naming the flag) for impossible values.
void ValidateTrainConfig(const TrainConfig& config);

struct MonitorOutcome {
  bool applicable = false;
  bool passed = true;
  std::string test;     // e.g. "two-sided z-test of the sum of sampled bits vs exact marginals"
  double statistic = 0, critical = 0, alpha = 0;
  std::size_t samples = 0;
};

struct RoundRecord {
  std::uint32_t round = 0;
  double train_loss = 0, val_loss = 0, val_accuracy = 0, test_loss = 0, test_accuracy = 0;
  bool reloaded_best = false;
  std::uint32_t survivors = 0, pairs = 0, solo = 0;
  std::uint64_t uplink_bits = 0;
  double seconds = 0;
  // Wall time of the mechanism's own work this round, timed directly: pairing and key relay,
  // every client's encoding, the runtime monitor and the server's aggregation (for vanilla: the
  // plain copy and mean). Local training and evaluation are excluded.
  double mechanism_seconds = 0;
  std::vector<double> c, r;   // per layer, as broadcast this round (exact doubles)
  MonitorOutcome monitor;
};

struct TrainHooks {
  // Runtime monitor (DESIGN.md "Certificate"): called every round with the sampled outputs; a
  // failed outcome aborts the run (fail closed) with MonitorFailure.
  std::function<MonitorOutcome(const MechanismConfig&, std::uint32_t round, const std::vector<MonitorSample>&)> monitor;
};

class MonitorFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct TrainResult {
  std::vector<RoundRecord> history;
  std::vector<float> final_weights;
  std::vector<std::size_t> layer_sizes;
  Evaluation final_test;
  std::string weights_path, metrics_path, checkpoint_path;
  std::vector<std::string> plots;
};

// Runs (or resumes) training; writes metrics.csv, checkpoint.bin, final_weights.bin and, with
// gnuplot, accuracy.png and loss.png to config.out_dir.
TrainResult RunTraining(const TrainConfig& config, const data::Split& split, LocalTrainer& trainer,
                        const TrainHooks& hooks = {});

// SHA-256 (libsodium) of the files, in order, as hex; and of a byte string.
std::string Sha256Files(const std::vector<std::string>& paths);
std::string Sha256Hex(const void* data, std::size_t size);

}  // namespace dpfl::fl
