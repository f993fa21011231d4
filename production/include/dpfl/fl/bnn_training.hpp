// The DPFL-BNN round loop (seed 004 Alg. 1', §3.2; docs/training.md "DPFL-BNN"). Free of
// LibTorch: the binary network is a BnnLocalModel (LibTorch implementation: MakeTorchBnnModel,
// library dpfl_fl_torch).
//
// Round t (0-based), every client i (no subsampling, spec §3.2):
//   θ ← W_{t−1}^i; τ = local_steps mini-batches of its shard (order from its counter-based
//   "shuffle" stream) with Sign(θ) in the forward pass, the weight and activation STEs and θ
//   clipped to [−1, 1] after every step (Alg. A); b = bin(θ) (StoSign or Sign, Alg. B);
//   b̃ = RR_γ(b) (Alg. C; absent γ = the no-noise BNN baseline);
// server: K_j = Σ_i [b̃_ij = +1] (what secure aggregation reveals, Alg. D), W̃_j = (2K_j − n)/n
// (the average, E9); every client mixes W_t^i = β W̃ + (1 − β) θ̄_t^i (Alg. E).
// Client i's streams: key DeriveKey(seed, "bnn-client", i) (simulated keys: reproducible, not
// secret), round t, entity i, purposes kStoSign / kRandomizedResponse.
//
// What leaves a client: exactly its d binarized latent weights through RR, once per round. Its
// local state (batch-norm parameters and running statistics, E28) never leaves it: each client
// keeps its own (as FedBN does), so the privacy budget counts d bits per round and nothing else.
//
// Accuracy (spec §5.3): the mean over clients of each client's own model, Sign(W_t^i) with its
// local state, on the test split; rounds evaluate `eval_clients` evenly spaced clients (0: all),
// the last round all clients; `eval_samples` > 0 restricts evaluation to the first N test
// samples (the split is shuffled, so they are a uniform sample). Outputs in out_dir: metrics.csv, final_models.bin (every client's
// latents then local state, f32 little-endian, client by client).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dpfl/data/datasets.hpp"
#include "dpfl/fl/round_observer.hpp"
#include "dpfl/fl/training.hpp"
#include "dpfl/quant/randomized_response.hpp"
#include "dpfl/rng/streams.hpp"

namespace dpfl::fl {

class BnnLocalModel {
 public:
  virtual ~BnnLocalModel() = default;
  virtual std::size_t LatentCount() const = 0;      // d: binarized, shared weights
  virtual std::size_t LocalStateCount() const = 0;  // kept by the client (E28)
  virtual std::string Description() const = 0;      // architecture, for the certificate
  virtual std::vector<float> InitialLatents() const = 0;  // in [−1, 1]
  virtual std::vector<float> InitialLocalState() const = 0;
  // Alg. A: one optimizer step per batch of `order` (a fresh optimizer per call), θ clipped to
  // [−1, 1] after each step; updates latents and local state in place.
  virtual void TrainLocal(std::vector<float>& latents, std::vector<float>& local, const data::Dataset& data,
                          const std::vector<std::size_t>& order, int batch, double lr, double* mean_loss) = 0;
  // The binary model Sign(latents) with the local state.
  virtual Evaluation Evaluate(const std::vector<float>& latents, const std::vector<float>& local,
                              const data::Dataset& data) = 0;
};

struct BnnModelOptions {
  std::string model = "auto";  // bnn-a (seed 004 §5.2 interpretation A) | bnn-b | bnn-tiny | auto
  std::string optimizer = "adam";
  double adam_beta1 = 0.5;     // E23: "Adam with momentum 0.5" read as β1 = 0.5
  double momentum = 0.0;       // SGD
  int threads = 1;
  std::uint64_t seed = 1;
};
// Throws InvalidArgument for an unknown model/optimizer. Defined only when dpfl_fl_torch is linked.
std::unique_ptr<BnnLocalModel> MakeTorchBnnModel(const BnnModelOptions& options, int channels, int height, int width,
                                                 int classes);

struct BnnTrainConfig {
  std::uint32_t clients = 10, rounds = 10;
  int local_steps = 10, batch = 64;
  double mix_beta = 0.3;              // Alg. E
  std::optional<double> rr_gamma;     // absent: no randomized response (the BNN baseline)
  quant::Binarizer binarizer = quant::Binarizer::kStoSign;
  double lr = 0.01;
  std::uint32_t lr_step = 0;          // > 0: lr·lr_factor^⌊t/lr_step⌋ (spec §5.3: step 40, factor 0.1)
  double lr_factor = 0.1;
  std::string split = "iid";          // iid | dirichlet
  double dirichlet_beta = 1.0;
  std::uint64_t seed = 1;
  rng::Generator generator = rng::Generator::kChaCha20;
  std::uint32_t eval_clients = 0;     // 0: all clients every round
  std::size_t eval_samples = 0;       // > 0: evaluate on the first N test samples only (0: all)
  std::string out_dir;
  std::string transcript_context;     // bound into h_0 (the CLI passes the configuration JSON)
  RoundObserver observer = nullptr;   // called once per round before the mixing (round_observer.hpp)
};
// InvalidArgument (naming the flag) for impossible values.
void ValidateBnnTrainConfig(const BnnTrainConfig& config);

struct BnnRoundRecord {
  std::uint32_t round = 0;
  double lr = 0, train_loss = 0, test_loss = 0, test_accuracy = 0;  // means over the evaluated clients
  double accuracy_min = 0, accuracy_max = 0;
  std::uint32_t evaluated_clients = 0;
  std::uint64_t uplink_bits = 0;      // per client: the message, ⌈d/64⌉ 64-bit words
  double broadcast_mean_abs = 0;      // mean |W̃_j| (the server term's scale, E19: E[W̃] = 2γθ̄)
  double seconds = 0, mechanism_seconds = 0;
  std::string transcript;
};

struct BnnTrainResult {
  std::vector<BnnRoundRecord> history;
  std::size_t latents = 0, local_state = 0;
  std::vector<std::string> client_model_sha256;  // SHA-256 of each client's final latents ‖ local state
  std::string models_path, metrics_path, transcript_start;
};

// Transcript hash chain (SHA-256, length-prefixed, little-endian):
//   h_0 = H("dpfl-bnn-transcript-v1", config fingerprint JSON, transcript_context)
//   h_t = H("dpfl-bnn-round-v1", h_{t−1}, round t (u32), the counts K_j (u32), W̃ (f32))
// i.e. everything the server sees and sends; a replay reproduces every h_t.
std::string BnnTranscriptStart(const BnnTrainConfig& config, std::size_t latents, std::size_t local_state);
BnnTrainResult RunBnnTraining(const BnnTrainConfig& config, const data::Split& split, BnnLocalModel& model,
                              const std::function<void(const TrainProgress&)>& progress = {});

}  // namespace dpfl::fl
