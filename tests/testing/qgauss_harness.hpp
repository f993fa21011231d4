// The statistical harness of the quantized Gaussian mechanism (seed 003 Alg. 1 lines 7–9;
// dpfl/fl/quantized_gaussian.hpp), shared by the statistical suite (tests/statistical/
// qgauss_stat_test.cpp: production at NoQgaussFaults, both generators) and the planted-mutant
// catalog (tests/mutants/qgauss_mutant_test.cpp: faulty instantiations of the internal
// qgauss_rules.hpp loops). Oracle: dpfl::ref::QuantizedGaussianGridPmf, the exact law of the
// grid mechanism (MPFI; the conversion to double feeds only the test statistics), at the grid and
// input position the *reference* derives from (σ, k, C, x) — never the production's own.
//
// Checks (each a p-value; the caller applies Holm over all of them):
//  * (a) per case of kCases (inputs inside, at the edges ±C/2 and outside the clip range), N = 2^20
//    scalar draws (one message of N coordinates, each the ℓ2-clipped scalar x): G-test of the k
//    index counts against the exact pmf;
//  * (b) per case, independence across rounds: the k×k table of (index in round 1, index in round
//    2) per coordinate, 2^18 coordinates, against the product of the exact marginals;
//  * (c) the vector clip: one update of 2^20 equal coordinates w = 1/20 (‖w‖ = 51.2 > C/2), so
//    every coordinate is (C/2)/1024 after the ℓ2 clip: G-test against the pmf at that input;
//  * (d) exact replay (ReplayCheck): every index of messages at rounds 1 and 2 (5,000 coordinates,
//    two noise chunks, inputs at the grid's edges and interior), recomputed from the definition in
//    rational arithmetic — value y = (q + Z)·g, clamp to [−C, C], r = min(⌊(y + C)/δ_q⌋, k − 2),
//    "up" iff U/M < (y − B(r))/δ_q — with Z re-drawn from the noise stream at the reference's s²
//    and U from the rounding stream's address; and the decoded float B(i). p = 0 on any
//    difference, else 1 (false-alarm probability 0).
// Power: each G-test's minimum detectable effect w (Cohen) at α_test/m and power 0.999 is printed;
// docs/mutants.md tabulates what it means for σ (the 1 % mutant is the smallest fault named).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "dpfl/fl/qgauss_rules.hpp"  // internal (dpfl_testing_internals)
#include "dpfl/fl/quantized_gaussian.hpp"
#include "dpfl/ref/numbers.hpp"
#include "dpfl/ref/quantized_gaussian_grid.hpp"
#include "dpfl/rng/streams.hpp"
#include "testing/holm_report.hpp"
#include "testing/stat.hpp"

namespace dpfl::testing::qgauss {

struct Check {
  std::string what;
  double statistic = 0, p_value = 1;
  std::size_t samples = 0;
  bool exact = false;  // a replay (p ∈ {0, 1}), not a statistical test
};

struct Case {
  double sigma;
  std::uint32_t levels;
  double clip;
  double x;
};
// Inside, at ±C/2, and outside [−C/2, C/2]; all dyadic so x, σ, C are exact in double.
inline const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      {1.0, 2, 1.0, 0.5},      {1.0, 4, 1.0, 0.0},    {0.3125, 16, 1.0, 0.25}, {0.3125, 8, 1.0, -0.5},
      {0.125, 4, 1.0, 0.875},  {0.5, 3, 2.0, -3.0},   {0.0625, 16, 1.0, 0.1171875}, {2.0, 16, 1.0, 0.375},
  };
  return cases;
}

inline constexpr std::size_t kDraws = std::size_t{1} << 20;
inline constexpr std::size_t kRoundPairs = std::size_t{1} << 18;

inline ref::Rational Exact(double v) { return ref::Rational(v); }  // a double is a dyadic rational

inline std::vector<double> ReferencePmf(const Case& c, const ref::Rational& x) {
  const ref::QgGrid g = ref::QuantizedGaussianGridFor(Exact(c.sigma), c.levels, Exact(c.clip));
  const ref::Int q = ref::QuantizedGaussianGridPosition(g, x);
  std::vector<double> p;
  for (const auto& e : ref::QuantizedGaussianGridPmf(g, q, 64)) p.push_back(e.MidDouble());
  return p;
}

inline quant::StreamContext Context(rng::Generator gen, std::uint32_t round, std::uint32_t salt) {
  quant::StreamContext ctx;
  ctx.generator = gen;
  ctx.round = round;
  for (std::uint32_t i = 0; i < 8; ++i) ctx.key.words[i] = 0x9e3779b9u * (i + 1) ^ (salt * 0x85ebca6bu);
  return ctx;
}

