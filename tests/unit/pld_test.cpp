// The PLD accountant (reference/include/dpfl/ref/pld*.hpp) against exact arithmetic, closed forms,
// independent brute force, published dp_accounting numbers and the RDP accountant.
//
// Every check is a containment of an independently computed truth in the printed enclosure, or of
// the enclosure in a bracket that is itself certified (never a comparison of the PLD code with
// itself). Published numbers are cited with their source; their own tolerance is added.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "dpfl/ref/accountant.hpp"
#include "dpfl/ref/discrete_noise.hpp"
#include "dpfl/ref/gaussian.hpp"
#include "dpfl/ref/pld_mechanisms.hpp"
#include "dpfl/ref/randomized_response.hpp"

namespace {

using dpfl::ref::Enclosure;
using dpfl::ref::Interval;
using dpfl::ref::Rational;
namespace pld = dpfl::ref::pld;

Rational R(const std::string& s) { return dpfl::ref::ParseRational(s, "test"); }
double D(const Rational& x) { return x.convert_to<double>(); }

pld::GridOptions Grid(const Rational& step) { return pld::GridOptions{step, 1e-18, 64}; }

// ---- convolution: the FFT and direct bounds contain the exact convolution ------------------
std::vector<double> RandomMasses(std::mt19937_64& g, std::size_t n, double total) {
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<double> v(n);
  double s = 0;
  for (double& x : v) {
    x = u(g) * u(g) * u(g);  // skewed, with small entries
    s += x;
  }
  for (double& x : v) x *= total / s;
  return v;
}

std::vector<Rational> ExactConvolution(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<Rational> c(a.size() + b.size() - 1, Rational(0));
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j) c[i + j] += Rational(a[i]) * Rational(b[j]);
  return c;
}

// The contract (pld.hpp): direct path entrywise; FFT path up to a total, upper + missing = exact
// with Σ missing ≤ upper_extra, lower − excess ≤ exact with Σ excess ≤ lower_deficit.
void ExpectContract(const pld::ConvolutionBounds& c, const std::vector<Rational>& exact_up,
                    const std::vector<Rational>& exact_lo, const std::string& what) {
  ASSERT_EQ(c.upper.size(), exact_up.size());
  ASSERT_EQ(c.lower.size(), exact_lo.size());
  Rational missing = 0, excess = 0, worst = 0;
  for (std::size_t k = 0; k < exact_up.size(); ++k) {
    const Rational d = exact_up[k] - Rational(c.upper[k]);
    if (d > 0) missing += d;
    worst = dpfl::ref::Max(worst, dpfl::ref::Abs(d));
    EXPECT_GE(c.upper[k], 0.0);
  }
  for (std::size_t k = 0; k < exact_lo.size(); ++k) {
    const Rational d = Rational(c.lower[k]) - exact_lo[k];
    if (d > 0) excess += d;
    EXPECT_GE(c.lower[k], 0.0);
  }
  EXPECT_LE(missing, Rational(c.upper_extra)) << what;
  EXPECT_LE(excess, Rational(c.lower_deficit)) << what;
  // Not vacuous: the stated bounds and the actual error stay near double rounding.
  EXPECT_LT(c.upper_extra, 1e-11) << what;
  EXPECT_LT(D(worst), 1e-14) << what;
}

TEST(PldConvolution, FftAndDirectBoundsContainTheExactConvolution) {
  std::mt19937_64 g(20261126);
  for (const auto& [na, nb, force] : std::vector<std::tuple<std::size_t, std::size_t, bool>>{
           {3, 5, false}, {40, 300, false}, {200, 150, true}, {257, 31, true}, {600, 500, true}}) {
    const auto a_up = RandomMasses(g, na, 1.0), b_up = RandomMasses(g, nb, 1.0);
    std::vector<double> a_lo = a_up, b_lo = b_up;
    for (double& x : a_lo) x *= 0.999;
    for (double& x : b_lo) x *= 0.998;
    const pld::ConvolutionBounds c = pld::ConvolveBounds(a_up, b_up, a_lo, b_lo, force);
    const std::string what = std::to_string(na) + "x" + std::to_string(nb);
    ExpectContract(c, ExactConvolution(a_up, b_up), ExactConvolution(a_lo, b_lo), what);
    if (force) {
      EXPECT_GT(c.fft_error, 0.0) << what;
      EXPECT_GT(c.upper_extra, 0.0) << what;
    } else {  // direct: entrywise, nothing missing
      EXPECT_EQ(c.upper_extra, 0.0);
      EXPECT_EQ(c.lower_deficit, 0.0);
    }
  }
}

