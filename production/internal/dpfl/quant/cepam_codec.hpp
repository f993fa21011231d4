// INTERNAL to the dpfl libraries and their tests; not installed.
//
// The CEPAM / layered-RSUQ codec (public API and contract: dpfl/quant/cepam.hpp), templated on a
// compile-time fault policy that is all-false in production (NoCepamFaults), as binary_rules.hpp
// and rr_rules.hpp are for the other quantizers: the planted mutants of tests/mutants instantiate
// these very loops (docs/mutants.md "Seed 002").
//
// Here: the per-block geometry (step, radius, s), the dither streams, one trial, and the encoder
// and decoder loops; the layer sampler is in cepam_layer.hpp, the bitstream in cepam_bitstream.hpp.
// Everything is a fixed sequence of IEEE-754 double operations (the dpfl target compiles with
// -ffp-contract=off), so the encoder and the decoder — possibly on two machines — compute the
// same layer, step, set M(U) and reconstruction bit for bit.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/quant/cepam.hpp"
#include "dpfl/quant/cepam_bitstream.hpp"  // M(U), its rank, bits, Golomb (§3.10)
#include "dpfl/quant/cepam_layer.hpp"      // the layer Ũ and its logarithm (§3.5/3.6)
#include "dpfl/rng/streams.hpp"

namespace dpfl::quant {

struct NoCepamFaults {
  static constexpr bool kLayerDrawnOnce = false;            // seed-002 E-Q3: the decoder scales by block 0's β
  static constexpr bool kCellTooSmall = false;              // c = 0.9 < 1: the ball L(U) no longer fits the cell
  static constexpr bool kDitherReusedAcrossRounds = false;  // the round dropped from the dither address
  static constexpr bool kTrialIndexOffByOne = false;        // the decoder adds the dither of trial h + 1
  static constexpr bool kAlphaScaledStep = false;           // E-Q1 (public code): step r·α with α = 10^−5
};

namespace cepam {

inline constexpr std::uint64_t kMaxTrials = std::uint64_t{1} << 32;
inline constexpr double kSetMargin = 1.0 + 0x1p-30;  // s's relative margin (see cepam.hpp)

template <class Faults>
rng::StreamAddress DitherAddress(const StreamContext& ctx, std::uint32_t client) {
  return {Faults::kDitherReusedAcrossRounds ? 0u : ctx.round, client, rng::Purpose::kCepamDither};
}

// The geometry of one block given its layer: the lattice step Δ = β·α, the acceptance region's
// radius r (its ℓ2 radius for the set M; SDQ: the cube's circumradius α√n/2) and
// s = (γ + r)/Δ with the margin (§4.8: M(U) = {k : Σ (|k_i| − 1/2)₊² ≤ s²}).
struct Geometry {
  double step = 0, radius = 0, s = 0;
};

template <class Faults>
Geometry BlockGeometry(const CepamConfig& cfg, double layer) {
  Geometry g;
  switch (cfg.kind) {
    case CepamKind::kSdq:
      g.step = cfg.scale;
      g.radius = cfg.scale * std::sqrt(static_cast<double>(cfg.n)) / 2.0;
      break;
    case CepamKind::kRsuq:
      g.step = cfg.scale;
      g.radius = cfg.rho;
      break;
    case CepamKind::kGaussian:
    case CepamKind::kLaplace: {
      g.radius = cfg.kind == CepamKind::kGaussian ? cfg.scale * std::sqrt(layer) : cfg.scale * layer;
      const double c = Faults::kCellTooSmall ? 0.9 : cfg.c;
      g.step = Faults::kAlphaScaledStep ? g.radius * 1e-5 : 2.0 * c * g.radius;
      break;
    }
  }
  if (!(g.step > 0.0) || !std::isfinite(g.step))
    throw std::runtime_error("CEPAM: degenerate layer (radius " + std::to_string(g.radius) + ")");
  g.s = (cfg.clip + g.radius) / g.step * kSetMargin;
  if (!(g.s < kMaxHalfWidth))
    throw std::runtime_error("CEPAM: the candidate set is too large (s = " + std::to_string(g.s) +
                             " >= 2^25: noise radius far below the clip norm)");
  return g;
}

// m_G = ⌈ln(2 − p)/(−ln(1 − p))⌉ (Gallager–Van Voorhis, spec §3.10), ≥ 1; 0 = nothing is sent.
inline std::uint64_t GolombParameter(const CepamConfig& cfg) {
  if (CepamAlwaysAccepts(cfg)) return 0;
  const double p = CepamAcceptanceProbability(cfg);
  const double v = std::ceil(DeterministicLog(2.0 - p) / -DeterministicLog(1.0 - p));
  return v < 1.0 ? 1 : static_cast<std::uint64_t>(v);
}

// The largest trial index the streams can address for N blocks of n (ChaCha20: 2^35 indices).
inline std::uint64_t TrialCap(const StreamContext& ctx, std::uint64_t blocks, int n) {
  if (ctx.generator != rng::Generator::kChaCha20) return kMaxTrials;
  const std::uint64_t per_trial = blocks * static_cast<std::uint64_t>(n);
  const std::uint64_t cap = rng::kChaChaMaxIndex / per_trial;
  return cap < kMaxTrials ? cap : kMaxTrials;
}

inline std::uint64_t Blocks(std::uint64_t m, int n) { return (m + static_cast<std::uint64_t>(n) - 1) / static_cast<std::uint64_t>(n); }

// Dither of block j, trial i ≥ 1, in cell units.
template <class Faults>
void Dither(const StreamContext& ctx, std::uint32_t client, std::uint64_t blocks, int n, std::uint64_t j,
            std::uint64_t trial, double* u) {
  const rng::StreamAddress addr = DitherAddress<Faults>(ctx, client);
  const std::uint64_t base = ((trial - 1) * blocks + j) * static_cast<std::uint64_t>(n);
  for (int l = 0; l < n; ++l) u[l] = DitherUnit(CachedUniform64(ctx.generator, ctx.key, addr, base + l));
}

// One trial: k = ⌊x/Δ − u + 1/2⌋ (the cubic Q_P of §3.1 on x/β − v, in cell units), the
// reconstruction y = Δ(k + u) and whether the error y − x lies in the acceptance region.
inline bool Trial(const CepamConfig& cfg, const Geometry& g, const double* x, const double* u, std::int64_t* k,
                  double* y) {
  double l2 = 0.0, l1 = 0.0;
  for (int l = 0; l < cfg.n; ++l) {
    const double kd = std::floor(x[l] / g.step - u[l] + 0.5);
    if (!(std::fabs(kd) < kMaxHalfWidth)) return false;  // outside every candidate set; caught by the caller
    k[l] = static_cast<std::int64_t>(kd);
    y[l] = g.step * (kd + u[l]);
    // In units of the radius, so that no square overflows for huge scales (an overflow to +inf
    // on both sides would accept every trial).
    const double e = (y[l] - x[l]) / g.radius;
    l2 += e * e;
    l1 += std::fabs(e);
  }
  switch (cfg.kind) {
    case CepamKind::kSdq: return true;
    case CepamKind::kRsuq:
    case CepamKind::kGaussian: return l2 <= 1.0;
    case CepamKind::kLaplace: return l1 <= 1.0;
  }
  return false;
}

// ‖x‖₂² in double; throws InvalidArgument("x", …) naming the first NaN/±Inf coordinate.
inline double FiniteNorm2(std::span<const float> x) {
  double norm2 = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]))
      throw InvalidArgument("x", "update coordinate x[" + std::to_string(i) + "] is " + std::to_string(x[i]) +
                                     " (NaN and +-Inf are rejected)");
    norm2 += static_cast<double>(x[i]) * static_cast<double>(x[i]);
  }
  return norm2;
}

