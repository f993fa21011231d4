// Statistical and exact-replay tests of the production binary quantizers against the exact
// reference (label `statistical`).
//
// seed-000 §3.1 Alg. 1, §3.2 Alg. 2 (per-client form, corrected line 14: E3), §4.2 (exact
// joint pmf), §7 R7 (aggregate MSE); seed-001 §3.6 (CoQ-FL, p_x = 1/2). DESIGN.md "Statistical
// testing conventions": exact pmfs from dpfl_reference (rationals), production sampled with
// fixed keys, chi-square with pooling, Holm over each suite, power stated and printed.
//
//  (1) JointPmfSuite: 24 random instances × {ChaCha20, Philox}; per instance the CorBinQ pair
//      joint, the LDPQ marginal, the CoQ-FL joint and a lag-1 independence table.
//  (2) AggregateSuite: n = 10 clients (4 pairs + 2 solo), mean estimate unbiased (z test) and
//      empirical MSE = exact R7 MSE (z test on the mean squared error).
//  (3) ExactReplay: a slow exact model fed the same uniforms must make bit-identical decisions.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/binary_rules.hpp"  // internal (dpfl_testing_internals)
#include "dpfl/ref/coq.hpp"
#include "dpfl/ref/corbin_fl.hpp"
#include "dpfl/ref/corbinq.hpp"
#include "dpfl/ref/ldpq.hpp"
#include "dpfl/rng/streams.hpp"
#include "testing/bit_counts.hpp"
#include "testing/quantizer_instances.hpp"
#include "testing/stat.hpp"

namespace {

namespace q = dpfl::quant;
namespace ref = dpfl::ref;
namespace stat = dpfl::testing::stat;
using ref::Int;
using ref::Rational;

// ---- Suite constants -------------------------------------------------------------------------
// α_test = 1e-3: family-wise false-alarm probability of each suite (Holm over all its tests).
// With a different key a suite fails at rate ≤ α_test.
// Power (printed at run time from the non-central χ²): joint suite, m = 192 tests, N = 2^20:
// at Holm's step-1 level 1e-3/192 any shift of ≥ 0.0037 (dof 1) / 0.0040 (dof 3) probability
// between two outcomes is detected with probability ≥ 0.999 (Cohen w* = 0.0075 / 0.0080);
// seed-000 E3's example shifts 0.1. Aggregate suite (m = 2^20 parameters, Holm over 4 z tests):
// |bias| ≥ 0.0018 and an MSE shift ≥ 0.9 % are detected with probability ≥ 0.999.
constexpr double kAlphaTest = 1e-3;
constexpr double kPower = 0.999;
constexpr int kInstances = 24;
constexpr std::size_t kSamples = std::size_t{1} << 20;  // parameters (= samples) per instance per generator
constexpr std::uint64_t kInstanceSeed = 0x5eed000000000001ULL;

double Seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

q::StreamContext Context(dpfl::rng::Generator gen, std::uint64_t seed, std::uint32_t round) {
  q::StreamContext ctx;
  ctx.generator = gen;
  std::mt19937_64 g(seed);
  for (auto& w : ctx.key.words) w = static_cast<std::uint32_t>(g());
  ctx.round = round;
  return ctx;
}
const char* Name(dpfl::rng::Generator g) { return g == dpfl::rng::Generator::kChaCha20 ? "ChaCha20" : "Philox"; }

using dpfl::testing::ClipExact;
using dpfl::testing::Exact;
using dpfl::testing::Instance;
using dpfl::testing::ToDouble;
std::vector<Instance> MakeInstances() { return dpfl::testing::MakeInstances(kInstances, kInstanceSeed); }

std::string Describe(const Instance& in) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "E=%s c=%g r=%g w1=%a w2=%a d=%d%s", ref::ToExactString(in.E).c_str(), in.c, in.r,
                static_cast<double>(in.w1), static_cast<double>(in.w2), in.d, in.outside ? " (clipped input)" : "");
  return buf;
}

