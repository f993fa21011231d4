// RapidCheck properties of the accounting reference (docs/accounting.md). Inputs are exact rationals built
// from integer pairs; every comparison is on rigorous enclosures (a property fails only if the
// enclosures certainly violate it).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "dpfl/ref/accountant.hpp"
#include "dpfl/ref/gaussian.hpp"
#include "dpfl/ref/laplace.hpp"
#include "dpfl/ref/randomized_response.hpp"
#include "dpfl/ref/sampled_gaussian.hpp"

namespace dpfl::ref {
namespace {

constexpr int kBits = 128;

// p = n/1000 with n ∈ [1, 999].
Rational GenKeep() { return Rational(*rc::gen::inRange(1, 1000), 1000); }
// order = 1 + n/8, n ∈ [1, 120] (fractional and integer orders up to 16).
Rational GenOrder() { return Rational(1) + Rational(*rc::gen::inRange(1, 121), 8); }
// σ = n/10, n ∈ [3, 60].
Rational GenSigma() { return Rational(*rc::gen::inRange(3, 61), 10); }

bool CertainlyGreater(const Interval& a, const Interval& b) { return a.lo() > b.hi(); }

RC_GTEST_PROP(AccountingProp, RrRdpNonDecreasingInOrder, ()) {
  const Rational p = GenKeep();
  const Rational a = GenOrder(), b = GenOrder();
  const Rational lo = a < b ? a : b, hi = a < b ? b : a;
  RC_ASSERT(!CertainlyGreater(RrRdp(p, lo, kBits), RrRdp(p, hi, kBits)));
  RC_ASSERT(!CertainlyGreater(RrKl(p, kBits), RrRdp(p, lo, kBits)));
  RC_ASSERT(!CertainlyGreater(RrRdp(p, hi, kBits), RrInfinity(p, kBits)));
}

RC_GTEST_PROP(AccountingProp, RrRdpSymmetricInKeepProbability, ()) {
  const Rational p = GenKeep();
  const Rational a = GenOrder();
  const Interval x = RrRdp(p, a, kBits), y = RrRdp(Rational(1 - p), a, kBits);
  RC_ASSERT(x.lo() <= y.hi() && y.lo() <= x.hi());
}

RC_GTEST_PROP(AccountingProp, LaplaceAndGaussianRdpNonDecreasingInOrder, ()) {
  const Rational b = GenSigma();
  const Rational a = GenOrder(), c = GenOrder();
  const Rational lo = a < c ? a : c, hi = a < c ? c : a;
  RC_ASSERT(!CertainlyGreater(LaplaceRdp(b, lo, Rational(1), kBits), LaplaceRdp(b, hi, Rational(1), kBits)));
  RC_ASSERT(GaussianRdp(b, lo) <= GaussianRdp(b, hi));
}

RC_GTEST_PROP(AccountingProp, SampledGaussianIntegerOrdersNonDecreasing, ()) {
  const Rational q(*rc::gen::inRange(1, 1000), 1000);
  const Rational sigma = GenSigma();
  const int a = *rc::gen::inRange(2, 24);
  SgmOptions o;
  o.precision_bits = kBits;
  RC_ASSERT(!CertainlyGreater(SampledGaussianRdp(q, sigma, Rational(a), o).value,
                              SampledGaussianRdp(q, sigma, Rational(a + 1), o).value));
  // Subsampling never hurts: D_α(SGM) ≤ D_α(Gaussian) = α/(2σ²).
  RC_ASSERT(SampledGaussianRdp(q, sigma, Rational(a), o).value.lo() <= GaussianRdp(sigma, Rational(a)));
}

RC_GTEST_PROP(AccountingProp, SampledGaussianAtQOneIsGaussian, ()) {
  const Rational sigma = GenSigma();
  const int a = *rc::gen::inRange(2, 40);
  const Enclosure log_a = SampledGaussianLogAInteger(Rational(1), sigma, a, kBits);
  RC_ASSERT(Contains(log_a / Rational(a - 1), GaussianRdp(sigma, Rational(a))));
}

RC_GTEST_PROP(AccountingProp, CompositionIsAdditive, ()) {
  const Rational p = GenKeep();
  const Rational a = GenOrder();
  const int t = *rc::gen::inRange(1, 50);
  const Rational delta(1, 100000);
  auto rdp = [&](const Rational& order) { return RrRdpEnclosure(p, Enclosure(kBits, order)); };
  const AccountantResult composed = Account(rdp, Rational(t), delta, {a}, Conversion::kClassic);
  const Interval single = ToInterval(rdp(a));
  const Interval expected = Interval(Rational(t)) * single;
  RC_ASSERT(composed.rdp_total.lo() <= expected.hi() && expected.lo() <= composed.rdp_total.hi());
}

RC_GTEST_PROP(AccountingProp, ConversionMonotoneInDelta, ()) {
  const Rational rdp_value(*rc::gen::inRange(0, 5000), 1000);
  const Rational a = GenOrder();
  const Rational d1(*rc::gen::inRange(1, 999999), 1000000), d2(*rc::gen::inRange(1, 999999), 1000000);
  const Rational small = d1 < d2 ? d1 : d2, large = d1 < d2 ? d2 : d1;
  const Enclosure rdp(kBits, rdp_value);
  for (const Conversion c : {Conversion::kClassic, Conversion::kImproved}) {
    const Interval e_small = ToInterval(RdpToEpsilon(rdp, a, small, c));
    const Interval e_large = ToInterval(RdpToEpsilon(rdp, a, large, c));
    RC_ASSERT(!CertainlyGreater(e_large, e_small));
  }
  // The improved conversion is never worse than the classic one.
  RC_ASSERT(!CertainlyGreater(ToInterval(RdpToEpsilon(rdp, a, small, Conversion::kImproved)),
                              ToInterval(RdpToEpsilon(rdp, a, small, Conversion::kClassic))));
}

RC_GTEST_PROP(AccountingProp, AnalyticCalibrationRoundTrip, ()) {
  const Rational eps(*rc::gen::inRange(1, 20), 10);
  const Rational delta = Rational(1, 10) / Rational(*rc::gen::inRange(1, 1000));
  const AnalyticSigma s = AnalyticGaussianSigma(eps, delta, Rational(1), 64, Rational(1, 1000000));
  RC_ASSERT(s.reached_tolerance);
  // δ(ε, σ) over the returned σ bracket contains δ (δ is decreasing in σ).
  const Interval at_lo = AnalyticGaussianDelta(eps, s.sigma.lo(), Rational(1), 64);
  const Interval at_hi = AnalyticGaussianDelta(eps, s.sigma.hi(), Rational(1), 64);
  RC_ASSERT(at_hi.lo() <= delta && delta <= at_lo.hi());
}

RC_GTEST_PROP(AccountingProp, BnnOrderingExactRdpThm1, ()) {
  const Rational gamma(*rc::gen::inRange(1, 45), 100);
  const int rounds = *rc::gen::inRange(1, 4);
  BnnSetting s;
  s.gamma = gamma;
  s.rounds = rounds;
  s.delta = Rational(1, 100000);
  s.precision_bits = 64;
  const Interval exact = BnnEpsilonExact(s);
  const Interval rdp = BnnEpsilonRdpOpt(s).epsilon;
  const Interval thm1 = BnnEpsilonThm1(s);
  const Interval pure = Interval(Rational(rounds)) * RrInfinity(Rational(Rational(1, 2) + gamma), 64);
  // spec 004 §7.3 property 13 (up to the golden-section search's own tolerance on rdp-opt).
  RC_ASSERT(!CertainlyGreater(exact, rdp));
  RC_ASSERT(!CertainlyGreater(rdp, Interval(thm1.hi() * Rational(1000001, 1000000))));
  RC_ASSERT(!CertainlyGreater(rdp, Interval(pure.hi() * Rational(1000001, 1000000))));
}

}  // namespace
}  // namespace dpfl::ref
