// The FL round loop (DESIGN.md "FL loop"; seed-000 §3.3–3.6, §5). Free of LibTorch:
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
#include <optional>
#include <span>
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
  // Bytes bound into the transcript's first hash besides the fields that determine the weights
  // (the CLI puts the whole configuration here: model, optimizer, data set, ...).
  std::string transcript_context;
  std::string keys = "simulated";    // simulated (from the seed, reproducible) | random (randombytes)
  std::string out_dir;
  bool resume = false;
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
  std::uint32_t idle = 0;  // present clients whose shard is empty: they train nothing this round
  std::uint64_t uplink_bits = 0;
  double seconds = 0;
  // Wall time of the mechanism's own work this round, timed directly: pairing and key relay,
  // every client's encoding, the runtime monitor and the server's aggregation (for vanilla: the
  // plain copy and mean). Local training and evaluation are excluded.
  double mechanism_seconds = 0;
  // Bytes that crossed a process boundary this round (RemoteFleet; 0 in one process): the
  // clients' messages as framed on the wire (client id, lengths, bit words, values) and the
  // server's round broadcast to every host (ranges, global model, announcements, pairing).
  std::uint64_t wire_message_bytes = 0, wire_broadcast_bytes = 0;
  std::vector<double> c, r;   // per layer, as broadcast this round (exact doubles)
  std::string transcript;     // h_t of the transcript hash chain (hex; TranscriptRound)
  MonitorOutcome monitor;
};

// Where the loop is, for a progress display (the library itself never writes to a terminal:
// the CLI's reporter, production/cli/run_report.hpp, draws the line).
struct TrainProgress {
  std::string mechanism;
  std::uint32_t round = 0;        // 0-based round in progress (= rounds when finished)
  std::uint32_t rounds = 0;
  std::uint32_t first_round = 0;  // first round of this invocation (> 0 after --resume)
  std::uint32_t clients_done = 0, clients = 0;
  double elapsed_seconds = 0;     // since this invocation's first round began
  std::optional<double> last_val_accuracy;  // of the last completed round
  bool finished = false;          // the last call: every round is done
};

// A loop's progress report: client `clients_done` of `clients` in round `round` (0-based) of
// `rounds`, or (finished) the end of the run; `last_accuracy` is the last completed round's.
TrainProgress MakeProgress(const std::string& mechanism, std::uint32_t round, std::uint32_t rounds,
                           std::uint32_t clients_done, std::uint32_t clients, double elapsed_seconds,
                           std::optional<double> last_accuracy, bool finished);

struct TrainHooks {
  // Called after each client of each round and once at the end; may be empty.
  std::function<void(const TrainProgress&)> progress;
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
  std::string transcript_start;  // h_0 (TranscriptStart)
  std::string fleet;             // where the clients ran (ClientFleet::Describe)
};

// Runs (or resumes) training; writes metrics.csv, checkpoint.bin and final_weights.bin to
// config.out_dir (plots are drawn by the CLI from metrics.csv: production/cli/run_report.hpp).
// Every client in this process, trained one after another by `trainer`.
TrainResult RunTraining(const TrainConfig& config, const data::Split& split, LocalTrainer& trainer,
                        const TrainHooks& hooks = {});
// The clients in `fleet` (client_host.hpp: in-process workers, or other processes); `trainer` is
// the server's model, used only to evaluate (and for the initial weights). The final weights and
// every transcript hash are the same for every fleet with the same configuration.
class ClientFleet;
TrainResult RunTraining(const TrainConfig& config, const data::Split& split, ClientFleet& fleet, LocalTrainer& trainer,
                        const TrainHooks& hooks = {});

// Transcript hash chain (DESIGN.md "Certificate (v2)"; layout in docs/training.md). SHA-256 with
// length-prefixed fields, integers and floats little-endian:
//   h_0 = H("dpfl-transcript-v1", fingerprint JSON (the fields that determine the weights),
//           config.transcript_context)
//   h_t = H("dpfl-round-v1", h_{t−1} (32 raw bytes), round t (0-based u32), per layer (c, r) as
//           f64, the server's received messages in ascending client id (client u32, bit words
//           u64, values f32), the global model after the round (f32))
// Every field is a function of the seed and configuration only (no timing, no thread count),
// so a replay reproduces every h_t bit for bit.
std::string TranscriptStart(const TrainConfig& config, std::size_t m);
std::string TranscriptRound(const std::string& previous, std::uint32_t round, const std::vector<LayerRange>& ranges,
                            const std::vector<Message>& messages, std::span<const float> global);

// Writes `bytes` to `path` atomically (temporary file, fsync, rename); errors are
// std::filesystem::filesystem_error with the errno.
void WriteFileAtomic(const std::string& path, const std::string& bytes);

// SHA-256 (libsodium) of the files, in order, as hex; and of a byte string.
std::string Sha256Files(const std::vector<std::string>& paths);
std::string Sha256Hex(const void* data, std::size_t size);

}  // namespace dpfl::fl
