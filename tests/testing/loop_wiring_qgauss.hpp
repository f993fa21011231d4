// The seed-003 loop's FL-layer suite (RunQgaussTraining, dpfl/fl/qgauss_training.hpp), on the
// shared pieces of tests/testing/loop_wiring_harness.hpp.
//
// Three runs of the real loop with the design trainer, σ = 0.35, C = 1:
//  * full (qgauss, k = 5, so δ_q = 1/2, grid unit g = 2^-17, s = ⌈(σ/g)²⌉^½ ≈ 45,875 grid units):
//    K = 6 clients, T = 4 rounds, m = 2^14 coordinates (4 noise chunks of 4096); inputs
//    {0, 2^-8, −2^-8, 2^-9} by coordinate pair (‖h‖₂ = 0.375 < C/2, no clip), except client 3 in
//    round 0, whose ±2^-3 update (‖h‖₂ = 16) the loop must clip by the exact factor 1/32 (to
//    ±2^-8; unclipped it would sit a quarter level step away);
//  * poisson (qgauss): K = 16, T = 64, q = 3/8 (so q̃ = ⌈q 2^64⌉/2^64 = q exactly), m = 2^8, two
//    workers (the participants train and encode in parallel);
//  * gaussian (qgauss-gaussian, the unquantized baseline on the k = 2 grid, g = 2^-15): K = 4,
//    T = 3, m = 2^13, the full run's inputs.
// Categories: qgauss, the level index read from the packed message by the test (b = 3 bits per
// index, little-endian words), law ref::QuantizedGaussianGridPmf at the reference's grid position
// of the clipped input; qgauss-gaussian, the bin of Z = (the float's grid position) − q among 8
// integer ranges, law ref::DiscreteGaussianLaw(s²). Checks: law (and the support: indices < k,
// floats on the grid), rounds, clients, coordinates (neighbours; j vs j + 4096, the noise chunk
// boundary), participation (marginal Bernoulli(q), rounds, clients), server (each decode is
// B(index) = −C + index·2C/(k − 1) in rationals, or the float sent; the broadcast is
// W_t + (1/|S_t|) Σ x̂, E13; no participant: unchanged), replay (the participants are the sampling
// stream's decisions — word i of DeriveKey(seed, "qgauss-sampling") at (t, 0, kPairing) below
// ⌈q 2^64⌉ — and every message is QgaussEncode / QgaussNoisy under DeriveKey(seed, "qgauss-client",
// i), round t, entity i), keys (no message replays under another client's key or stream; the
// local orders are ShuffledPasses of DeriveKey(seed, "qgauss-order", i) at (t, i, private coin)).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include "dpfl/fl/qgauss_training.hpp"
#include "dpfl/fl/stream_util.hpp"
#include "dpfl/ref/discrete_noise.hpp"
#include "dpfl/ref/quantized_gaussian_grid.hpp"
#include "testing/loop_wiring_harness.hpp"

