// The seed-002 loop's FL-layer suite (RunCepamTraining, dpfl/fl/cepam_training.hpp), on the
// shared pieces of tests/testing/loop_wiring_harness.hpp.
//
// Six runs of the real loop with the design trainer:
//  * cepam-gaussian: lattice dimension n = 2, σ = 1/2, K = 6, T = 4, m = 2^14; inputs {0, 2^-7,
//    −2^-7, 2^-8} by coordinate pair, rotated by the client (‖X‖₂ = 0.375 < γ), except client 3 in
//    round 0, whose ±2^-2 update (‖X‖₂ = 32) the loop must clip to γ (Alg. 1 step 4; unclipped, the
//    error would be shifted by σ/2), and client 2 in round 1 (‖X‖₂ = 3 ∈ (γ, γ²));
//  * cepam-laplace: n = 1, b = 1/2, K = 4, T = 3, m = 2^13, the same inputs, two workers (the
//    clients train, encode and decode in parallel);
//  * fl-gaussian and fl-laplace (the floating-point baselines): σ = b = 1/2, K = 4, T = 3, m = 2^14
//    and 2^13, the same inputs;
//  * fl-sdq (subtractive dithered scalar quantization, step α = 2^-6, no noise): K = 4, T = 3,
//    m = 2^13, the same inputs; the error is Unif(−α/2, α/2] whatever the input, so a wrong clip
//    (client 2's ‖X‖₂ = 3) leaves the support;
//  * dirichlet (cepam-gaussian, n = 2): K = 10 clients on Dirichlet(0.01) shards of 80 samples
//    (unequal, with empty ones: 0 30 5 21 1 3 8 2 5 5 at the suite's seed), T = 2, m = 2^12: n_k,
//    the empty shards and the 1/K of the aggregate.
// All runs clip at γ = 2 (so γ ≠ γ²) and take τ = 16 samples per round.
// Categories: the bin of the reconstruction error e = X̂ − X̃ (X̃ the clipped input, computed by the
// test) among 8 bins cut at σ·{±1.6, ±1, ±0.5, 0} (Gaussian), b·{±1.5, ±0.7, ±0.25, 0}
// (Laplace) or α·{±3/8, ±1/4, ±1/8, 0} (uniform), with exact bin probabilities from
// ref::NormalCdf / ref::Exp enclosures or rationals. The error is exactly N(0, σ²)^n (Prop. 5),
// Lap(0, b) (Thm 13) or Unif(−α/2, α/2] whatever the input, so one law per input
// class (the classes are kept apart so that an input-dependent fault shows). Checks: law, rounds,
// clients, coordinates (neighbours (j, j+1): inside a block for n = 2; (j, j+2): across blocks),
// server (every decode equals DecodeCepamUplink of the replayed message under the documented key
// and round; the broadcast is W_t + (1/K) Σ X̂; every client trains its own shard from the last
// broadcast and encodes its own update), certificate (uplink bits, clipped clients, n_k, empty
// shards), law of the local samples (Unif[n_k], eq. (3)), replay (every message equals EncodeCepamUplink
// under DeriveKey(seed, "cepam-client", i), entity i, round t), keys (no message replays under
// another client's key or stream; the local samples are Below(n_k) draws of DeriveKey(seed,
// "cepam-sample", i) at (t, i, private coin)). The decode check uses the production codec's
// decoder (the reference states the error law, not a decoder); the law checks hold it to the
// reference.
#pragma once

#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include "dpfl/fl/cepam_training.hpp"
#include "dpfl/fl/stream_util.hpp"
#include "dpfl/ref/enclosure.hpp"
#include "testing/loop_wiring_harness.hpp"