template <class Faults>
std::vector<std::uint32_t> Indices(const fl::QgaussGrid& g, std::span<const float> update, const quant::StreamContext& ctx,
                                   std::uint32_t client) {
  const std::vector<std::int64_t> q = fl::QgaussClipToGridT<Faults>(g, update);
  const fl::QgaussMessage m = fl::QgaussEncodeT<Faults>(g, q, ctx, client, 2);
  std::vector<std::uint32_t> out(m.size);
  for (std::size_t j = 0; j < m.size; ++j) out[j] = fl::QgaussIndex(g, m, j);
  return out;
}

inline Check GCheck(const std::string& what, const std::vector<std::uint64_t>& counts, const std::vector<double>& pmf,
                    std::size_t n) {
  const stat::GofResult r = stat::GTestGof(counts, pmf);
  return {what, r.statistic, r.p_value, n, false};
}

// (a) and (b) for one case.
template <class Faults>
void CaseChecks(const Case& c, rng::Generator gen, std::uint32_t salt, std::vector<Check>& out) {
  char name[160];
  std::snprintf(name, sizeof name, "sigma=%g k=%u C=%g x=%g", c.sigma, c.levels, c.clip, c.x);
  const fl::QgaussGrid g = fl::MakeQgaussGridT<Faults>({c.sigma, c.levels, c.clip});
  const std::vector<double> pmf = ReferencePmf(c, Exact(static_cast<double>(static_cast<float>(c.x))));
  {
    const std::vector<float> update = {static_cast<float>(c.x)};
    const std::int64_t q = fl::QgaussClipToGridT<Faults>(g, update)[0];
    std::vector<std::int64_t> qs(kDraws, q);
    const fl::QgaussMessage m = fl::QgaussEncodeT<Faults>(g, qs, Context(gen, 1, salt), 7, 2);
    std::vector<std::uint64_t> counts(c.levels, 0);
    for (std::size_t j = 0; j < m.size; ++j) ++counts[std::min<std::uint32_t>(fl::QgaussIndex(g, m, j), c.levels - 1)];
    out.push_back(GCheck(std::string("(a) marginal ") + name, counts, pmf, kDraws));
  }
  {
    const std::vector<float> update = {static_cast<float>(c.x)};
    const std::int64_t q = fl::QgaussClipToGridT<Faults>(g, update)[0];
    std::vector<std::int64_t> qs(kRoundPairs, q);
    const fl::QgaussMessage m1 = fl::QgaussEncodeT<Faults>(g, qs, Context(gen, 1, salt + 1), 3, 2);
    const fl::QgaussMessage m2 = fl::QgaussEncodeT<Faults>(g, qs, Context(gen, 2, salt + 1), 3, 2);
    const std::size_t k = c.levels;
    std::vector<std::uint64_t> counts(k * k, 0);
    std::vector<double> joint(k * k);
    for (std::size_t a = 0; a < k; ++a)
      for (std::size_t b = 0; b < k; ++b) joint[a * k + b] = pmf[a] * pmf[b];
    for (std::size_t j = 0; j < kRoundPairs; ++j) {
      const std::size_t a = std::min<std::size_t>(fl::QgaussIndex(g, m1, j), k - 1);
      const std::size_t b = std::min<std::size_t>(fl::QgaussIndex(g, m2, j), k - 1);
      ++counts[a * k + b];
    }
    out.push_back(GCheck(std::string("(b) rounds 1, 2 independent ") + name, counts, joint, kRoundPairs));
  }
}

// (c): the ℓ2 clip of a whole vector.
template <class Faults>
Check VectorClipCheck(rng::Generator gen, std::uint32_t salt) {
  const Case c{0.015625, 16, 1.0, 0.0};
  const fl::QgaussGrid g = fl::MakeQgaussGridT<Faults>({c.sigma, c.levels, c.clip});
  const std::vector<float> update(kDraws, 0.05f);
  const std::vector<std::uint32_t> idx = Indices<Faults>(g, update, Context(gen, 4, salt), 11);
  std::vector<std::uint64_t> counts(c.levels, 0);
  for (std::uint32_t i : idx) ++counts[std::min<std::uint32_t>(i, c.levels - 1)];
  // ‖w‖ = 0.05·1024 > 1/2, so w̃_j = (1/2)/1024 exactly (√(2^20) = 1024).
  const std::vector<double> pmf = ReferencePmf(c, ref::Rational(1, 2048));
  return GCheck("(c) vector l2 clip: 2^20 coordinates 0.05 -> (C/2)/1024", counts, pmf, kDraws);
}