// Production eps = log(double(E)). The implemented α differs from the exact rational α by a few
// ulp (relative ~1e-16), so every implemented cell probability differs from the exact one by
// ≲ 1e-15 (plus T/2^64 flooring: ≤ 2^-64, tie coin resolution 2^-(64-d)). The suites resolve
// deviations ≥ ~4e-3 (printed below): the non-centrality the discrepancy induces,
// N·Σ δ²/p ≲ 2^20·(1e-15)²/p_min, is < 1e-15 for every cell of positive probability ≥ 1e-12,
// so it cannot move the level. (Zero-probability cells stay exactly zero up to the same 1e-16.)
q::BinaryLevels Levels(const Instance& in) { return q::MakeBinaryLevels(std::log(ToDouble(in.E)), in.c, in.r); }

std::array<double, 4> ToProbs(const Rational& mm, const Rational& mp, const Rational& pm, const Rational& pp) {
  return {ToDouble(mm), ToDouble(mp), ToDouble(pm), ToDouble(pp)};
}

using dpfl::testing::JointCounts;
using dpfl::testing::LagOneCounts;
std::uint64_t Ones(std::span<const std::uint64_t> b) {
  std::uint64_t n = 0;
  for (std::uint64_t w : b) n += static_cast<std::uint64_t>(std::popcount(w));
  return n;
}

struct TestRecord {
  std::string what;
  stat::GofResult gof;
};

void PrintPower(const char* suite, int m, std::size_t n) {
  const double a1 = kAlphaTest / m;  // Holm's first (most stringent) step = Bonferroni level
  for (int dof : {1, 3}) {
    const double lambda = stat::NoncentralityForPower(dof, a1, kPower);
    const double w = std::sqrt(lambda / static_cast<double>(n));
    std::printf("[%s] power: m=%d tests, N=%zu, Holm step-1 level %.3g, dof %d: crit %.2f, "
                "non-centrality %.1f -> Cohen w* = %.5f; any shift of >= %.5f probability between two "
                "outcomes is detected w.p. >= %.3f\n",
                suite, m, n, a1, dof, stat::ChiSquareCritical(dof, a1), lambda, w, w / 2, kPower);
  }
}

// ---- (1) Joint pmf suite -----------------------------------------------------------------------