namespace dpfl::testing::loopwiring {

namespace qg_detail {

inline constexpr double kSigma = 0.35, kClip = 1.0;
inline constexpr std::uint32_t kLevels = 5;
inline constexpr int kIndexBits = 3;

struct Run {
  fl::QgaussFlMechanism mechanism = fl::QgaussFlMechanism::kQgauss;
  std::uint32_t clients = 0, rounds = 0;
  std::size_t m = 0;
  double sampling = 1.0;
  std::string tag;
  std::size_t workers = 1;  // the loop's --workers: the design trainer is handed to each
  std::uint64_t seed_offset = 0;
  bool exact_only = false;  // small runs for the certificate facts: no statistical checks
};

inline bool ClipCase(const Run& run, std::uint32_t client, std::uint32_t round) {
  return run.sampling == 1.0 && client == 3 && round == 0;
}

// Client i's update in round t: the classes {0, 2^-8, −2^-8, 2^-9} rotated by the client (so a
// message encoding another client's update shows), the clip case, and client 2 of round 1 in the
// full run with ‖h‖₂ = 3/4 ∈ (C/2, C] (clipped by 2/3; a loop that counted clipping against C
// would report it unclipped).
inline std::vector<float> Design(const Run& run, std::uint32_t client, std::uint32_t round) {
  std::vector<float> h(run.m);
  static const float values[4] = {0.0f, 0x1p-8f, -0x1p-8f, 0x1p-9f};
  const bool between = run.sampling == 1.0 && client == 2 && round == 1 && run.m == (std::size_t{1} << 14);
  for (std::size_t j = 0; j < run.m; ++j) {
    const float sign = (j >> 1) & 1 ? -1.0f : 1.0f;
    h[j] = ClipCase(run, client, round) ? sign * 0x1p-3f : between ? sign * 3 * 0x1p-9f : values[((j >> 1) + client) & 3];
  }
  return h;
}

inline std::uint32_t IndexAt(const std::vector<std::uint64_t>& words, std::size_t j) {
  std::uint32_t v = 0;
  for (int b = 0; b < kIndexBits; ++b) {
    const std::size_t bit = j * kIndexBits + static_cast<std::size_t>(b);
    if (bit / 64 < words.size() && ((words[bit / 64] >> (bit % 64)) & 1)) v |= 1u << b;
  }
  return v;
}

struct RunResult {
  std::vector<fl::ObservedRound> rounds;
  fl::QgaussTrainConfig config;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::pair<std::size_t, std::vector<std::size_t>>> orders;
  HandedModels handed;
  std::vector<float> initial;
  fl::QgaussTrainResult result;
};

inline RunResult RunLoop(const Run& run, std::uint64_t seed) {
  RunResult r;
  fl::QgaussTrainConfig& c = r.config;
  c.mechanism = run.mechanism;
  c.noise = {kSigma, kLevels, kClip};
  c.clients = run.clients;
  c.rounds = run.rounds;
  c.local_epochs = 1;
  c.batch = 1;
  c.sampling_rate = run.sampling;
  c.seed = seed + run.seed_offset;
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("dpfl-loop-wiring-qgauss-" + std::to_string(::getpid()) + "-" + run.tag);
  c.out_dir = dir.string();
  const std::size_t n = 8 * static_cast<std::size_t>(run.clients);
  const data::Split split = IdentitySplit(n);
  DesignTrainer trainer(run.m, Owners(data::IidShares(n, run.clients, c.seed), n),
                        [&run](std::uint32_t i, std::uint32_t t) { return Design(run, i, t); });
  c.observer = [&](const fl::ObservedRound& o) {
    r.rounds.push_back(o);
    trainer.NextRound();
  };
  r.result = fl::RunQgaussTraining(c, split, std::vector<fl::LocalTrainer*>(run.workers, &trainer));
  c.observer = nullptr;
  r.orders = trainer.orders;
  r.handed = trainer.handed;
  r.initial = trainer.InitialWeights();
  std::filesystem::remove_all(dir);
  return r;
}

// The reference's grid and the laws: qgauss, one index law per grid position
// (QuantizedGaussianGridPmf); qgauss-gaussian, the bins of Z (8 integer ranges cut at
// s·{±1.6, ±1, ±0.5, 0}, DiscreteGaussianLaw::RangeProbability), one law per input class.
struct Laws {
  bool quantized = true;
  ref::QgGrid grid;
  std::map<std::string, int> by_position;
  std::vector<ref::Int> cuts;  // qgauss-gaussian: bin b is (cuts[b-1], cuts[b]]
  explicit Laws(const Run& run, Observations& o)
      : quantized(run.mechanism == fl::QgaussFlMechanism::kQgauss),
        grid(ref::QuantizedGaussianGridFor(ref::Rational(kSigma), quantized ? kLevels : 2, ref::Rational(kClip))) {
    if (quantized) return;
    const ref::DiscreteGaussianLaw z(ref::Rational(grid.sigma2), 64);
    const double s = std::sqrt(grid.sigma2.convert_to<double>());
    for (double c : {-1.6, -1.0, -0.5, 0.0, 0.5, 1.0, 1.6}) cuts.push_back(ref::Int(static_cast<long long>(std::floor(c * s))));
    std::vector<double> p;
    ref::Int lo = -(ref::Int(1) << 40);  // beyond 2^40 ≫ 40 s the mass is far below 2^-64
    for (std::size_t b = 0; b <= cuts.size(); ++b) {
      const ref::Int hi = b < cuts.size() ? cuts[b] : ref::Int(1) << 40;
      p.push_back(z.RangeProbability(lo + (b ? 1 : 0), hi).MidDouble());
      lo = hi;
    }
    for (int cls = 0; cls < 5; ++cls) {
      o.laws.push_back(p);
      o.law_names.push_back("bins of Z ~ N_Z(0, s^2), input class " + std::to_string(cls));
    }
  }
  int IndexLaw(Observations& o, const ref::Int& q) {
    const std::string key = q.str();
    const auto it = by_position.find(key);
    if (it != by_position.end()) return it->second;
    std::vector<double> p;
    for (const auto& e : ref::QuantizedGaussianGridPmf(grid, q, 64)) p.push_back(e.MidDouble());
    o.laws.push_back(p);
    o.law_names.push_back("index law at grid position q = " + key);
    const int id = static_cast<int>(o.laws.size()) - 1;
    by_position[key] = id;
    return id;
  }
  int ZBin(const ref::Int& z) const {
    int b = 0;
    while (b < static_cast<int>(cuts.size()) && z > cuts[static_cast<std::size_t>(b)]) ++b;
    return b;
  }
};

// Categories of one run, plus the server, replay and key checks (exact).
inline void Analyse(const Run& run, const RunResult& rr, std::vector<Check>& out) {
  Observations o;
  o.Reset(run.rounds, run.clients, run.m);
  Laws laws(run, o);
  const fl::QgaussGrid grid = fl::MakeQgaussGrid(fl::QgaussGridConfig(run.mechanism, rr.config.noise));
  const ref::Rational two_c(2 * kClip);
  const double g = (two_c / ref::Rational(laws.grid.span)).convert_to<double>();  // 2C/L, a power of two here: exact
  Tally support, decode, aggregate, replay, who, keys, facts;
  // The sampling threshold ⌈q·2^64⌉ in exact arithmetic (2^64 − 1 at most; q = 1: everybody).
  const ref::Rational scaled = ref::Rational(run.sampling) * ref::Rational(ref::Int(1) << 64);
  ref::Int thr = ref::FloorInt(scaled);
  if (ref::Rational(thr) != scaled) thr += 1;
  const std::uint64_t threshold = thr >= (ref::Int(1) << 64) ? ~std::uint64_t{0} : thr.convert_to<std::uint64_t>();
  std::vector<float> previous(run.m, 0.0f);
  std::vector<std::vector<int>> present(run.rounds, std::vector<int>(run.clients, 0));
  if (rr.rounds.size() != run.rounds) throw std::runtime_error("the observer saw " + std::to_string(rr.rounds.size()) + " rounds");
  const auto encode = [&](const std::vector<std::int64_t>& q, const rng::StreamKey& key, std::uint32_t t, std::uint32_t entity,
                          const fl::ObservedUplink& u) {
    quant::StreamContext ctx;
    ctx.generator = rr.config.generator;
    ctx.key = key;
    ctx.round = t;
    if (laws.quantized) return fl::QgaussEncode(grid, q, ctx, entity).words == u.words;
    const std::vector<std::int64_t> noisy = fl::QgaussNoisy(grid, q, ctx, entity);
    if (noisy.size() != u.floats.size()) return false;
    for (std::size_t j = 0; j < noisy.size(); ++j)
      if (static_cast<float>(static_cast<double>(noisy[j]) * grid.unit) != u.floats[j]) return false;
    return true;
  };
  for (std::uint32_t t = 0; t < run.rounds; ++t) {
    const fl::ObservedRound& seen = rr.rounds[t];
    // Participants: the documented sampling decisions.
    std::vector<std::uint32_t> expected;
    fl::StreamCursor sampler;
    sampler.ctx.key = DocumentedKey(rr.config.seed, "qgauss-sampling");
    sampler.addr = {t, 0, rng::Purpose::kPairing};
    for (std::uint32_t i = 0; i < run.clients; ++i) {
      sampler.index = i;
      if (run.sampling == 1.0 || sampler.Next() < threshold) expected.push_back(i);
    }
    std::vector<std::uint32_t> got;
    for (const auto& u : seen.uplinks) got.push_back(u.client);
    who.Add(got != expected, [&] { return "round " + std::to_string(t); });
    std::vector<double> sum(run.m, 0.0);
    for (const fl::ObservedUplink& u : seen.uplinks) {
      if (u.client >= run.clients || u.input.size() != run.m || u.decoded.size() != run.m ||
          (laws.quantized ? u.words.empty() : u.floats.size() != run.m))
        throw std::runtime_error("observed uplink of the wrong shape");
      const std::string at = "round " + std::to_string(t) + " client " + std::to_string(u.client);
      present[t][u.client] = 1;
      // The input as the mechanism clips it (ℓ2 to C/2), then the reference's grid position.
      const double norm = Norm2(u.input);
      const double factor = norm > kClip / 2 ? (kClip / 2) / norm : 1.0;
      for (std::size_t j = 0; j < run.m; ++j) {
        const ref::Int q = ref::QuantizedGaussianGridPosition(laws.grid, ref::Rational(static_cast<double>(u.input[j]) * factor));
        Observations::Cell& cell = o.At(t, u.client, j);
        const auto where = [&] { return at + " coordinate " + std::to_string(j); };
        double want = 0;  // what the server must make of coordinate j
        if (laws.quantized) {
          const std::uint32_t idx = IndexAt(u.words, j);
          support.Add(idx >= kLevels, where);
          if (idx >= kLevels) continue;
          cell.law = laws.IndexLaw(o, q);
          cell.category = static_cast<int>(idx);
          want = (ref::Rational(-kClip) + ref::Rational(idx) * two_c / (kLevels - 1)).convert_to<double>();  // B(index)
        } else {
          // The float must be a grid point (q + Z)·g: Z = its grid position minus q.
          const double pos = static_cast<double>(u.floats[j]) / g;
          const bool off_grid = !(std::fabs(pos - std::nearbyint(pos)) <= 0.25);
          support.Add(off_grid, where);
          if (off_grid) continue;
          cell.law = factor < 1.0 ? 4 : static_cast<int>((j >> 1) & 3);
          cell.category = laws.ZBin(ref::Int(static_cast<long long>(std::nearbyint(pos))) - q);
          want = static_cast<double>(u.floats[j]);
        }
        decode.Add(std::fabs(u.decoded[j] - want) > 1e-6, where);
        sum[j] += u.decoded[j];
      }
      // Replay from the documented key and address; key separation: no other client's key
      // reproduces the message, at this client's entity or at the other's (the other's stream).
      const std::vector<std::int64_t> q = fl::QgaussClipToGrid(grid, u.input);
      replay.Add(!encode(q, DocumentedKey(rr.config.seed, "qgauss-client", u.client), t, u.client, u), [&] { return at; });
      for (std::uint32_t other = 0; other < run.clients; ++other) {
        if (other == u.client) continue;
        for (std::uint32_t entity : {u.client, other}) {
          keys.Add(encode(q, DocumentedKey(rr.config.seed, "qgauss-client", other), t, entity, u), [&] {
            return at + " under client " + std::to_string(other) + "'s key, entity " + std::to_string(entity);
          });
        }
      }
    }
    // Server: W_{t+1} = W_t + (1/|S_t|) Σ x̂ (E13), unchanged without participants.
    CompareBroadcast(t, previous, sum, static_cast<double>(seen.uplinks.size()), seen.broadcast, aggregate);
    previous = seen.broadcast;
    // What the loop reports for the certificate (rounds[].participants, uplink_bits, clipped_clients).
    std::uint64_t bits = 0;
    std::uint32_t clipped = 0;
    for (const fl::ObservedUplink& u : seen.uplinks) {
      // The size on the wire, computed here: ⌈m·b/64⌉ 64-bit words of b = 3-bit indices, or m floats.
      const std::uint64_t want = laws.quantized ? 64 * ((run.m * kIndexBits + 63) / 64) : 32 * static_cast<std::uint64_t>(run.m);
      facts.Add(u.bits != want, [&] { return "round " + std::to_string(t) + " client " + std::to_string(u.client) + ": bits"; });
      bits += want;
      clipped += Norm2(u.input) > kClip / 2 ? 1 : 0;
    }
    const fl::QgaussRoundRecord& rec = rr.result.history.at(t);
    facts.Add(rec.participants != seen.uplinks.size() || rec.uplink_bits != bits || rec.clipped_clients != clipped,
              [&] { return "round " + std::to_string(t); });
  }
  std::uint32_t most = 0;
  for (std::uint32_t i = 0; i < run.clients; ++i) {
    std::uint32_t k = 0;
    for (std::uint32_t t = 0; t < run.rounds; ++t) k += static_cast<std::uint32_t>(present[t][i]);
    most = std::max(most, k);
  }
  const std::string& tag = run.tag;
  out.push_back(facts.Finish(Kind::kCertificate, tag + ": reported participants, uplink bits and clipped clients per round"));
  out.push_back(ExactCheck(Kind::kCertificate, tag + ": reported max_participations = the most rounds any client sent in", 1,
                           rr.result.max_participations != most,
                           std::to_string(rr.result.max_participations) + " reported, " + std::to_string(most) + " observed"));
  out.push_back(support.Finish(Kind::kLaw, tag + (laws.quantized ? ": every index in [0, k)" : ": every float on the noise grid")));
  InputChecks(tag, rr.rounds, rr.handed, rr.initial, [&run](std::uint32_t i, std::uint32_t t) { return Design(run, i, t); }, out);
  if (!run.exact_only) {
    LawChecks(o, tag, out);
    IndependenceChecks(o, tag, {fl::kQgaussChunk}, out);
    OrderLawChecks(tag + ": the first sample of every local pass ~ Unif[n]", rr.orders, false, out);
  }
  out.push_back(decode.Finish(Kind::kServer, tag + (laws.quantized ? ": each decode is B(index)" : ": each decode is the float sent")));
  out.push_back(aggregate.Finish(Kind::kServer, tag + ": broadcast = W_t + mean of the participants' decodes (E13)"));
  out.push_back(who.Finish(Kind::kReplay, tag + ": participants = the documented sampling decisions"));
  out.push_back(replay.Finish(Kind::kReplay, tag + ": messages replay from DeriveKey(seed, \"qgauss-client\", i), round t, entity i"));
  out.push_back(keys.Finish(Kind::kKeys, tag + ": no message replays under another client's key or stream"));
  out.push_back(OrderReplayCheck(tag + ": local orders replay from DeriveKey(seed, \"qgauss-order\", i) at (t, i, private coin)",
                                 rr.orders, [&](std::uint32_t t, std::uint32_t i, std::size_t shard) {
                                   fl::StreamCursor cur;
                                   cur.ctx.key = DocumentedKey(rr.config.seed, "qgauss-order", i);
                                   cur.addr = {t, i, rng::Purpose::kPrivateCoin};
                                   return fl::ShuffledPasses(cur, shard, shard);
                                 }));
  if (run.sampling < 1.0 && !run.exact_only) {
    const double q = run.sampling;
    const std::vector<double> marginal{1 - q, q};
    std::vector<std::uint64_t> counts(2, 0);
    for (const auto& row : present)
      for (int p : row) ++counts[static_cast<std::size_t>(p)];
    out.push_back(GCheck(Kind::kParticipation, tag + ": participation ~ Bernoulli(q)", counts, marginal));
    const std::vector<double> product{(1 - q) * (1 - q), (1 - q) * q, q * (1 - q), q * q};
    std::vector<std::uint64_t> rounds(4, 0), clients(4, 0);
    for (std::uint32_t t = 0; t < run.rounds; ++t)
      for (std::uint32_t i = 0; i < run.clients; ++i) {
        if (t + 1 < run.rounds) ++rounds[static_cast<std::size_t>(2 * present[t][i] + present[t + 1][i])];
        if (i + 1 < run.clients) ++clients[static_cast<std::size_t>(2 * present[t][i] + present[t][i + 1])];
      }
    out.push_back(GCheck(Kind::kParticipation, tag + ": participation in rounds t, t+1 independent", rounds, product));
    out.push_back(GCheck(Kind::kParticipation, tag + ": participation of clients i, i+1 independent", clients, product));
  }
}

}  // namespace qg_detail

inline SuiteResult RunQgaussLoopSuite(std::uint64_t seed = 0x3000000000000003) {
  return RunSuite("loop-qgauss", [seed](std::vector<Check>& checks) {
    using fl::QgaussFlMechanism;
    const qg_detail::Run runs[] = {{QgaussFlMechanism::kQgauss, 6, 4, std::size_t{1} << 14, 1.0, "full"},
                                   {QgaussFlMechanism::kQgauss, 16, 64, std::size_t{1} << 8, 0.375, "poisson", 2},
                                   {QgaussFlMechanism::kGaussian, 4, 3, std::size_t{1} << 13, 1.0, "gaussian"}};
    // The reported max_participations over small Poisson runs (K = 3, T = 16, q = 1/2, other
    // seeds): in some of them each client, the last one included, is the only one with the most.
    for (std::uint64_t k = 1; k <= 8; ++k) {
      const qg_detail::Run small{QgaussFlMechanism::kQgauss, 3, 16, 16, 0.5, "participations-" + std::to_string(k), 1, 977 * k, true};
      GuardedRun(small.tag, checks, [&] { qg_detail::Analyse(small, qg_detail::RunLoop(small, seed), checks); });
    }
    for (const qg_detail::Run& run : runs)
      GuardedRun(run.tag, checks, [&] { qg_detail::Analyse(run, qg_detail::RunLoop(run, seed), checks); });
  });
}

}  // namespace dpfl::testing::loopwiring
