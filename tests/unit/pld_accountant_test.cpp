// The event accountant (reference/include/dpfl/ref/pld_accountant.hpp) against closed forms
// computed here in MPFI: compositions of Gaussians of different σ are one Gaussian with
// μ² = Σ K_i Δ²/σ_i²; K rounds of randomized response have an exact binomial hockey-stick sum;
// the analytic Gaussian calibration (Balle & Wang 2018) gives the least σ for one Gaussian.
#include <gtest/gtest.h>

#include "dpfl/ref/gaussian.hpp"
#include "dpfl/ref/pld_accountant.hpp"

namespace {

using dpfl::ref::Enclosure;
using dpfl::ref::Interval;
using dpfl::ref::Rational;
namespace pld = dpfl::ref::pld;

Rational R(const std::string& s) { return dpfl::ref::ParseRational(s, "test"); }

// δ(ε) of the Gaussian pair with μ = Δ/σ: Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ), μ given by μ².
Interval GaussianDelta(const Rational& mu2, const Rational& eps) {
  const mpfr_prec_t p = 128;
  const Enclosure mu = dpfl::ref::Sqrt(Enclosure(p, mu2));
  const Enclosure e(p, eps);
  using dpfl::ref::NormalCdf;
  return dpfl::ref::ToInterval(NormalCdf(mu / Rational(2) - e / mu) -
                               dpfl::ref::Exp(e) * NormalCdf(-mu / Rational(2) - e / mu));
}

TEST(PldAccountant, ComposedGaussiansOfDifferentSigmaBracketTheClosedForm) {
  pld::PldAccountant acc;
  acc.Compose(pld::DpEvent::Gaussian(R("5")), 20).Compose(pld::DpEvent::Gaussian(R("10"), R("2")), 30);
  // μ² = 20/25 + 30·4/100 = 2.
  for (const char* eps : {"0", "1/2", "1", "3"}) {
    const Interval exact = GaussianDelta(2, R(eps));
    const pld::DeltaBounds d = acc.GetDeltaBounds(R(eps));
    EXPECT_LE(d.lo, exact.lo()) << eps;
    EXPECT_GE(d.hi, exact.hi()) << eps;
    EXPECT_LE(d.hi - d.lo, d.hi * R("1/100")) << eps;  // the 0.2 % target is on ε; δ moves faster
    EXPECT_EQ(acc.GetDelta(R(eps)), d.hi);
  }
  EXPECT_EQ(acc.events().size(), 2u);
  EXPECT_EQ(acc.events()[0].Steps() + acc.events()[1].Steps(), 50u);
}

// K rounds of randomized response with keep probability p: the number of kept bits is
// Bin(K, p) under P, loss (2k − K)·log(p/(1 − p)); δ(ε) = Σ_k C(K,k) p^k (1−p)^{K−k} (1 − e^{ε − L_k})_+.
TEST(PldAccountant, RandomizedResponseRoundsBracketTheBinomialSum) {
  const Rational p = R("3/4");
  const int K = 40;
  pld::PldAccountant acc;
  acc.Compose(pld::DpEvent::SelfComposed(pld::DpEvent::RandomizedResponse(p), 4), 10);
  const Rational eps = R("5");
  const mpfr_prec_t prec = 128;
  const Enclosure l = dpfl::ref::Log(Enclosure(prec, Rational(p / (1 - p))));
  Enclosure exact(prec, 0L);
  Rational binom = 1;
  for (int k = 0; k <= K; ++k) {
    if (k > 0) binom = binom * (K - k + 1) / k;
    Rational w = binom;
    for (int i = 0; i < k; ++i) w *= p;
    for (int i = 0; i < K - k; ++i) w *= (1 - p);
    const Enclosure loss = Rational(2 * k - K) * l;
    const Enclosure f = Enclosure(prec, 1L) - dpfl::ref::Exp(Enclosure(prec, eps) - loss);
    if (dpfl::ref::CertainlyNonPositive(f)) continue;
    ASSERT_TRUE(dpfl::ref::CertainlyPositive(f)) << "a loss too close to eps for this check, k = " << k;
    exact = exact + w * f;
  }
  const Interval ex = dpfl::ref::ToInterval(exact);
  const pld::DeltaBounds d = acc.GetDeltaBounds(eps);
  EXPECT_LE(d.lo, ex.lo());
  EXPECT_GE(d.hi, ex.hi());
  EXPECT_GT(d.lo, 0);
}

TEST(PldAccountant, NothingComposedIsFreeAndBadInputIsNamed) {
  pld::PldAccountant acc;
  const pld::EpsilonBounds e = acc.GetEpsilonBounds(R("1e-5"));
  ASSERT_TRUE(e.lo && e.hi);
  EXPECT_EQ(*e.hi, 0);
  auto names = [](const std::function<void()>& f) -> std::string {
    try {
      f();
    } catch (const dpfl::InvalidArgument& x) {
      return x.argument();
    }
    return "(nothing thrown)";
  };
  EXPECT_EQ(names([] { (void)pld::DpEvent::Gaussian(0); }), "sigma");
  EXPECT_EQ(names([] { (void)pld::DpEvent::Gaussian(1, -1); }), "sensitivity");
  EXPECT_EQ(names([] { (void)pld::DpEvent::RandomizedResponse(R("1/2")); }), "p");
  EXPECT_EQ(names([] { (void)pld::DpEvent::PoissonSampled(0, pld::DpEvent::Gaussian(1)); }), "q");
  EXPECT_EQ(names([] { (void)pld::DpEvent::PoissonSampled(R("1/2"), pld::DpEvent::RandomizedResponse(R("3/4"))); }), "q");
  EXPECT_EQ(names([] { (void)pld::DpEvent::DiscreteLaplace(1, 0); }), "shift");
  EXPECT_EQ(names([] { (void)pld::DpEvent::Composed({}); }), "events");
  EXPECT_EQ(names([&] { acc.Compose(pld::DpEvent::Gaussian(1), 0); }), "count");
  EXPECT_EQ(names([&] { (void)acc.GetEpsilonBounds(R("1")); }), "delta");
  EXPECT_EQ(names([] { (void)pld::CalibrateGaussianSigma(0, R("1e-5"), 1); }), "epsilon");
  EXPECT_EQ(names([] { (void)pld::CalibrateGaussianSigma(1, R("1e-5"), 1, R("3/2")); }), "q");
}

// Steps() counts the single mechanisms: nested self-compositions multiply, compositions add, and
// both saturate at 2^64 − 1 instead of wrapping (a wrapped count once let huge products through).
TEST(PldAccountant, StepsMultiplyAddAndSaturate) {
  const pld::DpEvent g = pld::DpEvent::Gaussian(Rational(1));
  EXPECT_EQ(pld::DpEvent::SelfComposed(pld::DpEvent::SelfComposed(g, 1000), 3000).Steps(), 3000000u);
  EXPECT_EQ(pld::DpEvent::Composed({g, pld::DpEvent::SelfComposed(g, 7)}).Steps(), 8u);
  const pld::DpEvent big = pld::DpEvent::SelfComposed(pld::DpEvent::SelfComposed(g, std::uint64_t{1} << 40), std::uint64_t{1} << 40);
  EXPECT_EQ(big.Steps(), UINT64_MAX);
  EXPECT_EQ(pld::DpEvent::Composed({big, big}).Steps(), UINT64_MAX);
}

TEST(PldAccountant, DescribeNamesEveryPart) {
  const pld::DpEvent e = pld::DpEvent::Composed(
      {pld::DpEvent::PoissonSampled(R("1/100"), pld::DpEvent::Gaussian(R("11/10"))),
       pld::DpEvent::SelfComposed(pld::DpEvent::DiscreteGaussian(R("4"), 2), 3), pld::DpEvent::Laplace(2)});
  EXPECT_EQ(e.Describe(),
            "Composed(PoissonSampled(q=1/100, Gaussian(sigma=11/10, sensitivity=1)), SelfComposed(DiscreteGaussian(sigma2=4, "
            "shift=2), 3), Laplace(b=2, sensitivity=1))");
  EXPECT_EQ(e.Steps(), 5u);
}

// One Gaussian of sensitivity 1: the least σ for (1, 1e-5) is the analytic calibration's
// 3.7306316…; the bracket holds it and is at most 1 % wide.
TEST(PldAccountant, CalibrationBracketsTheAnalyticGaussianSigma) {
  const pld::SigmaBracket b = pld::CalibrateGaussianSigma(1, R("1e-5"), 1);
  const Interval analytic = dpfl::ref::AnalyticGaussianSigma(R("1"), R("1e-5"), R("1")).sigma;
  EXPECT_LE(b.lo, analytic.lo());
  EXPECT_GE(b.hi, analytic.hi());
  EXPECT_LE(b.hi - b.lo, b.hi * R("1/100"));
  EXPECT_GT(b.evaluations, 3);
}

// Poisson-sampled: the ends' verdicts hold when re-asked at a finer width.
TEST(PldAccountant, SubsampledCalibrationEndsKeepTheirVerdicts) {
  const Rational eps = 2, delta = R("1e-5"), q = R("1/100");
  const pld::SigmaBracket b = pld::CalibrateGaussianSigma(eps, delta, 500, q, R("1/50"));
  pld::AccountantOptions fine;
  fine.relative_width = R("1/2000");
  pld::PldAccountant at_hi(fine), at_lo(fine);
  at_hi.Compose(pld::DpEvent::PoissonSampled(q, pld::DpEvent::Gaussian(b.hi)), 500);
  at_lo.Compose(pld::DpEvent::PoissonSampled(q, pld::DpEvent::Gaussian(b.lo)), 500);
  const pld::EpsilonBounds h = at_hi.GetEpsilonBounds(delta), l = at_lo.GetEpsilonBounds(delta);
  ASSERT_TRUE(h.hi && l.lo);
  EXPECT_LE(*h.hi, eps);
  EXPECT_GT(*l.lo, eps);
  EXPECT_LE(b.hi - b.lo, b.hi * R("1/50"));
}

}  // namespace

