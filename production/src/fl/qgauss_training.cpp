// See dpfl/fl/qgauss_training.hpp.
#include "dpfl/fl/qgauss_training.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "dpfl/error.hpp"
#include "dpfl/fl/cepam_training.hpp"
#include "dpfl/fl/stream_util.hpp"
#include "dpfl/fl/worker_pool.hpp"
#include "dpfl/format.hpp"
#include "round_loop_util.hpp"
#include "sha256_writer.hpp"

#ifdef DPFL_FL_WIRING_MUTANTS  // test-only copy of this file (tests/CMakeLists.txt); never in dpfl_fl
#include "testing/fl_wiring_mutants.hpp"
#endif

namespace dpfl::fl {
namespace {

namespace fs = std::filesystem;

nlohmann::json Fingerprint(const QgaussTrainConfig& c, std::size_t m) {
  return {{"mechanism", QgaussFlMechanismName(c.mechanism)}, {"sigma", c.noise.sigma}, {"levels", c.noise.levels},
          {"clip", c.noise.clip}, {"generator", static_cast<int>(c.generator)}, {"clients", c.clients},
          {"rounds", c.rounds}, {"local_epochs", c.local_epochs}, {"batch", c.batch}, {"sampling_rate", c.sampling_rate},
          {"split", c.split}, {"dirichlet_beta", c.dirichlet_beta}, {"seed", c.seed}, {"parameters", m}};
}

void WriteMetrics(const fs::path& path, const std::vector<QgaussRoundRecord>& history) {
  std::ostringstream o;
  o << "round,participants,train_loss,val_loss,val_accuracy,test_loss,test_accuracy,uplink_bits,bits_per_parameter,"
       "clipped_clients,mean_update_norm,seconds,mechanism_seconds\n";
  o << std::setprecision(9);
  for (const auto& r : history)
    o << r.round + 1 << ',' << r.participants << ',' << r.train_loss << ',' << r.val_loss << ',' << r.val_accuracy << ','
      << r.test_loss << ',' << r.test_accuracy << ',' << r.uplink_bits << ',' << r.bits_per_parameter << ','
      << r.clipped_clients << ',' << r.mean_update_norm << ',' << r.seconds << ',' << r.mechanism_seconds << '\n';
  WriteFileAtomic(path.string(), o.str());
}

// One participant's message and the server's decoding of it.
struct Uplink {
  std::uint32_t client = 0;
  QgaussMessage packed;         // qgauss
  std::vector<float> values;    // qgauss-gaussian, qgauss-vanilla
  std::uint64_t Bits() const {
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
    if (testing::FlWiringMutantIs(testing::FlWiringMutant::kQgaussBitsInBytes)) return packed.size ? 8 * packed.words.size() : 4 * values.size();
#endif
    return packed.size ? 64 * packed.words.size() : 32 * values.size();
  }
};

Uplink Encode(const QgaussTrainConfig& c, const QgaussGrid* grid, const std::vector<float>& h, const rng::StreamKey& key,
              std::uint32_t client, std::uint32_t round, bool* clipped, double* norm) {
  double n2 = 0;
  for (float v : h) n2 += static_cast<double>(v) * static_cast<double>(v);
  *norm = std::sqrt(n2);
  Uplink u;
  u.client = client;
  if (c.mechanism == QgaussFlMechanism::kVanilla) {
    u.values = h;
    *clipped = false;
    return u;
  }
  *clipped = *norm > c.noise.clip / 2;
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
  if (testing::FlWiringMutantIs(testing::FlWiringMutant::kQgaussClippedAgainstC)) *clipped = *norm > c.noise.clip;
#endif
  quant::StreamContext ctx;
  ctx.generator = c.generator;
  ctx.key = key;
  ctx.round = round;
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
  if (testing::FlWiringMutantIs(testing::FlWiringMutant::kQgaussRoundFixed)) ctx.round = 0;
  if (testing::FlWiringMutantIs(testing::FlWiringMutant::kQgaussClientIndexDropped) || testing::FlWiringMutantIs(testing::FlWiringMutant::kQgaussOneStreamForAll)) client = 0;
#endif
  const std::vector<std::int64_t> q = QgaussClipToGrid(*grid, h);
  if (c.mechanism == QgaussFlMechanism::kQgauss) {
    u.packed = QgaussEncode(*grid, q, ctx, client, c.encode_threads);
    return u;
  }
  const std::vector<std::int64_t> noisy = QgaussNoisy(*grid, q, ctx, client, c.encode_threads);
  u.values.resize(noisy.size());
  for (std::size_t j = 0; j < noisy.size(); ++j)  // float((q + Z)·g): a function of the integer q + Z
    u.values[j] = static_cast<float>(static_cast<double>(noisy[j]) * grid->unit);
  return u;
}

// The server's estimate x̂ of one participant's update (line 12): the decoded levels (in
// `scratch`), or the floats sent.
const std::vector<float>& Decoded(const QgaussTrainConfig& c, const QgaussGrid* grid, const Uplink& u,
                                  std::vector<float>& scratch) {
  if (c.mechanism != QgaussFlMechanism::kQgauss) return u.values;
  scratch.resize(u.packed.size);
  QgaussDecode(*grid, u.packed, scratch);
  return scratch;
}

}  // namespace

QgaussFlMechanism ParseQgaussFlMechanism(const std::string& name) {
  if (name == "qgauss") return QgaussFlMechanism::kQgauss;
  if (name == "qgauss-gaussian") return QgaussFlMechanism::kGaussian;
  if (name == "qgauss-vanilla") return QgaussFlMechanism::kVanilla;
  throw InvalidArgument("--mechanism", "not a seed-003 mechanism (qgauss, qgauss-gaussian, qgauss-vanilla): '" + name + "'");
}

bool IsQgaussFlMechanism(const std::string& name) {
  return name == "qgauss" || name == "qgauss-gaussian" || name == "qgauss-vanilla";
}

std::string QgaussFlMechanismName(QgaussFlMechanism m) {
  switch (m) {
    case QgaussFlMechanism::kQgauss: return "qgauss";
    case QgaussFlMechanism::kGaussian: return "qgauss-gaussian";
    case QgaussFlMechanism::kVanilla: return "qgauss-vanilla";
  }
  return "qgauss";
}

QgaussConfig QgaussGridConfig(QgaussFlMechanism mechanism, const QgaussConfig& noise) {
  QgaussConfig g = noise;
  if (mechanism != QgaussFlMechanism::kQgauss) g.levels = 2;
  return g;
}

std::uint64_t QgaussSamplingThreshold(double q) {
  const double up = std::ceil(std::ldexp(q, 64));  // exact: a power-of-two scaling, then ceil
  return up >= 0x1p64 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(up);
}

void ValidateQgaussTrainConfig(const QgaussTrainConfig& c) {
  if (c.mechanism != QgaussFlMechanism::kVanilla) {
    try {
      (void)MakeQgaussGrid(QgaussGridConfig(c.mechanism, c.noise));
    } catch (const InvalidArgument& e) {
      const std::string& arg = e.argument();
      throw InvalidArgument("--" + arg, std::string(e.what()).substr(arg.size() + 2));
    }
  }
  if (c.clients < 1) throw InvalidArgument("--clients", "must be >= 1");
  if (c.rounds < 1) throw InvalidArgument("--rounds", "must be >= 1");
  if (c.local_epochs < 1 || c.local_epochs > 1000) throw InvalidArgument("--local-epochs", "must be in [1, 1000]");
  if (c.batch < 1 || c.batch > 65536) throw InvalidArgument("--batch", "must be in [1, 65536]");
  if (!(c.sampling_rate > 0 && c.sampling_rate <= 1))
    throw InvalidArgument("--client-sampling", "poisson:q needs q in (0, 1]");
  if (c.split != "iid" && c.split != "dirichlet") throw InvalidArgument("--split", "must be iid or dirichlet, got '" + c.split + "'");
  if (c.split == "dirichlet" && (!(c.dirichlet_beta > 0) || !std::isfinite(c.dirichlet_beta)))
    throw InvalidArgument("--beta", "must be finite and > 0");
  if (c.encode_threads < 1 || c.encode_threads > 1024) throw InvalidArgument("--threads", "must be in [1, 1024]");
  if (c.out_dir.empty()) throw InvalidArgument("--out", "an output directory is required");
}

std::string QgaussTranscriptStart(const QgaussTrainConfig& config, std::size_t parameters) {
  internal::Sha256Writer h;
  h.Label("dpfl-qgauss-transcript-v1");
  h.Label(Fingerprint(config, parameters).dump());
  h.Label(config.transcript_context);
  return h.Hex();
}

QgaussTrainResult RunQgaussTraining(const QgaussTrainConfig& config, const data::Split& split, LocalTrainer& trainer,
                                    const std::function<void(const TrainProgress&)>& progress) {
  return RunQgaussTraining(config, split, std::vector<LocalTrainer*>{&trainer}, progress);
}

QgaussTrainResult RunQgaussTraining(const QgaussTrainConfig& config, const data::Split& split,
                                    const std::vector<LocalTrainer*>& workers,
                                    const std::function<void(const TrainProgress&)>& progress) {
  ValidateQgaussTrainConfig(config);
  if (workers.empty()) throw InvalidArgument("--workers", "must be >= 1");
  LocalTrainer& trainer = *workers[0];
  const fs::path dir(config.out_dir);
  fs::create_directories(dir);
  const std::uint32_t K = config.clients;
  const std::string name = QgaussFlMechanismName(config.mechanism);
  std::optional<QgaussGrid> grid;
  if (config.mechanism != QgaussFlMechanism::kVanilla) {
    grid = MakeQgaussGrid(QgaussGridConfig(config.mechanism, config.noise));
  }
  QgaussTrainResult result;
  std::vector<float> global = trainer.InitialWeights();
  const std::size_t m = global.size();
  result.parameters = m;
  result.metrics_path = (dir / "metrics.csv").string();
  result.weights_path = (dir / "final_weights.bin").string();
  result.transcript_start = QgaussTranscriptStart(config, m);
  const CepamShards shards_of = MakeCepamShards(split.train, K, config.split, config.dirichlet_beta, config.seed);
  std::vector<data::Dataset> shards;
  for (const auto& idx : shards_of.indices) shards.push_back(split.train.Subset(idx));
  std::vector<rng::StreamKey> keys(K);
  for (std::uint32_t i = 0; i < K; ++i) keys[i] = DeriveKey(config.seed, "qgauss-client", i);
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
  if (testing::FlWiringMutantIs(testing::FlWiringMutant::kQgaussSharedClientKey) || testing::FlWiringMutantIs(testing::FlWiringMutant::kQgaussOneStreamForAll))
    for (auto& k : keys) k = DeriveKey(config.seed, "qgauss-client", 0);
#endif
  const bool poisson = config.sampling_rate < 1;
  const std::uint64_t threshold = QgaussSamplingThreshold(config.sampling_rate);
  StreamCursor sampler;
  sampler.ctx.key = DeriveKey(config.seed, "qgauss-sampling");
  std::vector<std::uint32_t> participations(K, 0);

  std::string previous = result.transcript_start;
  const auto start = std::chrono::steady_clock::now();
  for (std::uint32_t t = 0; t < config.rounds; ++t) {
    const auto round_start = std::chrono::steady_clock::now();
    QgaussRoundRecord rec;
    rec.round = t;
    std::vector<std::uint32_t> participants;
    sampler.addr = {t, 0, rng::Purpose::kPairing};
    sampler.index = 0;
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
    if (testing::FlWiringMutantIs(testing::FlWiringMutant::kQgaussSamplingNotPerRound)) sampler.addr.round = 0;
#endif
    for (std::uint32_t i = 0; i < K; ++i) {
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
      if (testing::FlWiringMutantIs(testing::FlWiringMutant::kQgaussOneSamplingCoin)) sampler.index = 0;
#endif
      if (!poisson || sampler.Next() < threshold) participants.push_back(i);
    }
    std::vector<double> sum(m, 0.0);
    std::vector<Uplink> messages;
    double loss_sum = 0, norm_sum = 0;
    std::uint32_t trained = 0, done = 0;
    // Lines 5–10 for every participant, in parallel over the workers (each result a function of
    // the client, the round and the global model only); the server's lines 12–13 then consume
    // them in participant order, so the sums — and the weights — are the same for every W.
    struct ClientWork {
      Uplink message;
      std::vector<float> input;  // h, kept only for the observer
      bool trained = false, clipped = false;
      double loss = 0, norm = 0, seconds = 0;
    };
    std::vector<ClientWork> work(participants.size());
    std::mutex progress_mutex;
    ForEachItem(workers.size(), participants.size(), [&](std::size_t worker, std::size_t k) {
      const std::uint32_t i = participants[k];
      std::uint32_t own = i;  // the client whose shard and order stream are used
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
      if (testing::FlWiringMutantIs(testing::FlWiringMutant::kQgaussTrainsNeighbourShard)) own = std::min(i + 1, K - 1);
#endif
      ClientWork& w = work[k];
      StreamCursor order_cur;
      order_cur.ctx.key = DeriveKey(config.seed, "qgauss-order", own);
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
      if (testing::FlWiringMutantIs(testing::FlWiringMutant::kQgaussOrderFromClientKey)) order_cur.ctx.key = keys[i];
#endif
      order_cur.addr = {t, own, rng::Purpose::kPrivateCoin};
      const std::size_t n = shards[own].size();
      const std::vector<std::size_t> order =
          ShuffledPasses(order_cur, n, n * static_cast<std::size_t>(config.local_epochs));
      std::vector<float> h(m, 0.0f);
      if (!order.empty()) {
        const std::vector<float> local = workers[worker]->TrainLocal(global, shards[own], order, config.batch, &w.loss);  // line 5
        for (std::size_t j = 0; j < m; ++j) h[j] = local[j] - global[j];                                               // line 6
        w.trained = true;
      }
      const auto m0 = std::chrono::steady_clock::now();
      w.message = Encode(config, grid ? &*grid : nullptr, h, keys[i], i, t, &w.clipped, &w.norm);  // lines 7–10
      w.seconds = internal::SecondsSince(m0);
      if (config.observer) w.input = std::move(h);
      if (progress) {
        const std::lock_guard<std::mutex> lock(progress_mutex);
        const std::optional<double> last =
            result.history.empty() ? std::nullopt : std::optional<double>(result.history.back().val_accuracy);
        progress(MakeProgress(name, t, config.rounds, ++done, static_cast<std::uint32_t>(participants.size()),
                              internal::SecondsSince(start), last, false));
      }
    });
    ObservedRound seen;
    std::vector<float> scratch;
    for (std::size_t k = 0; k < participants.size(); ++k) {
      ClientWork& w = work[k];
      ++participations[participants[k]];
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
      if (testing::FlWiringMutantIs(testing::FlWiringMutant::kQgaussParticipationsNotCounted)) participations[participants[k]] = 1;
#endif
      if (w.trained) {
        loss_sum += w.loss;
        ++trained;
      }
      const auto m0 = std::chrono::steady_clock::now();
      messages.push_back(std::move(w.message));
      const std::vector<float>& x_hat = Decoded(config, grid ? &*grid : nullptr, messages.back(), scratch);  // line 12
      for (std::size_t j = 0; j < m; ++j) sum[j] += x_hat[j];
      rec.mechanism_seconds += w.seconds + internal::SecondsSince(m0);
      if (config.observer) {
        const Uplink& u = messages.back();
        seen.uplinks.push_back({u.client, std::move(w.input), u.Bits(), u.packed.words, u.values, {x_hat.begin(), x_hat.end()}});
      }
      rec.uplink_bits += messages.back().Bits();
      rec.clipped_clients += w.clipped ? 1 : 0;
      norm_sum += w.norm;
    }
    rec.participants = static_cast<std::uint32_t>(participants.size());
    if (!participants.empty()) {
      double n = static_cast<double>(participants.size());
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
      if (testing::FlWiringMutantIs(testing::FlWiringMutant::kQgaussDivideByK)) n = static_cast<double>(K);
#endif
      for (std::size_t j = 0; j < m; ++j)  // line 13, α_i = 1/|S_t| (E13)
        global[j] = static_cast<float>(static_cast<double>(global[j]) + sum[j] / n);
    }
    if (config.observer) {
      seen.round = t;
      seen.broadcast = global;
      config.observer(seen);
    }
    internal::ThrowIfDiverged(global, t);
    {
      internal::Sha256Writer h;
      h.Label("dpfl-qgauss-round-v1");
      h.Label(previous);
      h.U32(t);
      h.U32(rec.participants);
      for (const Uplink& u : messages) {
        h.U32(u.client);
        h.U64(u.Bits());
        for (std::uint64_t w : u.packed.words) h.U64(w);
        h.F32s(u.values);
      }
      h.F32s(global);
      rec.transcript = previous = h.Hex();
    }
    rec.bits_per_parameter =
        participants.empty() ? 0.0 : static_cast<double>(rec.uplink_bits) / (static_cast<double>(participants.size()) * static_cast<double>(m));
    rec.mean_update_norm = participants.empty() ? 0.0 : norm_sum / static_cast<double>(participants.size());
    rec.train_loss = trained ? loss_sum / trained : 0;
    internal::EvaluateRound(trainer, global, split, rec);
    rec.seconds = internal::SecondsSince(round_start);
    result.history.push_back(rec);
    WriteMetrics(dir / "metrics.csv", result.history);
  }
  internal::WriteWeightsFile(result.weights_path, global);
  result.final_weights = global;
  result.final_test = {result.history.back().test_loss, result.history.back().test_accuracy};
  auto last = participations.end();
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
  if (testing::FlWiringMutantIs(testing::FlWiringMutant::kQgaussMaxSkipsLastClient) && K > 1) --last;
#endif
  result.max_participations = *std::max_element(participations.begin(), last);
  if (progress) progress(MakeProgress(name, config.rounds, config.rounds, K, K, internal::SecondsSince(start), result.history.back().val_accuracy, true));
  return result;
}

}  // namespace dpfl::fl
