// Exact noise for the gaussian/laplace baselines (docs/production.md, docs/reference.md).
//
//  * Reference (dpfl/ref/discrete_noise.hpp): the pmfs sum to 1; the closed-form discrete Laplace
//    normaliser and variance agree with direct sums with geometric tail bounds; the discrete
//    Gaussian normaliser agrees with the Poisson-summation (Jacobi theta) form
//    C_G = σ√(2π)(1 + 2Σ_{k≥1} e^{−2π²σ²k²}); direct and Euler–Maclaurin tail sums overlap;
//    ε = Δ/t exactly and attained; CKS Thm 7's δ equals a brute-force hockey-stick sum, equals
//    the total variation at ε = 0, and is close to the continuous analytic δ for large σ.
//  * Production (dpfl/fl/discrete_noise.hpp, mechanisms.hpp): exact rationals from doubles,
//    NoiseStream = StreamCursor word for word, uniform ranges, bad parameters, and the
//    mechanisms' laws: laplace ε implemented = ε_p exactly, gaussian δ implemented ≤ δ certified
//    by the reference over a grid of (ε_p, δ).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/fl/discrete_noise.hpp"
#include "dpfl/fl/mechanisms.hpp"
#include "dpfl/fl/stream_util.hpp"
#include "dpfl/ref/discrete_noise.hpp"
#include "dpfl/ref/gaussian.hpp"

namespace {

namespace ref = dpfl::ref;
namespace fl = dpfl::fl;
using dpfl::InvalidArgument;
using ref::DiscreteGaussianLaw;
using ref::DiscreteGaussianSum;
using ref::Enclosure;
using ref::Int;
using ref::Rational;

constexpr mpfr_prec_t kPrec = 128;

bool Overlap(const Enclosure& a, const Enclosure& b) { return !ref::CertainlyLess(a, b) && !ref::CertainlyLess(b, a); }
bool ContainsOne(const Enclosure& e) { return ref::Contains(e, Rational(1)); }
// The exact rational a double is (every double is a dyadic rational).
Rational Exact(double x) {
  int e = 0;
  const double f = std::frexp(x, &e);
  const auto m = static_cast<long long>(std::ldexp(f, 53));
  return Rational(m) * ref::Pow2(e - 53);
}
Rational FromRatio(const fl::Ratio128& q) { return ref::ParseRational(fl::ToString(q), "ratio"); }

template <class F>
void ExpectInvalid(F f, const std::string& name) {
  try {
    f();
    ADD_FAILURE() << "no InvalidArgument for " << name;
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.argument(), name) << e.what();
  }
}

// ---- reference: discrete Laplace -----------------------------------------------------------

TEST(RefDiscreteLaplace, PmfSumsToOneAndNormaliserMatchesDirectSum) {
  for (const Rational& t : {Rational(1, 3), Rational(1), Rational(37, 5), Rational(1000)}) {
    // Σ_{|z|≤K} pmf(z) + P(Z ≥ K+1) + P(Z ≤ −K−1) = 1.
    const long k = 20;
    Enclosure sum(kPrec, 0L);
    for (long z = -k; z <= k; ++z) sum += ref::DiscreteLaplacePmf(t, Int(z), kPrec);
    sum += Rational(2) * ref::DiscreteLaplaceUpperTail(t, Int(k + 1), kPrec);
    EXPECT_TRUE(ContainsOne(sum)) << ref::ToExactString(t);
    // P(Z ≥ a) for a ≤ 0 is the complement of the mirrored tail; P(Z ≥ 0) = (1 + P(0))/2.
    const Enclosure half = (Rational(1) + ref::DiscreteLaplacePmf(t, Int(0), kPrec)) / Rational(2);
    EXPECT_TRUE(Overlap(ref::DiscreteLaplaceUpperTail(t, Int(0), kPrec), half));
  }
  // Normaliser vs a direct sum: Σ_{|z|≤K} e^{−|z|/t} + 2·[0, e^{−(K+1)/t}/(1 − e^{−1/t})].
  const Rational t(37, 5);
  const long k = 2000;
  Enclosure direct(kPrec, 0L);
  for (long z = -k; z <= k; ++z) direct += ref::ExpQ(kPrec, Rational(-Rational(std::labs(z)) / t));
  const Enclosure tail = ref::ExpQ(kPrec, Rational(-Rational(k + 1) / t)) / (Rational(1) - ref::ExpQ(kPrec, Rational(-1 / t)));
  direct += ref::Hull(Enclosure(kPrec, 0L), Rational(2) * tail);
  EXPECT_TRUE(Overlap(direct, ref::DiscreteLaplaceNormalizer(t, kPrec)));
}