TEST(PldConvolution, SquaringPathKeepsTheContract) {
  std::mt19937_64 g(7);
  const auto a = RandomMasses(g, 500, 1.0);
  const auto lo = a;
  const pld::ConvolutionBounds sq = pld::ConvolveBounds(a, a, lo, lo, true);
  const auto exact = ExactConvolution(a, a);
  ExpectContract(sq, exact, exact, "square");
}

// The long double path (ComposeOptions::extended_fft): the same contract against exact rational
// convolutions, with an error bound at least 200 times below the double path's on the same input.
TEST(PldConvolution, LongDoublePathKeepsTheContractWithASmallerBound) {
  std::mt19937_64 g(20261129);
  for (const auto& [na, nb] : std::vector<std::pair<std::size_t, std::size_t>>{{200, 150}, {600, 500}, {257, 31}}) {
    const auto a_up = RandomMasses(g, na, 1.0), b_up = RandomMasses(g, nb, 1.0);
    std::vector<double> a_lo = a_up, b_lo = b_up;
    for (double& x : a_lo) x *= 0.999;
    const pld::ConvolutionBounds ext = pld::ConvolveBounds(a_up, b_up, a_lo, b_lo, true, true);
    const pld::ConvolutionBounds dbl = pld::ConvolveBounds(a_up, b_up, a_lo, b_lo, true, false);
    const std::string what = "long double " + std::to_string(na) + "x" + std::to_string(nb);
    ExpectContract(ext, ExactConvolution(a_up, b_up), ExactConvolution(a_lo, b_lo), what);
    EXPECT_GT(ext.upper_extra, 0.0) << what;
    EXPECT_LT(ext.upper_extra * 200, dbl.upper_extra) << what;  // the rounding to double (~2e-16) stays
    EXPECT_LT(ext.fft_error * 1000, dbl.fft_error) << what;
  }
  const auto a = RandomMasses(g, 500, 1.0);
  const pld::ConvolutionBounds sq = pld::ConvolveBounds(a, a, a, a, true, true);
  ExpectContract(sq, ExactConvolution(a, a), ExactConvolution(a, a), "long double square");
}

// ---- discretization ------------------------------------------------------------------------
TEST(PldDiscretization, RandomizedResponseLossIsRoundedOutward) {
  // p = 3/4: losses ±ln 3 = ±1.0986…; grid 1/64: ln 3·64 = 70.31…, so upper 71/64, lower 70/64.
  const pld::PldPair rr = pld::RandomizedResponsePld(R("3/4"), Grid(R("1/64")));
  EXPECT_FALSE(rr.backward.has_value());
  const pld::GridMeasure& up = rr.forward.upper;
  const pld::GridMeasure& lo = rr.forward.lower;
  EXPECT_EQ(up.offset, -70);  // −70.31 rounds up to −70
  EXPECT_EQ(static_cast<std::int64_t>(up.mass.size()), 71 + 70 + 1);
  EXPECT_GE(Rational(up.mass.back()), R("3/4"));
  EXPECT_GE(Rational(up.mass.front()), R("1/4"));
  EXPECT_EQ(lo.offset, -71);
  EXPECT_LE(Rational(lo.mass.back()), R("3/4"));
  EXPECT_EQ(up.infinity, 0.0);
}

