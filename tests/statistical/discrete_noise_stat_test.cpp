// Statistical tests of the exact discrete Laplace/Gaussian samplers (production,
// dpfl/fl/discrete_noise.hpp) against the reference's exact pmfs (dpfl/ref/discrete_noise.hpp),
// planted mutants, and the gaussian/laplace EncodeClient grid (docs/production.md "Exact noise for
// the Gaussian and Laplace baselines"). Label `statistical`.
//
// DESIGN.md "Statistical testing conventions":
//  * Oracle: cell probabilities P(a ≤ Z ≤ b) enclosed by the reference (MPFI), converted to double
//    only to form the statistic. Cells: single integers for small scales (t, σ ≤ 64), else 128
//    (Laplace, edges round(j·t/8), |j| ≤ 64) or 96 (Gaussian, round(j·σ/8), |j| ≤ 48) intervals
//    plus the two tails; cells with expected count < 5 are pooled (tests/testing/stat.hpp).
//  * Test: Pearson X² goodness of fit, p-value from χ²(dof); every case uses its own fixed key.
//  * Family, at family-wise false-alarm probability α = 10^−3: N = 27 sampler cases (13 parameter
//    points, both generators, the fast and the GMP path, two controls of the mutant harness, and
//    12 cases of the table sampler, three with every draw forced through its tail),
//    Holm–Bonferroni at α·N/(N + 1), plus the end-to-end EncodeClient noise (laplace and gaussian,
//    Bonferroni inside) at α/(N + 1). With other keys the family fails with probability ≤ α
//    (DISABLED_FalseAlarmRateWithOtherKeys reruns the sampler cases with K = DPFL_STAT_SEEDS,
//    default 100, other key sets and compares the failure count with Binomial(K, α)).
//  * Power: n = 2^20 samples per case. At the strictest level α/(N + 1) = 6.25·10^−5 each case
//    detects any law at Cohen's distance w = √(Σ (p′ − p)²/p) ≥ w* with probability ≥ 0.999 (w*
//    printed per case from the non-central χ²: 0.008 at 5 pooled cells to 0.012 at 142); a 10 %
//    error of the Laplace scale at t = 37/5 is w ≈ 0.10 (its power is computed and asserted).
//  * Teeth: each planted mutant (a sampler built in this file from the production primitives; the
//    harness without faults replays production word for word) must be rejected at the strictest
//    level α/(N + 1), i.e. whatever the other p-values.
#include <gtest/gtest.h>

#include <boost/math/distributions/binomial.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "dpfl/fl/discrete_noise.hpp"
#include "dpfl/fl/mechanisms.hpp"
#include "dpfl/fl/table_discrete_noise.hpp"
#include "dpfl/fl/stream_util.hpp"
#include "dpfl/ref/discrete_noise.hpp"
#include "testing/stat.hpp"