TEST(QuantizerStat, JointPmfSuiteMatchesExactReference) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<Instance> instances = MakeInstances();
  std::vector<TestRecord> tests;
  const std::size_t words = q::PackedWords(kSamples);
  std::vector<std::uint64_t> b1(words), b2(words), bl(words), ba(words), bb(words);
  for (dpfl::rng::Generator gen : {dpfl::rng::Generator::kChaCha20, dpfl::rng::Generator::kPhilox4x32}) {
    for (int i = 0; i < kInstances; ++i) {
      const Instance& in = instances[static_cast<std::size_t>(i)];
      const q::BinaryLevels lv = Levels(in);
      const std::vector<float> w1(kSamples, in.w1), w2(kSamples, in.w2);
      // The trick: every parameter index is an independent sample of the same instance.
      const q::StreamContext ctx = Context(gen, 0xC0FFEE + static_cast<std::uint64_t>(gen), static_cast<std::uint32_t>(i));
      q::EncodeCorBinQPair(lv, w1, w2, in.d, ctx, /*pair=*/1, /*client1=*/10, /*client2=*/11, b1, b2);
      q::EncodeLdpq(lv, w1, ctx, /*client=*/12, bl);
      q::EncodeCoq(lv, w1, in.d, q::PairRole::kQ1, 0.5, ctx, /*pair=*/2, /*client=*/13, ba);
      q::EncodeCoq(lv, w2, in.d, q::PairRole::kQ2, 0.5, ctx, /*pair=*/2, /*client=*/14, bb);

      const auto res = ref::EvaluateCorBinQ<Rational>(in.E, in.c_x, in.r_x, in.w1_x, in.w2_x, in.d, ref::Line14::kCorrected);
      const auto pj = ToProbs(res.joint.mm, res.joint.mp, res.joint.pm, res.joint.pp);
      const auto cj = JointCounts(b1, b2);
      const std::string tag = std::string(Name(gen)) + " #" + std::to_string(i) + " " + Describe(in);
      tests.push_back({"CorBinQ joint " + tag, stat::ChiSquareGof(cj, pj)});

      const auto ldpq = ref::Ldpq<Rational>(in.E, in.c_x, in.r_x, in.w1_x);
      const std::array<double, 2> pl = {ToDouble(ldpq.q_minus), ToDouble(ldpq.q_plus)};
      const std::uint64_t ones = Ones(bl);
      const std::array<std::uint64_t, 2> cl = {kSamples - ones, ones};
      tests.push_back({"LDPQ marginal " + tag, stat::ChiSquareGof(cl, pl)});

      const auto coq = ref::EvaluateCoq<Rational>(in.E, in.c_x, in.r_x, in.w1_x, in.w2_x, in.d, Rational(1, 2),
                                                  ref::CoqList::kCorrected);
      const auto pc = ToProbs(coq.joint.mm, coq.joint.mp, coq.joint.pm, coq.joint.pp);
      tests.push_back({"CoQ-FL joint " + tag, stat::ChiSquareGof(JointCounts(ba, bb), pc)});

      // Independence across parameters: (Q1 bit at 2i, Q1 bit at 2i+1) ~ product of exact marginals.
      const Rational p = res.q1, qm = Rational(1) - res.q1;
      const auto pi = ToProbs(Rational(qm * qm), Rational(qm * p), Rational(p * qm), Rational(p * p));
      tests.push_back({"Q1 lag-1 independence " + tag, stat::ChiSquareGof(LagOneCounts(b1), pi)});
    }
  }
  std::vector<double> pv;
  for (const auto& t : tests) pv.push_back(t.gof.p_value);
  const std::vector<bool> reject = stat::HolmReject(pv, kAlphaTest);
  std::size_t min_i = 0;
  for (std::size_t i = 0; i < tests.size(); ++i) {
    if (pv[i] < pv[min_i]) min_i = i;
    EXPECT_FALSE(reject[i]) << tests[i].what << ": X2=" << tests[i].gof.statistic << " dof=" << tests[i].gof.dof
                            << " p=" << pv[i];
  }
  std::printf("[joint] alpha_test=%g (Holm over m=%zu tests), N=%zu per test; smallest p=%.3g (%s, X2=%.2f, dof %d)\n",
              kAlphaTest, tests.size(), kSamples, pv[min_i], tests[min_i].what.c_str(), tests[min_i].gof.statistic,
              tests[min_i].gof.dof);
  PrintPower("joint", static_cast<int>(tests.size()), kSamples);
  // The stated power must be able to see seed-000 E3 in the canonical example (spec 000 E3:
  // P(Q2=+) = 1/2 instead of 2/5, a 0.1 shift): it must exceed the detectable shift by far.
  EXPECT_LT(stat::MinDetectableEffect(3, kAlphaTest / static_cast<double>(tests.size()), kPower, kSamples) / 2, 0.01);
  std::printf("[joint] time %.2f s\n", Seconds(t0));
}

// ---- (2) Aggregate suite -----------------------------------------------------------------------

