// SIMD fast path of the quantized Gaussian's saturation and stochastic rounding (seed 003 Alg. 1
// line 9; dpfl/fl/quantized_gaussian.hpp), bit-identical to the scalar rule QgaussIndexRule of the
// internal qgauss_rules.hpp (tests/unit/qgauss_fast_test.cpp compares whole messages on both
// generators and every instruction set).
//
// What is vectorized, and what is not. Per coordinate the mechanism draws a discrete Gaussian
// (CKS 2020 Alg. 3: rejection sampling with a random number of stream words and 128-bit
// arithmetic) and then one rounding coin. The sampler's word consumption depends on the previous
// samples of its chunk, so it stays scalar (dpfl/fl/discrete_noise.hpp); the rounding coins are
// word j of their own stream for coordinate j, so they are generated 16 ChaCha20 blocks (or 64
// Philox blocks) at a time (simd_generators.hpp) and the rule below runs on whole vectors.
//
// Why it is bit-identical: every step is integer arithmetic on the same values —
//   n = clamp(position, 0, L); r = min(n >> m, k − 2); f = n − (r << m) ∈ [0, 2^m]
//   index = r + [coin >> (64 − m) < f]
// and the coins are the same pure functions of their addresses (RawUniforms128 word w of group i
// is rng::Uniform64(addr, 128·i + w)). No floating point is involved.
#include <algorithm>
#include <cstring>

#include "dpfl/error.hpp"
#include "dpfl/quant/fast_encoders.hpp"
#include "dpfl/rng/streams.hpp"
#include "simd_generators.hpp"
#include "simd_vectors.hpp"

namespace dpfl::quant::fast {
namespace {

struct RoundJob {
  const std::int64_t* position;
  std::uint32_t* index;
  std::int64_t span;
  int step_bits;
  std::int64_t kmax;  // k − 2
};

// The rule on one coordinate: position n (unsaturated), coin word `coin`.
DPFL_ALWAYS_INLINE std::uint32_t Rule(const RoundJob& job, std::int64_t n, std::uint64_t coin) {
  n = n < 0 ? 0 : (n > job.span ? job.span : n);
  std::int64_t r = n >> job.step_bits;
  r = r > job.kmax ? job.kmax : r;
  const std::int64_t frac = n - (r << job.step_bits);
  const std::int64_t u = static_cast<std::int64_t>(coin >> (64 - job.step_bits));
  return static_cast<std::uint32_t>(r + (u < frac ? 1 : 0));
}

// Coordinates [128·lo, 128·hi): group i's coins are the raw uniforms 128·(first/128 + i) + w.
template <int kLanes>
DPFL_ALWAYS_INLINE void Body(const RoundJob& job, const StreamLanes& lanes, std::size_t first_group, std::size_t lo,
                             std::size_t hi) {
  U64x8 raw[16];
  std::uint64_t coins[128];
  for (std::size_t g = lo; g < hi; ++g) {
    RawUniforms128<kLanes>(lanes, first_group + g, raw);
    std::memcpy(coins, raw, sizeof(coins));
    const std::int64_t* pos = job.position + 128 * g;
    std::uint32_t* out = job.index + 128 * g;
    // Plain loop over fixed-size arrays: the compiler vectorizes it for the target of the caller.
    for (int k = 0; k < 128; ++k) out[k] = Rule(job, pos[k], coins[k]);
  }
}

__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"), flatten)) void BodyAvx512(const RoundJob& job,
                                                                                       const StreamLanes& lanes,
                                                                                       std::size_t fg, std::size_t lo,
                                                                                       std::size_t hi) {
  Body<16>(job, lanes, fg, lo, hi);
}
__attribute__((target("avx2,bmi2"))) void BodyAvx2(const RoundJob& job, const StreamLanes& lanes, std::size_t fg,
                                                   std::size_t lo, std::size_t hi) {
  Body<8>(job, lanes, fg, lo, hi);
}
void BodyBaseline(const RoundJob& job, const StreamLanes& lanes, std::size_t fg, std::size_t lo, std::size_t hi) {
  Body<4>(job, lanes, fg, lo, hi);
}

}  // namespace

void QgaussRoundIndicesFast(const StreamContext& ctx, const rng::StreamAddress& coin_addr, std::uint64_t first,
                            std::span<const std::int64_t> position, std::int64_t span, int step_bits,
                            std::uint32_t levels, std::span<std::uint32_t> index, Isa isa) {
  if (index.size() != position.size()) throw InvalidArgument("index", "must have one entry per position");
  if (step_bits < 1 || step_bits > 62 || levels < 2 || span <= 0) throw InvalidArgument("step_bits", "invalid grid");
  const RoundJob job{position.data(), index.data(), span, step_bits, static_cast<std::int64_t>(levels) - 2};
  const std::size_t m = position.size();
  std::size_t done = 0;
  if (first % 128 == 0 && m >= 128) {
    const StreamLanes lanes = MakeStreamLanes(ctx, coin_addr);
    const std::size_t groups = m / 128;
    switch (isa) {
      case Isa::kAvx512: BodyAvx512(job, lanes, first / 128, 0, groups); break;
      case Isa::kAvx2: BodyAvx2(job, lanes, first / 128, 0, groups); break;
      case Isa::kBaseline: BodyBaseline(job, lanes, first / 128, 0, groups); break;
    }
    done = groups * 128;
  }
  for (std::size_t j = done; j < m; ++j)  // the tail (or an unaligned start): word by word
    index[j] = Rule(job, position[j], rng::Uniform64(ctx.generator, ctx.key, coin_addr, first + j));
}

}  // namespace dpfl::quant::fast