TEST(RefDiscreteLaplace, VarianceMatchesDirectSum) {
  for (const Rational& t : {Rational(1, 3), Rational(2), Rational(37, 5)}) {
    Enclosure direct(kPrec, 0L);
    for (long z = 1; z <= 3000; ++z) direct += Rational(2 * z * z) * ref::DiscreteLaplacePmf(t, Int(z), kPrec);
    // Omitted terms: 2 Σ_{z>3000} z² P(z) is below 10^-100 for these t (e^{−3000/7.4} ≈ 10^−176).
    direct += ref::Hull(Enclosure(kPrec, 0L), Enclosure(kPrec, ref::Pow2(-330)));
    EXPECT_TRUE(Overlap(direct, ref::DiscreteLaplaceVariance(t, kPrec))) << ref::ToExactString(t);
  }
  // Large t: Var = 2t² − 1/6 + O(1/t²) (expansion of 2q/(1−q)², q = e^{−1/t}).
  const Enclosure v = ref::DiscreteLaplaceVariance(Rational(1 << 20), kPrec);
  const Rational expect = Rational(2) * Rational(1LL << 40) - Rational(1, 6);
  EXPECT_NEAR((v - expect).MidDouble(), 0.0, 1e-9);
}

TEST(RefDiscreteLaplace, EpsilonIsSensitivityOverTAndAttained) {
  const Rational t(37, 5), delta(3);
  EXPECT_EQ(ref::DiscreteLaplaceEpsilon(t, delta), Rational(15, 37));
  // P(z)/P(z + Δ) = e^{Δ/t} for z ≥ 0 (attained), and ≤ e^{Δ/t} elsewhere.
  const Enclosure e = ref::ExpQ(kPrec, Rational(delta / t));
  for (long z : {-10L, -3L, -1L, 0L, 5L}) {
    const Enclosure ratio = ref::DiscreteLaplacePmf(t, Int(z), kPrec) / ref::DiscreteLaplacePmf(t, Int(z + 3), kPrec);
    if (z >= 0) {
      EXPECT_TRUE(Overlap(ratio, e)) << z;
    } else {
      EXPECT_FALSE(ref::CertainlyLess(e, ratio)) << z;
    }
  }
}

TEST(RefDiscreteLaplace, BadArguments) {
  ExpectInvalid([] { ref::DiscreteLaplaceEpsilon(Rational(0), Rational(1)); }, "t");
  ExpectInvalid([] { ref::DiscreteLaplaceEpsilon(Rational(-1), Rational(1)); }, "t");
  ExpectInvalid([] { ref::DiscreteLaplaceEpsilon(Rational(1), Rational(0)); }, "sensitivity");
  ExpectInvalid([] { ref::DiscreteLaplacePmf(Rational(0), Int(0), kPrec); }, "t");
  ExpectInvalid([] { ref::DiscreteLaplaceUpperTail(Rational(-2), Int(1), kPrec); }, "t");
  ExpectInvalid([] { ref::DiscreteLaplaceVariance(Rational(0), kPrec); }, "t");
}

// ---- reference: discrete Gaussian ----------------------------------------------------------