TEST(PldDiscretization, InfiniteLossGoesToTheAtom) {
  const std::vector<Rational> p = {R("1/2"), R("1/4"), R("1/4")}, q = {R("3/4"), R("1/4"), R("0")};
  const pld::PldPair pair = pld::TwoPmfPld(p, q, Grid(R("1/128")));
  EXPECT_GE(Rational(pair.forward.upper.infinity), R("1/4"));
  EXPECT_LE(Rational(pair.forward.lower.infinity), R("1/4"));
  EXPECT_GT(pair.forward.lower.infinity, 0.2499);
  // δ(ε) ≥ 1/4 for every ε: ε(0.1) = +∞ on both ends.
  const pld::EpsilonBounds e = pld::EpsilonForDelta(pair, R("0.1"));
  EXPECT_FALSE(e.lo.has_value());
  EXPECT_FALSE(e.hi.has_value());
  // The reverse direction has no infinite loss: ε(0.1) finite there.
  const pld::EpsilonBounds back = pld::EpsilonForDelta(*pair.backward, R("0.1"));
  EXPECT_TRUE(back.hi.has_value());
}

// ---- closed forms --------------------------------------------------------------------------
// K-fold Gaussian with noise σ and sensitivity 1 is one Gaussian with μ = √K/σ; for K = 1024,
// σ = 20 that is σ_eff = 5/8, whose δ(ε) and ε(δ) the analytic (Balle–Wang) code encloses.
TEST(PldGaussian, ComposedEnclosureContainsTheAnalyticEpsilonAndDelta) {
  const pld::AccountResult r = pld::EpsilonOfComposition(
      [](const pld::GridOptions& g) { return pld::GaussianPld(20, 1, g); }, 1024, R("1e-5"));
  ASSERT_TRUE(r.epsilon.lo && r.epsilon.hi);
  const dpfl::ref::AnalyticEpsilon truth = dpfl::ref::AnalyticGaussianEpsilon(R("5/8"), R("1e-5"), 1);
  EXPECT_LE(*r.epsilon.lo, truth.epsilon.lo());
  EXPECT_GE(*r.epsilon.hi, truth.epsilon.hi());
  EXPECT_LE(*r.epsilon.hi - *r.epsilon.lo, R("0.01") * *r.epsilon.hi);
  // δ at a few ε from one composed PLD at a fixed step.
  pld::PldPair one = pld::GaussianPld(20, 1, Grid(R("1/16384")));
  const pld::PldPair composed = pld::SelfCompose(one, 1024);
  for (const char* eps : {"0", "1", "4", "7.5"}) {
    const pld::DeltaBounds d = pld::DeltaForEpsilon(composed, R(eps));
    const Interval exact = dpfl::ref::AnalyticGaussianDelta(R(eps), R("5/8"), 1);
    EXPECT_LE(d.lo, exact.lo()) << eps;
    EXPECT_GE(d.hi, exact.hi()) << eps;
  }
}

// The speed case, σ = 20, Δ = 1, 1000 compositions, δ = 1e-5: √1000/20 is irrational, so
// σ_eff = 20/√1000 is bracketed by rationals and ε(σ) is decreasing: ε_true lies between the
// analytic ε at the bracket's ends, which the enclosure must contain.
TEST(PldGaussian, SpeedCaseEnclosesTheTruthWithinOnePercent) {
  const pld::AccountResult r = pld::EpsilonOfComposition(
      [](const pld::GridOptions& g) { return pld::GaussianPld(20, 1, g); }, 1000, R("1e-5"));
  ASSERT_TRUE(r.epsilon.lo && r.epsilon.hi);
  // 0.6324555 < 20/√1000 = 0.632455532… < 0.6324556 (squares: 0.39999996… < 0.4 < 0.40000009…)
  ASSERT_LT(R("0.6324555") * R("0.6324555"), R("0.4"));
  ASSERT_GT(R("0.6324556") * R("0.6324556"), R("0.4"));
  const auto larger = dpfl::ref::AnalyticGaussianEpsilon(R("0.6324555"), R("1e-5"), 1);
  const auto smaller = dpfl::ref::AnalyticGaussianEpsilon(R("0.6324556"), R("1e-5"), 1);
  EXPECT_LE(*r.epsilon.lo, smaller.epsilon.lo());
  EXPECT_GE(*r.epsilon.hi, larger.epsilon.hi());
  EXPECT_LE(*r.epsilon.hi - *r.epsilon.lo, R("0.01") * *r.epsilon.hi);
}