TEST(QuantizerStat, AggregateMeanIsUnbiasedAndMseMatchesExactR7) {
  const auto t0 = std::chrono::steady_clock::now();
  constexpr std::size_t kParams = std::size_t{1} << 20;
  const Rational E(5, 2), c(1, 4), r(3, 4);
  const int d = 4;
  // Client weights as exact floats; client 3 and 9 lie outside [c − r, c + r] and are clipped.
  const std::array<float, 10> wf = {0.9f, -0.4f, 0.125f, 1.5f, -0.3f, 0.7f, 0.2f, 0.25f, 0.95f, -0.75f};
  ref::ClientLayout layout;
  layout.pairs = {{0, 1}, {2, 3}, {4, 5}, {6, 7}};
  layout.solo = {8, 9};
  std::vector<Rational> wx;
  for (float w : wf) wx.push_back(ClipExact(Exact(w), c, r));
  const auto agg = ref::AggregateMse<Rational>(E, c, r, d, wx, layout);
  ASSERT_EQ(agg.bias, Rational(0));  // R7: exactly unbiased
  Rational mean_x(0);
  for (const Rational& w : wx) mean_x += w;
  mean_x /= 10;
  const double target = ToDouble(mean_x), mse = ToDouble(agg.mse);

  const q::BinaryLevels lv = q::MakeBinaryLevels(std::log(ToDouble(E)), ToDouble(c), ToDouble(r));
  std::vector<TestRecord> tests;
  std::vector<double> pv;
  for (dpfl::rng::Generator gen : {dpfl::rng::Generator::kChaCha20, dpfl::rng::Generator::kPhilox4x32}) {
    const q::StreamContext ctx = Context(gen, 0xA66 + static_cast<std::uint64_t>(gen), 3);
    std::vector<std::uint32_t> counts(kParams, 0);
    std::vector<std::uint64_t> b1(q::PackedWords(kParams)), b2(q::PackedWords(kParams));
    for (std::size_t p = 0; p < layout.pairs.size(); ++p) {
      const auto [i, k] = layout.pairs[p];
      const std::vector<float> w1(kParams, wf[i]), w2(kParams, wf[k]);
      q::EncodeCorBinQPair(lv, w1, w2, d, ctx, static_cast<std::uint32_t>(p), static_cast<std::uint32_t>(i),
                           static_cast<std::uint32_t>(k), b1, b2);
      q::AccumulateBits(b1, counts);
      q::AccumulateBits(b2, counts);
    }
    for (std::size_t i : layout.solo) {
      const std::vector<float> w(kParams, wf[i]);
      q::EncodeLdpq(lv, w, ctx, static_cast<std::uint32_t>(i), b1);
      q::AccumulateBits(b1, counts);
    }
    std::vector<float> est(kParams);
    q::DecodeMean(lv, counts, 10, est);
    // e_j = estimate − exact mean (DecodeMean rounds to float: error ≤ 2^-24·|est| ≈ 1e-7, three
    // orders below the standard error sqrt(mse/m) ≈ 2.7e-4 printed below).
    std::vector<double> e(kParams), e2(kParams);
    for (std::size_t j = 0; j < kParams; ++j) {
      e[j] = static_cast<double>(est[j]) - target;
      e2[j] = e[j] * e[j];
    }
    const stat::MeanTest bias = stat::ZTestMean(e, 0.0, std::sqrt(mse));  // σ exact (R7)
    const stat::MeanTest mse_t = stat::ZTestMean(e2, mse);                 // SE from the sample
    pv.push_back(bias.p_value);
    pv.push_back(mse_t.p_value);
    const double zc = stat::ZCritical(kAlphaTest / 4);
    std::printf("[aggregate %s] n=10 (4 pairs + 2 solo), d=%d, m=%zu: mean error %.3g (SE %.3g, z=%.2f, p=%.3g); "
                "empirical MSE %.6f vs exact R7 %.6f (= %s), SE %.3g, z=%.2f, p=%.3g, Bonferroni CI [%.6f, %.6f]\n",
                Name(gen), d, kParams, bias.mean, bias.std_error, bias.z, bias.p_value, mse_t.mean, mse,
                ref::ToExactString(agg.mse).c_str(), mse_t.std_error, mse_t.z, mse_t.p_value,
                mse_t.mean - zc * mse_t.std_error, mse_t.mean + zc * mse_t.std_error);
    // Power (z tests at Holm step-1 level a = α_test/4, power 0.999): detectable bias and MSE shift.
    const double zp = boost::math::quantile(boost::math::normal(), kPower);
    std::printf("[aggregate %s] alpha_test=%g (Holm over 4 tests); detects |bias| >= %.3g and |MSE shift| >= %.3g "
                "(%.2f%% of the MSE) w.p. >= %.3f\n",
                Name(gen), kAlphaTest, (zc + zp) * bias.std_error, (zc + zp) * mse_t.std_error,
                100 * (zc + zp) * mse_t.std_error / mse, kPower);
  }
  const std::vector<bool> reject = stat::HolmReject(pv, kAlphaTest);
  for (std::size_t i = 0; i < pv.size(); ++i) EXPECT_FALSE(reject[i]) << "aggregate test " << i << " p=" << pv[i];
  std::printf("[aggregate] time %.2f s\n", Seconds(t0));
}

