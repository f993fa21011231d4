// The seed-003 round loop (spec 003 §3 Alg. 1, FedAvg with noise then stochastic k-level
// quantization; docs/training.md "Quantized Gaussian"). Free of LibTorch: the model is a
// LocalTrainer (MakeTorchTrainer; the seed's local optimiser is Adam, lr 0.001, batch 128).
//
// Round t (0-based):
//   participants: every client (--client-sampling full), or each client independently with
//     probability q̃ = ⌈q·2^64⌉/2^64 (poisson:q), decided by the server's "qgauss-sampling" stream
//     (word i of address (t, 0, kPairing)): V_i < ⌈q·2^64⌉. Participation is visible to the server.
//   each participant i: W^i ← W_t; local_epochs passes over its shard in a fresh order per epoch
//     (the client's "qgauss-order" stream), mini-batches of `batch`; h = W^i − W_t (line 6);
//     message (dpfl/fl/quantized_gaussian.hpp, client i's key DeriveKey(seed, "qgauss-client", i),
//     round t):
//       qgauss          ℓ2 clip to C/2, discrete Gaussian noise, saturation, k-level stochastic
//                       rounding (lines 7–9): ⌈log2 k⌉ bits per coordinate; x̂ = B(index)
//       qgauss-gaussian the same clip and the same noise, no quantization: 32-bit floats
//                       float((q + Z)·g) (the Gaussian mechanism at the same σ̃)
//       qgauss-vanilla  h itself as 32-bit floats (no clip, no noise)
//   server: W_{t+1} = W_t + (1/|S_t|) Σ_{i∈S_t} x̂_i (line 13 with α_i renormalised over the
//     participants, E13; equal weights), summed in double and rounded to float once; no
//     participant: W_{t+1} = W_t.
// Outputs in out_dir: metrics.csv and final_weights.bin (m float32, little-endian).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dpfl/data/datasets.hpp"
#include "dpfl/fl/quantized_gaussian.hpp"
#include "dpfl/fl/round_observer.hpp"
#include "dpfl/fl/trainer.hpp"
#include "dpfl/fl/training.hpp"

namespace dpfl::fl {

enum class QgaussFlMechanism { kVanilla, kGaussian, kQgauss };
// "qgauss-vanilla", "qgauss-gaussian", "qgauss"; anything else throws InvalidArgument("--mechanism").
QgaussFlMechanism ParseQgaussFlMechanism(const std::string& name);
bool IsQgaussFlMechanism(const std::string& name);
std::string QgaussFlMechanismName(QgaussFlMechanism m);

struct QgaussTrainConfig {
  QgaussFlMechanism mechanism = QgaussFlMechanism::kQgauss;
  QgaussConfig noise;                 // σ, k, C (k unused by qgauss-gaussian; nothing by vanilla)
  rng::Generator generator = rng::Generator::kChaCha20;
  std::uint32_t clients = 10, rounds = 10;
  int local_epochs = 1, batch = 128;
  double sampling_rate = 1.0;         // 1: every client every round; else Poisson with q ∈ (0, 1)
  std::string split = "iid";          // iid | dirichlet
  double dirichlet_beta = 0.5;
  std::uint64_t seed = 1;
  int encode_threads = 1;             // the mechanism's chunks (the message does not depend on it)
  std::string out_dir;
  std::string transcript_context;     // bound into h_0 (the CLI passes the configuration JSON)
  RoundObserver observer = nullptr;   // called once per round after aggregation (round_observer.hpp)
};
// The noise grid's parameters for a mechanism: its own (σ, k, C) for qgauss; for qgauss-gaussian
// the grid of k = 2 (the unquantized baseline needs a grid for its noise, not levels); nothing is
// drawn for qgauss-vanilla. The loop, its validation and the certificate all take it from here.
QgaussConfig QgaussGridConfig(QgaussFlMechanism mechanism, const QgaussConfig& noise);

// InvalidArgument naming the flag (--sigma, --levels, --clip via MakeQgaussGrid; --clients,
// --rounds, --local-epochs, --batch, --client-sampling, --split, --beta, --out).
void ValidateQgaussTrainConfig(const QgaussTrainConfig& config);
// ⌈q·2^64⌉ (2^64 − 1 at most; q = 1 means full participation and is not drawn).
std::uint64_t QgaussSamplingThreshold(double q);

struct QgaussRoundRecord {
  std::uint32_t round = 0, participants = 0, clipped_clients = 0;
  double train_loss = 0, val_loss = 0, val_accuracy = 0, test_loss = 0, test_accuracy = 0;
  std::uint64_t uplink_bits = 0;      // all participants' messages, as sent
  double bits_per_parameter = 0;      // uplink_bits / (|S_t| m)
  double mean_update_norm = 0;        // mean ‖h‖₂ before clipping, over the participants
  double seconds = 0, mechanism_seconds = 0;
  std::string transcript;
};

struct QgaussTrainResult {
  std::vector<QgaussRoundRecord> history;
  std::vector<float> final_weights;
  std::size_t parameters = 0;
  std::uint32_t max_participations = 0;  // the most rounds any one client took part in
  Evaluation final_test;
  std::string weights_path, metrics_path, transcript_start;
};

// Transcript hash chain (SHA-256, length-prefixed, little-endian):
//   h_0 = H("dpfl-qgauss-transcript-v1", fingerprint JSON, transcript_context)
//   h_t = H("dpfl-qgauss-round-v1", h_{t−1}, round t (u32), participant count (u32), per participant
//           in order: client (u32), bits (u64), the packed words (u64) or the floats (f32); then the
//           global model after the round (f32))
std::string QgaussTranscriptStart(const QgaussTrainConfig& config, std::size_t parameters);
QgaussTrainResult RunQgaussTraining(const QgaussTrainConfig& config, const data::Split& split, LocalTrainer& trainer,
                                    const std::function<void(const TrainProgress&)>& progress = {});
// The same with one client trainer per worker (dpfl train --workers W): the participants'
// local training and encoding run in parallel; the final weights and transcript are the same for
// every W. workers[0] also evaluates.
QgaussTrainResult RunQgaussTraining(const QgaussTrainConfig& config, const data::Split& split,
                                    const std::vector<LocalTrainer*>& workers,
                                    const std::function<void(const TrainProgress&)>& progress = {});

}  // namespace dpfl::fl