// Poisson summation: Σ_z e^{−z²/(2σ²)} = σ√(2π)·(1 + 2Σ_{k≥1} e^{−2π²σ²k²}); the terms k > 10
// sum to less than 2e^{−2π²σ²·121}/(1 − e^{−2π²σ²}).
Enclosure ThetaNormaliser(const Rational& sigma2) {
  const Enclosure pi = ref::Pi(kPrec);
  const Enclosure a = Rational(2) * pi * pi * sigma2;  // 2π²σ²
  Enclosure sum(kPrec, 1L);
  for (long k = 1; k <= 10; ++k) sum += Rational(2) * ref::Exp(-(a * Rational(k * k)));
  const Enclosure rest = Rational(2) * ref::Exp(-(a * Rational(121))) / (Rational(1) - ref::Exp(-a));
  sum += ref::Hull(Enclosure(kPrec, 0L), rest);
  return ref::SqrtQ(kPrec, sigma2) * ref::Sqrt(Rational(2) * pi) * sum;
}

TEST(RefDiscreteGaussian, NormaliserMatchesPoissonSummation) {
  for (const Rational& s2 : {Rational(1, 4), Rational(1), Rational(2), Rational(25, 3), Rational(400)}) {
    const DiscreteGaussianLaw law(s2, kPrec, DiscreteGaussianSum::kDirect);
    EXPECT_TRUE(Overlap(law.Normalizer(), ThetaNormaliser(s2))) << ref::ToExactString(s2);
    EXPECT_LT(law.Normalizer().WidthDouble(), 1e-30);
  }
  // Euler–Maclaurin: relative error below 1/(30σ⁴), i.e. relative width below 1/(15σ⁴).
  for (const Rational& s2 : {Rational(400), Rational(10000), Rational(1LL << 40)}) {
    const DiscreteGaussianLaw law(s2, kPrec, DiscreteGaussianSum::kEulerMaclaurin);
    EXPECT_TRUE(Overlap(law.Normalizer(), ThetaNormaliser(s2))) << ref::ToExactString(s2);
    const double sigma = std::sqrt(static_cast<double>(s2));
    EXPECT_LT(law.Normalizer().WidthDouble() / law.Normalizer().MidDouble(), (1 + 1e-9) / (15 * std::pow(sigma, 4)));
  }
}

TEST(RefDiscreteGaussian, PmfSumsToOneBothMethods) {
  for (const Rational& s2 : {Rational(1, 4), Rational(2), Rational(25, 3), Rational(400)}) {
    for (DiscreteGaussianSum m : {DiscreteGaussianSum::kDirect, DiscreteGaussianSum::kEulerMaclaurin}) {
      if (m == DiscreteGaussianSum::kEulerMaclaurin && s2 < 8) continue;  // EM bound is loose for σ < 3
      const DiscreteGaussianLaw law(s2, kPrec, m);
      const long k = 30;
      Enclosure sum(kPrec, 0L);
      for (long z = -k; z <= k; ++z) sum += law.Pmf(Int(z));
      sum += Rational(2) * law.UpperTail(Int(k + 1));
      EXPECT_TRUE(ContainsOne(sum)) << ref::ToExactString(s2);
      // P(−5 ≤ Z ≤ 5) + P(Z ≥ 6) + P(Z ≤ −6) = 1, the range summed directly.
      EXPECT_TRUE(ContainsOne(law.RangeProbability(Int(-5), Int(5)) + Rational(2) * law.UpperTail(Int(6))));
      // A range of ≥ 64 points is a difference of tails.
      EXPECT_TRUE(ContainsOne(law.RangeProbability(Int(-100), Int(100)) + Rational(2) * law.UpperTail(Int(101))));
    }
  }
}