template <class Faults>
CepamMessage Encode(const CepamConfig& cfg, std::span<const float> x, const StreamContext& ctx, std::uint32_t client,
                    CepamStats* stats) {
  ValidateCepamConfig(cfg);
  const double norm2 = FiniteNorm2(x);
  if (norm2 > cfg.clip * cfg.clip * (1.0 + 0x1p-32))  // the norm's own rounding; s has 2^−30
    throw InvalidArgument("x", "update norm " + std::to_string(std::sqrt(norm2)) + " exceeds the clip gamma = " +
                                   std::to_string(cfg.clip) + " (clip first: ClipToNorm, seed-002 Alg. 1 step 4)");
  const int n = cfg.n;
  const std::uint64_t blocks = Blocks(x.size(), n);
  if (blocks > 0 && ctx.generator == rng::Generator::kChaCha20 &&
      (blocks * kLayerSlots > rng::kChaChaMaxIndex || blocks * static_cast<std::uint64_t>(n) > rng::kChaChaMaxIndex))
    throw InvalidArgument("m", "ChaCha20 streams address at most 2^29 CEPAM blocks");
  const std::uint64_t cap = TrialCap(ctx, blocks == 0 ? 1 : blocks, n);
  const std::uint64_t mg = GolombParameter(cfg);
  CepamStats local;
  BitWriter w;
  double xb[kCepamMaxDim], u[kCepamMaxDim], y[kCepamMaxDim];
  std::int64_t k[kCepamMaxDim];
  for (std::uint64_t j = 0; j < blocks; ++j) {
    for (int l = 0; l < n; ++l) {
      const std::uint64_t idx = j * static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(l);
      xb[l] = idx < x.size() ? static_cast<double>(x[idx]) : 0.0;  // zero padding (E-Q6)
    }
    const Geometry g = BlockGeometry<Faults>(cfg, Layer(cfg, ctx, client, j));
    std::uint64_t h = 1;
    for (;; ++h) {
      if (h > cap)
        throw std::runtime_error("CEPAM: block " + std::to_string(j) + " rejected " + std::to_string(cap) +
                                 " trials (the stream's addressable trials); probability (1 - p_acc)^cap");
      Dither<Faults>(ctx, client, blocks, n, j, h, u);
      if (Trial(cfg, g, xb, u, k, y)) break;
    }
    const IndexSet set = MakeIndexSet(n, g.s);
    U128 rank = 0;
    if (!Rank(set, std::span<const std::int64_t>(k, static_cast<std::size_t>(n)), &rank))
      throw InvalidArgument("x", "block " + std::to_string(j) + ": M outside M(U); the update's l2 norm must not exceed "
                                 "the clip gamma (seed-002 §4.8)");
    const std::uint64_t before = w.bits();
    if (mg > 0) PutGolomb(w, h - 1, mg);
    const std::uint64_t after_h = w.bits();
    w.PutNumber(rank, set.bits);
    ++local.blocks;
    local.trials += h;
    local.h_bits += after_h - before;
    local.index_bits += w.bits() - after_h;
    local.box_blocks += set.box ? 1 : 0;
  }
  CepamMessage msg;
  msg.bits = w.bits();
  msg.words = std::move(w.words());
  msg.m = x.size();
  if (stats) *stats = local;
  return msg;
}

