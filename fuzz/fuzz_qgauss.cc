// fuzz_qgauss — boundary and bias fuzzer of the quantized Gaussian mechanism (seed 003 Alg. 1
// lines 7–9; STYLE.md "Fuzz targets"; contract: dpfl/fl/quantized_gaussian.hpp).
//
// FuzzedDataProvider turns the input into raw arguments of the public API: σ and C as arbitrary
// doubles (NaN, ±Inf, ±0, subnormals, huge, raw bit patterns), k as any 32-bit value, an update of
// arbitrary floats, the generator, round, client and thread count. The ONLY acceptable outcomes
// are dpfl::InvalidArgument, or success with these invariants:
//   Q1  the grid: m ∈ [2, 16], L = (k − 1)·2^m, L/4 = radius, 1 ≤ s² < 2^62, σ̃ = g·s ≥ σ (to 1e−12
//       relative: σ̃ is printed in double);
//   Q2  the clip: ‖q‖₂² ≤ radius² in exact integer arithmetic (the sensitivity bound the
//       certificate uses), for any floats the update holds;
//   Q3  every index < k, the unused bits of the last word are 0, threads = 1 gives the same
//       message (determinism across thread counts), and so do the plain loop (QgaussEncodeScalar)
//       and the fast path at the baseline instruction set (bit identity of the SIMD path);
//   Q4  decoded values lie in [−C, C];
//   Q5  bias: where the noise is negligible (σ̃ ≤ δ_q/1000) and the input is interior, the mean
//       index over 2,048 draws of one coordinate value is within 8 standard errors (the rounding
//       variance ≤ 1/4 per draw) + 1/1000 of its exact expectation q-position/M — a stochastic
//       rounding that is not unbiased fails this (false alarm < 10^−14 per input).
// Anything else — another exception type, a sanitizer report, a broken invariant — aborts.
#include <fuzzer/FuzzedDataProvider.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <span>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/fl/quantized_gaussian.hpp"
#include "fuzz_pickers.hpp"

namespace {

namespace fl = dpfl::fl;

[[noreturn]] void Fail(const char* what, double sigma, double clip, unsigned k) {
  std::fprintf(stderr, "fuzz_qgauss: invariant broken: %s (sigma=%a clip=%a k=%u)\n", what, sigma, clip, k);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider p(data, size);
  fl::QgaussConfig cfg;
  cfg.sigma = dpfl::fuzzing::PickDouble(p, 1e-6, 4.0);
  cfg.clip = dpfl::fuzzing::PickDouble(p, 1e-3, 8.0);
  cfg.levels = p.ConsumeBool() ? p.ConsumeIntegral<std::uint32_t>() : p.ConsumeIntegralInRange<std::uint32_t>(0, 70);
  dpfl::quant::StreamContext ctx;
  ctx.generator = p.ConsumeBool() ? dpfl::rng::Generator::kChaCha20 : dpfl::rng::Generator::kPhilox4x32;
  ctx.round = p.ConsumeIntegral<std::uint32_t>();
  for (auto& w : ctx.key.words) w = p.ConsumeIntegral<std::uint32_t>();
  const std::uint32_t client = p.ConsumeIntegral<std::uint32_t>();
  const int threads = p.ConsumeIntegralInRange<int>(1, 4);
  const std::size_t d = p.ConsumeIntegralInRange<std::size_t>(0, 9000);
  std::vector<float> update(d);
  const bool constant = p.ConsumeBool();
  const float first = dpfl::fuzzing::PickFloat(p);
  for (std::size_t j = 0; j < d; ++j) update[j] = constant ? first : dpfl::fuzzing::PickFloat(p);
  const unsigned k = cfg.levels;
  try {
    const fl::QgaussGrid g = fl::MakeQgaussGrid(cfg);
    // Q1
    if (g.step_bits < 2 || g.step_bits > 16 || g.span != (static_cast<std::int64_t>(k) - 1) << g.step_bits ||
        g.radius * 4 != g.span || g.sigma2.den != 1 || g.sigma2.num < 1 || g.sigma2.num >= (fl::Uint128{1} << 62))
      Fail("grid", cfg.sigma, cfg.clip, k);
    if (!(g.implemented_sigma >= cfg.sigma * (1 - 1e-12))) Fail("implemented sigma below sigma", cfg.sigma, cfg.clip, k);
    // Q2
    const std::vector<std::int64_t> q = fl::QgaussClipToGrid(g, update);
    __int128 norm2 = 0;
    for (std::int64_t v : q) norm2 += static_cast<__int128>(v) * v;
    if (norm2 > static_cast<__int128>(g.radius) * g.radius) Fail("l2 clip exceeds the radius", cfg.sigma, cfg.clip, k);
    // Q3
    const fl::QgaussMessage m = fl::QgaussEncode(g, q, ctx, client, threads);
    if (m.size != d || m.words.size() != fl::QgaussMessageWords(g, d)) Fail("message size", cfg.sigma, cfg.clip, k);
    for (std::size_t j = 0; j < d; ++j)
      if (fl::QgaussIndex(g, m, j) >= k) Fail("index >= k", cfg.sigma, cfg.clip, k);
    const std::uint64_t used = static_cast<std::uint64_t>(d) * static_cast<std::uint64_t>(g.index_bits);
    if (used % 64 != 0 && !m.words.empty() && (m.words.back() >> (used % 64)) != 0)
      Fail("unused bits set", cfg.sigma, cfg.clip, k);
    if (threads != 1 && fl::QgaussEncode(g, q, ctx, client, 1).words != m.words)
      Fail("threads change the message", cfg.sigma, cfg.clip, k);
    if (fl::QgaussEncodeScalar(g, q, ctx, client, 1).words != m.words ||
        fl::QgaussEncodeFast(g, q, ctx, client, 1, dpfl::quant::fast::Isa::kBaseline).words != m.words)
      Fail("the fast path and the plain loop differ", cfg.sigma, cfg.clip, k);
    // Q4
    std::vector<float> out(d);
    fl::QgaussDecode(g, m, out);
    for (float v : out)
      if (!(std::fabs(static_cast<double>(v)) <= cfg.clip * (1 + 1e-6))) Fail("decoded value outside [-C, C]", cfg.sigma, cfg.clip, k);
    // Q5
    const double step = 2.0 * cfg.clip / (static_cast<double>(k) - 1);
    if (d > 0 && g.implemented_sigma <= step / 1000) {
      const std::int64_t pos = g.span / 2 + q[0];
      const double m_units = std::ldexp(1.0, g.step_bits);
      const double expected = static_cast<double>(pos) / m_units;
      if (pos > (std::int64_t{1} << g.step_bits) / 8 && pos < g.span - (std::int64_t{1} << g.step_bits) / 8) {
        const std::vector<std::int64_t> same(2048, q[0]);
        const fl::QgaussMessage b = fl::QgaussEncode(g, same, ctx, client ^ 1u, 1);
        double sum = 0;
        for (std::size_t j = 0; j < same.size(); ++j) sum += fl::QgaussIndex(g, b, j);
        const double mean = sum / static_cast<double>(same.size());
        if (std::fabs(mean - expected) > 8 * std::sqrt(0.25 / 2048.0) + 1e-3) Fail("biased rounding", cfg.sigma, cfg.clip, k);
      }
    }
  } catch (const dpfl::InvalidArgument&) {
    return 0;
  }
  return 0;
}
