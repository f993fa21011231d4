// INTERNAL to the dpfl libraries and their tests; not installed.
//
// The CEPAM layer sampler (seed 002 §3.5/3.6, dpfl/quant/cepam.hpp "Randomness"): the layer Ũ_j
// of block j (χ²_{n+2} for the Gaussian target, Gamma(n + 1, 1) for the Laplace target) from the
// client's counter-addressed uniforms, as a fixed sequence of IEEE-754 double operations with a
// libm-free logarithm, so the encoder and the decoder — possibly on two machines — draw the same Ũ
// bit for bit (the dpfl target compiles with -ffp-contract=off).
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "dpfl/quant/cepam.hpp"
#include "dpfl/rng/streams.hpp"

namespace dpfl::quant::cepam {

inline constexpr std::uint64_t kLayerSlots = 64;      // uniforms reserved per block for its layer
inline constexpr std::uint64_t kPolarFirstSlot = 16;  // Gamma part: slots 0 … 15; polar pairs from 16

// (top 53 bits + 1)·2^−53 ∈ (0, 1]: exact.
inline double UnitOpenClosed(std::uint64_t w) { return static_cast<double>((w >> 11) + 1) * 0x1p-53; }
// A dither coordinate in cell units, in (−1/2, 1/2] (the cell α(−1/2, 1/2]^n of §3.1): exact.
inline double DitherUnit(std::uint64_t w) { return UnitOpenClosed(w) - 0.5; }

// ln x for a finite x > 0 from +, −, ×, ÷ only (no libm), so that it is the same function on
// every IEEE-754 platform: x = m·2^e with m ∈ [√½, √2) (exact), ln m = 2 atanh(s) with
// s = (m − 1)/(m + 1), |s| ≤ 0.1716, by its odd series through s^25 (the next term is below
// 2^−60 relative), plus e·ln 2 with ln 2 split so that e·ln2_hi is exact. Error: a few ulp
// (tests/unit/cepam_codec_test.cpp compares it with MPFR).
inline double DeterministicLog(double x) {
  int e = 0;
  double m = std::frexp(x, &e);
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    --e;
  }
  const double f = m - 1.0;
  const double s = f / (2.0 + f);
  const double z = s * s;
  double p = 1.0 / 25.0;
  for (int k = 23; k >= 3; k -= 2) p = p * z + 1.0 / static_cast<double>(k);
  const double log_m = 2.0 * s + 2.0 * s * (z * p);
  constexpr double kLn2Hi = 6.93147180369123816490e-01;  // high bits of ln 2 (trailing zeros)
  constexpr double kLn2Lo = 1.90821492927058770002e-10;  // ln 2 − kLn2Hi
  const double de = static_cast<double>(e);
  return de * kLn2Hi + (de * kLn2Lo + log_m);
}

// rng::Uniform64 with a one-block memo per thread: a ChaCha20 block yields 8 consecutive
// uniforms (Philox 2), and the codec reads its layer slots and a trial's dithers at consecutive
// indices, so recomputing the block for each of them would waste up to 7 of every 8 block
// computations. Two memos, by the purpose's parity (kCepamLayer = 9, kCepamDither = 10), so the
// interleaved layer and dither reads do not evict each other. A pure function of its arguments
// (each memo is keyed by all of them), so the values, and hence encoder and decoder, are unchanged.
inline std::uint64_t CachedUniform64(rng::Generator gen, const rng::StreamKey& key, const rng::StreamAddress& addr,
                                     std::uint64_t index) {
  struct Memo {
    bool valid = false;
    rng::Generator gen{};
    rng::StreamKey key{};
    rng::StreamAddress addr{};
    std::uint64_t block = 0;
    std::uint64_t words[8] = {};
  };
  thread_local Memo memos[2];
  Memo& memo = memos[static_cast<std::uint32_t>(addr.purpose) & 1u];
  const bool chacha = gen == rng::Generator::kChaCha20;
  const std::uint64_t block = chacha ? static_cast<std::uint32_t>(index >> 3) : index >> 1;
  bool same = memo.valid && memo.gen == gen && memo.block == block && memo.addr.round == addr.round &&
              memo.addr.entity == addr.entity && memo.addr.purpose == addr.purpose;
  for (int w = 0; same && w < 8; ++w) same = memo.key.words[w] == key.words[w];
  if (!same) {
    if (chacha) {
      rng::ChaChaUniformBlock(key, addr, static_cast<std::uint32_t>(block), memo.words);
    } else {
      rng::PhiloxUniformBlock(key, addr, block, memo.words);
    }
    memo.valid = true;
    memo.gen = gen;
    memo.key = key;
    memo.addr = addr;
    memo.block = block;
  }
  return memo.words[chacha ? (index & 7) : (index & 1)];
}

inline rng::StreamAddress LayerAddress(const StreamContext& ctx, std::uint32_t client) {
  return {ctx.round, client, rng::Purpose::kCepamLayer};
}
// Gamma(k, 1) for an integer k ≤ 16: −Σ ln u_i over the block's first k layer uniforms.
inline double GammaInteger(const StreamContext& ctx, const rng::StreamAddress& addr, std::uint64_t block, int k) {
  double sum = 0.0;
  for (int i = 0; i < k; ++i)
    sum -= DeterministicLog(UnitOpenClosed(CachedUniform64(ctx.generator, ctx.key, addr, block * kLayerSlots + i)));
  return sum;
}

// χ²_1 by Marsaglia's polar method: (a, b) uniform on (−1, 1]², accepted when 0 < a² + b² < 1
// (probability π/4 per attempt); then a²·(−2 ln s / s) is the square of a standard normal.
// 24 attempts fit the block's slots; all failing has probability (1 − π/4)^24 < 2^−53 and throws.
inline double ChiSquareOne(const StreamContext& ctx, const rng::StreamAddress& addr, std::uint64_t block) {
  for (std::uint64_t slot = kPolarFirstSlot; slot + 1 < kLayerSlots; slot += 2) {
    const double a = 2.0 * UnitOpenClosed(CachedUniform64(ctx.generator, ctx.key, addr, block * kLayerSlots + slot)) - 1.0;
    const double b =
        2.0 * UnitOpenClosed(CachedUniform64(ctx.generator, ctx.key, addr, block * kLayerSlots + slot + 1)) - 1.0;
    const double s = a * a + b * b;
    if (s > 0.0 && s < 1.0) return a * a * (-2.0 * DeterministicLog(s) / s);
  }
  throw std::runtime_error("CEPAM layer: 24 polar attempts rejected (probability < 2^-53); block " +
                           std::to_string(block));
}

// The layer Ũ of block j: χ²_{n+2} (Gaussian; 2·Gamma((n+2)/2), plus χ²_1 for odd n) or
// Gamma(n + 1, 1) (Laplace); 0 for SDQ/RSUQ, which have no layer.
inline double Layer(const CepamConfig& cfg, const StreamContext& ctx, std::uint32_t client, std::uint64_t block) {
  const rng::StreamAddress addr = LayerAddress(ctx, client);
  switch (cfg.kind) {
    case CepamKind::kGaussian:
      if (cfg.n % 2 == 0) return 2.0 * GammaInteger(ctx, addr, block, (cfg.n + 2) / 2);
      return 2.0 * GammaInteger(ctx, addr, block, (cfg.n + 1) / 2) + ChiSquareOne(ctx, addr, block);
    case CepamKind::kLaplace:
      return GammaInteger(ctx, addr, block, cfg.n + 1);
    case CepamKind::kSdq:
    case CepamKind::kRsuq:
      break;
  }
  return 0.0;
}

}  // namespace dpfl::quant::cepam