namespace {

namespace fl = dpfl::fl;
namespace ref = dpfl::ref;
namespace stat = dpfl::testing::stat;
using fl::NoiseStream;
using fl::Ratio128;
using fl::Uint128;
using ref::Int;
using ref::Rational;

constexpr double kAlpha = 1e-3;  // family-wise false-alarm probability of NullSuite
constexpr double kPower = 0.999;
constexpr std::size_t kSamples = std::size_t{1} << 20;  // per case
constexpr mpfr_prec_t kPrec = 128;
constexpr std::uint64_t kKeySeed = 0xd15c0e7e00000001ULL;

double Seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// ---- laws and cells ------------------------------------------------------------------------

struct Law {
  bool gaussian = false;
  Ratio128 param;  // t (Laplace) or σ² (Gaussian)
  double Scale() const {
    const double v = static_cast<double>(param.num) / static_cast<double>(param.den);
    return gaussian ? std::sqrt(v) : v;
  }
  std::string Name() const { return (gaussian ? "N_Z(0, " : "L_Z(") + fl::ToString(param) + ")"; }
};

Rational ToRational(const Ratio128& q) { return ref::ParseRational(fl::ToString(q), "param"); }

// Cell i is [edges[i − 1], edges[i] − 1] with edges[−1] = −∞ and edges[k] = +∞.
std::vector<long long> Edges(const Law& law) {
  const double s = law.Scale();
  std::vector<long long> edges;
  if (s <= 64) {
    const auto k = static_cast<long long>(std::ceil((law.gaussian ? 9.0 : 45.0) * s)) + 2;
    for (long long z = -k; z <= k + 1; ++z) edges.push_back(z);
  } else {
    const int j_max = law.gaussian ? 48 : 64;
    for (int j = -j_max; j <= j_max; ++j) {
      const auto e = static_cast<long long>(std::llround(j * s / 8));
      if (edges.empty() || e > edges.back()) edges.push_back(e);
    }
  }
  return edges;
}

// Exact cell probabilities (reference enclosures; midpoints for the statistic).
std::vector<double> CellProbabilities(const Law& law, const std::vector<long long>& edges) {
  const Rational p = ToRational(law.param);
  std::vector<ref::Enclosure> upper;  // P(Z ≥ e) for each edge
  if (law.gaussian) {
    const ref::DiscreteGaussianLaw g(p, kPrec);
    for (long long e : edges) upper.push_back(g.UpperTail(Int(e)));
  } else {
    for (long long e : edges) upper.push_back(ref::DiscreteLaplaceUpperTail(p, Int(e), kPrec));
  }
  std::vector<double> probs;
  probs.push_back((Rational(1) - upper.front()).MidDouble());
  for (std::size_t i = 1; i < upper.size(); ++i) probs.push_back((upper[i - 1] - upper[i]).MidDouble());
  probs.push_back(upper.back().MidDouble());
  for (double& v : probs) v = std::max(v, 0.0);
  return probs;
}

using Sampler = std::function<std::int64_t(NoiseStream&)>;

dpfl::quant::StreamContext Context(dpfl::rng::Generator gen, std::uint64_t seed) {
  dpfl::quant::StreamContext ctx;
  ctx.generator = gen;
  ctx.key = fl::DeriveKey(seed, "discrete-noise-stat");
  ctx.round = 0;
  return ctx;
}

struct Outcome {
  stat::GofResult gof;
  double w_star = 0;  // smallest Cohen w detected with probability ≥ kPower at level `level`
  double seconds = 0;
};

Outcome RunCase(const Law& law, const Sampler& sampler, dpfl::rng::Generator gen, std::uint64_t seed, double level,
                std::size_t n = kSamples) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<long long> edges = Edges(law);
  std::vector<std::uint64_t> counts(edges.size() + 1, 0);
  NoiseStream stream(Context(gen, seed), {0, 0, dpfl::rng::Purpose::kPrivateCoin});
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t z = sampler(stream);
    ++counts[static_cast<std::size_t>(std::upper_bound(edges.begin(), edges.end(), z) - edges.begin())];
  }
  Outcome out;
  out.gof = stat::ChiSquareGof(counts, CellProbabilities(law, edges));
  out.w_star = out.gof.dof > 0 ? stat::MinDetectableEffect(out.gof.dof, level, kPower, static_cast<double>(n)) : 0;
  out.seconds = Seconds(t0);
  return out;
}

// ---- the production samplers and the mutants (built from the production primitives) ----------

Sampler Production(const Law& law) {
  if (law.gaussian) {
    const fl::DiscreteGaussian g(law.param);
    return [g](NoiseStream& s) { return g.Sample(s); };
  }
  const fl::DiscreteLaplace l(law.param);
  return [l](NoiseStream& s) { return l.Sample(s); };
}

// CKS Alg. 1's γ ∈ [0, 1] loop cut at K = 3: returns 1 − γ + γ²/2 (the γ³/6 − … terms dropped).
bool TruncatedExpMinusFraction(NoiseStream& s, Uint128 num, Uint128 den) {
  std::uint64_t k = 1;
  while (k < 3) {
    if (k > 1 && s.Below(k) != 0) break;
    if (!fl::BernoulliRatio(s, num, den)) break;
    ++k;
  }
  return (k & 1) != 0;
}