// ---- (3) Exact replay --------------------------------------------------------------------------

// The exact model of one role for one weight: T = ⌊q·2^64⌋ split as x = 2^d q, t = ⌊x⌋,
// F = ⌊(x − t)·2^(64−d)⌋ (so T = t·2^(64−d) + F), all from the EXACT rational q.
struct ExactRule {
  std::uint64_t t, F, T;
};
ExactRule MakeRule(const Rational& prob, int d) {
  const Rational x = prob * ref::Pow2(d);
  const Int t = ref::FloorInt(x);
  const Int F = ref::FloorInt(Rational((x - Rational(t)) * ref::Pow2(64 - d)));
  const Int T = ref::FloorInt(Rational(prob * ref::Pow2(64)));
  return {t.convert_to<std::uint64_t>(), F.convert_to<std::uint64_t>(), T.convert_to<std::uint64_t>()};
}
// spec 000 §3.2 per-client form: z = int(Z) (top d bits of the pair's uniform), L = the
// client's private uniform on [0, 2^(64−d)) (its top 64 − d bits); BinRand(f) = [L < F].
bool ExactQ1Plus(const ExactRule& k, std::uint64_t shared, std::uint64_t priv, int d) {
  const std::uint64_t z = d == 0 ? 0 : shared >> (64 - d);
  const std::uint64_t L = priv >> d;
  if (z < k.t) return true;
  if (z > k.t) return false;
  return L < k.F;
}
bool ExactQ2Plus(const ExactRule& k_minus, std::uint64_t shared, std::uint64_t priv, int d) {
  const std::uint64_t z = d == 0 ? 0 : shared >> (64 - d);
  const std::uint64_t L = priv >> d;
  if (z < k_minus.t) return false;   // "−"
  if (z > k_minus.t) return true;    // "+" (corrected line 14: T2 ≺ Z)
  return !(L < k_minus.F);           // "−" w.p. f2
}

// An eps within 64 ulp of log(E) for which MakeBinaryLevels computes the exact α, or NaN.
// α = 4 (E = 5/3) is reachable; α = 2 (E = 3) is not: no double eps has exp(eps) == 3.0 (exp
// steps over it), so E = 3 appears below as an inexact-α case.
double EpsWithExactAlpha(const Rational& E, double c, double r) {
  const Rational alpha = ref::AlphaFromE(E);
  double lo = std::log(ToDouble(E)), hi = lo;
  for (int i = 0; i < 64; ++i) {
    for (double eps : {lo, hi})
      if (Exact(q::MakeBinaryLevels(eps, c, r).alpha) == alpha) return eps;
    lo = std::nextafter(lo, -1e300);
    hi = std::nextafter(hi, 1e300);
  }
  return std::numeric_limits<double>::quiet_NaN();
}

struct ReplayCase {
  Rational E;
  bool exact_alpha;  // α dyadic and eps chosen with exp(eps) == E: thresholds must be equal
  Rational c, r;
  int d;
  dpfl::rng::Generator gen;
};