TEST(RefDiscreteGaussian, DirectAndEulerMaclaurinTailsOverlap) {
  for (const Rational& s2 : {Rational(50), Rational(400), Rational(10000), Rational(1000000)}) {
    const DiscreteGaussianLaw direct(s2, kPrec, DiscreteGaussianSum::kDirect);
    const DiscreteGaussianLaw em(s2, kPrec, DiscreteGaussianSum::kEulerMaclaurin);
    const double sigma = std::sqrt(static_cast<double>(s2));
    for (double u : {0.0, 0.3, 1.0, 2.0, 2.5, 4.0, 8.0}) {
      const Int a(static_cast<long>(u * sigma));
      const Enclosure x = direct.UpperTail(a), y = em.UpperTail(a);
      EXPECT_TRUE(Overlap(x, y)) << ref::ToExactString(s2) << " a=" << a;
      // Relative width of the Euler–Maclaurin tail: about u⁴/(360σ⁴) at a = uσ ≥ 2.34σ.
      if (s2 >= 10000) {
        EXPECT_LT(y.WidthDouble(), 1e-4 * y.MidDouble()) << ref::ToExactString(s2) << " a=" << a;
      }
    }
  }
}

// δ by definition: Σ_z max(0, P(z) − e^ε P(z − Δ)) over |z| ≤ K, plus [0, P(|Z| > K)] for the rest.
Enclosure BruteForceDelta(const Rational& eps, const Rational& s2, long delta_sens, long k) {
  const DiscreteGaussianLaw law(s2, kPrec, DiscreteGaussianSum::kDirect);
  const Enclosure e = ref::ExpQ(kPrec, eps);
  Enclosure sum(kPrec, 0L);
  for (long z = -k; z <= k; ++z) {
    const Enclosure term = law.Pmf(Int(z)) - e * law.Pmf(Int(z - delta_sens));
    if (ref::CertainlyPositive(term)) sum += term;
    else if (!ref::CertainlyNegative(term)) ADD_FAILURE() << "undecided sign at z = " << z;
  }
  return sum + ref::Hull(Enclosure(kPrec, 0L), Rational(2) * law.UpperTail(Int(k + 1)));
}

TEST(RefDiscreteGaussian, DeltaIsTheHockeyStickDivergence) {
  struct Case {
    Rational eps, s2;
    long sens;
  };
  // The privacy loss (Δ² − 2yΔ)/(2σ²) never equals ε at an integer y in these cases.
  for (const Case& c : {Case{Rational(1, 3), Rational(5, 2), 2}, Case{Rational(1), Rational(7), 3},
                        Case{Rational(2, 7), Rational(30), 5}, Case{Rational(5, 2), Rational(1, 2), 1}}) {
    const Enclosure thm7 = ref::DiscreteGaussianDeltaEnclosure(c.eps, c.s2, Rational(c.sens), kPrec);
    const Enclosure brute = BruteForceDelta(c.eps, c.s2, c.sens, 200);
    EXPECT_TRUE(Overlap(thm7, brute)) << ref::ToExactString(c.eps) << " " << ref::ToExactString(c.s2);
    EXPECT_GT(thm7.LoDouble(), 0.0);
  }
  // ε = 0, Δ = 1: δ = P(Z > −1/2) − P(Z > 1/2) = P(Z = 0), the total variation of a unit shift.
  const DiscreteGaussianLaw law(Rational(3), kPrec);
  EXPECT_TRUE(Overlap(ref::DiscreteGaussianDeltaEnclosure(Rational(0), Rational(3), Rational(1), kPrec), law.Pmf(Int(0))));
}

TEST(RefDiscreteGaussian, DeltaCloseToContinuousForLargeSigmaAndMonotone) {
  // σ = 3000, Δ = 1000: the discrete and the continuous (Balle & Wang) δ agree to 10^-3 relative.
  for (const Rational& eps : {Rational(1, 10), Rational(1), Rational(3)}) {
    const ref::Interval discrete = ref::DiscreteGaussianDelta(eps, Rational(9000000), Rational(1000));
    const ref::Interval continuous = ref::AnalyticGaussianDelta(eps, Rational(3000), Rational(1000));
    const double d = static_cast<double>(discrete.Mid()), c = static_cast<double>(continuous.Mid());
    EXPECT_NEAR(d / c, 1.0, 1e-3) << ref::ToExactString(eps);
  }
  // δ decreases in ε and in σ².
  const Rational s2(90), sens(4);
  const Enclosure d1 = ref::DiscreteGaussianDeltaEnclosure(Rational(1, 2), s2, sens, kPrec);
  const Enclosure d2 = ref::DiscreteGaussianDeltaEnclosure(Rational(1), s2, sens, kPrec);
  const Enclosure d3 = ref::DiscreteGaussianDeltaEnclosure(Rational(1), Rational(120), sens, kPrec);
  EXPECT_TRUE(ref::CertainlyLess(d2, d1));
  EXPECT_TRUE(ref::CertainlyLess(d3, d2));
}