namespace dpfl::testing::loopwiring {

namespace cp_detail {

inline constexpr int kPrec = 64;
inline constexpr double kScale = 0.5;      // σ or b
inline constexpr double kSdqStep = 0x1p-6;  // α of fl-sdq
inline constexpr double kClip = 2.0;        // γ (not 1, so that γ and γ² differ)
inline constexpr int kLocalSteps = 16;      // τ single-sample steps

struct Run {
  fl::CepamFlMechanism mechanism = fl::CepamFlMechanism::kCepamGaussian;
  int lattice_dim = 1;
  std::uint32_t clients = 0, rounds = 0;
  std::size_t m = 0;
  std::string tag;
  std::size_t workers = 1;  // the loop's --workers: the design trainer is handed to each
  double dirichlet_beta = 0;  // > 0: Dirichlet(β) shards (unequal, some empty) instead of IID
};

inline bool ClipCase(std::uint32_t client, std::uint32_t round) { return client == 3 && round == 0; }

// Client i's update in round t: the classes {0, 2^-7, −2^-7, 2^-8} rotated by the client (so a
// message encoding another client's update shows), ±2^-2 for client 3 in round 0 (‖X‖₂ ≥ 22 ≫ γ),
// and ‖X‖₂ = 3 ∈ (γ, γ²) for client 2 in round 1 (a clip to γ², or a test of ‖X‖² against γ,
// would leave it unclipped).
inline std::vector<float> Design(const Run& run, std::uint32_t client, std::uint32_t round) {
  std::vector<float> h(run.m);
  static const float values[4] = {0.0f, 0x1p-7f, -0x1p-7f, 0x1p-8f};
  const float between = static_cast<float>(3.0 / std::sqrt(static_cast<double>(run.m)));
  for (std::size_t j = 0; j < run.m; ++j) {
    const float sign = (j >> 1) & 1 ? -1.0f : 1.0f;
    h[j] = ClipCase(client, round) ? sign * 0x1p-2f : client == 2 && round == 1 ? sign * between : values[((j >> 1) + client) & 3];
  }
  return h;
}

inline fl::CepamTrainConfig Config(const Run& run, std::uint64_t seed) {
  fl::CepamTrainConfig c;
  c.uplink.mechanism = run.mechanism;
  c.uplink.lattice_dim = run.lattice_dim;
  c.uplink.clip = kClip;
  if (fl::CepamFlGaussian(run.mechanism)) c.uplink.sigma = kScale;
  if (fl::CepamFlLaplace(run.mechanism)) c.uplink.b = kScale;
  if (fl::CepamFlSdq(run.mechanism)) c.uplink.sdq_step = kSdqStep;
  c.clients = run.clients;
  c.rounds = run.rounds;
  c.local_steps = kLocalSteps;
  c.seed = seed;
  if (run.dirichlet_beta > 0) {
    c.split = "dirichlet";
    c.dirichlet_beta = run.dirichlet_beta;
  }
  return c;
}

// The error law of a mechanism: N(0, σ²), Lap(0, b), or Unif(−α/2, α/2] (SDQ without noise).
enum class ErrorLaw { kGaussian, kLaplace, kUniform };
inline ErrorLaw ErrorLawOf(fl::CepamFlMechanism m) {
  return fl::CepamFlGaussian(m) ? ErrorLaw::kGaussian : fl::CepamFlLaplace(m) ? ErrorLaw::kLaplace : ErrorLaw::kUniform;
}

// The 8 bins' exact probabilities and the cut points (in units of the scale σ, b or α).
struct Bins {
  ErrorLaw law = ErrorLaw::kGaussian;
  double scale = kScale;
  std::vector<ref::Rational> cuts;
  std::vector<double> probs;
  explicit Bins(ErrorLaw l_) : law(l_), scale(l_ == ErrorLaw::kUniform ? kSdqStep : kScale) {
    const double c[7] = {-1.6, -1.0, -0.5, 0.0, 0.5, 1.0, 1.6}, l[7] = {-1.5, -0.7, -0.25, 0.0, 0.25, 0.7, 1.5},
                 u[7] = {-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375};
    std::vector<double> cdf;
    for (int i = 0; i < 7; ++i) {
      const ref::Rational x(law == ErrorLaw::kGaussian ? c[i] : law == ErrorLaw::kLaplace ? l[i] : u[i]);  // dyadic: exact
      cuts.push_back(x);
      if (law == ErrorLaw::kUniform) {
        cdf.push_back((x + ref::Rational(1, 2)).convert_to<double>());  // (e + α/2)/α, exact
      } else if (law == ErrorLaw::kGaussian) {
        cdf.push_back(ref::NormalCdf(ref::Enclosure(kPrec, x)).MidDouble());
      } else {
        const ref::Enclosure half_tail = ref::Exp(ref::Enclosure(kPrec, x < 0 ? x : ref::Rational(-x))) / ref::Rational(2);
        cdf.push_back(x < 0 ? half_tail.MidDouble() : 1.0 - half_tail.MidDouble());
      }
    }
    double last = 0;
    for (double v : cdf) {
      probs.push_back(v - last);
      last = v;
    }
    probs.push_back(1.0 - last);
  }
  int Of(double e) const {  // e in units of the scale
    const ref::Rational x(e);
    int b = 0;
    while (b < 7 && x > cuts[static_cast<std::size_t>(b)]) ++b;
    return b;
  }
};

inline void Analyse(const Run& run, std::uint64_t seed, std::vector<Check>& out) {
  fl::CepamTrainConfig c = Config(run, seed);
  std::vector<fl::ObservedRound> rounds;
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("dpfl-loop-wiring-cepam-" + std::to_string(::getpid()) + "-" + run.tag);
  c.out_dir = dir.string();
  const std::size_t n = 8 * static_cast<std::size_t>(run.clients);
  const data::Split split = IdentitySplit(n);
  const auto shares = run.dirichlet_beta > 0
                          ? data::DirichletShares(split.train.labels, split.train.classes, run.clients, run.dirichlet_beta, seed)
                          : data::IidShares(n, run.clients, seed);
  DesignTrainer trainer(run.m, Owners(shares, n),
                        [&run](std::uint32_t i, std::uint32_t t) { return Design(run, i, t); });
  c.observer = [&](const fl::ObservedRound& o) {
    rounds.push_back(o);
    trainer.NextRound();
  };
  const fl::CepamTrainResult result = fl::RunCepamTraining(c, split, std::vector<fl::LocalTrainer*>(run.workers, &trainer));
  c.observer = nullptr;
  const auto orders = trainer.orders;
  const HandedModels handed = trainer.handed;
  std::filesystem::remove_all(dir);
  if (rounds.size() != run.rounds) throw std::runtime_error("the observer saw " + std::to_string(rounds.size()) + " rounds");

  const Bins bins(ErrorLawOf(run.mechanism));
  Observations o;
  o.Reset(run.rounds, run.clients, run.m);
  const char* classes[5] = {"input 0", "input 2^-7", "input -2^-7", "input 2^-8", "clipped input (+-2^-2 scaled to norm 1)"};
  for (const char* name : classes) {
    o.laws.push_back(bins.probs);
    o.law_names.push_back(std::string("error bins, ") + name);
  }
  Tally support, decode, aggregate, replay, keys, facts;
  std::vector<float> previous(run.m, 0.0f);
  for (std::uint32_t t = 0; t < run.rounds; ++t) {
    const fl::ObservedRound& seen = rounds[t];
    if (seen.uplinks.size() != run.clients) throw std::runtime_error("a CEPAM round without every client");
    std::vector<double> sum(run.m, 0.0);
    std::uint64_t bits = 0;
    std::uint32_t clipped = 0;
    for (const fl::ObservedUplink& u : seen.uplinks) {
      if (u.client >= run.clients || u.input.size() != run.m || u.decoded.size() != run.m)
        throw std::runtime_error("observed uplink of the wrong shape");
      const std::string at = "round " + std::to_string(t) + " client " + std::to_string(u.client);
      // X̃ = X / max{1, ‖X‖₂/γ} (Alg. 1 step 4), then the error bins.
      const double shrink = std::max(1.0, Norm2(u.input) / c.uplink.clip);
      bits += u.bits;
      clipped += shrink > 1.0 ? 1 : 0;
      for (std::size_t j = 0; j < run.m; ++j) {
        const double e = u.decoded[j] - static_cast<double>(u.input[j]) / shrink;
        Observations::Cell& cell = o.At(t, u.client, j);
        sum[j] += u.decoded[j];
        // The support: a finite error, within (−α/2, α/2] for SDQ.
        const bool outside = !std::isfinite(e) || (bins.law == ErrorLaw::kUniform && !(std::fabs(e) <= kSdqStep / 2 + 1e-6));
        support.Add(outside, [&] { return at + " coordinate " + std::to_string(j); });
        if (!std::isfinite(e)) continue;
        cell.category = bins.Of(e / bins.scale);
        cell.law = shrink > 1.0 ? 4 : static_cast<int>(((j >> 1) + u.client) & 3);
      }
      // Replay: the message under the documented key, entity and round, and its decode.
      const auto name = [&] { return at; };
      const rng::StreamKey key = DocumentedKey(seed, "cepam-client", u.client);
      const fl::CepamUplinkMessage msg = fl::EncodeCepamUplink(c.uplink, u.input, key, u.client, t);
      replay.Add(msg.coded.words != u.words || msg.values != u.floats || msg.Bits() != u.bits, name);
      for (std::uint32_t other = 0; other < run.clients; ++other) {  // key separation
        if (other == u.client) continue;
        for (std::uint32_t entity : {u.client, other}) {
          const fl::CepamUplinkMessage alien =
              fl::EncodeCepamUplink(c.uplink, u.input, DocumentedKey(seed, "cepam-client", other), entity, t);
          keys.Add(alien.coded.words == u.words && alien.values == u.floats,
                   [&] { return at + " under client " + std::to_string(other) + "'s key, entity " + std::to_string(entity); });
        }
      }
      decode.Add(fl::DecodeCepamUplink(c.uplink, msg, key, t, run.m) != u.decoded, name);
    }
    CompareBroadcast(t, previous, sum, static_cast<double>(run.clients), seen.broadcast, aggregate);
    previous = seen.broadcast;
    const fl::CepamRoundRecord& rec = result.history.at(t);
    facts.Add(rec.uplink_bits != bits || rec.clipped_clients != clipped, [&] { return "round " + std::to_string(t); });
  }
  // n_k of the privacy theorems (E-P8): the smallest shard a client trained on; the clients that
  // never trained hold no data.
  std::size_t smallest = 0;
  std::vector<int> trained(run.clients, 0);
  for (const auto& [at, got] : orders) {
    smallest = smallest == 0 ? got.first : std::min(smallest, got.first);
    trained.at(at.second) = 1;
  }
  const auto empty = static_cast<std::uint32_t>(std::count(trained.begin(), trained.end(), 0));
  out.push_back(facts.Finish(Kind::kCertificate, run.tag + ": reported uplink bits and clipped clients per round"));
  out.push_back(ExactCheck(Kind::kCertificate, run.tag + ": reported min_shard n_k = the smallest shard trained on", 1,
                           result.min_shard != smallest || result.empty_shards != empty,
                           std::to_string(result.min_shard) + " reported, " + std::to_string(smallest) + " observed"));
  InputChecks(run.tag, rounds, handed, std::vector<float>(run.m, 0.0f),
              [&run](std::uint32_t i, std::uint32_t t) { return Design(run, i, t); }, out);
  OrderLawChecks(run.tag + ": local samples ~ Unif[n_k] (eq. (3))", orders, true, out);
  out.push_back(support.Finish(Kind::kLaw, run.tag + (bins.law == ErrorLaw::kUniform ? ": every error in (-alpha/2, alpha/2]"
                                                                                     : ": every error finite")));
  LawChecks(o, run.tag, out);
  IndependenceChecks(o, run.tag, {2}, out);
  out.push_back(decode.Finish(Kind::kServer, run.tag + ": each decode = DecodeCepamUplink under the documented key and round"));
  out.push_back(aggregate.Finish(Kind::kServer, run.tag + ": broadcast = W_t + (1/K) sum of the decodes"));
  out.push_back(replay.Finish(Kind::kReplay, run.tag + ": messages replay from DeriveKey(seed, \"cepam-client\", i), entity i, round t"));
  out.push_back(keys.Finish(Kind::kKeys, run.tag + ": no message replays under another client's key or stream"));
  // Eq. (3): τ indices ~ Unif[n_k] with replacement from the client's own "cepam-sample" stream.
  out.push_back(OrderReplayCheck(run.tag + ": local samples replay from DeriveKey(seed, \"cepam-sample\", i) at (t, i, private coin)",
                                 orders, [&](std::uint32_t t, std::uint32_t i, std::size_t shard) {
                                   fl::StreamCursor cur;
                                   cur.ctx.key = DocumentedKey(seed, "cepam-sample", i);
                                   cur.addr = {t, i, rng::Purpose::kPrivateCoin};
                                   std::vector<std::size_t> order(static_cast<std::size_t>(c.local_steps));
                                   for (auto& j : order) j = static_cast<std::size_t>(cur.Below(shard));
                                   return order;
                                 }));
}

}  // namespace cp_detail

inline SuiteResult RunCepamLoopSuite(std::uint64_t seed = 0x2000000000000002) {
  return RunSuite("loop-cepam", [seed](std::vector<Check>& checks) {
    using fl::CepamFlMechanism;
    const cp_detail::Run runs[] = {
        {CepamFlMechanism::kCepamGaussian, 2, 6, 4, std::size_t{1} << 14, "cepam-gaussian"},
        {CepamFlMechanism::kCepamLaplace, 1, 4, 3, std::size_t{1} << 13, "cepam-laplace", 2},
        {CepamFlMechanism::kFlGaussian, 1, 4, 3, std::size_t{1} << 14, "fl-gaussian"},
        {CepamFlMechanism::kFlLaplace, 1, 4, 3, std::size_t{1} << 13, "fl-laplace"},
        {CepamFlMechanism::kFlSdq, 1, 4, 3, std::size_t{1} << 13, "fl-sdq"},
        {CepamFlMechanism::kCepamGaussian, 2, 10, 2, std::size_t{1} << 12, "dirichlet", 1, 0.01},
    };
    for (const cp_detail::Run& run : runs) GuardedRun(run.tag, checks, [&] { cp_detail::Analyse(run, seed, checks); });
  });
}

}  // namespace dpfl::testing::loopwiring