template <class Faults>
void Decode(const CepamConfig& cfg, const CepamMessage& msg, const StreamContext& ctx, std::uint32_t client,
            std::span<double> y_out) {
  ValidateCepamConfig(cfg);
  if (y_out.size() != msg.m) throw InvalidArgument("y", "size " + std::to_string(y_out.size()) + " differs from the message's m = " + std::to_string(msg.m));
  if (msg.words.size() != (msg.bits + 63) / 64)
    throw InvalidArgument("message", "word count does not match the bit count");
  const int n = cfg.n;
  const std::uint64_t blocks = Blocks(msg.m, n);
  if (blocks > 0 && ctx.generator == rng::Generator::kChaCha20 &&
      (blocks * kLayerSlots > rng::kChaChaMaxIndex || blocks * static_cast<std::uint64_t>(n) > rng::kChaChaMaxIndex))
    throw InvalidArgument("m", "ChaCha20 streams address at most 2^29 CEPAM blocks");
  const std::uint64_t cap = TrialCap(ctx, blocks == 0 ? 1 : blocks, n);
  const std::uint64_t mg = GolombParameter(cfg);
  BitReader rd(msg);
  double u[kCepamMaxDim];
  std::int64_t k[kCepamMaxDim];
  // E-Q3 mutant: the paper's decoder draws U once; its β scales every block's reconstruction
  // (the index widths, which the paper does not have, still follow each block's own layer).
  const double step0 = Faults::kLayerDrawnOnce && blocks > 0 ? BlockGeometry<Faults>(cfg, Layer(cfg, ctx, client, 0)).step : 0.0;
  for (std::uint64_t j = 0; j < blocks; ++j) {
    const std::uint64_t h = mg > 0 ? GetGolomb(rd, mg, cap - 1) + 1 : 1;
    const Geometry g = BlockGeometry<Faults>(cfg, Layer(cfg, ctx, client, j));
    const double step = Faults::kLayerDrawnOnce ? step0 : g.step;
    const IndexSet set = MakeIndexSet(n, g.s);
    const U128 rank = rd.GetNumber(set.bits);
    if (rank >= set.count) throw InvalidArgument("message", "corrupt CEPAM bitstream: index beyond |M(U)| in block " + std::to_string(j));
    Unrank(set, rank, std::span<std::int64_t>(k, static_cast<std::size_t>(n)));
    Dither<Faults>(ctx, client, blocks, n, j, Faults::kTrialIndexOffByOne ? h + 1 : h, u);
    for (int l = 0; l < n; ++l) {
      const std::uint64_t idx = j * static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(l);
      if (idx < msg.m) y_out[idx] = step * (static_cast<double>(k[l]) + u[l]);  // padding dropped (E-Q6)
    }
  }
  if (rd.position() != msg.bits) throw InvalidArgument("message", "corrupt CEPAM bitstream: " + std::to_string(msg.bits - rd.position()) + " trailing bits");
  const std::uint64_t tail = msg.bits % 64;
  if (tail != 0 && (msg.words.back() >> tail) != 0) throw InvalidArgument("message", "corrupt CEPAM bitstream: nonzero padding bits");
}

}  // namespace cepam
}  // namespace dpfl::quant
