// INTERNAL to the dpfl libraries and their tests; not installed.
//
// The quantized Gaussian mechanism (seed 003 Alg. 1 lines 7–9; dpfl/fl/quantized_gaussian.hpp)
// as templates on a compile-time fault policy that is all-false in production (NoQgaussFaults),
// as rr_rules.hpp is for seed 004: the planted mutants of tests/mutants instantiate these very
// loops, so the harness is proven to catch faults in this code (docs/mutants.md "Seed 003").
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/fl/quantized_gaussian.hpp"
#include "dpfl/hd.hpp"

namespace dpfl::fl {

struct NoQgaussFaults {
  static constexpr bool kNoiseAfterQuantization = false;  // Alg. 1 l. 8–9 swapped: round, then add noise (and round again)
  static constexpr bool kClipToFullRange = false;         // l. 7: ℓ2 clip to C instead of C/2 (sensitivity 2C)
  static constexpr bool kDeterministicRounding = false;   // Def. 1 eq. 3 replaced by nearest rounding
  static constexpr bool kSigmaOffByOnePercent = false;    // the noise's σ 1 % too small
  static constexpr bool kLevelsOffByOne = false;          // δ_q = 2C/k instead of 2C/(k − 1)
  static constexpr bool kStreamReusedAcrossRounds = false;  // the noise and coins of round 0 in every round
};

namespace qgauss_detail {
using Int128 = __int128;
Ratio128 Sigma2Ceiling(double sigma, double fault_scale, std::int64_t span, double clip);  // ⌈(σ·L/(2C))²⌉, or 0 if ≥ 2^62
int IndexBits(std::uint32_t levels);
void Pack(std::span<const std::uint32_t> indices, int bits, std::span<std::uint64_t> words);
}  // namespace qgauss_detail

template <class Faults = NoQgaussFaults>
QgaussGrid MakeQgaussGridT(const QgaussConfig& c) {
  if (!(std::isfinite(c.sigma) && c.sigma > 0))
    throw InvalidArgument("sigma", "the noise standard deviation must be finite and > 0, got " + std::to_string(c.sigma));
  // Levels are sent as floats and g = 2C/L must be a normal double: C ∈ [2^−64, 2^64].
  if (!(c.clip >= 0x1p-64 && c.clip <= 0x1p64))
    throw InvalidArgument("clip", "C_q must lie in [2^-64, 2^64] (levels are decoded to float), got " + std::to_string(c.clip));
  if (c.levels < 2 || c.levels > kQgaussMaxLevels)
    throw InvalidArgument("levels", "the number of levels k must be in [2, 65536], got " + std::to_string(c.levels));
  const double fault_scale = Faults::kSigmaOffByOnePercent ? 0.99 : 1.0;
  const std::int64_t steps = Faults::kLevelsOffByOne ? std::int64_t{c.levels} : std::int64_t{c.levels} - 1;
  for (int m = kQgaussStepBits; m >= kQgaussMinStepBits; --m) {
    QgaussGrid g;
    g.levels = c.levels;
    g.step_bits = m;
    g.span = steps << m;
    g.radius = g.span / 4;
    g.clip = c.clip;
    g.unit = 2.0 * c.clip / static_cast<double>(g.span);
    g.sigma2 = qgauss_detail::Sigma2Ceiling(c.sigma, fault_scale, g.span, c.clip);
    if (g.sigma2.num == 0) continue;  // s² ≥ 2^62: fewer grid points per step
    g.implemented_sigma = g.unit * std::sqrt(static_cast<double>(g.sigma2.num));
    g.index_bits = qgauss_detail::IndexBits(c.levels);
    return g;
  }
  throw InvalidArgument("sigma", "sigma = " + std::to_string(c.sigma) +
                                     " is too large for the quantizer step 2C/(k-1): (sigma/g)^2 >= 2^62 even with 4 grid "
                                     "points per step (the output would be noise)");
}

template <class Faults = NoQgaussFaults>
std::vector<std::int64_t> QgaussClipToGridT(const QgaussGrid& g, std::span<const float> update) {
  if (update.size() > kQgaussMaxCoordinates)
    throw InvalidArgument("update", "more than 2^27 coordinates (" + std::to_string(update.size()) + ")");
  double norm2 = 0;
  for (std::size_t j = 0; j < update.size(); ++j) {
    if (!std::isfinite(update[j]))
      throw InvalidArgument("update", "coordinate " + std::to_string(j) + " is not finite (NaN or Inf)");
    norm2 += static_cast<double>(update[j]) * static_cast<double>(update[j]);
  }
  const std::int64_t radius = Faults::kClipToFullRange ? 2 * g.radius : g.radius;  // grid units
  const double target = static_cast<double>(radius) * g.unit;                     // C/2 (C for the fault)
  const double norm = std::sqrt(norm2);
  double scale = norm > target ? target / norm : 1.0;
  std::vector<std::int64_t> q(update.size());
  const qgauss_detail::Int128 limit = static_cast<qgauss_detail::Int128>(radius) * radius;
  for (int attempt = 0; attempt < 64; ++attempt) {
    qgauss_detail::Int128 sum = 0;
    for (std::size_t j = 0; j < update.size(); ++j) {
      const double t = static_cast<double>(update[j]) * scale / g.unit;
      const double clamped = std::clamp(t, -static_cast<double>(radius), static_cast<double>(radius));
      q[j] = std::llround(clamped);
      sum += static_cast<qgauss_detail::Int128>(q[j]) * q[j];
    }
    if (sum <= limit) return q;
    // The float rounding pushed ‖q‖ over the radius (by at most √d/2 units): shrink and retry.
    scale *= (1.0 - 0x1p-20) * std::sqrt(static_cast<double>(limit) / static_cast<double>(sum));
  }
  std::fill(q.begin(), q.end(), 0);  // unreachable in practice; the zero vector is inside the ball
  return q;
}

// The level index of a saturated position n ∈ ℤ above B(0) with the coin word `coin`.
template <class Faults = NoQgaussFaults>
DPFL_HD std::uint32_t QgaussIndexRule(std::int64_t n, std::uint64_t coin, std::int64_t span, int step_bits,
                                      std::uint32_t levels) {
  n = n < 0 ? 0 : n > span ? span : n;
  const std::int64_t kmax = static_cast<std::int64_t>(levels) - 2;
  std::int64_t r = n >> step_bits;
  if (r > kmax) r = kmax;
  const std::int64_t frac = n - (r << step_bits);  // in [0, M] (up to 2M with kLevelsOffByOne)
  bool up;
  if (Faults::kDeterministicRounding) {
    up = 2 * frac >= (std::int64_t{1} << step_bits);  // nearest, ties up
  } else {
    const std::uint64_t u = coin >> (64 - step_bits);  // uniform in [0, M)
    up = static_cast<std::int64_t>(u) < frac;
  }
  return static_cast<std::uint32_t>(r + (up ? 1 : 0));
}

// One chunk [first, last) of the coordinates: noise from the chunk's window of the noise stream
// and (with coins) the rounding stream's word j; sink(j, z, coin) for each coordinate in order.
template <class Faults, class Sink>
void QgaussChunk(const QgaussGrid& g, std::size_t size, const quant::StreamContext& ctx, std::uint32_t client,
                 std::size_t chunk, bool coins_needed, Sink&& sink) {
  const std::uint32_t round = Faults::kStreamReusedAcrossRounds ? 0u : ctx.round;
  const std::size_t first = chunk * kQgaussChunk, last = std::min(size, first + kQgaussChunk);
  const std::uint64_t window = static_cast<std::uint64_t>(chunk) * kQgaussChunkWords;
  NoiseStream noise(ctx, {round, client, rng::Purpose::kQgaussNoise}, window);
  NoiseStream coins(ctx, {round, client, rng::Purpose::kQgaussRounding}, first);
  const DiscreteGaussian law(g.sigma2);
  for (std::size_t j = first; j < last; ++j) {
    const std::int64_t z = law.Sample(noise);
    sink(j, z, coins_needed ? coins.Next() : 0);
  }
  if (noise.index() > window + kQgaussChunkWords)
    throw std::overflow_error("quantized Gaussian: a noise chunk needed more than 2^20 stream words");
}

// Runs `chunk_fn(h)` for every chunk, on `threads` threads (chunks are independent).
template <class ChunkFn>
void QgaussForChunks(std::size_t size, int threads, ChunkFn&& chunk_fn) {
  const std::size_t chunks = (size + kQgaussChunk - 1) / kQgaussChunk;
  const std::size_t workers = std::clamp<std::size_t>(static_cast<std::size_t>(std::max(threads, 1)), 1, std::max<std::size_t>(chunks, 1));
  if (workers <= 1) {
    for (std::size_t h = 0; h < chunks; ++h) chunk_fn(h);
    return;
  }
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(workers);
  for (std::size_t w = 0; w < workers; ++w) {
    pool.emplace_back([&, w] {
      try {
        for (std::size_t h = w; h < chunks; h += workers) chunk_fn(h);
      } catch (...) {
        errors[w] = std::current_exception();
      }
    });
  }
  for (auto& t : pool) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

template <class Faults = NoQgaussFaults>
void QgaussCheckInputs(const QgaussGrid& g, std::span<const std::int64_t> q) {
  if (q.size() > kQgaussMaxCoordinates)
    throw InvalidArgument("update", "more than 2^27 coordinates (" + std::to_string(q.size()) + ")");
  const std::int64_t bound = Faults::kClipToFullRange ? 2 * g.radius : g.radius;  // |q_j| ≤ ‖q‖ ≤ L/4
  for (std::size_t j = 0; j < q.size(); ++j)
    if (q[j] > bound || q[j] < -bound)
      throw InvalidArgument("q", "grid input " + std::to_string(q[j]) + " outside [-L/4, L/4]");
}

// The Gaussian baseline's message before quantization: q_j + Z_j (grid units, not saturated),
// with the same noise as QgaussEncodeT draws for the same (ctx, client).
template <class Faults = NoQgaussFaults>
std::vector<std::int64_t> QgaussNoisyT(const QgaussGrid& g, std::span<const std::int64_t> q, const quant::StreamContext& ctx,
                                       std::uint32_t client, int threads) {
  QgaussCheckInputs<Faults>(g, q);
  std::vector<std::int64_t> out(q.size());
  QgaussForChunks(q.size(), threads, [&](std::size_t h) {
    QgaussChunk<Faults>(g, q.size(), ctx, client, h, false,
                        [&](std::size_t j, std::int64_t z, std::uint64_t) { out[j] = q[j] + z; });
  });
  return out;
}

template <class Faults = NoQgaussFaults>
QgaussMessage QgaussEncodeT(const QgaussGrid& g, std::span<const std::int64_t> q, const quant::StreamContext& ctx,
                            std::uint32_t client, int threads) {
  QgaussCheckInputs<Faults>(g, q);
  std::vector<std::uint32_t> indices(q.size());
  const std::int64_t half = g.span / 2;
  QgaussForChunks(q.size(), threads, [&](std::size_t h) {
    QgaussChunk<Faults>(g, q.size(), ctx, client, h, true, [&](std::size_t j, std::int64_t z, std::uint64_t coin) {
      if (Faults::kNoiseAfterQuantization) {
        const std::uint32_t clean = QgaussIndexRule<Faults>(half + q[j], coin, g.span, g.step_bits, g.levels);
        const std::int64_t noisy = (static_cast<std::int64_t>(clean) << g.step_bits) + z;
        indices[j] = QgaussIndexRule<Faults>(noisy, coin, g.span, g.step_bits, g.levels);
      } else {
        indices[j] = QgaussIndexRule<Faults>(half + q[j] + z, coin, g.span, g.step_bits, g.levels);
      }
    });
  });
  QgaussMessage m;
  m.size = q.size();
  m.words.assign(QgaussMessageWords(g, q.size()), 0);
  qgauss_detail::Pack(indices, g.index_bits, m.words);
  return m;
}

}  // namespace dpfl::fl