// Weight pool: the cell boundaries of every d ≤ 8 (c + r·k/32 for α = 4: 2^d q = 2^(d−1) +
// 2^(d−3)·k/32, an integer for many k), their float neighbours, c ± r and neighbours, weights
// outside [c − r, c + r] (clipped), and fixed-seed random floats.
std::vector<float> ReplayPool(const ReplayCase& rc, std::uint64_t seed) {
  std::vector<float> pool;
  const double c = ToDouble(rc.c), r = ToDouble(rc.r);
  for (int k = -48; k <= 48; ++k) {
    const float w = static_cast<float>(c + r * k / 32.0);
    pool.push_back(w);
    pool.push_back(std::nextafter(w, -1e30f));
    pool.push_back(std::nextafter(w, 1e30f));
  }
  for (double s : {-1.0, 1.0}) {
    const float edge = static_cast<float>(c + s * r);
    pool.push_back(edge);
    pool.push_back(std::nextafter(edge, -1e30f));
    pool.push_back(std::nextafter(edge, 1e30f));
    pool.push_back(static_cast<float>(c + s * 3 * r));
  }
  std::mt19937_64 g(seed);
  for (int k = 0; k < 64; ++k)
    pool.push_back(static_cast<float>(c + r * (static_cast<double>(g() >> 11) * 0x1p-53 * 2.4 - 1.2)));
  return pool;
}