namespace {

// Small δ after many steps: the double FFT's error bound at +∞ (~K·1e-12) is over 1e-2 of δ, the
// loop switches to long double FFTs (it says so), and the enclosure then meets 0.2 % (0.42 % without
// the switch); the result stays inside the enclosure of a coarser all-double pass.
TEST(PldAccountant, SmallDeltaAfterManyStepsSwitchesToLongDoubleFfts) {
  const auto build = [](const pld::GridOptions& g) { return pld::SubsampledGaussianPld(2, 1, R("1/10"), g); };
  pld::AccountOptions o;
  o.discretization = pld::Discretization::kConnectDots;
  o.relative_width = R("1/500");
  std::vector<std::string> lines;
  o.progress = [&](const std::string& l) { lines.push_back(l); };
  const pld::AccountResult r = pld::EpsilonOfComposition(build, 10000, R("1e-7"), o);
  ASSERT_TRUE(r.epsilon.lo && r.epsilon.hi);
  EXPECT_LE(*r.epsilon.hi - *r.epsilon.lo, *r.epsilon.hi * R("1/500"));
  bool said = false;
  for (const std::string& l : lines) said = said || l.find("long double") != std::string::npos;
  EXPECT_TRUE(said);
  pld::AccountOptions coarse;
  coarse.discretization = pld::Discretization::kConnectDots;
  coarse.step = R("1/256");
  coarse.compose.extended_fft = false;
  const pld::AccountResult c = pld::EpsilonOfComposition(build, 10000, R("1e-7"), coarse);
  ASSERT_TRUE(c.epsilon.lo && c.epsilon.hi);
  EXPECT_LE(*c.epsilon.lo, *r.epsilon.hi);
  EXPECT_LE(*r.epsilon.lo, *c.epsilon.hi);
}

}  // namespace