// Laplace, one release: δ(ε) = 1 − e^{(ε − Δ/b)/2} on [0, Δ/b] (dp_accounting
// privacy_loss_mechanism_test.py, test_laplace_get_delta_for_epsilon: b = 2, Δ = 4 gives
// 0.6321205588, 0.5276334473, 0.3934693403, 0.0 at ε = 0, 0.5, 1, 2 — the same closed form).
TEST(PldLaplace, SingleReleaseMatchesTheClosedForm) {
  const pld::PldPair lap = pld::LaplacePld(2, 4, Grid(R("1/4096")));
  for (const char* eps : {"0", "0.5", "1", "1.9"}) {
    const pld::DeltaBounds d = pld::DeltaForEpsilon(lap, R(eps));
    const Enclosure exact = Enclosure(128, 1L) - dpfl::ref::ExpQ(128, Rational((R(eps) - 2) / 2));
    const Interval e = dpfl::ref::ToInterval(exact);
    EXPECT_LE(d.lo, e.lo()) << eps;
    EXPECT_GE(d.hi, e.hi()) << eps;
    EXPECT_LT(D(d.hi - d.lo), 2e-3) << eps;
  }
  EXPECT_EQ(pld::DeltaForEpsilon(lap, R("2")).lo, 0);
  // Pure ε = Δ/b = 2 composed 3 times: ε(δ) ≤ 6 for every δ, and the enclosure says so.
  const pld::PldPair three = pld::SelfCompose(lap, 3);
  const pld::EpsilonBounds e = pld::EpsilonForDelta(three, R("1e-9"));
  ASSERT_TRUE(e.hi);
  EXPECT_LE(*e.lo, 6);
  EXPECT_LE(*e.hi, R("6.01"));
}

// ---- brute force ---------------------------------------------------------------------------
// K-fold randomized response: the exact profile of Bern(p)^⊗K vs Bern(1−p)^⊗K is computed by
// dpfl::ref::BnnExactDelta (spec 004 code, a binomial sum with its own enclosures).
TEST(PldRandomizedResponse, ComposedMatchesTheExactBinomialProfile) {
  const Rational p = R("0.6"), gamma = R("0.1");
  const pld::PldPair one = pld::RandomizedResponsePld(p, Grid(R("1/1024")));
  for (const std::uint64_t k : {1ull, 7ull, 64ull, 300ull}) {
    const pld::PldPair composed = pld::SelfCompose(one, k);
    for (const char* eps : {"0", "0.5", "2", "5"}) {
      const Interval exact = dpfl::ref::BnnExactDelta(R(eps), gamma, Rational(static_cast<long>(k)));
      const pld::DeltaBounds d = pld::DeltaForEpsilon(composed, R(eps));
      EXPECT_LE(d.lo, exact.lo()) << "k=" << k << " eps=" << eps;
      EXPECT_GE(d.hi, exact.hi()) << "k=" << k << " eps=" << eps;
    }
    // ε(δ) enclosure: δ_exact(ε_lo) ≥ δ ≥ δ_exact(ε_hi) by monotonicity.
    const pld::EpsilonBounds e = pld::EpsilonForDelta(composed, R("1e-3"));
    ASSERT_TRUE(e.lo && e.hi);
    EXPECT_GE(dpfl::ref::BnnExactDelta(*e.lo, gamma, Rational(static_cast<long>(k))).hi(), R("1e-3")) << k;
    EXPECT_LE(dpfl::ref::BnnExactDelta(*e.hi, gamma, Rational(static_cast<long>(k))).lo(), R("1e-3")) << k;
  }
}