struct LaplaceFaults {
  bool truncated_exp = false;       // Bernoulli(e^−γ) with a dropped series term
  bool keep_negative_zero = false;  // (B = 1, Y = 0) accepted: 0 counted twice
  bool u_off_by_one = false;        // U uniform in {0, …, t} instead of {0, …, t − 1}
};
// CKS Alg. 2 written again in the test from the production primitives, with optional faults.
std::int64_t HarnessLaplace(NoiseStream& s, const Ratio128& scale, const LaplaceFaults& f) {
  auto bexp = [&](Uint128 num, Uint128 den) {
    return f.truncated_exp ? TruncatedExpMinusFraction(s, num, den) : fl::BernoulliExpMinusFraction(s, num, den);
  };
  for (;;) {
    const Uint128 u = s.Below128(scale.num + (f.u_off_by_one ? 1 : 0));
    if (!bexp(u, scale.num)) continue;
    std::uint64_t v = 0;
    while (bexp(1, 1)) ++v;
    const Uint128 y = (u + scale.num * v) / scale.den;
    const bool negative = (s.Next() >> 63) != 0;
    if (negative && y == 0 && !f.keep_negative_zero) continue;
    return negative ? -static_cast<std::int64_t>(y) : static_cast<std::int64_t>(y);
  }
}

// CKS Alg. 3 written again from the production primitives (σ² = num/den small enough for the
// 128-bit path); `drop_fraction` accepts with exp(−⌊γ⌋) instead of exp(−γ).
std::int64_t HarnessGaussian(NoiseStream& s, const fl::DiscreteGaussian& g, bool drop_fraction) {
  const Uint128 num = g.sigma2().num, den = g.sigma2().den, t = g.proposal_scale();
  const fl::DiscreteLaplace proposal(Ratio128{t, 1});
  for (;;) {
    const std::int64_t y = proposal.Sample(s);
    const Uint128 prod = static_cast<Uint128>(y < 0 ? -y : y) * den * t;
    const Uint128 a = prod >= num ? prod - num : num - prod;
    const Uint128 d = 2 * num * den * t * t;
    const bool accept = drop_fraction ? fl::BernoulliExpMinus(s, (a * a / d) * d, d) : fl::BernoulliExpMinus(s, a * a, d);
    if (accept) return y;
  }
}

// The old floating-point path, rounded to the nearest integer: inverse-CDF Laplace(t) in double.
std::int64_t RoundedContinuousLaplace(NoiseStream& s, double t) {
  return static_cast<std::int64_t>(std::llround(fl::LaplaceFromUniform(s.Next(), t)));
}

// ---- the EncodeClient grid ------------------------------------------------------------------

// Noise integers of a layer recovered from the sent floats: for each coordinate the n with
// GridValue(grid, n) = value (searched around (value − lo)/g); -1 entries count values no grid
// index maps to. Returns n − k (k = the clipped weight's grid index).
struct Recovered {
  std::vector<std::int64_t> noise;
  std::size_t off_grid = 0, ambiguous = 0;
};
Recovered RecoverNoise(const fl::LayerRange& range, std::span<const float> w, std::span<const float> values) {
  const fl::NoiseGrid grid = fl::NoiseGridFor(range);
  Recovered out;
  for (std::size_t j = 0; j < range.size; ++j) {
    const float v = values[range.offset + j];
    const auto guess = static_cast<std::int64_t>(std::llround((static_cast<double>(v) - grid.lo) / grid.step));
    std::vector<std::int64_t> hits;
    for (std::int64_t n = guess - 3; n <= guess + 3; ++n)
      if (fl::GridValue(grid, n) == v) hits.push_back(n);
    if (hits.empty()) {
      ++out.off_grid;
      continue;
    }
    if (hits.size() > 1) ++out.ambiguous;
    const double x = std::clamp(static_cast<double>(w[range.offset + j]), range.c - range.r, range.c + range.r);
    out.noise.push_back(hits.front() - fl::GridIndex(grid, x));
  }
  return out;
}

std::vector<float> Weights(std::size_t m, std::uint64_t seed) {
  std::vector<float> w(m);
  std::uint64_t x = seed;
  for (float& v : w) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    v = static_cast<float>(static_cast<double>(x >> 11) * 0x1.0p-53 * 3.0 - 1.5);  // some outside [c − r, c + r]
  }
  return w;
}

// ---- the null suite ----------------------------------------------------------------------------

struct NullCase {
  std::string name;
  Law law;
  Sampler sampler;
  dpfl::rng::Generator gen;
};

Law Laplace(Ratio128 t) { return Law{false, t}; }
Law Gaussian(Ratio128 s2) { return Law{true, s2}; }