TEST(RefDiscreteGaussian, BadArguments) {
  ExpectInvalid([] { DiscreteGaussianLaw(Rational(0), kPrec); }, "sigma2");
  ExpectInvalid([] { DiscreteGaussianLaw(Rational(-1, 2), kPrec); }, "sigma2");
  ExpectInvalid([] { DiscreteGaussianLaw(Rational(1), 8); }, "precision");
  ExpectInvalid([] { DiscreteGaussianLaw(Rational(1), kPrec).TailSum(Int(-1)); }, "a");
  ExpectInvalid([] { ref::DiscreteGaussianDelta(Rational(-1), Rational(1), Rational(1)); }, "eps");
  ExpectInvalid([] { ref::DiscreteGaussianDelta(Rational(1), Rational(0), Rational(1)); }, "sigma2");
  ExpectInvalid([] { ref::DiscreteGaussianDelta(Rational(1), Rational(1), Rational(1, 2)); }, "sensitivity");
  ExpectInvalid([] { ref::DiscreteGaussianDelta(Rational(1), Rational(1), Rational(0)); }, "sensitivity");
  ExpectInvalid([] { ref::DiscreteGaussianDelta(Rational(1), Rational(1), Rational(1), 16); }, "precision");
}

// ---- production: rationals, streams, samplers' domains -------------------------------------

TEST(ProdDiscreteNoise, ExactRatioOfDoubles) {
  for (double x : {1.0, 3.0, 0.1, 1.0 / 3, 30.0, 0x1.0p-28, 0x1.fffffffffffffp-20, 1e-5, 12345.678}) {
    const fl::Ratio128 q = fl::ExactRatio(x, "x");
    EXPECT_EQ(FromRatio(q), Exact(x)) << x;
  }
  EXPECT_EQ(fl::ToString(fl::ExactRatio(0.75, "x")), "3/4");
  EXPECT_EQ(fl::ToString(fl::ExactRatio(6.0, "x")), "6");
  EXPECT_EQ(fl::ToString(fl::MakeRatio(12, 18, "x")), "2/3");
  for (double bad : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                     -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::denorm_min(), 0x1.0p-80 * 1.1,
                     0x1.0p130})
    ExpectInvalid([&] { fl::ExactRatio(bad, "x"); }, "x");
  ExpectInvalid([] { fl::MakeRatio(0, 1, "x"); }, "x");
  ExpectInvalid([] { fl::MakeRatio(1, 0, "x"); }, "x");
}

dpfl::quant::StreamContext Ctx(dpfl::rng::Generator gen, std::uint32_t seed) {
  dpfl::quant::StreamContext ctx;
  ctx.generator = gen;
  ctx.key = fl::DeriveKey(seed, "discrete-noise-unit");
  ctx.round = 3;
  return ctx;
}