// Binomial mechanism composed 3 times, against the exact hockey-stick divergence of the product
// measures P^⊗3 vs Q^⊗3 summed over all (N+Δ+1)^3 outcomes with e^ε enclosed.
TEST(PldBinomial, ThreeFoldMatchesBruteForceOverTheProductSpace) {
  const auto [P, Q] = pld::BinomialMechanismPmfs(6, R("1/2"), 1);
  const pld::PldPair pair = pld::TwoPmfPld(P, Q, Grid(R("1/512")));
  const pld::PldPair three = pld::SelfCompose(pair, 3);
  for (const char* eps : {"0", "0.7", "1.5"}) {
    const Enclosure E = dpfl::ref::ExpQ(128, R(eps));
    for (int dir = 0; dir < 2; ++dir) {
      const auto& A = dir == 0 ? P : Q;
      const auto& B = dir == 0 ? Q : P;
      Enclosure lo(128, 0L), hi(128, 0L);
      for (std::size_t i = 0; i < A.size(); ++i)
        for (std::size_t j = 0; j < A.size(); ++j)
          for (std::size_t l = 0; l < A.size(); ++l) {
            const Rational a = A[i] * A[j] * A[l], b = B[i] * B[j] * B[l];
            const Enclosure t = Enclosure(128, a) - E * b;  // (a − e^ε b)_+ enclosed
            const Interval ti = dpfl::ref::ToInterval(t);
            if (ti.lo() > 0) lo = lo + Enclosure(128, ti.lo());
            if (ti.hi() > 0) hi = hi + Enclosure(128, ti.hi());
          }
      const pld::Pld& m = dir == 0 ? three.forward : *three.backward;
      const pld::DeltaBounds d = pld::DeltaForEpsilon(m, R(eps));
      EXPECT_LE(d.lo, dpfl::ref::ToInterval(lo).hi()) << eps << " dir " << dir;
      EXPECT_GE(d.hi, dpfl::ref::ToInterval(hi).lo()) << eps << " dir " << dir;
    }
  }
}

// ---- published numbers (dp_accounting, tensorflow/privacy) ----------------------------------
// dp_accounting python/dp_accounting/pld/privacy_loss_mechanism_test.py,
// test_gaussian_get_delta_for_epsilon (σ, Δ, q, adjacency, ε, δ), 7-place tolerance. dp_accounting's
// REMOVE is our forward direction (P = mixture), ADD the backward one.
TEST(PldPublished, SubsampledGaussianDeltasOfDpAccounting) {
  struct Case {
    const char *sigma, *sens, *q, *eps, *delta;
    bool remove;
  };
  for (const Case& c : {Case{"1", "1", "0.8", "1", "0.0231362104090899", false},
                        Case{"1", "1", "0.8", "1", "0.0816951786585355", true},
                        Case{"1", "3", "0.7", "1", "0.5356298793262404", true},
                        Case{"1", "1", "0.3", "2", "0.0003341102928869332", true}}) {
    const pld::PldPair pair = pld::SubsampledGaussianPld(R(c.sigma), R(c.sens), R(c.q), Grid(R("1/4096")));
    const pld::DeltaBounds d = pld::DeltaForEpsilon(c.remove ? pair.forward : *pair.backward, R(c.eps));
    EXPECT_LE(d.lo, R(c.delta) + R("1e-7")) << c.delta;
    EXPECT_GE(d.hi, R(c.delta) - R("1e-7")) << c.delta;
    EXPECT_LT(D(d.hi - d.lo), 1e-3) << c.delta;
  }
}

// Same file, test_laplace_get_delta_for_epsilon: b = 2, Δ = 4, q = 0.8, ε = 0.5.
TEST(PldPublished, SubsampledLaplaceDeltasOfDpAccounting) {
  const pld::PldPair pair = pld::SubsampledLaplacePld(2, 4, R("0.8"), Grid(R("1/8192")));
  const pld::DeltaBounds add = pld::DeltaForEpsilon(*pair.backward, R("0.5"));
  const pld::DeltaBounds remove = pld::DeltaForEpsilon(pair.forward, R("0.5"));
  EXPECT_LE(add.lo, R("0.3243606497234246") + R("1e-7"));
  EXPECT_GE(add.hi, R("0.3243606497234246") - R("1e-7"));
  EXPECT_LE(remove.lo, R("0.4039564635032081") + R("1e-7"));
  EXPECT_GE(remove.hi, R("0.4039564635032081") - R("1e-7"));
}

