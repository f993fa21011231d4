// The seed-002 round loop (spec 002 §1.2, §3.7 Alg. 1; docs/training.md "CEPAM"). Free of
// LibTorch: the model is a LocalTrainer (MakeTorchTrainer with --model cepam-mlp / cepam-cnn, the
// seed's 25,818- and 6,422-parameter networks, §5.1).
//
// Round t (0-based), every client k (p_k = 1/K, no dropout):
//   W^k ← W_t; τ = local_steps single-sample SGD steps, each sample j ~ Unif[n_k] drawn with
//   replacement (eq. (3); the subsampling of Theorem 7) from the client's "cepam-sample" stream;
//   the trainer builds a fresh optimizer per round, so a momentum buffer never carries data of an
//   earlier round into this one (E-X5: the per-round amplification by subsampling stays valid);
//   X = W^k − W_t; the message of the mechanism (dpfl/fl/cepam_uplink.hpp: clip to γ, then CEPAM
//   or a baseline).
// Server: X̂^k = decode of each message (step 2); W_{t+1} = W_t + (1/K) Σ_k X̂^k, summed in double and
// rounded to float once per coordinate (step 3).
//
// n_k: the privacy theorems need the local data set size; with unequal shards the certificate uses
// min_k n_k over the clients that hold data (E-P8). A client with an empty shard (possible with a
// Dirichlet split) trains nothing and sends the encoding of a zero update.
// Outputs in out_dir: metrics.csv and final_weights.bin (m float32, little-endian).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dpfl/data/datasets.hpp"
#include "dpfl/fl/cepam_uplink.hpp"
#include "dpfl/fl/round_observer.hpp"
#include "dpfl/fl/trainer.hpp"
#include "dpfl/fl/training.hpp"

namespace dpfl::fl {

// τ ≤ 4096: Theorem 12's bound (16) sums τ terms, each an MPFR evaluation, in the certificate and
// the verifier (the seed uses τ = 15).
inline constexpr int kCepamMaxLocalSteps = 4096;

struct CepamTrainConfig {
  CepamUplinkConfig uplink;
  std::uint32_t clients = 30, rounds = 10;
  int local_steps = 15;              // τ (spec 002 §5.2: 15)
  std::string split = "iid";         // iid | dirichlet
  double dirichlet_beta = 0.5;
  std::uint64_t seed = 1;
  std::string out_dir;
  std::string transcript_context;    // bound into h_0 (the CLI passes the configuration JSON)
  RoundObserver observer = nullptr;  // called once per round after aggregation (round_observer.hpp)
};
// InvalidArgument naming the flag for impossible values (and ValidateCepamUplink).
void ValidateCepamTrainConfig(const CepamTrainConfig& config);

struct CepamRoundRecord {
  std::uint32_t round = 0;
  double train_loss = 0, val_loss = 0, val_accuracy = 0, test_loss = 0, test_accuracy = 0;
  std::uint64_t uplink_bits = 0;      // all clients' messages, as sent
  double bits_per_parameter = 0;      // uplink_bits / (K m)
  std::uint64_t blocks = 0, trials = 0, h_bits = 0, index_bits = 0;  // bitstream mechanisms (all clients)
  std::uint32_t clipped_clients = 0;  // ‖X‖₂ > γ
  double mean_update_norm = 0;        // mean ‖X‖₂ before clipping
  double seconds = 0, mechanism_seconds = 0;  // mechanism: clipping, encoding and decoding
  std::string transcript;
};

struct CepamTrainResult {
  std::vector<CepamRoundRecord> history;
  std::vector<float> final_weights;
  std::size_t parameters = 0;
  std::size_t min_shard = 0;          // min_k n_k over clients with data (E-P8)
  std::uint32_t empty_shards = 0;
  Evaluation final_test;
  std::string weights_path, metrics_path, transcript_start;
};

// The loop's client shards (IID equal shares, or Dirichlet(β) per class) and the smallest non-empty
// one, n_k of the privacy theorems (E-P8; 0 if every shard is empty). The CLI calibrates with the
// same function the loop trains with, so the two n_k cannot differ.
struct CepamShards {
  std::vector<std::vector<std::size_t>> indices;
  std::size_t min_nonempty = 0;
  std::uint32_t empty = 0;
};
CepamShards MakeCepamShards(const data::Dataset& train, std::uint32_t clients, const std::string& split,
                            double dirichlet_beta, std::uint64_t seed);

// Transcript hash chain (SHA-256, length-prefixed, little-endian):
//   h_0 = H("dpfl-cepam-transcript-v1", fingerprint JSON, transcript_context)
//   h_t = H("dpfl-cepam-round-v1", h_{t−1}, round t (u32), per client in order: client (u32),
//           bits (u64), the bitstream words (u64 each) or the floats (f32), the bound exponent
//           (i8 as u32, 2^31 when absent); then the global model after the round (f32))
// i.e. everything the server receives and broadcasts; a replay reproduces every h_t.
std::string CepamTranscriptStart(const CepamTrainConfig& config, std::size_t parameters);
CepamTrainResult RunCepamTraining(const CepamTrainConfig& config, const data::Split& split, LocalTrainer& trainer,
                                  const std::function<void(const TrainProgress&)>& progress = {});
// The same with one client trainer per worker (dpfl train --workers W): the clients' local
// training, encoding and decoding run in parallel; the final weights and transcript are the same
// for every W. workers[0] also evaluates.
CepamTrainResult RunCepamTraining(const CepamTrainConfig& config, const data::Split& split,
                                  const std::vector<LocalTrainer*>& workers,
                                  const std::function<void(const TrainProgress&)>& progress = {});

}  // namespace dpfl::fl