TEST(ProdDiscreteNoise, NoiseStreamReadsTheStreamCursorWords) {
  for (auto gen : {dpfl::rng::Generator::kChaCha20, dpfl::rng::Generator::kPhilox4x32}) {
    // Starts inside, at and just past the 128-word buffers of the fast generators, read across several.
    for (std::uint64_t first : {std::uint64_t{0}, std::uint64_t{5}, std::uint64_t{13}, std::uint64_t{127},
                                std::uint64_t{128}, std::uint64_t{129}, (std::uint64_t{1} << 20) - 1}) {
      const dpfl::rng::StreamAddress addr{3, 9, dpfl::rng::Purpose::kPrivateCoin};
      fl::NoiseStream s(Ctx(gen, 1), addr, first);
      fl::StreamCursor c;
      c.ctx = Ctx(gen, 1);
      c.addr = addr;
      c.index = first;
      for (int i = 0; i < 400; ++i) ASSERT_EQ(s.Next(), c.Next()) << i;
      EXPECT_EQ(s.index(), first + 400);
    }
  }
  // The ChaCha20 block counter is 32 bits: the stream ends at 2^35 words instead of wrapping.
  fl::NoiseStream end(Ctx(dpfl::rng::Generator::kChaCha20, 1), {0, 0, dpfl::rng::Purpose::kPrivateCoin},
                      dpfl::rng::kChaChaMaxIndex - 1);
  EXPECT_NO_THROW(end.Next());
  EXPECT_THROW(end.Next(), std::overflow_error);
}

TEST(ProdDiscreteNoise, UniformsStayBelowTheirBound) {
  fl::NoiseStream s(Ctx(dpfl::rng::Generator::kChaCha20, 2), {0, 0, dpfl::rng::Purpose::kPrivateCoin});
  const fl::Uint128 one = 1;
  for (fl::Uint128 bound : {one, one << 1, fl::Uint128{3}, one << 63, (one << 64) - 1, one << 64, (one << 64) + 1,
                            (one << 96) + 12345, (one << 127) + 1, ~fl::Uint128{0}}) {
    bool saw_high_half = false;
    for (int i = 0; i < 200; ++i) {
      const fl::Uint128 v = s.Below128(bound);
      ASSERT_LT(v, bound);
      saw_high_half |= v >= bound / 2;
    }
    if (bound > 1) {
      EXPECT_TRUE(saw_high_half);  // probability of failure 2^−200
    }
  }
  EXPECT_EQ(s.Below(1), 0u);
}

TEST(ProdDiscreteNoise, BernoulliEdgeCasesConsumeNoWords) {
  fl::NoiseStream s(Ctx(dpfl::rng::Generator::kChaCha20, 3), {0, 0, dpfl::rng::Purpose::kPrivateCoin});
  EXPECT_FALSE(fl::BernoulliRatio(s, 0, 7));
  EXPECT_TRUE(fl::BernoulliRatio(s, 7, 7));
  EXPECT_TRUE(fl::BernoulliExpMinus(s, 0, 5));  // e^0
  EXPECT_EQ(s.index(), 0u);
}

TEST(ProdDiscreteNoise, SamplerDomains) {
  const fl::Uint128 one = 1;
  ExpectInvalid([] { fl::DiscreteLaplace(fl::Ratio128{0, 1}); }, "t");
  ExpectInvalid([] { fl::DiscreteLaplace(fl::Ratio128{1, 0}); }, "t");
  ExpectInvalid([&] { fl::DiscreteLaplace(fl::Ratio128{(one << 48) + 1, 1}); }, "t");
  ExpectInvalid([&] { fl::DiscreteLaplace(fl::Ratio128{(one << 49) + 1, 2}); }, "t");
  ExpectInvalid([&] { fl::DiscreteLaplace(fl::Ratio128{(one << 96) + 1, 3}); }, "t");
  EXPECT_NO_THROW(fl::DiscreteLaplace(fl::Ratio128{one << 48, 1}));
  EXPECT_EQ(fl::DiscreteLaplace(fl::Ratio128{10, 4}).scale(), (fl::Ratio128{5, 2}));
  ExpectInvalid([] { fl::DiscreteGaussian(fl::Ratio128{0, 1}); }, "sigma2");
  ExpectInvalid([] { fl::DiscreteGaussian(fl::Ratio128{1, 0}); }, "sigma2");
  ExpectInvalid([&] { fl::DiscreteGaussian(fl::Ratio128{one << 64, 1}); }, "sigma2");
  ExpectInvalid([&] { fl::DiscreteGaussian(fl::Ratio128{1, one << 64}); }, "sigma2");
  // t = ⌊σ⌋ + 1 by an exact integer square root, also at perfect squares.
  EXPECT_EQ(fl::DiscreteGaussian(fl::Ratio128{16, 1}).proposal_scale(), 5u);
  EXPECT_EQ(fl::DiscreteGaussian(fl::Ratio128{15, 1}).proposal_scale(), 4u);
  EXPECT_EQ(fl::DiscreteGaussian(fl::Ratio128{1, 4}).proposal_scale(), 1u);
  EXPECT_EQ(fl::DiscreteGaussian(fl::Ratio128{(one << 64) - 1, 1}).proposal_scale(), (std::uint64_t{1} << 32));
  EXPECT_TRUE(fl::DiscreteGaussian(fl::Ratio128{15302605846251, 1}).fast_path());
  EXPECT_FALSE(fl::DiscreteGaussian(fl::Ratio128{(one << 64) - 1, 1}).fast_path());
}