// tensorflow/privacy compute_dp_sgd_privacy_test.py, test_compute_dp_sgd_example_privacy
// ('no_microbatching_with_subsampling_pld'): q = 0.01, σ = 0.7, 120 steps, δ = 1e-5, add/remove,
// dp_accounting's PLD accountant (grid 1e-4, pessimistic): ε = 2.4612381. Their number carries
// their own discretization error (about K·1e-4 ≈ 0.012 at most); ours must overlap it.
TEST(PldPublished, DpSgdEpsilonOfTensorflowPrivacy) {
  const pld::AccountResult r = pld::EpsilonOfComposition(
      [](const pld::GridOptions& g) { return pld::SubsampledGaussianPld(R("0.7"), 1, R("0.01"), g); }, 120,
      R("1e-5"));
  ASSERT_TRUE(r.epsilon.lo && r.epsilon.hi);
  EXPECT_LE(*r.epsilon.lo, R("2.4612381"));
  EXPECT_GE(*r.epsilon.hi, R("2.4612381") - R("0.012"));
  EXPECT_LE(*r.epsilon.hi - *r.epsilon.lo, R("0.01") * *r.epsilon.hi);
}

// ---- RDP: the PLD lower end never exceeds a valid RDP upper bound ---------------------------
TEST(PldVersusRdp, PldNeverAboveRdp) {
  const pld::AccountResult g = pld::EpsilonOfComposition(
      [](const pld::GridOptions& o) { return pld::GaussianPld(20, 1, o); }, 1000, R("1e-5"));
  const dpfl::ref::AccountantResult rdp_g = dpfl::ref::Account(
      [](const Rational& a) { return Enclosure(128, dpfl::ref::GaussianRdp(20, a)); }, 1000, R("1e-5"),
      dpfl::ref::DefaultOrders(), dpfl::ref::Conversion::kImproved);
  EXPECT_LE(*g.epsilon.lo, rdp_g.epsilon.hi());
  const pld::AccountResult s = pld::EpsilonOfComposition(
      [](const pld::GridOptions& o) { return pld::SubsampledGaussianPld(R("0.7"), 1, R("0.01"), o); }, 120,
      R("1e-5"));
  const dpfl::ref::AccountantResult rdp_s = dpfl::ref::SampledGaussianAccountant(
      R("0.01"), R("0.7"), 120, R("1e-5"), dpfl::ref::DefaultOrders(), dpfl::ref::Conversion::kImproved);
  EXPECT_LE(*s.epsilon.lo, rdp_s.epsilon.hi());
  // And the PLD is the tighter of the two here (the reason it exists).
  EXPECT_LT(*s.epsilon.hi, rdp_s.epsilon.lo());
  EXPECT_LT(*g.epsilon.hi, rdp_g.epsilon.lo());
}

// ---- robustness ----------------------------------------------------------------------------
TEST(PldRobustness, ManyCompositionsStayFiniteAndOrdered) {
  const pld::PldPair one = pld::RandomizedResponsePld(R("0.51"), Grid(R("1/256")));
  const pld::PldPair many = pld::SelfCompose(one, 1000000);
  const pld::EpsilonBounds e = pld::EpsilonForDelta(many, R("1e-6"));
  ASSERT_TRUE(e.lo && e.hi);
  EXPECT_LE(*e.lo, *e.hi);
  // Pure ε per step ln(51/49) ≈ 0.04: 1e6 steps are below basic composition's 40002.
  EXPECT_LT(*e.hi, 40002);
  const pld::DeltaBounds d = pld::DeltaForEpsilon(many, 0);
  EXPECT_LE(d.lo, d.hi);
  EXPECT_LE(d.hi, 1);
}

