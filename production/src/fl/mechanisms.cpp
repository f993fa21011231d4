// See dpfl/fl/mechanisms.hpp.
#include "dpfl/fl/mechanisms.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "dpfl/error.hpp"
#include "dpfl/fl/stream_util.hpp"
#include "dpfl/quant/cq.hpp"

namespace dpfl::fl {
namespace {

std::string Str(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

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
  if (HasPldp(config.kind) && (!(config.eps_p > 0) || !std::isfinite(config.eps_p)))
    throw InvalidArgument("--eps-p", "must be finite and > 0, got " + Str(config.eps_p));
  if (HasPldp(config.kind) && config.eps_p > 30)
    throw InvalidArgument("--eps-p", "must be <= 30 (alpha = coth(eps/2) must exceed 1 in double), got " + Str(config.eps_p));
  if (UsesPairs(config.kind) && (config.d < 0 || config.d > 62))
    throw InvalidArgument("--d", "shared bits must be in [0, 62], got " + std::to_string(config.d));
  if (!(config.dropout >= 0 && config.dropout < 1))
    throw InvalidArgument("--dropout", "must be in [0, 1), got " + Str(config.dropout));
  if (config.kind == MechanismKind::kGaussian && !(config.delta > 0 && config.delta < 1))
    throw InvalidArgument("--delta", "must be in (0, 1), got " + Str(config.delta));
  if (config.kind == MechanismKind::kAugCorBinFl) {
    if (!(config.gamma > 0 && config.gamma < 1))
      throw InvalidArgument("--gamma", "augcorbin-fl needs gamma in (0, 1), got " + Str(config.gamma));
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
  if (!(eps > 0) || !std::isfinite(eps)) throw InvalidArgument("eps", "must be finite and > 0");
  if (!(delta > 0 && delta < 1)) throw InvalidArgument("delta", "must be in (0, 1)");
  if (!(sensitivity > 0) || !std::isfinite(sensitivity)) throw InvalidArgument("sensitivity", "must be finite and > 0");
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
      msg.values.resize(m);
      const bool gauss = config.kind == MechanismKind::kGaussian;
      for (std::size_t l = 0; l < ranges.size(); ++l) {
        const LayerRange& range = ranges[l];
        const double scale = gauss ? AnalyticGaussianSigma(config.eps_p, config.delta, 2 * range.r)
                                   : LaplaceScale(config.eps_p, 2 * range.r);
        StreamCursor cur;
        cur.ctx = Ctx(config, DeriveSubKey(client_key, gauss ? "gaussian" : "laplace", l), round);
        cur.addr = {round, slot.client, rng::Purpose::kPrivateCoin};
        for (std::size_t j = 0; j < range.size; ++j) {
          const double x = std::clamp(static_cast<double>(w[range.offset + j]), range.c - range.r, range.c + range.r);
          const double noise = gauss ? scale * cur.NextGaussian() : LaplaceFromUniform(cur.Next(), scale);
          msg.values[range.offset + j] = static_cast<float>(x + noise);
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
  std::size_t word = 0;
  for (std::size_t l = 0; l < ranges.size(); ++l) {
    const LayerRange& range = ranges[l];
    const quant::BinaryLevels levels = quant::MakeBinaryLevels(config.eps_p, range.c, range.r);
    const std::span<const float> wl = w.subspan(range.offset, range.size);
    const std::span<std::uint64_t> out(msg.bits.data() + word, quant::PackedWords(range.size));
    const quant::StreamContext priv = Ctx(config, DeriveSubKey(client_key, "layer", l), round);
    if (slot.role == Role::kSolo) {
      quant::EncodeLdpq(levels, wl, priv, slot.client, out);
    } else {
      // Shared bits Z from the pair-layer key (known to both clients of the pair, never to the
      // server); private tie coins from this client's own layer key, so that not even the
      // partner can recompute them.
      const quant::StreamContext shared = Ctx(config, DeriveSubKey(slot.pair_key, "layer", l), round);
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
      sample.noise_scale = config.kind == MechanismKind::kGaussian
                               ? AnalyticGaussianSigma(config.eps_p, config.delta, 2 * range.r)
                               : LaplaceScale(config.eps_p, 2 * range.r);
    }
    out.push_back(sample);
  }
  return out;
}

}  // namespace dpfl::fl