Ratio128 MechanismLaw(fl::MechanismKind kind, double eps, double delta = 1e-5) {
  fl::MechanismConfig cfg;
  cfg.kind = kind;
  cfg.eps_p = eps;
  cfg.delta = delta;
  const fl::DiscreteNoiseLaw law = fl::DiscreteNoiseLawFor(cfg);
  return kind == fl::MechanismKind::kGaussian ? law.gaussian_sigma2 : law.laplace_scale;
}

std::vector<NullCase> NullCases() {
  using G = dpfl::rng::Generator;
  const Uint128 one = 1;
  std::vector<NullCase> cases;
  auto add = [&](std::string name, const Law& law, G gen) { cases.push_back({std::move(name), law, Production(law), gen}); };
  // Few cells (t, σ² small) and tails (large scales), both generators.
  add("laplace t=1/3", Laplace({1, 3}), G::kChaCha20);
  add("laplace t=2", Laplace({2, 1}), G::kPhilox4x32);
  add("laplace t=37/5", Laplace({37, 5}), G::kChaCha20);
  add("laplace t=1000", Laplace({1000, 1}), G::kPhilox4x32);
  // The mechanism's t = N/0.1: a 76-bit numerator (128-bit uniforms).
  add("laplace t=N/0.1", Laplace(MechanismLaw(fl::MechanismKind::kLaplace, 0.1)), G::kChaCha20);
  add("laplace t=N/1", Laplace(MechanismLaw(fl::MechanismKind::kLaplace, 1.0)), G::kPhilox4x32);
  add("gaussian s2=1/4", Gaussian({1, 4}), G::kChaCha20);
  add("gaussian s2=2", Gaussian({2, 1}), G::kPhilox4x32);
  add("gaussian s2=25/3", Gaussian({25, 3}), G::kChaCha20);
  add("gaussian s2=10000", Gaussian({10000, 1}), G::kPhilox4x32);
  // σ² ≈ 8 with a 64-bit numerator and a 62-bit denominator: D = 2·num·den·t² ≥ 2^129, so the
  // acceptance runs on GMP integers, its fraction with GMP uniforms.
  add("gaussian s2~8 (GMP path)", Gaussian({(one << 64) - 59, (one << 61) + 1}), G::kPhilox4x32);
  // The mechanism's σ² at ε_p = 1, δ = 10^−5 (σ ≈ 3.9·10^6 grid units).
  add("gaussian mechanism eps=1", Gaussian(MechanismLaw(fl::MechanismKind::kGaussian, 1.0)), G::kChaCha20);
  // σ² close to 2^64: D ≥ 2^128 at a large scale (GMP path, |Y| ~ 2^32).
  add("gaussian s2~2^64 (GMP path)", Gaussian({(one << 64) - 59, 1}), G::kChaCha20);
  // The mutant harness without faults must pass (the mutants below differ from it in one place).
  const Law harness_l = Laplace({2, 1});
  cases.push_back({"harness laplace t=2 (control)", harness_l,
                   [](NoiseStream& s) { return HarnessLaplace(s, Ratio128{2, 1}, {}); }, G::kChaCha20});
  const Law harness_g = Gaussian({25, 3});
  const fl::DiscreteGaussian g253(harness_g.param);
  cases.push_back({"harness gaussian s2=25/3 (control)", harness_g,
                   [g253](NoiseStream& s) { return HarnessGaussian(s, g253, false); }, G::kPhilox4x32});
  // The table sampler (dpfl/fl/table_discrete_noise.hpp): its first word and its rare further
  // words read from the same stream here. Cell widths 1 (small σ) to 2^25 (σ ≈ 2^32), the seed-003
  // scale (σ ≈ 14746: cells of 64, sub-cells of 4, lazy MPFR comparisons in the bands), and every
  // draw forced through the tail (first word in [A, A + R): a proposal beyond K·c, almost always
  // rejected and redrawn, so the law must still be exact).
  const auto table = [&](std::string name, const Law& law, G gen, bool tail) {
    const auto t = std::make_shared<const fl::TableDiscreteNoise>(law.gaussian ? fl::TableDiscreteNoise::Gaussian(law.param) : fl::TableDiscreteNoise::Laplace(law.param));
    Sampler sampler;
    if (tail) {
      sampler = [t](NoiseStream& s) { return t->Sample(t->staircase_area() + s.Next() % t->tail_area(), s); };
    } else {
      sampler = [t](NoiseStream& s) { return t->Sample(s.Next(), s); };
    }
    cases.push_back({std::move(name), law, sampler, gen});
  };
  table("table s2=1/4", Gaussian({1, 4}), G::kChaCha20, false);
  table("table s2=25/3", Gaussian({25, 3}), G::kPhilox4x32, false);
  table("table s2=10000", Gaussian({10000, 1}), G::kChaCha20, false);
  table("table s2=217444516 (seed 003)", Gaussian({217444516, 1}), G::kPhilox4x32, false);
  table("table gaussian mechanism eps=1", Gaussian(MechanismLaw(fl::MechanismKind::kGaussian, 1.0)), G::kChaCha20, false);
  table("table s2~2^64", Gaussian({(one << 64) - 59, 1}), G::kPhilox4x32, false);
  table("table s2=25/3, every draw via the tail", Gaussian({25, 3}), G::kChaCha20, true);
  table("table s2=217444516, every draw via the tail", Gaussian({217444516, 1}), G::kPhilox4x32, true);
  table("table laplace t=1/3", Laplace({1, 3}), G::kChaCha20, false);
  table("table laplace t=37/5", Laplace({37, 5}), G::kPhilox4x32, false);
  table("table laplace t=100000", Laplace({100000, 1}), G::kChaCha20, false);
  table("table laplace t=37/5, every draw via the tail", Laplace({37, 5}), G::kPhilox4x32, true);
  return cases;
}