TEST(PldRobustness, BadInputsAreNamed) {
  auto names = [](const std::function<void()>& f, const std::string& arg) {
    try {
      f();
      ADD_FAILURE() << "no throw for " << arg;
    } catch (const dpfl::InvalidArgument& e) {
      EXPECT_EQ(e.argument(), arg);
    }
  };
  names([] { pld::GaussianPld(0, 1, Grid(R("0.01"))); }, "sigma");
  names([] { pld::GaussianPld(1, 1, Grid(R("0"))); }, "step");
  names([] { pld::SubsampledGaussianPld(1, 1, R("1.5"), Grid(R("0.01"))); }, "q");
  names([] { pld::RandomizedResponsePld(R("0.4"), Grid(R("0.01"))); }, "p");
  names([] { pld::TwoPmfPld({R("1/2"), R("1/3")}, {R("1/2"), R("1/2")}, Grid(R("0.01"))); }, "p");
  names([] { pld::TwoPmfPld({R("1/2"), R("1/2")}, {R("1")}, Grid(R("0.01"))); }, "q");
  names([] { pld::BinomialMechanismPmfs(0, R("1/2"), 1); }, "trials");
  const pld::PldPair rr = pld::RandomizedResponsePld(R("0.75"), Grid(R("1/64")));
  names([&] { pld::EpsilonForDelta(rr, R("0")); }, "delta");
  names([&] { pld::EpsilonForDelta(rr, R("1")); }, "delta");
  names([&] { pld::DeltaForEpsilon(rr, R("-1")); }, "epsilon");
  const pld::PldPair other = pld::RandomizedResponsePld(R("0.75"), Grid(R("1/32")));
  names([&] { pld::Compose(rr, other); }, "step");
}

}  // namespace

// ---- FromPmfEnclosures: irrational pmfs given as enclosures --------------------------------
namespace {

// Enclosures of exact rationals, widened by `rel` (relative, clamped at 0) when rel > 0.
std::vector<Enclosure> Widen(const std::vector<Rational>& v, const Rational& rel) {
  std::vector<Enclosure> out;
  for (const Rational& x : v) {
    const Rational lo = x * (1 - rel), hi = x * (1 + rel);
    out.push_back(dpfl::ref::Hull(Enclosure(128, lo), Enclosure(128, hi)));
  }
  return out;
}

}  // namespace

TEST(PldFromPmfEnclosures, BracketsTheExactCurveOfTheTruePmfs) {
  std::mt19937_64 g(11);
  std::uniform_int_distribution<int> u(0, 9);
  for (int trial = 0; trial < 8; ++trial) {
    std::vector<Rational> p, q;
    for (auto* v : {&p, &q}) {
      std::vector<int> w(5);
      int total = 0;
      for (int& x : w) total += (x = u(g) + (v == &p ? 1 : 0));
      if (total == 0) w[0] = total = 1;
      for (int x : w) v->push_back(Rational(x, total));
    }
    for (const Rational& rel : {R("0"), R("1/1000000"), R("1/100")}) {
      const pld::Pld e = pld::FromPmfEnclosures(Widen(p, rel), Widen(q, rel), R("1/128"));
      const pld::Pld composed = pld::SelfCompose(e, 2);
      for (const char* eps : {"0", "0.2", "1", "3"}) {
        const Interval x = dpfl::ref::ToInterval(dpfl::ref::ExpQ(128, R(eps)));
        // δ of the exact pair, and of its 2-fold product, at the ends of e^ε (δ decreases in e^ε).
        auto exact = [&](const Rational& at, int k) {
          Rational d = 0;
          if (k == 1) {
            for (std::size_t i = 0; i < p.size(); ++i)
              if (p[i] - at * q[i] > 0) d += p[i] - at * q[i];
            return d;
          }
          for (std::size_t i = 0; i < p.size(); ++i)
            for (std::size_t j = 0; j < p.size(); ++j) {
              const Rational t = p[i] * p[j] - at * q[i] * q[j];
              if (t > 0) d += t;
            }
          return d;
        };
        const pld::DeltaBounds one = pld::DeltaForEpsilon(e, R(eps));
        const pld::DeltaBounds two = pld::DeltaForEpsilon(composed, R(eps));
        EXPECT_LE(one.lo, exact(x.hi(), 1)) << "trial " << trial << " eps " << eps;
        EXPECT_GE(one.hi, exact(x.lo(), 1)) << "trial " << trial << " eps " << eps;
        EXPECT_LE(two.lo, exact(x.hi(), 2)) << "trial " << trial << " eps " << eps;
        EXPECT_GE(two.hi, exact(x.lo(), 2)) << "trial " << trial << " eps " << eps;
      }
    }
  }
}

