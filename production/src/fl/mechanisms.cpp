// See dpfl/fl/mechanisms.hpp.
#include "dpfl/fl/mechanisms.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "dpfl/error.hpp"
#include "dpfl/format.hpp"
#include "dpfl/validate.hpp"
#include "dpfl/fl/stream_util.hpp"
#include "dpfl/quant/cq.hpp"
#ifdef DPFL_FL_WIRING_MUTANTS  // test-only copy of this file (tests/CMakeLists.txt); never in dpfl_fl
#include "testing/fl_wiring_mutants.hpp"
#endif

namespace dpfl::fl {
namespace {

std::string Str(double x) { return ShortestDouble(x); }

quant::StreamContext Ctx(const MechanismConfig& config, const rng::StreamKey& key, std::uint32_t round) {
  quant::StreamContext ctx;
  ctx.generator = config.generator;
  ctx.key = key;
  ctx.round = round;
  return ctx;
}

double NormalCdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

double AnalyticDelta(double eps, double sigma, double sens) {
  const double a = sens / (2 * sigma), b = eps * sigma / sens;
  return NormalCdf(a - b) - std::exp(eps) * NormalCdf(-a - b);
}

void CheckFinite(std::span<const float> w) {
  for (std::size_t j = 0; j < w.size(); ++j)
    if (!std::isfinite(w[j])) throw InvalidArgument("w", "weight w[" + std::to_string(j) + "] is not finite");
}

}  // namespace

MechanismKind ParseMechanism(const std::string& name) {
  static const std::pair<const char*, MechanismKind> kNames[] = {
      {"vanilla", MechanismKind::kVanilla},  {"gaussian", MechanismKind::kGaussian},
      {"laplace", MechanismKind::kLaplace},  {"ldp-fl", MechanismKind::kLdpFl},
      {"corbin-fl", MechanismKind::kCorBinFl}, {"augcorbin-fl", MechanismKind::kAugCorBinFl},
      {"cq", MechanismKind::kCq},            {"coq-fl", MechanismKind::kCoqFl}};
  for (const auto& [n, k] : kNames)
    if (name == n) return k;
  throw InvalidArgument("--mechanism", "unknown mechanism '" + name +
                                           "' (vanilla, gaussian, laplace, ldp-fl, corbin-fl, augcorbin-fl, cq, coq-fl)");
}

std::string MechanismName(MechanismKind kind) {
  switch (kind) {
    case MechanismKind::kVanilla: return "vanilla";
    case MechanismKind::kGaussian: return "gaussian";
    case MechanismKind::kLaplace: return "laplace";
    case MechanismKind::kLdpFl: return "ldp-fl";
    case MechanismKind::kCorBinFl: return "corbin-fl";
    case MechanismKind::kAugCorBinFl: return "augcorbin-fl";
    case MechanismKind::kCq: return "cq";
    case MechanismKind::kCoqFl: return "coq-fl";
  }
  return "?";
}

bool IsBinary(MechanismKind k) {
  return k == MechanismKind::kLdpFl || k == MechanismKind::kCorBinFl || k == MechanismKind::kAugCorBinFl ||
         k == MechanismKind::kCq || k == MechanismKind::kCoqFl;
}
bool HasPldp(MechanismKind k) { return k != MechanismKind::kVanilla && k != MechanismKind::kCq; }
bool UsesPairs(MechanismKind k) {
  return k == MechanismKind::kCorBinFl || k == MechanismKind::kAugCorBinFl || k == MechanismKind::kCoqFl;
}

double EffectiveGamma(const MechanismConfig& config) {
  if (config.kind == MechanismKind::kAugCorBinFl) return config.gamma;
  if (UsesPairs(config.kind)) return 0.0;
  return 1.0;
}

void ValidateMechanism(const MechanismConfig& config, std::uint32_t n) {
  if (n == 0) throw InvalidArgument("--clients", "must be >= 1");
  if (HasPldp(config.kind))
    Require("--eps-p", config.eps_p, Domain::Budget(30), "alpha = coth(eps/2) must exceed 1 in double");
  if (UsesPairs(config.kind) && (config.d < 0 || config.d > 62))
    throw InvalidArgument("--d", "shared bits must be in [0, 62], got " + std::to_string(config.d));
  Require("--dropout", config.dropout, Domain::ClosedOpen(0, 1));
  if (config.kind == MechanismKind::kGaussian) Require("--delta", config.delta, Domain::OpenUnit());
  // The exact discrete noise has a parameter range (e.g. σ² < 2^64): fail at start-up, not at
  // the first encode.
  if (config.kind == MechanismKind::kGaussian || config.kind == MechanismKind::kLaplace) DiscreteNoiseLawFor(config);
  if (config.kind == MechanismKind::kAugCorBinFl) {
    Require("--gamma", config.gamma, Domain::OpenUnit(), "augcorbin-fl");
    const auto solo = static_cast<std::uint32_t>(std::llround(config.gamma * n));
    if ((n - std::min(solo, n)) % 2 != 0)
      throw InvalidArgument("--gamma", "(1 - gamma) n = " + std::to_string(n - std::min(solo, n)) +
                                           " paired clients is odd (seed-000 E43: pairs need an even count)");
  } else if (UsesPairs(config.kind) && n % 2 != 0) {
    throw InvalidArgument("--clients", MechanismName(config.kind) + " pairs clients, so the number of clients must be even, got " +
                                           std::to_string(n));
  }
}

std::vector<LayerRange> RangesFromWeights(std::span<const float> w, const std::vector<std::size_t>& layer_sizes,
                                          double scale, double min_radius) {
  std::vector<LayerRange> ranges;
  std::size_t offset = 0;
  for (std::size_t size : layer_sizes) {
    if (size == 0 || offset + size > w.size()) throw InvalidArgument("layer_sizes", "do not partition the weights");
    const auto [lo, hi] = std::minmax_element(w.begin() + static_cast<std::ptrdiff_t>(offset),
                                              w.begin() + static_cast<std::ptrdiff_t>(offset + size));
    LayerRange range;
    range.offset = offset;
    range.size = size;
    range.c = (static_cast<double>(*hi) + static_cast<double>(*lo)) / 2;
    range.r = std::max(scale * (static_cast<double>(*hi) - static_cast<double>(*lo)) / 2, min_radius);
    ranges.push_back(range);
    offset += size;
  }
  if (offset != w.size()) throw InvalidArgument("layer_sizes", "do not partition the weights");
  return ranges;
}

double AnalyticGaussianSigma(double eps, double delta, double sensitivity) {
  // The cap of --eps-p: beyond it e^eps in the analytic delta loses the double range long before
  // the bisection could notice (e^eps overflows at eps > 709 and the comparisons see NaN).
  Require("eps", eps, Domain::Budget(30), "same cap as --eps-p");
  Require("delta", delta, Domain::OpenUnit());
  Require("sensitivity", sensitivity, Domain::Positive());
  double lo = sensitivity * 1e-6, hi = sensitivity;
  while (AnalyticDelta(eps, hi, sensitivity) > delta) hi *= 2;
  while (AnalyticDelta(eps, lo, sensitivity) <= delta && lo > 1e-300) lo /= 2;
  while ((hi - lo) > 1e-12 * hi) {
    const double mid = lo + (hi - lo) / 2;
    (AnalyticDelta(eps, mid, sensitivity) > delta ? lo : hi) = mid;
  }
  return hi * (1 + 1e-12);  // rounded up: δ(σ) is decreasing in σ
}

double LaplaceScale(double eps, double sensitivity) { return sensitivity / eps; }

DiscreteNoiseLaw DiscreteNoiseLawFor(const MechanismConfig& config) {
  if (config.kind != MechanismKind::kGaussian && config.kind != MechanismKind::kLaplace)
    throw InvalidArgument("--mechanism", MechanismName(config.kind) + " adds no gaussian/laplace noise");
  Require("--eps-p", config.eps_p, Domain::Positive());
  DiscreteNoiseLaw law;
  law.kind = config.kind;
  law.grid_steps = kNoiseGridSteps;
  const auto n = static_cast<Uint128>(kNoiseGridSteps);
  if (config.kind == MechanismKind::kLaplace) {
    // t = N/ε_p exactly: ε_p = a/b (its exact dyadic value), t = N·b/a. ε_p ≥ 2^−28 keeps
    // t ≤ 2^48 and N·b within 2^96 (b ≤ 2^(28+52)).
    if (config.eps_p < 0x1.0p-28)
      throw InvalidArgument("--eps-p", "the exact Laplace needs eps_p >= 2^-28 (t = N/eps_p <= 2^48), got " + Str(config.eps_p));
    const Ratio128 eps = ExactRatio(config.eps_p, "--eps-p");
    law.laplace_scale = MakeRatio(n * eps.den, eps.num, "--eps-p");
    return law;
  }
  Require("--delta", config.delta, Domain::OpenUnit());
  // σ_N: the continuous analytic σ for sensitivity N; the margin 1 + 2^−20 and the ceiling make
  // σ² ≥ σ_N² whatever the double rounding of the bisection (relative 10^−12) and of the square.
  const double sigma = AnalyticGaussianSigma(config.eps_p, config.delta, static_cast<double>(kNoiseGridSteps)) *
                       (1 + kGaussianSigmaMargin);
  const double sigma2 = std::ceil(sigma * sigma);
  if (!(sigma2 < 0x1.0p64))
    throw InvalidArgument("--eps-p", "too small for the exact Gaussian: sigma^2 = " + Str(sigma2) +
                                         " grid units exceeds 2^64 (eps_p = " + Str(config.eps_p) + ")");
  law.gaussian_sigma2 = Ratio128{static_cast<Uint128>(static_cast<std::uint64_t>(sigma2)), 1};
  return law;
}

NoiseGrid NoiseGridFor(const LayerRange& range) {
  NoiseGrid grid;
  grid.steps = kNoiseGridSteps;
  grid.lo = range.c - range.r;
  grid.step = 2 * range.r / static_cast<double>(kNoiseGridSteps);
  if (!std::isfinite(range.c) || !std::isfinite(range.r) || !(range.r > 0) || !std::isfinite(grid.lo) ||
      !std::isnormal(grid.step))
    throw InvalidArgument("r", "the noise grid needs finite c, r > 0 and a normal step 2r/N, got c = " + Str(range.c) +
                                   ", r = " + Str(range.r));
  return grid;
}

std::int64_t GridIndex(const NoiseGrid& grid, double x) {
  // Any deterministic map into [0, N] keeps the sensitivity at N; nearest is the least biased.
  const double u = (x - grid.lo) / grid.step;
  if (!(u > 0)) return 0;  // also NaN
  if (!(u < static_cast<double>(grid.steps))) return grid.steps;
  return std::min<std::int64_t>(std::llround(u), grid.steps);
}

float GridValue(const NoiseGrid& grid, std::int64_t n) {
  return static_cast<float>(grid.lo + static_cast<double>(n) * grid.step);
}

DiscreteNoise DiscreteNoiseFor(const MechanismConfig& config, const LayerRange& range) {
  return {DiscreteNoiseLawFor(config), NoiseGridFor(range)};
}

double MonitorNoiseScale(const DiscreteNoise& noise) {
  if (noise.law.kind == MechanismKind::kGaussian) return DiscreteGaussian(noise.law.gaussian_sigma2).Sigma() * noise.grid.step;
  return std::sqrt(DiscreteLaplace(noise.law.laplace_scale).Variance() / 2) * noise.grid.step;
}

std::size_t MessageWords(const std::vector<LayerRange>& ranges) {
  std::size_t words = 0;
  for (const auto& range : ranges) words += quant::PackedWords(range.size);
  return words;
}

Message EncodeClient(const MechanismConfig& config, std::span<const float> w, const std::vector<LayerRange>& ranges,
                     const ClientSlot& slot, const rng::StreamKey& client_key, std::uint32_t round) {
  std::size_t m = 0;
  for (const auto& range : ranges) m += range.size;
  if (w.size() != m) throw InvalidArgument("w", "has " + std::to_string(w.size()) + " weights, layers cover " + std::to_string(m));
  CheckFinite(w);
  Message msg;
  msg.client = slot.client;
  switch (config.kind) {
    case MechanismKind::kVanilla:
      msg.values.assign(w.begin(), w.end());
      return msg;
    case MechanismKind::kGaussian:
    case MechanismKind::kLaplace: {
      // Exact integer noise on a grid of N + 1 points per layer (mechanisms.hpp, DiscreteNoiseLaw).
      msg.values.resize(m);
      const bool gauss = config.kind == MechanismKind::kGaussian;
      const DiscreteNoiseLaw law = DiscreteNoiseLawFor(config);
      const DiscreteGaussian gaussian(gauss ? law.gaussian_sigma2 : Ratio128{1, 1});
      const DiscreteLaplace laplace(gauss ? Ratio128{1, 1} : law.laplace_scale);
      for (std::size_t l = 0; l < ranges.size(); ++l) {
        const LayerRange& range = ranges[l];
        const NoiseGrid grid = NoiseGridFor(range);
        NoiseStream stream(Ctx(config, DeriveSubKey(client_key, gauss ? "discrete-gaussian" : "discrete-laplace", l), round),
                           {round, slot.client, rng::Purpose::kPrivateCoin});
        for (std::size_t j = 0; j < range.size; ++j) {
          const double x = std::clamp(static_cast<double>(w[range.offset + j]), range.c - range.r, range.c + range.r);
          const std::int64_t z = gauss ? gaussian.Sample(stream) : laplace.Sample(stream);
          std::int64_t sent = 0;
          if (__builtin_add_overflow(GridIndex(grid, x), z, &sent))  // |z| ≥ 2^63 − N: see discrete_noise.hpp
            throw std::overflow_error("EncodeClient: grid index plus noise outside int64");
          msg.values[range.offset + j] = GridValue(grid, sent);
        }
      }
      return msg;
    }
    case MechanismKind::kCq:
      throw InvalidArgument("mechanism", "cq encodes all clients together (EncodeCqClients)");
    default:
      break;
  }
  msg.bits.assign(MessageWords(ranges), 0);
#ifdef DPFL_FL_WIRING_MUTANTS  // wiring mutant (docs/mutants.md, FL wiring mutants)
  if (testing::FlWiringMutantIs(testing::FlWiringMutant::kRoundNotInAddress)) round = 0;
#endif
  std::size_t word = 0;
  for (std::size_t l = 0; l < ranges.size(); ++l) {
    const LayerRange& range = ranges[l];
    const quant::BinaryLevels levels = quant::MakeBinaryLevels(config.eps_p, range.c, range.r);
    const std::span<const float> wl = w.subspan(range.offset, range.size);
    const std::span<std::uint64_t> out(msg.bits.data() + word, quant::PackedWords(range.size));
    quant::StreamContext priv = Ctx(config, DeriveSubKey(client_key, "layer", l), round);
#ifdef DPFL_FL_WIRING_MUTANTS  // wiring mutants (docs/mutants.md, FL wiring mutants)
    if (testing::FlWiringMutantIs(testing::FlWiringMutant::kCommonPrivateKey)) priv.key = DeriveSubKey(rng::StreamKey{}, "layer", l);
    if (testing::FlWiringMutantIs(testing::FlWiringMutant::kLayerlessPrivateKey)) priv.key = DeriveSubKey(client_key, "layer", 0);
    if (testing::FlWiringMutantIs(testing::FlWiringMutant::kPrivateCoinsFromPairKey) && slot.role != Role::kSolo)
      priv.key = DeriveSubKey(slot.pair_key, "layer", l);
#endif
    if (slot.role == Role::kSolo) {
      quant::EncodeLdpq(levels, wl, priv, slot.client, out);
    } else {
      // Shared bits Z from the pair-layer key (known to both clients of the pair, never to the
      // server); private tie coins from this client's own layer key, so that not even the
      // partner can recompute them.
      quant::StreamContext shared = Ctx(config, DeriveSubKey(slot.pair_key, "layer", l), round);
#ifdef DPFL_FL_WIRING_MUTANTS  // wiring mutant (docs/mutants.md, FL wiring mutants)
      if (testing::FlWiringMutantIs(testing::FlWiringMutant::kLayerlessPairKey)) shared.key = slot.pair_key;
#endif
      const quant::PairRole role = slot.role == Role::kQ1 ? quant::PairRole::kQ1 : quant::PairRole::kQ2;
      if (config.kind == MechanismKind::kCoqFl)
        quant::EncodeCoq(levels, wl, config.d, role, 0.5, shared, priv, slot.pair, slot.client, out);
      else
        quant::EncodeCorBinQ(levels, wl, config.d, role, shared, priv, slot.pair, slot.client, out);
    }
    word += out.size();
  }
  return msg;
}

std::vector<Message> EncodeCqClients(const MechanismConfig& config, const std::vector<std::vector<float>>& rows,
                                     const std::vector<std::uint32_t>& clients, const std::vector<LayerRange>& ranges,
                                     const rng::StreamKey& cq_key, std::uint32_t round) {
  if (rows.size() != clients.size() || rows.empty()) throw InvalidArgument("rows", "one row per client, at least one");
  const auto n = static_cast<std::uint32_t>(rows.size());
  std::vector<Message> msgs(n);
  for (std::uint32_t k = 0; k < n; ++k) {
    CheckFinite(rows[k]);
    msgs[k].client = clients[k];
    msgs[k].bits.assign(MessageWords(ranges), 0);
  }
  std::size_t word = 0;
  for (std::size_t l = 0; l < ranges.size(); ++l) {
    const LayerRange& range = ranges[l];
    const std::size_t words = quant::PackedWords(range.size);
    std::vector<float> block(n * range.size);
    for (std::uint32_t k = 0; k < n; ++k)
      std::copy_n(rows[k].begin() + static_cast<std::ptrdiff_t>(range.offset), range.size,
                  block.begin() + static_cast<std::ptrdiff_t>(k * range.size));
    std::vector<std::uint64_t> bits(n * words);
    quant::EncodeCq(quant::MakeCqRange(range.c, range.r), n, block, range.size,
                    Ctx(config, DeriveSubKey(cq_key, "layer", l), round), bits);
    for (std::uint32_t k = 0; k < n; ++k)
      std::copy_n(bits.begin() + static_cast<std::ptrdiff_t>(k * words), words, msgs[k].bits.begin() + static_cast<std::ptrdiff_t>(word));
    word += words;
  }
  return msgs;
}

std::vector<float> Aggregate(const MechanismConfig& config, const std::vector<Message>& messages,
                             const std::vector<LayerRange>& ranges, std::size_t m) {
  if (messages.empty()) throw InvalidArgument("messages", "no client message this round (all clients dropped out)");
  std::vector<float> mean(m, 0.0f);
  const auto n = static_cast<std::uint32_t>(messages.size());
  if (!IsBinary(config.kind)) {
    std::vector<double> sum(m, 0.0);
    for (const Message& msg : messages) {
      if (msg.values.size() != m) throw InvalidArgument("message", "wrong size from client " + std::to_string(msg.client));
      for (std::size_t j = 0; j < m; ++j) sum[j] += msg.values[j];
    }
    for (std::size_t j = 0; j < m; ++j) mean[j] = static_cast<float>(sum[j] / n);
    return mean;
  }
  const std::size_t total_words = MessageWords(ranges);
  std::size_t word = 0;
  for (const LayerRange& range : ranges) {
    const std::size_t words = quant::PackedWords(range.size);
    std::vector<std::uint32_t> counts(range.size, 0);
    std::vector<std::span<const std::uint64_t>> layer_bits;
    layer_bits.reserve(messages.size());
    for (const Message& msg : messages) {
      if (msg.bits.size() != total_words) throw InvalidArgument("message", "wrong size from client " + std::to_string(msg.client));
      layer_bits.emplace_back(msg.bits.data() + word, words);
    }
    quant::AccumulateMessages(layer_bits, counts);
    const std::span<float> out(mean.data() + range.offset, range.size);
    if (config.kind == MechanismKind::kCq)
      quant::DecodeCqMean(quant::MakeCqRange(range.c, range.r), counts, n, out);
    else
      quant::DecodeMean(quant::MakeBinaryLevels(config.eps_p, range.c, range.r), counts, n, out);
    word += words;
  }
  return mean;
}

std::vector<MonitorSample> SampleForMonitor(const MechanismConfig& config, std::span<const float> w,
                                            const std::vector<LayerRange>& ranges, const Message& message,
                                            const rng::StreamKey& monitor_key, std::uint32_t round, std::size_t count) {
  std::vector<MonitorSample> out;
  if (w.empty() || config.kind == MechanismKind::kVanilla || config.kind == MechanismKind::kCq) return out;
  const bool real_valued = !IsBinary(config.kind);
  const DiscreteNoiseLaw law = real_valued ? DiscreteNoiseLawFor(config) : DiscreteNoiseLaw{};
  StreamCursor cur;
  cur.ctx = Ctx(config, monitor_key, round);
  cur.addr = {round, message.client, rng::Purpose::kMonitor};
  for (std::size_t s = 0; s < count; ++s) {
    const std::size_t j = cur.Below(w.size());
    std::size_t l = 0, word = 0;
    while (j >= ranges[l].offset + ranges[l].size) word += quant::PackedWords(ranges[l++].size);
    const LayerRange& range = ranges[l];
    MonitorSample sample{};
    sample.c = range.c;
    sample.r = range.r;
    sample.w_clipped = std::clamp(static_cast<double>(w[j]), range.c - range.r, range.c + range.r);
    if (IsBinary(config.kind)) {
      const std::size_t k = j - range.offset;
      sample.plus = (message.bits[word + k / 64] >> (k % 64)) & 1u;
    } else {
      sample.noise = static_cast<double>(message.values[j]) - sample.w_clipped;
      sample.noise_scale = MonitorNoiseScale({law, NoiseGridFor(range)});
    }
    out.push_back(sample);
  }
  return out;
}

}  // namespace dpfl::fl