// (d): exact replay in rational arithmetic.
template <class Faults>
Check ReplayCheck(rng::Generator gen, std::uint32_t salt) {
  const Case c{0.0625, 5, 1.0, 0.0};
  const fl::QgaussGrid g = fl::MakeQgaussGridT<Faults>({c.sigma, c.levels, c.clip});
  const ref::QgGrid rg = ref::QuantizedGaussianGridFor(Exact(c.sigma), c.levels, Exact(c.clip));
  const std::int64_t radius = rg.radius.convert_to<std::int64_t>();
  const std::size_t d = 5000;  // two noise chunks
  std::vector<std::int64_t> q(d);
  for (std::size_t j = 0; j < d; ++j) {
    const std::int64_t pattern[] = {radius, -radius, 0, 1, -1, radius - 1, -radius + 1, radius / 3, -radius / 7};
    q[j] = j < 9 ? pattern[j] : static_cast<std::int64_t>((j * 2654435761u) % static_cast<std::size_t>(2 * radius + 1)) - radius;
  }
  // Keep the vector inside the ℓ2 ball only where the fault does not change the radius; the
  // replay checks the rule per coordinate, so the encoder is called on q directly.
  const ref::Rational unit = rg.unit, clip = Exact(c.clip), step = Exact(2.0 * c.clip / (c.levels - 1));
  const ref::Int mm = ref::Int(1) << rg.step_bits;
  std::size_t mismatches = 0, checked = 0;
  for (std::uint32_t round : {1u, 2u}) {
    const quant::StreamContext ctx = Context(gen, round, salt);
    fl::QgaussMessage m;
    try {
      m = fl::QgaussEncodeT<Faults>(g, q, ctx, 5, 2);
    } catch (const std::exception&) {
      return {"(d) exact replay: the encoder refused the grid inputs", 0, 0.0, d, true};
    }
    std::vector<float> decoded(d);
    fl::QgaussDecode(g, m, decoded);
    const fl::DiscreteGaussian law(fl::Ratio128{static_cast<fl::Uint128>(rg.sigma2.convert_to<std::uint64_t>()), 1});
    for (std::size_t chunk = 0; chunk * fl::kQgaussChunk < d; ++chunk) {
      fl::NoiseStream noise(ctx, {round, 5, rng::Purpose::kQgaussNoise}, chunk * fl::kQgaussChunkWords);
      for (std::size_t j = chunk * fl::kQgaussChunk; j < std::min(d, (chunk + 1) * fl::kQgaussChunk); ++j) {
        const std::int64_t z = law.Sample(noise);
        const std::uint64_t coin = rng::Uniform64(gen, ctx.key, {round, 5, rng::Purpose::kQgaussRounding}, j);
        ref::Rational y = ref::Rational(q[j] + z) * unit;
        if (y < -clip) y = -clip;
        if (y > clip) y = clip;
        ref::Int r = ref::FloorInt(ref::Rational((y + clip) / step));
        if (r > c.levels - 2) r = c.levels - 2;
        const ref::Rational lower = -clip + ref::Rational(r) * step;
        const ref::Rational p_up = (y - lower) / step;
        const ref::Rational u(ref::Int(coin >> (64 - rg.step_bits)), mm);
        const std::uint32_t expected = static_cast<std::uint32_t>(r.convert_to<long>() + (u < p_up ? 1 : 0));
        const float level = static_cast<float>((-clip + ref::Rational(expected) * step).convert_to<double>());
        ++checked;
        if (fl::QgaussIndex(g, m, j) != expected || decoded[j] != level) ++mismatches;
      }
    }
  }
  return {"(d) exact replay of " + std::to_string(checked) + " rounding decisions (" + std::to_string(mismatches) +
              " differ)",
          static_cast<double>(mismatches), mismatches == 0 ? 1.0 : 0.0, checked, true};
}

template <class Faults>
std::vector<Check> RunAll(rng::Generator gen, std::uint32_t salt) {
  std::vector<Check> checks;
  for (std::size_t i = 0; i < Cases().size(); ++i) CaseChecks<Faults>(Cases()[i], gen, salt + 16 * static_cast<std::uint32_t>(i), checks);
  checks.push_back(VectorClipCheck<Faults>(gen, salt + 1000));
  checks.push_back(ReplayCheck<Faults>(gen, salt + 2000));
  return checks;
}

}  // namespace dpfl::testing::qgauss