TEST(ProdDiscreteNoise, LaplaceVarianceMatchesReference) {
  for (const fl::Ratio128& t : {fl::Ratio128{1, 3}, fl::Ratio128{2, 1}, fl::Ratio128{37, 5}, fl::Ratio128{1000, 1},
                                fl::Ratio128{fl::Uint128{1} << 40, 1}, fl::ExactRatio(0x1.0p20 / 0.1, "t")}) {
    const double prod = fl::DiscreteLaplace(t).Variance();
    EXPECT_NEAR(prod / ref::DiscreteLaplaceVariance(FromRatio(t), kPrec).MidDouble(), 1.0, 1e-12) << fl::ToString(t);
  }
}

// ---- production: the mechanisms' laws, certified by the reference --------------------------

TEST(ProdDiscreteNoise, LaplaceImplementsEpsilonExactly) {
  fl::MechanismConfig cfg;
  cfg.kind = fl::MechanismKind::kLaplace;
  for (double eps : {1.0, 0.1, 1.0 / 3, 2.5, 30.0, 0x1.0p-28, 0.7071067811865476}) {
    cfg.eps_p = eps;
    const fl::DiscreteNoiseLaw law = fl::DiscreteNoiseLawFor(cfg);
    EXPECT_EQ(law.grid_steps, fl::kNoiseGridSteps);
    const Rational t = FromRatio(law.laplace_scale);
    EXPECT_EQ(t, Rational(fl::kNoiseGridSteps) / Exact(eps)) << eps;
    EXPECT_EQ(ref::DiscreteLaplaceEpsilon(t, Rational(fl::kNoiseGridSteps)), Exact(eps)) << eps;
    EXPECT_NO_THROW(fl::DiscreteLaplace{law.laplace_scale});
  }
  cfg.eps_p = 0x1.0p-29;
  ExpectInvalid([&] { fl::DiscreteNoiseLawFor(cfg); }, "--eps-p");
  for (double bad : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    cfg.eps_p = bad;
    ExpectInvalid([&] { fl::DiscreteNoiseLawFor(cfg); }, "--eps-p");
  }
  cfg.kind = fl::MechanismKind::kCorBinFl;
  cfg.eps_p = 1;
  ExpectInvalid([&] { fl::DiscreteNoiseLawFor(cfg); }, "--mechanism");
}