struct Mutant {
  std::string name;
  Law law;  // the law the mutant claims to sample (the reference oracle)
  Sampler sampler;
};

std::vector<Mutant> Mutants() {
  std::vector<Mutant> m;
  const Ratio128 t2{2, 1};
  m.push_back({"laplace t off by +10% (t=37/5)", Laplace({37, 5}),
               [l = fl::DiscreteLaplace(Ratio128{37 * 11, 50})](NoiseStream& s) { return l.Sample(s); }});
  m.push_back({"laplace t off by +10% (t=1000)", Laplace({1000, 1}),
               [l = fl::DiscreteLaplace(Ratio128{1100, 1})](NoiseStream& s) { return l.Sample(s); }});
  const Ratio128 t_mech = MechanismLaw(fl::MechanismKind::kLaplace, 1.0);
  m.push_back({"laplace t off by +3% (t=N/1)", Laplace(t_mech),
               [l = fl::DiscreteLaplace(Ratio128{t_mech.num * 103, t_mech.den * 100})](NoiseStream& s) { return l.Sample(s); }});
  m.push_back({"laplace: Bernoulli(exp(-g)) series cut after g^2/2", Laplace(t2),
               [t2](NoiseStream& s) { return HarnessLaplace(s, t2, {.truncated_exp = true}); }});
  m.push_back({"laplace: -0 not rejected", Laplace(t2),
               [t2](NoiseStream& s) { return HarnessLaplace(s, t2, {.keep_negative_zero = true}); }});
  m.push_back({"laplace: U in {0..t} (off by one)", Laplace(t2),
               [t2](NoiseStream& s) { return HarnessLaplace(s, t2, {.u_off_by_one = true}); }});
  m.push_back({"laplace: rounded continuous Laplace in double (t=2)", Laplace(t2),
               [](NoiseStream& s) { return RoundedContinuousLaplace(s, 2.0); }});
  m.push_back({"gaussian: acceptance exp(-floor(g)), fraction dropped", Gaussian({25, 3}),
               [g = fl::DiscreteGaussian(Ratio128{25, 3})](NoiseStream& s) { return HarnessGaussian(s, g, true); }});
  m.push_back({"gaussian s2 off by +10% (s2=10000)", Gaussian({10000, 1}),
               [g = fl::DiscreteGaussian(Ratio128{11000, 1})](NoiseStream& s) { return g.Sample(s); }});
  const auto t11 = std::make_shared<const fl::TableDiscreteNoise>(fl::TableDiscreteNoise::Gaussian(Ratio128{11000, 1}));
  m.push_back({"table s2 off by +10% (s2=10000)", Gaussian({10000, 1}),
               [t11](NoiseStream& s) { return t11->Sample(s.Next(), s); }});
  const auto tl = std::make_shared<const fl::TableDiscreteNoise>(fl::TableDiscreteNoise::Laplace(Ratio128{37 * 11, 50}));
  m.push_back({"table laplace t off by +10% (t=37/5)", Laplace({37, 5}), [tl](NoiseStream& s) { return tl->Sample(s.Next(), s); }});
  // A table whose every word ≥ A is answered with 0 instead of a redraw (the rejection forgotten).
  const auto t253 = std::make_shared<const fl::TableDiscreteNoise>(fl::TableDiscreteNoise::Gaussian(Ratio128{25, 3}));
  m.push_back({"table: rejected words return 0 (s2=25/3)", Gaussian({25, 3}), [t253](NoiseStream& s) {
                 const std::uint64_t u = s.Next();
                 return u >= t253->staircase_area() ? std::int64_t{0} : t253->Sample(u, s);
               }});
  return m;
}

