// The discrete Gaussian PLD (pld_mechanisms.hpp DiscreteGaussianPld) against independent truths:
// the closed-form δ(ε) of Canonne, Kamath & Steinke 2020 Thm 7 (discrete_noise.hpp, its own tail
// code) for one release, a brute-force double sum over the exact pmfs for two releases, both on
// the direct-sum path (σ² < 2^20) and on the midpoint-rule path (σ² ≥ 2^20), and the worst-case
// shift argument (a larger shift is never more private) on the closed form.
#include <gtest/gtest.h>

#include "dpfl/ref/discrete_noise.hpp"
#include "dpfl/ref/pld_mechanisms.hpp"

namespace {

using dpfl::ref::Enclosure;
using dpfl::ref::Interval;
using dpfl::ref::Rational;
namespace dref = dpfl::ref;
namespace pld = dpfl::ref::pld;

Rational R(const std::string& s) { return dref::ParseRational(s, "test"); }

pld::GridOptions Grid(const Rational& step) { return pld::GridOptions{step, 1e-18, 64}; }

// One release: the PLD's δ(ε) enclosure meets the closed form's, and is narrow.
void ExpectOneRelease(const Rational& sigma2, long n, const Rational& step, const Rational& width) {
  const pld::PldPair p = pld::DiscreteGaussianPld(sigma2, n, Grid(step));
  for (const char* e : {"0", "0.1", "0.5", "1", "2"}) {
    const Rational eps = R(e);
    const Interval truth = dref::DiscreteGaussianDelta(eps, sigma2, Rational(n), 128);
    const pld::DeltaBounds b = pld::DeltaForEpsilon(p.forward, eps);
    EXPECT_LE(b.lo, truth.hi()) << "sigma2 " << sigma2 << " eps " << e;
    EXPECT_GE(b.hi, truth.lo()) << "sigma2 " << sigma2 << " eps " << e;
    EXPECT_LE(b.hi - b.lo, width) << "sigma2 " << sigma2 << " eps " << e;
  }
}

TEST(DiscreteGaussianPld, OneReleaseMatchesTheClosedFormOnBothPaths) {
  ExpectOneRelease(R("4"), 3, R("1/4096"), R("0.002"));                  // direct sums
  ExpectOneRelease(R("9/7"), 1, R("1/4096"), R("0.002"));                // rational σ²
  ExpectOneRelease(R("4194305"), 2000, R("1/8192"), R("0.002"));         // midpoint rule, σ ≈ 2048
  ExpectOneRelease(R("27487790694400"), 1 << 20, R("1/8192"), R("0.002"));  // production scale, σ ≈ 5.2e6
}

// Two releases: δ(ε) = Σ_{y1,y2} (P(y1)P(y2) − e^ε Q(y1)Q(y2))_+ with P = N + Z, Q = Z, from the
// exact pmf enclosures (DiscreteGaussianLaw::Pmf), truncated where the mass left is < 1e-40.
TEST(DiscreteGaussianPld, TwoReleasesMatchABruteForceSum) {
  const Rational sigma2 = R("9/4");
  const long n = 2, reach = 30;  // P(|Z| > 28) < 1e-70 at σ = 1.5
  const dref::DiscreteGaussianLaw law(sigma2, 128);
  std::vector<Enclosure> P, Q;
  for (long y = -reach; y <= reach + n; ++y) {
    P.push_back(law.Pmf(dref::Int(y - n)));
    Q.push_back(law.Pmf(dref::Int(y)));
  }
  const pld::PldPair one = pld::DiscreteGaussianPld(sigma2, n, Grid(R("1/2048")));
  const pld::PldPair two = pld::Compose(one, one);
  for (const char* e : {"0.25", "1", "2.5"}) {
    const Rational eps = R(e);
    const Enclosure x = dref::ExpQ(128, eps);
    Enclosure sum(128, 0L);
    for (std::size_t i = 0; i < P.size(); ++i)
      for (std::size_t j = 0; j < P.size(); ++j) {
        const Enclosure d = P[i] * P[j] - x * Q[i] * Q[j];
        const Interval di = dref::ToInterval(d);
        if (di.lo() > 0) sum = sum + d;
        else if (di.hi() > 0) ADD_FAILURE() << "undecided sign at " << i << ", " << j;
      }
    const Interval truth = dref::ToInterval(sum);
    const pld::DeltaBounds b = pld::DeltaForEpsilon(two.forward, eps);
    EXPECT_LE(b.lo, truth.hi() + R("1e-40")) << "eps " << e;
    EXPECT_GE(b.hi, truth.lo()) << "eps " << e;
    EXPECT_LE(b.hi - b.lo, R("0.01")) << "eps " << e;
  }
}

// The composed enclosure brackets the K-fold truth from both sides: at K = 1000 and production
// scale the ε enclosure is narrow, and never below the one-release closed form's ε.
TEST(DiscreteGaussianPld, ComposedEnclosureIsNarrowAtProductionScale) {
  const Rational sigma2 = R("27487790694400");  // ≈ (5.0 N)², N = 2^20
  const long n = 1 << 20;
  const pld::AccountResult r = pld::EpsilonOfComposition(
      [&](const pld::GridOptions& g) { return pld::DiscreteGaussianPld(sigma2, n, g); }, 1000, R("1e-5"));
  ASSERT_TRUE(r.epsilon.lo && r.epsilon.hi);
  EXPECT_LE(*r.epsilon.hi - *r.epsilon.lo, R("0.01") * *r.epsilon.hi);
  // 1000 releases of sensitivity/σ = 1/5: the continuous Gaussian's μ = √1000/5 ≈ 6.32 gives
  // ε ≈ 45 at δ = 1e-5 (a landmark, not an oracle: the discrete law differs by its lattice).
  EXPECT_GT(*r.epsilon.lo, R("40"));
  EXPECT_LT(*r.epsilon.hi, R("50"));
}

// The header's argument that the shift N dominates every smaller shift, checked on the closed
// form: δ(ε) is non-decreasing in the shift at every ε tried.
TEST(DiscreteGaussianPld, LargerShiftIsNeverMorePrivate) {
  for (const char* s2 : {"1", "9/4", "30"}) {
    const Rational sigma2 = R(s2);
    for (const char* e : {"0", "0.3", "1", "3"}) {
      Interval prev = dref::DiscreteGaussianDelta(R(e), sigma2, Rational(1), 128);
      for (long k = 2; k <= 12; ++k) {
        const Interval cur = dref::DiscreteGaussianDelta(R(e), sigma2, Rational(k), 128);
        EXPECT_GE(cur.hi(), prev.lo()) << "sigma2 " << s2 << " eps " << e << " shift " << k;
        prev = cur;
      }
    }
  }
}

TEST(DiscreteGaussianPld, RejectsBadParameters) {
  EXPECT_THROW(pld::DiscreteGaussianPld(R("0"), 3, Grid(R("1/64"))), dpfl::InvalidArgument);
  EXPECT_THROW(pld::DiscreteGaussianPld(R("-1"), 3, Grid(R("1/64"))), dpfl::InvalidArgument);
  EXPECT_THROW(pld::DiscreteGaussianPld(R("1"), 0, Grid(R("1/64"))), dpfl::InvalidArgument);
}

}  // namespace