TEST(ProdDiscreteNoise, GaussianCalibrationIsCertifiedByTheReference) {
  // The δ of N_Z(0, σ²) at ε_p for sensitivity N (CKS Thm 7, enclosed by the reference) is ≤ δ,
  // and the 2^−20 margin costs little: δ_implemented ≥ δ/2.
  fl::MechanismConfig cfg;
  cfg.kind = fl::MechanismKind::kGaussian;
  for (double eps : {0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0}) {
    for (double delta : {1e-3, 1e-5, 1e-8, 1e-12}) {
      cfg.eps_p = eps;
      cfg.delta = delta;
      const fl::DiscreteNoiseLaw law = fl::DiscreteNoiseLawFor(cfg);
      ASSERT_EQ(law.gaussian_sigma2.den, 1u);
      const ref::Interval d =
          ref::DiscreteGaussianDelta(Exact(eps), FromRatio(law.gaussian_sigma2), Rational(fl::kNoiseGridSteps));
      EXPECT_LE(d.hi(), Exact(delta)) << "eps " << eps << " delta " << delta;
      EXPECT_GE(d.lo(), Exact(delta) / 2) << "eps " << eps << " delta " << delta;
    }
  }
  cfg.eps_p = 1e-4;
  cfg.delta = 1e-5;
  ExpectInvalid([&] { fl::DiscreteNoiseLawFor(cfg); }, "--eps-p");  // σ² ≥ 2^64
  cfg.eps_p = 1;
  for (double bad : {0.0, 1.0, -1e-5, std::numeric_limits<double>::quiet_NaN()}) {
    cfg.delta = bad;
    ExpectInvalid([&] { fl::DiscreteNoiseLawFor(cfg); }, "--delta");
  }
}

TEST(ProdDiscreteNoise, GridIndexValueAndMonitorScale) {
  const fl::LayerRange range{0, 10, 0.25, 0.5};
  const fl::NoiseGrid grid = fl::NoiseGridFor(range);
  EXPECT_EQ(grid.lo, -0.25);
  EXPECT_EQ(grid.step, 1.0 / fl::kNoiseGridSteps);
  EXPECT_EQ(fl::GridIndex(grid, -0.25), 0);
  EXPECT_EQ(fl::GridIndex(grid, 0.75), fl::kNoiseGridSteps);
  EXPECT_EQ(fl::GridIndex(grid, -1.0), 0);  // outside: clamped (the caller clips first)
  EXPECT_EQ(fl::GridIndex(grid, 9.0), fl::kNoiseGridSteps);
  EXPECT_EQ(fl::GridIndex(grid, -0.25 + 3.4 / fl::kNoiseGridSteps), 3);
  EXPECT_EQ(fl::GridIndex(grid, -0.25 + 3.6 / fl::kNoiseGridSteps), 4);
  EXPECT_EQ(fl::GridValue(grid, 0), -0.25f);
  EXPECT_EQ(fl::GridValue(grid, fl::kNoiseGridSteps), 0.75f);
  EXPECT_EQ(fl::GridValue(grid, -fl::kNoiseGridSteps), -1.25f);
  for (double bad_r : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(), 1e-310})
    ExpectInvalid([&] { fl::NoiseGridFor(fl::LayerRange{0, 1, 0.0, bad_r}); }, "r");
  ExpectInvalid([] { fl::NoiseGridFor(fl::LayerRange{0, 1, std::numeric_limits<double>::infinity(), 1.0}); }, "r");

  fl::MechanismConfig cfg;
  cfg.kind = fl::MechanismKind::kLaplace;
  cfg.eps_p = 2;
  const fl::DiscreteNoise laplace = fl::DiscreteNoiseFor(cfg, range);
  // b of the continuous Laplace with the discrete law's variance: t·g = 2r/ε_p = 0.5 to O(1/t²).
  EXPECT_NEAR(fl::MonitorNoiseScale(laplace), 0.5, 1e-9);
  cfg.kind = fl::MechanismKind::kGaussian;
  cfg.eps_p = 1;
  cfg.delta = 1e-5;
  const fl::DiscreteNoise gauss = fl::DiscreteNoiseFor(cfg, range);
  EXPECT_NEAR(fl::MonitorNoiseScale(gauss), std::sqrt(static_cast<double>(gauss.law.gaussian_sigma2.num)) * grid.step, 1e-12);
  // ≈ the continuous analytic σ for Δ = 2r = 1 (Balle & Wang: 3.73 at ε = 1, δ = 10^-5).
  EXPECT_NEAR(fl::MonitorNoiseScale(gauss), fl::AnalyticGaussianSigma(1, 1e-5, 1.0), 1e-5);
}

}  // namespace