// One run of the null suite with key seeds derived from `seed`: the Holm decisions.
struct SuiteRun {
  std::vector<Outcome> outcomes;
  std::vector<bool> reject;
};
// The family: the N sampler cases (Holm at level α·N/(N + 1)) and the EncodeClient case (level
// α/(N + 1)); the family-wise false-alarm probability is ≤ α (Bonferroni across the two parts).
double SamplerSuiteAlpha(std::size_t n_cases) {
  return kAlpha * static_cast<double>(n_cases) / static_cast<double>(n_cases + 1);
}
double StrictestLevel(std::size_t n_cases) { return kAlpha / static_cast<double>(n_cases + 1); }

SuiteRun RunNullSuite(const std::vector<NullCase>& cases, std::uint64_t seed, std::size_t n) {
  SuiteRun run;
  std::vector<double> p;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    run.outcomes.push_back(
        RunCase(cases[i].law, cases[i].sampler, cases[i].gen, seed + 101 * i, StrictestLevel(cases.size()), n));
    p.push_back(run.outcomes.back().gof.p_value);
  }
  run.reject = stat::HolmReject(p, SamplerSuiteAlpha(cases.size()));
  return run;
}

// ---- tests ---------------------------------------------------------------------------------

TEST(DiscreteNoiseStat, SamplersMatchTheExactPmfsAndMutantsAreRejected) {
  const std::vector<NullCase> cases = NullCases();
  const double level = StrictestLevel(cases.size());
  std::printf("[discrete noise] alpha = %g: %zu sampler cases (Holm at %.3g) + 1 EncodeClient case (%.3g); "
              "strictest level %.3g, n = %zu, power %.3f\n",
              kAlpha, cases.size(), SamplerSuiteAlpha(cases.size()), level, level, kSamples, kPower);
  const SuiteRun run = RunNullSuite(cases, kKeySeed, kSamples);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Outcome& o = run.outcomes[i];
    std::printf("  %-36s %-40s cells %3d  X2 %8.2f  p %.4f  w* %.4f  %.2fs\n", cases[i].name.c_str(),
                cases[i].law.Name().substr(0, 40).c_str(), o.gof.pooled_cells, o.gof.statistic, o.gof.p_value, o.w_star,
                o.seconds);
    EXPECT_FALSE(run.reject[i]) << cases[i].name << ": p = " << o.gof.p_value;
    EXPECT_FALSE(o.gof.impossible) << cases[i].name;
    EXPECT_GE(o.gof.pooled_cells, 3) << cases[i].name;
  }
  // The GMP path is exercised where claimed.
  EXPECT_FALSE(fl::DiscreteGaussian(Ratio128{(Uint128{1} << 64) - 59, (Uint128{1} << 61) + 1}).fast_path());
  EXPECT_FALSE(fl::DiscreteGaussian(Ratio128{(Uint128{1} << 64) - 59, 1}).fast_path());

  // Teeth: every mutant is rejected at the strictest Holm level.
  for (const Mutant& mut : Mutants()) {
    const Outcome o = RunCase(mut.law, mut.sampler, dpfl::rng::Generator::kChaCha20, kKeySeed ^ 0x77, level);
    std::printf("  mutant %-52s X2 %10.1f  p %.3g  %s\n", mut.name.c_str(), o.gof.statistic, o.gof.p_value,
                o.gof.p_value <= level ? "rejected" : "NOT REJECTED");
    EXPECT_LE(o.gof.p_value, level) << "mutant not detected: " << mut.name;
  }
  // Designed power: the +10 % Laplace scale error at t = 37/5 has an exact effect size; the
  // non-central χ² predicts rejection with probability ≥ 0.999 at n.
  {
    const Law truth = Laplace({37, 5}), wrong = Laplace({37 * 11, 50});
    const std::vector<long long> edges = Edges(truth);
    const std::vector<double> p = CellProbabilities(truth, edges), q = CellProbabilities(wrong, edges);
    double w2 = 0;
    std::vector<std::uint64_t> expected_counts;
    for (std::size_t i = 0; i < p.size(); ++i) expected_counts.push_back(static_cast<std::uint64_t>(p[i] * kSamples));
    const stat::PooledCells pooled = stat::PoolCells(expected_counts, p, 5.0);
    for (std::size_t i = 0; i < p.size(); ++i)
      if (p[i] * kSamples >= 5) w2 += (q[i] - p[i]) * (q[i] - p[i]) / p[i];
    const int dof = static_cast<int>(pooled.observed.size()) - 1;
    const double power = stat::ChiSquarePower(dof, level, static_cast<double>(kSamples) * w2);
    std::printf("  designed power vs t +10%% at t=37/5: w = %.4f, power %.6f\n", std::sqrt(w2), power);
    EXPECT_GE(power, kPower);
  }
}

