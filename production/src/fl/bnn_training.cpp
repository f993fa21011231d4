// See dpfl/fl/bnn_training.hpp.
#include "dpfl/fl/bnn_training.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <numeric>
#include <optional>
#include <sstream>

#include "dpfl/error.hpp"
#include "dpfl/format.hpp"
#include "dpfl/fl/stream_util.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "round_loop_util.hpp"
#include "sha256_writer.hpp"

#ifdef DPFL_FL_WIRING_MUTANTS  // test-only copy of this file (tests/CMakeLists.txt); never in dpfl_fl
#include "testing/fl_wiring_mutants.hpp"
#endif

namespace dpfl::fl {
namespace {

namespace fs = std::filesystem;

nlohmann::json Fingerprint(const BnnTrainConfig& c, std::size_t d, std::size_t local) {
  return {{"mechanism", "dpfl-bnn"}, {"clients", c.clients}, {"rounds", c.rounds}, {"local_steps", c.local_steps},
          {"batch", c.batch}, {"mix_beta", c.mix_beta},
          {"rr_gamma", c.rr_gamma ? nlohmann::json(*c.rr_gamma) : nlohmann::json(nullptr)},
          {"binarizer", c.binarizer == quant::Binarizer::kStoSign ? "stosign" : "sign"}, {"lr", c.lr},
          {"lr_step", c.lr_step}, {"lr_factor", c.lr_factor}, {"split", c.split}, {"dirichlet_beta", c.dirichlet_beta},
          {"seed", c.seed}, {"generator", static_cast<int>(c.generator)}, {"latents", d}, {"local_state", local}};
}

// The client's local sample order of round t: τ·batch indices from its "bnn-shuffle" stream.
std::vector<std::size_t> LocalOrder(const BnnTrainConfig& c, std::uint32_t client, std::uint32_t round, std::size_t shard) {
  StreamCursor cur;
  cur.ctx.key = DeriveKey(c.seed, "bnn-shuffle", client);
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
  if (testing::FlWiringMutantIs(testing::FlWiringMutant::kBnnShuffleFromClientKey)) cur.ctx.key = DeriveKey(c.seed, "bnn-client", client);
#endif
  cur.addr = {round, client, rng::Purpose::kPrivateCoin};
  return ShuffledPasses(cur, shard, static_cast<std::size_t>(c.local_steps) * static_cast<std::size_t>(c.batch));
}

void WriteMetrics(const fs::path& path, const std::vector<BnnRoundRecord>& history) {
  std::ostringstream o;
  o << "round,lr,train_loss,test_loss,test_accuracy,accuracy_min,accuracy_max,evaluated_clients,uplink_bits,"
       "broadcast_mean_abs,seconds,mechanism_seconds\n";
  o << std::setprecision(9);
  for (const auto& r : history)
    o << r.round + 1 << ',' << r.lr << ',' << r.train_loss << ',' << r.test_loss << ',' << r.test_accuracy << ','
      << r.accuracy_min << ',' << r.accuracy_max << ',' << r.evaluated_clients << ',' << r.uplink_bits << ','
      << r.broadcast_mean_abs << ',' << r.seconds << ',' << r.mechanism_seconds << '\n';
  WriteFileAtomic(path.string(), o.str());
}

}  // namespace

std::string BnnTranscriptStart(const BnnTrainConfig& config, std::size_t latents, std::size_t local_state) {
  internal::Sha256Writer h;
  h.Label("dpfl-bnn-transcript-v1");
  h.Label(Fingerprint(config, latents, local_state).dump());
  h.Label(config.transcript_context);
  return h.Hex();
}

void ValidateBnnTrainConfig(const BnnTrainConfig& c) {
  if (c.clients < 1) throw InvalidArgument("--clients", "must be >= 1");
  if (c.rounds < 1) throw InvalidArgument("--rounds", "must be >= 1");
  if (c.local_steps < 1) throw InvalidArgument("--local-steps", "dpfl-bnn needs local steps tau >= 1 (spec 004: 10)");
  if (c.batch < 1) throw InvalidArgument("--batch", "must be >= 1");
  if (!(c.mix_beta >= 0 && c.mix_beta <= 1)) throw InvalidArgument("--mix-beta", "must be in [0, 1], got " + ShortestDouble(c.mix_beta));
  if (c.rr_gamma && !(*c.rr_gamma >= 0.0 && *c.rr_gamma <= 0.5))
    throw InvalidArgument("--rr-gamma", "RR bias gamma must be in [0, 1/2] (keep probability 1/2 + gamma), got " +
                                            ShortestDouble(*c.rr_gamma));
  if (!(c.lr > 0) || !std::isfinite(c.lr)) throw InvalidArgument("--lr", "must be finite and > 0");
  if (!(c.lr_factor > 0 && c.lr_factor <= 1)) throw InvalidArgument("--lr-schedule", "factor must be in (0, 1]");
  if (c.split != "iid" && c.split != "dirichlet") throw InvalidArgument("--split", "must be iid or dirichlet, got '" + c.split + "'");
  if (c.split == "dirichlet" && (!(c.dirichlet_beta > 0) || !std::isfinite(c.dirichlet_beta)))
    throw InvalidArgument("--beta", "must be finite and > 0");
  if (c.eval_clients > c.clients) throw InvalidArgument("--eval-clients", "must be <= --clients (0: all)");
  if (c.out_dir.empty()) throw InvalidArgument("--out", "an output directory is required");
}

BnnTrainResult RunBnnTraining(const BnnTrainConfig& config, const data::Split& split, BnnLocalModel& model,
                              const std::function<void(const TrainProgress&)>& progress) {
  ValidateBnnTrainConfig(config);
  const fs::path dir(config.out_dir);
  fs::create_directories(dir);
  const std::size_t d = model.LatentCount(), local_n = model.LocalStateCount();
  const std::uint32_t n = config.clients;
  BnnTrainResult result;
  result.latents = d;
  result.local_state = local_n;
  result.metrics_path = (dir / "metrics.csv").string();
  result.models_path = (dir / "final_models.bin").string();
  result.transcript_start = BnnTranscriptStart(config, d, local_n);
  const auto shard_indices = config.split == "iid" ? data::IidShares(split.train.size(), n, config.seed)
                                                   : data::DirichletShares(split.train.labels, split.train.classes, n,
                                                                           config.dirichlet_beta, config.seed);
  std::vector<data::Dataset> shards;
  for (const auto& idx : shard_indices) shards.push_back(split.train.Subset(idx));

  // Alg. 1' line 1: a common initial latent vector; each client its own local state.
  std::vector<std::vector<float>> latents(n, model.InitialLatents()), local(n, model.InitialLocalState());
  for (const float v : latents[0])
    if (!(v >= -1.0f && v <= 1.0f)) throw std::logic_error("BnnLocalModel::InitialLatents outside [-1, 1]");
  std::vector<quant::StreamContext> ctx(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    ctx[i].generator = config.generator;
    ctx[i].key = DeriveKey(config.seed, "bnn-client", i);
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
    if (testing::FlWiringMutantIs(testing::FlWiringMutant::kBnnSharedClientKey) || testing::FlWiringMutantIs(testing::FlWiringMutant::kBnnOneStreamForAll)) ctx[i].key = DeriveKey(config.seed, "bnn-client", 0);
#endif
  }
  const std::optional<quant::RandomizedResponse> rr =
      config.rr_gamma ? std::optional(quant::MakeRandomizedResponse(*config.rr_gamma)) : std::nullopt;
  std::vector<std::vector<std::uint64_t>> uploads(n, std::vector<std::uint64_t>(quant::PackedWords(d)));
  std::vector<std::uint32_t> counts(d);
  std::vector<float> broadcast(d);
  std::string previous = result.transcript_start;
  std::vector<std::size_t> eval_index(std::min(split.test.size(), config.eval_samples ? config.eval_samples : split.test.size()));
  std::iota(eval_index.begin(), eval_index.end(), std::size_t{0});
  const data::Dataset eval_data = eval_index.size() == split.test.size() ? split.test : split.test.Subset(eval_index);
  const auto start = std::chrono::steady_clock::now();

  for (std::uint32_t t = 0; t < config.rounds; ++t) {
    const auto round_start = std::chrono::steady_clock::now();
    BnnRoundRecord rec;
    rec.round = t;
    rec.lr = config.lr * (config.lr_step > 0 ? std::pow(config.lr_factor, static_cast<double>(t / config.lr_step)) : 1.0);
    double mechanism = 0, loss_sum = 0;
    std::uint32_t trained = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      std::uint32_t own = i;  // the client whose shard and order stream are used
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
      if (testing::FlWiringMutantIs(testing::FlWiringMutant::kBnnTrainsNeighbourShard)) own = (i + 1) % n;
#endif
      const std::vector<std::size_t> order = LocalOrder(config, own, t, shards[own].size());
      if (!order.empty()) {  // Alg. A
        double loss = 0;
        model.TrainLocal(latents[i], local[i], shards[own], order, config.batch, rec.lr, &loss);
        loss_sum += loss;
        ++trained;
      }
      const auto m0 = std::chrono::steady_clock::now();
      ctx[i].round = t;
      std::uint32_t entity = i;
      bool encode = true;
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
      if (testing::FlWiringMutantIs(testing::FlWiringMutant::kBnnRoundFixed)) ctx[i].round = 0;
      if (testing::FlWiringMutantIs(testing::FlWiringMutant::kBnnClientIndexDropped) || testing::FlWiringMutantIs(testing::FlWiringMutant::kBnnOneStreamForAll)) entity = 0;
      if (testing::FlWiringMutantIs(testing::FlWiringMutant::kBnnUploadOnce)) encode = t == 0;
#endif
      if (encode) quant::EncodeBnnUpload(config.binarizer, rr ? &*rr : nullptr, latents[i], ctx[i], entity, uploads[i]);  // Alg. B, C
      mechanism += internal::SecondsSince(m0);
      if (progress) {
        const std::optional<double> last =
            result.history.empty() ? std::nullopt : std::optional<double>(result.history.back().test_accuracy);
        progress(MakeProgress("dpfl-bnn", t, config.rounds, i + 1, n, internal::SecondsSince(start), last, false));
      }
    }
    // Alg. D: the server's view is K_j only; Alg. E: the average and the mixing.
    const auto m0 = std::chrono::steady_clock::now();
    bool reset_counts = true;
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
    if (testing::FlWiringMutantIs(testing::FlWiringMutant::kBnnCountsNotReset)) reset_counts = false;
#endif
    if (reset_counts) std::fill(counts.begin(), counts.end(), 0u);
    std::vector<std::span<const std::uint64_t>> views(uploads.begin(), uploads.end());
    quant::AccumulateMessages(views, counts);
    quant::DecodeBnnAverage(counts, n, broadcast);
    mechanism += internal::SecondsSince(m0);
    if (config.observer) {
      ObservedRound seen;
      seen.round = t;
      for (std::uint32_t i = 0; i < n; ++i) seen.uplinks.push_back({i, latents[i], 64 * quant::PackedWords(d), uploads[i], {}, {}});
      seen.counts = counts;
      seen.broadcast = broadcast;
      config.observer(seen);
    }
    double beta = config.mix_beta;
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
    if (testing::FlWiringMutantIs(testing::FlWiringMutant::kBnnMixSwapped)) beta = 1.0 - beta;
#endif
    for (std::uint32_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < d; ++j)
        latents[i][j] = static_cast<float>(beta * broadcast[j] + (1.0 - beta) * latents[i][j]);
    {
      internal::Sha256Writer h;
      h.Label("dpfl-bnn-round-v1");
      h.Label(previous);
      h.U32(t);
      for (std::uint32_t k : counts) h.U32(k);
      h.F32s(broadcast);
      rec.transcript = previous = h.Hex();
    }
    double abs_sum = 0;
    for (float v : broadcast) abs_sum += std::fabs(v);
    rec.broadcast_mean_abs = d ? abs_sum / static_cast<double>(d) : 0;
    // Evaluation of the clients' own models.
    const bool last = t + 1 == config.rounds;
    const std::uint32_t k = last || config.eval_clients == 0 ? n : config.eval_clients;
    double acc = 0, loss = 0;
    rec.accuracy_min = 1;
    for (std::uint32_t e = 0; e < k; ++e) {
      const std::uint32_t i = static_cast<std::uint32_t>(static_cast<std::uint64_t>(e) * n / k);
      const Evaluation ev = model.Evaluate(latents[i], local[i], eval_data);
      acc += ev.accuracy;
      loss += ev.loss;
      rec.accuracy_min = std::min(rec.accuracy_min, ev.accuracy);
      rec.accuracy_max = std::max(rec.accuracy_max, ev.accuracy);
    }
    rec.evaluated_clients = k;
    rec.test_accuracy = acc / k;
    rec.test_loss = loss / k;
    rec.train_loss = trained ? loss_sum / trained : 0;
    rec.uplink_bits = 64 * quant::PackedWords(d);  // what is sent: ⌈d/64⌉ packed 64-bit words
    rec.mechanism_seconds = mechanism;
    rec.seconds = internal::SecondsSince(round_start);
    result.history.push_back(rec);
    WriteMetrics(dir / "metrics.csv", result.history);
  }

  std::string models;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::size_t off = models.size();
    models.append(reinterpret_cast<const char*>(latents[i].data()), d * sizeof(float));
    models.append(reinterpret_cast<const char*>(local[i].data()), local_n * sizeof(float));
    result.client_model_sha256.push_back(Sha256Hex(models.data() + off, models.size() - off));
  }
  WriteFileAtomic(result.models_path, models);
  if (progress) {
    progress(MakeProgress("dpfl-bnn", config.rounds, config.rounds, n, n, internal::SecondsSince(start),
                          result.history.back().test_accuracy, true));
  }
  return result;
}

}  // namespace dpfl::fl
