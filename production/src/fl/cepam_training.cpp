// See dpfl/fl/cepam_training.hpp.
#include "dpfl/fl/cepam_training.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>
#include <sstream>

#include "dpfl/error.hpp"
#include "dpfl/format.hpp"
#include "dpfl/fl/stream_util.hpp"
#include "dpfl/fl/worker_pool.hpp"
#include "round_loop_util.hpp"
#include "sha256_writer.hpp"

#ifdef DPFL_FL_WIRING_MUTANTS  // test-only copy of this file (tests/CMakeLists.txt); never in dpfl_fl
#include "testing/fl_wiring_mutants.hpp"
#endif

namespace dpfl::fl {
namespace {

namespace fs = std::filesystem;

nlohmann::json Fingerprint(const CepamTrainConfig& c, std::size_t m) {
  const CepamUplinkConfig& u = c.uplink;
  return {{"mechanism", CepamFlMechanismName(u.mechanism)}, {"lattice_dim", u.lattice_dim}, {"clip", u.clip},
          {"sigma", u.sigma}, {"b", u.b}, {"sdq_step", u.sdq_step}, {"generator", static_cast<int>(u.generator)},
          {"clients", c.clients}, {"rounds", c.rounds}, {"local_steps", c.local_steps}, {"split", c.split},
          {"dirichlet_beta", c.dirichlet_beta}, {"seed", c.seed}, {"parameters", m}};
}

// Eq. (3): τ sample indices j ~ Unif[n_k], independently (with replacement), from the client's
// own "cepam-sample" stream; empty for an empty shard.
std::vector<std::size_t> SampleWithReplacement(const CepamTrainConfig& c, std::uint32_t client, std::uint32_t round,
                                               std::size_t shard) {
  if (shard == 0) return {};
  StreamCursor cur;
  cur.ctx.key = DeriveKey(c.seed, "cepam-sample", client);
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
  if (testing::FlWiringMutantIs(testing::FlWiringMutant::kCepamSampleFromNoiseKey)) cur.ctx.key = DeriveSubKey(DeriveKey(c.seed, "cepam-client", client), "noise");
#endif
  cur.addr = {round, client, rng::Purpose::kPrivateCoin};
  std::vector<std::size_t> order(static_cast<std::size_t>(c.local_steps));
  for (auto& j : order) j = static_cast<std::size_t>(cur.Below(shard));
  return order;
}

void WriteMetrics(const fs::path& path, const std::vector<CepamRoundRecord>& history) {
  std::ostringstream o;
  o << "round,train_loss,val_loss,val_accuracy,test_loss,test_accuracy,uplink_bits,bits_per_parameter,blocks,trials,"
       "h_bits,index_bits,clipped_clients,mean_update_norm,seconds,mechanism_seconds\n";
  o << std::setprecision(9);
  for (const auto& r : history)
    o << r.round + 1 << ',' << r.train_loss << ',' << r.val_loss << ',' << r.val_accuracy << ',' << r.test_loss << ','
      << r.test_accuracy << ',' << r.uplink_bits << ',' << r.bits_per_parameter << ',' << r.blocks << ',' << r.trials
      << ',' << r.h_bits << ',' << r.index_bits << ',' << r.clipped_clients << ',' << r.mean_update_norm << ','
      << r.seconds << ',' << r.mechanism_seconds << '\n';
  WriteFileAtomic(path.string(), o.str());
}

void HashMessage(internal::Sha256Writer& h, const CepamUplinkMessage& msg) {
  h.U32(msg.client);
  h.U64(msg.Bits());
  for (std::uint64_t w : msg.coded.words) h.U64(w);
  h.F32s(msg.values);
  h.U32(msg.bound_exponent ? static_cast<std::uint32_t>(static_cast<std::int32_t>(*msg.bound_exponent)) : 0x80000000u);
}

}  // namespace

std::string CepamTranscriptStart(const CepamTrainConfig& config, std::size_t parameters) {
  internal::Sha256Writer h;
  h.Label("dpfl-cepam-transcript-v1");
  h.Label(Fingerprint(config, parameters).dump());
  h.Label(config.transcript_context);
  return h.Hex();
}

CepamShards MakeCepamShards(const data::Dataset& train, std::uint32_t clients, const std::string& split,
                            double dirichlet_beta, std::uint64_t seed) {
  CepamShards s;
  s.indices = split == "iid" ? data::IidShares(train.size(), clients, seed)
                             : data::DirichletShares(train.labels, train.classes, clients, dirichlet_beta, seed);
  s.min_nonempty = std::numeric_limits<std::size_t>::max();
  for (const auto& idx : s.indices) {
    if (idx.empty()) {
      ++s.empty;
    } else {
      s.min_nonempty = std::min(s.min_nonempty, idx.size());
    }
  }
  if (s.empty == s.indices.size()) s.min_nonempty = 0;
  return s;
}

void ValidateCepamTrainConfig(const CepamTrainConfig& c) {
  ValidateCepamUplink(c.uplink);
  if (c.clients < 1) throw InvalidArgument("--clients", "must be >= 1");
  if (c.rounds < 1) throw InvalidArgument("--rounds", "must be >= 1");
  if (c.local_steps < 1 || c.local_steps > kCepamMaxLocalSteps)
    throw InvalidArgument("--local-steps", "the seed-002 loop takes 1 <= tau <= " + std::to_string(kCepamMaxLocalSteps) +
                                               " local steps (spec: 15)");
  if (c.split != "iid" && c.split != "dirichlet") throw InvalidArgument("--split", "must be iid or dirichlet, got '" + c.split + "'");
  if (c.split == "dirichlet" && (!(c.dirichlet_beta > 0) || !std::isfinite(c.dirichlet_beta)))
    throw InvalidArgument("--beta", "must be finite and > 0");
  if (c.out_dir.empty()) throw InvalidArgument("--out", "an output directory is required");
}

CepamTrainResult RunCepamTraining(const CepamTrainConfig& config, const data::Split& split, LocalTrainer& trainer,
                                  const std::function<void(const TrainProgress&)>& progress) {
  return RunCepamTraining(config, split, std::vector<LocalTrainer*>{&trainer}, progress);
}

CepamTrainResult RunCepamTraining(const CepamTrainConfig& config, const data::Split& split,
                                  const std::vector<LocalTrainer*>& workers,
                                  const std::function<void(const TrainProgress&)>& progress) {
  ValidateCepamTrainConfig(config);
  if (workers.empty()) throw InvalidArgument("--workers", "must be >= 1");
  LocalTrainer& trainer = *workers[0];
  const fs::path dir(config.out_dir);
  fs::create_directories(dir);
  const std::uint32_t K = config.clients;
  CepamTrainResult result;
  std::vector<float> global = trainer.InitialWeights();
  const std::size_t m = global.size();
  result.parameters = m;
  result.metrics_path = (dir / "metrics.csv").string();
  result.weights_path = (dir / "final_weights.bin").string();
  result.transcript_start = CepamTranscriptStart(config, m);
  const CepamShards shards_of = MakeCepamShards(split.train, K, config.split, config.dirichlet_beta, config.seed);
  std::vector<data::Dataset> shards;
  for (const auto& idx : shards_of.indices) shards.push_back(split.train.Subset(idx));
  result.min_shard = shards_of.min_nonempty;
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
  if (testing::FlWiringMutantIs(testing::FlWiringMutant::kCepamMinShardNominal)) result.min_shard = split.train.size() / K;
#endif

  result.empty_shards = shards_of.empty;
  if (result.empty_shards == K) throw InvalidArgument("--clients", "no client holds any data");
  std::vector<rng::StreamKey> keys(K);
  for (std::uint32_t i = 0; i < K; ++i) keys[i] = DeriveKey(config.seed, "cepam-client", i);
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
  if (testing::FlWiringMutantIs(testing::FlWiringMutant::kCepamSharedClientKey) || testing::FlWiringMutantIs(testing::FlWiringMutant::kCepamOneStreamForAll))
    for (auto& k : keys) k = DeriveKey(config.seed, "cepam-client", 0);
#endif

  std::string previous = result.transcript_start;
  const auto start = std::chrono::steady_clock::now();
  for (std::uint32_t t = 0; t < config.rounds; ++t) {
    const auto round_start = std::chrono::steady_clock::now();
    CepamRoundRecord rec;
    rec.round = t;
    std::vector<double> sum(m, 0.0);
    std::vector<CepamUplinkMessage> messages;
    double loss_sum = 0, norm_sum = 0;
    std::uint32_t trained = 0;
    // Client steps 1–5 for every client, in parallel over the workers (each a function of the
    // client, the round and the global model); the server then decodes and sums the messages in
    // client order, so the weights are the same for every W.
    struct ClientWork {
      CepamUplinkMessage message;
      std::vector<float> input;  // X, kept only for the observer
      CepamClientReport report;
      bool trained = false;
      double loss = 0, seconds = 0;
    };
    std::vector<ClientWork> work(K);
    std::mutex progress_mutex;
    std::uint32_t done = 0;
    ForEachItem(workers.size(), K, [&](std::size_t worker, std::size_t k) {
      const auto i = static_cast<std::uint32_t>(k);
      ClientWork& w = work[k];
      const std::vector<std::size_t> order = SampleWithReplacement(config, i, t, shards[i].size());
      std::vector<float> update(m, 0.0f);
      if (!order.empty()) {
        const std::vector<float> local = workers[worker]->TrainLocal(global, shards[i], order, 1, &w.loss);  // eq. (3)
        for (std::size_t j = 0; j < m; ++j) update[j] = local[j] - global[j];                               // step 3
        w.trained = true;
      }
      const auto m0 = std::chrono::steady_clock::now();
      if (config.observer) w.input = update;
      std::uint32_t entity = i, coding_round = t;
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
      if (testing::FlWiringMutantIs(testing::FlWiringMutant::kCepamClientIndexDropped) || testing::FlWiringMutantIs(testing::FlWiringMutant::kCepamOneStreamForAll)) entity = 0;
      if (testing::FlWiringMutantIs(testing::FlWiringMutant::kCepamRoundFixed)) coding_round = 0;
#endif
      w.message = EncodeCepamUplink(config.uplink, std::move(update), keys[i], entity, coding_round, &w.report);  // steps 4–5
      w.seconds = internal::SecondsSince(m0);
      if (progress) {
        const std::lock_guard<std::mutex> lock(progress_mutex);
        const std::optional<double> last =
            result.history.empty() ? std::nullopt : std::optional<double>(result.history.back().val_accuracy);
        progress(MakeProgress(CepamFlMechanismName(config.uplink.mechanism), t, config.rounds, ++done, K,
                              internal::SecondsSince(start), last, false));
      }
    });
    ObservedRound seen;
    for (std::uint32_t i = 0; i < K; ++i) {
      ClientWork& w = work[i];
      if (w.trained) {
        loss_sum += w.loss;
        ++trained;
      }
      const auto m0 = std::chrono::steady_clock::now();
      const rng::StreamKey* decode_key = &keys[i];
      std::uint32_t decode_round = t;
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
      if (testing::FlWiringMutantIs(testing::FlWiringMutant::kCepamRoundFixed)) decode_round = 0;
      if (testing::FlWiringMutantIs(testing::FlWiringMutant::kCepamDecodeWrongRound)) decode_round = t + 1;
      if (testing::FlWiringMutantIs(testing::FlWiringMutant::kCepamDecodeWrongClient)) decode_key = &keys[(i + 1) % K];
#endif
      const std::vector<double> x_hat = DecodeCepamUplink(config.uplink, w.message, *decode_key, decode_round, m);  // server 2
      for (std::size_t j = 0; j < m; ++j) sum[j] += x_hat[j];
      rec.mechanism_seconds += w.seconds + internal::SecondsSince(m0);
      rec.uplink_bits += w.message.Bits();
      rec.blocks += w.report.stats.blocks;
      rec.trials += w.report.stats.trials;
      rec.h_bits += w.report.stats.h_bits;
      rec.index_bits += w.report.stats.index_bits;
      rec.clipped_clients += w.report.clipped ? 1 : 0;
      norm_sum += w.report.update_norm;
      if (config.observer)
        seen.uplinks.push_back({i, std::move(w.input), w.message.Bits(), w.message.coded.words, w.message.values, x_hat});
      messages.push_back(std::move(w.message));
    }
    double weight = static_cast<double>(K);
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
    if (testing::FlWiringMutantIs(testing::FlWiringMutant::kCepamMeanOverTrained)) weight = static_cast<double>(trained);
#endif
    for (std::size_t j = 0; j < m; ++j)  // server step 3, p_k = 1/K
      global[j] = static_cast<float>(static_cast<double>(global[j]) + sum[j] / weight);
    if (config.observer) {
      seen.round = t;
      seen.broadcast = global;
      config.observer(seen);
    }
    internal::ThrowIfDiverged(global, t);
    {
      internal::Sha256Writer h;
      h.Label("dpfl-cepam-round-v1");
      h.Label(previous);
      h.U32(t);
      for (const auto& msg : messages) HashMessage(h, msg);
      h.F32s(global);
      rec.transcript = previous = h.Hex();
    }
    rec.bits_per_parameter = static_cast<double>(rec.uplink_bits) / (static_cast<double>(K) * static_cast<double>(m));
    rec.mean_update_norm = norm_sum / K;
    rec.train_loss = trained ? loss_sum / trained : 0;
    internal::EvaluateRound(trainer, global, split, rec);
    rec.seconds = internal::SecondsSince(round_start);
    result.history.push_back(rec);
    WriteMetrics(dir / "metrics.csv", result.history);
  }
  internal::WriteWeightsFile(result.weights_path, global);
  result.final_weights = global;
  result.final_test = {result.history.back().test_loss, result.history.back().test_accuracy};
  if (progress) {
    progress(MakeProgress(CepamFlMechanismName(config.uplink.mechanism), config.rounds, config.rounds, K, K, internal::SecondsSince(start),
                          result.history.back().val_accuracy, true));
  }
  return result;
}

}  // namespace dpfl::fl