// Exact replay: the mutant harness without faults, fed the same stream, returns the production
// samplers' outputs word for word — so each mutant differs from production in exactly its fault.
TEST(DiscreteNoiseStat, HarnessReplaysProductionExactly) {
  for (const Ratio128& t : {Ratio128{2, 1}, Ratio128{37, 5}, Ratio128{1, 3}, MechanismLaw(fl::MechanismKind::kLaplace, 0.1)}) {
    const fl::DiscreteLaplace l(t);
    NoiseStream a(Context(dpfl::rng::Generator::kChaCha20, 5), {0, 0, dpfl::rng::Purpose::kPrivateCoin});
    NoiseStream b = a;
    for (int i = 0; i < 20000; ++i) ASSERT_EQ(l.Sample(a), HarnessLaplace(b, l.scale(), {})) << fl::ToString(t) << " #" << i;
    EXPECT_EQ(a.index(), b.index());
  }
  for (const Ratio128& s2 : {Ratio128{25, 3}, Ratio128{1, 4}, Ratio128{10000, 1}}) {
    const fl::DiscreteGaussian g(s2);
    NoiseStream a(Context(dpfl::rng::Generator::kPhilox4x32, 6), {0, 0, dpfl::rng::Purpose::kPrivateCoin});
    NoiseStream b = a;
    for (int i = 0; i < 20000; ++i) ASSERT_EQ(g.Sample(a), HarnessGaussian(b, g, false)) << fl::ToString(s2) << " #" << i;
    EXPECT_EQ(a.index(), b.index());
  }
}