TEST(QuantizerStat, ExactReplayBitIdenticalDecisions) {
  const auto t0 = std::chrono::steady_clock::now();
  using G = dpfl::rng::Generator;
  const std::vector<ReplayCase> cases = {
      {Rational(5, 3), true, Rational(0), Rational(1), 0, G::kChaCha20},
      {Rational(5, 3), true, Rational(0), Rational(1), 3, G::kPhilox4x32},
      {Rational(5, 3), true, Rational(3, 8), Rational(1, 2), 8, G::kChaCha20},
      {Rational(5, 3), true, Rational(-5, 4), Rational(2), 5, G::kPhilox4x32},
      {Rational(3), false, Rational(0), Rational(1), 2, G::kPhilox4x32},
      {Rational(23, 7), false, Rational(1, 4), Rational(3, 4), 6, G::kChaCha20},
      {Rational(41, 40), false, Rational(-1, 2), Rational(5, 16), 12, G::kPhilox4x32},
      {Rational(18), false, Rational(0), Rational(1, 8), 1, G::kChaCha20},
      {Rational(3, 2), false, Rational(7, 8), Rational(3), 20, G::kPhilox4x32},
  };
  constexpr std::size_t kParams = std::size_t{1} << 17;
  std::uint64_t decisions = 0, crafted = 0, max_threshold_gap = 0;
  for (std::size_t ci = 0; ci < cases.size(); ++ci) {
    const ReplayCase& rc = cases[ci];
    SCOPED_TRACE("replay case " + std::to_string(ci) + ": E=" + ref::ToExactString(rc.E) + " d=" + std::to_string(rc.d));
    const double eps =
        rc.exact_alpha ? EpsWithExactAlpha(rc.E, ToDouble(rc.c), ToDouble(rc.r)) : std::log(ToDouble(rc.E));
    ASSERT_TRUE(std::isfinite(eps));
    const q::BinaryLevels lv = q::MakeBinaryLevels(eps, ToDouble(rc.c), ToDouble(rc.r));
    const Rational alpha = ref::AlphaFromE(rc.E);
    if (rc.exact_alpha) {
      ASSERT_EQ(Exact(lv.alpha), alpha);
    }
    const std::vector<float> pool = ReplayPool(rc, 0xB0B + ci);
    // Exact rules per pool weight (exact rational value of the float, clipped exactly).
    std::vector<ExactRule> plus, minus, ldpq;
    std::vector<bool> exact_threshold;
    for (float w : pool) {
      const Rational wx = ClipExact(Exact(w), rc.c, rc.r);
      const Rational qx = ref::LdpqProbPlus(alpha, rc.c, rc.r, wx);
      plus.push_back(MakeRule(qx, rc.d));
      minus.push_back(MakeRule(Rational(1 - qx), rc.d));
      ldpq.push_back(MakeRule(qx, 0));
      // Thresholds: production rounds q to a double, so T_prod = ⌊q_exact·2^64⌋ exactly when α is
      // exact and q, 1 − q are doubles (all cell boundaries c + r·k/32 and c ± r here); otherwise
      // a stated bound |ΔT| ≤ 2^16 (|Δq| ≤ 2^-48; q carries a few ulp of 2^-53).
      const std::uint64_t tp = q::PlusThreshold(q::ClipWeight(w, lv), lv);
      const std::uint64_t tm = q::MinusThreshold(q::ClipWeight(w, lv), lv);
      const std::uint64_t gap = std::max(tp > plus.back().T ? tp - plus.back().T : plus.back().T - tp,
                                         tm > minus.back().T ? tm - minus.back().T : minus.back().T - tm);
      max_threshold_gap = std::max(max_threshold_gap, gap);
      const bool representable = Exact(ToDouble(qx)) == qx && Exact(ToDouble(Rational(1 - qx))) == Rational(1 - qx);
      exact_threshold.push_back(rc.exact_alpha && representable);
      if (exact_threshold.back()) {
        ASSERT_EQ(tp, plus.back().T) << "w=" << w;
        ASSERT_EQ(tm, minus.back().T) << "w=" << w;
      } else {
        ASSERT_LE(gap, std::uint64_t{1} << 16) << "w=" << w;
      }
    }
    // Stream replay: production encoders vs the exact model on the same addresses.
    std::vector<float> w1(kParams), w2(kParams);
    std::vector<std::size_t> i1(kParams), i2(kParams);
    for (std::size_t j = 0; j < kParams; ++j) {
      i1[j] = j % pool.size();
      i2[j] = (j * 31 + 7 + j / pool.size()) % pool.size();
      w1[j] = pool[i1[j]];
      w2[j] = pool[i2[j]];
    }
    const q::StreamContext ctx = Context(rc.gen, 0xDEC1DE + ci, static_cast<std::uint32_t>(ci));
    std::vector<std::uint64_t> b1(q::PackedWords(kParams)), b2(q::PackedWords(kParams)), bl(q::PackedWords(kParams));
    const std::uint32_t pair = 5, c1 = 40, c2 = 41, c3 = 42;
    q::EncodeCorBinQPair(lv, w1, w2, rc.d, ctx, pair, c1, c2, b1, b2);
    q::EncodeLdpq(lv, w1, ctx, c3, bl);
    const dpfl::rng::StreamAddress sa{ctx.round, pair, dpfl::rng::Purpose::kSharedBits};
    const dpfl::rng::StreamAddress pa1{ctx.round, c1, dpfl::rng::Purpose::kPrivateCoin};
    const dpfl::rng::StreamAddress pa2{ctx.round, c2, dpfl::rng::Purpose::kPrivateCoin};
    const dpfl::rng::StreamAddress pa3{ctx.round, c3, dpfl::rng::Purpose::kPrivateCoin};
    // Head widths as documented (docs/production.md "Decision streams"), not taken from the
    // production constants: LDPQ's private coins 16 bits; the roles' shared bits 8 bits when
    // d ≤ 8, else 16; the roles' private coins 8 bits when d ≥ 5, else 16.
    const int shared_head = rc.d <= 8 ? 8 : 16, role_private_head = rc.d >= 5 ? 8 : 16, ldpq_head = 16;
    std::uint64_t mismatches = 0;
    for (std::size_t j = 0; j < kParams; ++j) {
      const std::uint64_t s = dpfl::rng::DecisionUniform64(rc.gen, ctx.key, sa, j, shared_head);
      const std::uint64_t u1 = dpfl::rng::DecisionUniform64(rc.gen, ctx.key, pa1, j, role_private_head);
      const std::uint64_t u2 = dpfl::rng::DecisionUniform64(rc.gen, ctx.key, pa2, j, role_private_head);
      const std::uint64_t u3 = dpfl::rng::DecisionUniform64(rc.gen, ctx.key, pa3, j, ldpq_head);
      const bool e1 = ExactQ1Plus(plus[i1[j]], s, u1, rc.d);
      const bool e2 = ExactQ2Plus(minus[i2[j]], s, u2, rc.d);
      const bool e3 = ExactQ1Plus(ldpq[i1[j]], 0, u3, 0);  // LDPQ: d = 0, "+" iff U < T
      const bool p1 = (b1[j / 64] >> (j % 64)) & 1u, p2 = (b2[j / 64] >> (j % 64)) & 1u,
                 p3 = (bl[j / 64] >> (j % 64)) & 1u;
      if (e1 != p1 || e2 != p2 || e3 != p3) {
        if (++mismatches <= 5) {
          ADD_FAILURE() << "j=" << j << " w1=" << w1[j] << " w2=" << w2[j] << " exact (" << e1 << e2 << e3
                        << ") production (" << p1 << p2 << p3 << ")";
        }
      }
    }
    decisions += 3 * kParams;
    EXPECT_EQ(mismatches, 0u);
    // Crafted uniforms at and next to each exact threshold (where the thresholds are equal): V ∈ {T − 1, T, T + 1, cell start, cell start − 1}, split into the
    // shared part (top d bits) and the private part, with arbitrary filler in the unused bits.
    if (rc.exact_alpha) {
      std::mt19937_64 g(0xF111 + ci);
      for (std::size_t k = 0; k < pool.size(); ++k) {
        if (!exact_threshold[k]) continue;
        for (int role = 0; role < 3; ++role) {
          const ExactRule& rule = role == 0 ? plus[k] : role == 1 ? minus[k] : ldpq[k];
          const int d = role == 2 ? 0 : rc.d;
          const std::uint64_t cell_start = d == 0 ? 0 : rule.t << (64 - d);
          for (std::uint64_t v : {rule.T - 1, rule.T, rule.T + 1, cell_start, cell_start - 1}) {
            const std::uint64_t low_mask = d == 0 ? ~std::uint64_t{0} : (std::uint64_t{1} << (64 - d)) - 1;
            const std::uint64_t filler = g();
            const std::uint64_t shared = (v & ~low_mask) | (filler & low_mask);
            const std::uint64_t priv = ((v & low_mask) << d) | (d == 0 ? 0 : (filler >> (64 - d)));
            bool prod = false, exact = false;
            if (role == 0) {
              prod = q::Q1RoleBit(pool[k], shared, priv, d, lv);
              exact = ExactQ1Plus(rule, shared, priv, d);
            } else if (role == 1) {
              prod = q::Q2RoleBit(pool[k], shared, priv, d, lv);
              exact = ExactQ2Plus(rule, shared, priv, d);
            } else {
              prod = q::LdpqBit(pool[k], priv, lv);
              exact = ExactQ1Plus(rule, 0, priv, 0);
            }
            ++crafted;
            EXPECT_EQ(prod, exact) << "role " << role << " w=" << pool[k] << " V=" << v << " T=" << rule.T;
          }
        }
      }
    }
  }
  EXPECT_GE(decisions, 1000000u);
  std::printf("[replay] %llu stream decisions + %llu crafted boundary decisions bit-identical; max |T_prod - T_exact| "
              "= %llu (units of 2^-64); time %.2f s\n",
              static_cast<unsigned long long>(decisions), static_cast<unsigned long long>(crafted),
              static_cast<unsigned long long>(max_threshold_gap), Seconds(t0));
}

}  // namespace