TEST(PldFromPmfEnclosures, SumsThatCannotBeOneAndBadShapesAreNamed) {
  const std::vector<Enclosure> half{Enclosure(64, R("1/2")), Enclosure(64, R("1/4"))};
  const std::vector<Enclosure> one{Enclosure(64, R("1/2")), Enclosure(64, R("1/2"))};
  auto names = [](const std::function<void()>& f, const std::string& what) {
    try {
      f();
      ADD_FAILURE() << "accepted";
    } catch (const dpfl::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  names([&] { pld::FromPmfEnclosures(half, one, R("1/64")); }, "p");
  names([&] { pld::FromPmfEnclosures(one, half, R("1/64")); }, "q");
  names([&] { pld::FromPmfEnclosures(one, {Enclosure(64, R("1"))}, R("1/64")); }, "q");
  names([&] { pld::FromPmfEnclosures(one, one, R("0")); }, "step");
}

// ---- the discrete Laplace baseline ----------------------------------------------------------
// One release of k + Z, Z ~ L_Z(t), shift N: δ(ε) = Σ_y (P(y) − e^ε Q(y))_+ summed here from the
// pmf enclosures over |y| ≤ 400 (the rest is below e^{−400/t}, added as a bracket), an oracle
// independent of the loss law's tails.
TEST(PldDiscreteLaplace, OneReleaseMatchesThePmfSumAndComposesBelowPureEpsilon) {
  namespace dref = dpfl::ref;
  const Rational t = R("5/2");
  const long N = 5;  // ε0 = N/t = 2
  for (const char* e : {"0", "0.5", "1.5"}) {
    const Rational eps = R(e);
    const Enclosure x = dref::ExpQ(128, eps);
    Enclosure sum(128, 0L);
    for (long y = -400; y <= 400; ++y) {
      const Enclosure p = dref::DiscreteLaplacePmf(t, dref::Int(y - N), 128);
      const Enclosure q = dref::DiscreteLaplacePmf(t, dref::Int(y), 128);
      const Interval d = dref::ToInterval(p - x * q);
      if (d.lo() > 0) sum = sum + (p - x * q);
      else if (d.hi() > 0) ADD_FAILURE() << "undecided sign at y = " << y;
    }
    const Interval oracle = dref::ToInterval(sum);
    const Rational tail = R("1e-60");  // 2·P(|Z| > 395) < 1e-60 at t = 5/2
    const pld::DeltaBounds b = pld::DeltaForEpsilon(pld::DiscreteLaplacePld(t, N, Grid(R("1/1024"))).forward, eps);
    EXPECT_LE(b.lo, oracle.hi() + tail) << "eps " << e;
    EXPECT_GE(b.hi, oracle.lo()) << "eps " << e;
    EXPECT_LE(b.hi - b.lo, R("0.01")) << "eps " << e;
  }
  // Pure ε0-DP is dominated by randomized response with the same ε0 (Kairouz, Oh, Viswanath 2015,
  // Thm 3.3): RR with p = 0.881 (ln(0.881/0.119) = 2.0020 > ε0) composed 50 times bounds it.
  const pld::AccountResult r =
      pld::EpsilonOfComposition([&](const pld::GridOptions& g) { return pld::DiscreteLaplacePld(t, N, g); }, 50, R("1e-6"));
  const pld::AccountResult rr =
      pld::EpsilonOfComposition([&](const pld::GridOptions& g) { return pld::RandomizedResponsePld(R("0.881"), g); }, 50,
                                R("1e-6"));
  ASSERT_TRUE(r.epsilon.lo && r.epsilon.hi && rr.epsilon.hi);
  EXPECT_LE(*r.epsilon.lo, *rr.epsilon.hi);
  EXPECT_LT(*r.epsilon.hi, R("100")) << "basic composition gives 100";
  EXPECT_THROW(pld::DiscreteLaplacePld(R("0"), 3, Grid(R("1/64"))), dpfl::InvalidArgument);
  EXPECT_THROW(pld::DiscreteLaplacePld(R("1"), 0, Grid(R("1/64"))), dpfl::InvalidArgument);
}