TEST(DiscreteNoiseStat, EncodeClientNoiseIsOnTheGridDeterministicAndFollowsTheLaw) {
  // Two layers; ε_p = 30 keeps the sent values within a few r of c, where floats resolve the
  // grid step g = 2r/2^20, so the integer noise can be read back from the message.
  const std::vector<fl::LayerRange> ranges = {{0, std::size_t{1} << 18, 0.1, 0.5}, {std::size_t{1} << 18, 4096, -2.0, 0.25}};
  const std::size_t m = ranges[1].offset + ranges[1].size;
  const std::vector<float> w = Weights(m, 7);
  const double level = StrictestLevel(NullCases().size());
  std::vector<double> p_values;
  for (fl::MechanismKind kind : {fl::MechanismKind::kLaplace, fl::MechanismKind::kGaussian}) {
    fl::MechanismConfig cfg;
    cfg.kind = kind;
    cfg.eps_p = 30;
    cfg.delta = 1e-5;
    fl::ClientSlot slot;
    slot.client = 3;
    const dpfl::rng::StreamKey key = fl::DeriveKey(11, "client", 3);
    const fl::Message msg = fl::EncodeClient(cfg, w, ranges, slot, key, 5);
    ASSERT_EQ(msg.values.size(), m);
    // Deterministic per (key, round, client, layer).
    EXPECT_EQ(fl::EncodeClient(cfg, w, ranges, slot, key, 5).values, msg.values);
    EXPECT_NE(fl::EncodeClient(cfg, w, ranges, slot, key, 6).values, msg.values);
    fl::ClientSlot other = slot;
    other.client = 4;
    EXPECT_NE(fl::EncodeClient(cfg, w, ranges, other, key, 5).values, msg.values);
    EXPECT_NE(fl::EncodeClient(cfg, w, ranges, slot, fl::DeriveKey(12, "client", 3), 5).values, msg.values);
    // Changing layer 1's weights changes neither layer 0's message nor layer 1's noise integers.
    std::vector<float> w2 = w;
    for (std::size_t j = ranges[1].offset; j < m; ++j) w2[j] = -w2[j];
    const fl::Message msg2 = fl::EncodeClient(cfg, w2, ranges, slot, key, 5);
    EXPECT_TRUE(std::equal(msg.values.begin(), msg.values.begin() + static_cast<std::ptrdiff_t>(ranges[1].offset),
                           msg2.values.begin()));
    // On the grid: every value is GridValue(grid, n) for an integer n, and n − k is the noise.
    std::vector<Recovered> rec;
    for (const fl::LayerRange& range : ranges) {
      rec.push_back(RecoverNoise(range, w, msg.values));
      EXPECT_EQ(rec.back().off_grid, 0u) << fl::MechanismName(kind);
      EXPECT_EQ(rec.back().ambiguous, 0u) << fl::MechanismName(kind);
    }
    EXPECT_EQ(RecoverNoise(ranges[1], w2, msg2.values).noise, rec[1].noise);
    // The monitor's view: noise = sent − clipped weight, scale from MonitorNoiseScale.
    const auto samples = fl::SampleForMonitor(cfg, w, ranges, msg, fl::DeriveKey(13, "monitor"), 5, 64);
    ASSERT_EQ(samples.size(), 64u);
    for (const fl::MonitorSample& s : samples) {
      EXPECT_GT(s.noise_scale, 0);
      EXPECT_LT(std::fabs(s.noise), 40 * s.noise_scale);
    }
    // The recovered noise of layer 0 (2^18 coordinates) follows the exact law.
    const fl::DiscreteNoiseLaw law = fl::DiscreteNoiseLawFor(cfg);
    const Law exact{kind == fl::MechanismKind::kGaussian,
                    kind == fl::MechanismKind::kGaussian ? law.gaussian_sigma2 : law.laplace_scale};
    const std::vector<long long> edges = Edges(exact);
    std::vector<std::uint64_t> counts(edges.size() + 1, 0);
    for (std::int64_t z : rec[0].noise)
      ++counts[static_cast<std::size_t>(std::upper_bound(edges.begin(), edges.end(), z) - edges.begin())];
    const stat::GofResult gof = stat::ChiSquareGof(counts, CellProbabilities(exact, edges));
    std::printf("  EncodeClient %-8s eps_p=30 %s: cells %d X2 %.2f p %.4f\n", fl::MechanismName(kind).c_str(),
                exact.Name().c_str(), gof.pooled_cells, gof.statistic, gof.p_value);
    p_values.push_back(gof.p_value);
  }
  // Both end-to-end checks together are one hypothesis of the family (Bonferroni within it).
  EXPECT_GT(*std::min_element(p_values.begin(), p_values.end()) * 2, level);
}

// The slow calibration (not in CI; run with --gtest_also_run_disabled_tests): the null suite
// with K other key sets (K = DPFL_STAT_SEEDS, default 100; n = 2^16 per case, for speed); the
// number of suite failures must not exceed the 1 − 10^−3 quantile of Binomial(K, α).
TEST(DiscreteNoiseStat, DISABLED_FalseAlarmRateWithOtherKeys) {
  const char* env = std::getenv("DPFL_STAT_SEEDS");
  const int k = env == nullptr ? 100 : std::atoi(env);
  ASSERT_GT(k, 0);
  const std::vector<NullCase> cases = NullCases();
  int failures = 0;
  for (int i = 1; i <= k; ++i) {
    const SuiteRun run = RunNullSuite(cases, kKeySeed + 0x1000000ULL * static_cast<std::uint64_t>(i), std::size_t{1} << 16);
    failures += stat::AnyRejected(run.reject) ? 1 : 0;
  }
  const double limit = boost::math::quantile(boost::math::binomial(k, kAlpha), 1 - 1e-3);
  std::printf("[discrete noise] %d of %d suites rejected (limit %.0f)\n", failures, k, limit);
  EXPECT_LE(failures, limit);
}

}  // namespace
