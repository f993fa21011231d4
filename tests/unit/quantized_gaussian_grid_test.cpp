// The implemented law of production's quantized Gaussian (reference/…/quantized_gaussian_grid.hpp):
// the first-moment tail sums of the discrete Gaussian by two rigorous methods that must overlap,
// the grid pmf by two methods that must overlap, its exact identities (mass 1, mirror symmetry,
// the mean of the levels against the clamped mean), its distance from Lemma 2's continuous pmf
// (spec 003 §4.1, Table B of §7.4), the grid rule, and argument validation.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dpfl/ref/discrete_noise.hpp"
#include "dpfl/ref/quantized_gaussian.hpp"
#include "dpfl/ref/quantized_gaussian_grid.hpp"

namespace dpfl::ref {
namespace {

Rational Q(const char* s) { return ParseRational(s, "test"); }

bool Overlap(const Enclosure& a, const Enclosure& b) { return !CertainlyLess(a, b) && !CertainlyLess(b, a); }

// ---- S₁(a) = Σ_{z≥a} z e^{−z²/(2s²)}: term-by-term and Euler–Maclaurin overlap ------------------
TEST(DiscreteGaussianFirstMoment, DirectAndEulerMaclaurinOverlap) {
  for (const char* s2 : {"4096", "65536", "1000003/3", "1048576"}) {
    const DiscreteGaussianLaw direct(Q(s2), 160, DiscreteGaussianSum::kDirect);
    const DiscreteGaussianLaw em(Q(s2), 160, DiscreteGaussianSum::kEulerMaclaurin);
    const double s = std::sqrt(Q(s2).convert_to<double>());
    for (double mult : {0.0, 0.3, 1.0, 2.5, 4.0, 9.0}) {
      const Int a(static_cast<long>(mult * s));
      const Enclosure d = direct.FirstMomentTailSum(a), e = em.FirstMomentTailSum(a);
      EXPECT_TRUE(Overlap(d, e)) << "s2=" << s2 << " a=" << a.str() << ": " << d.MidDouble() << " vs " << e.MidDouble();
      // Both are narrow. Euler–Maclaurin's remainder is relatively ~ max(1, u⁴)/(720 s⁴) (u = a/s):
      // ≤ 1e-5 at s² = 4096, and ≤ 1e-10 at s² = 2^20 (where kAuto starts using it) for u ≤ 4.
      EXPECT_LE(e.WidthDouble(), 1e-5 * e.MidDouble()) << s2;
      if (std::string(s2) == "1048576" && mult <= 4) {
        EXPECT_LE(e.WidthDouble(), 1e-10 * e.MidDouble());
      }
      EXPECT_LE(d.WidthDouble(), 1e-30 * d.MidDouble()) << s2;
    }
  }
}

TEST(DiscreteGaussianFirstMoment, SmallSigmaMatchesExplicitTerms) {
  // s² = 1/2: f(z) = e^{−z²}; S₁(1) = Σ z e^{−z²}, the first terms dominate; compare with 40 terms.
  const DiscreteGaussianLaw law(Q("1/2"), 200, DiscreteGaussianSum::kDirect);
  double expected = 0;
  for (int z = 1; z <= 40; ++z) expected += z * std::exp(-double(z) * z);
  EXPECT_NEAR(law.FirstMomentTailSum(Int(1)).MidDouble(), expected, 1e-15);
  EXPECT_TRUE(Overlap(law.FirstMomentTailSum(Int(0)), law.FirstMomentTailSum(Int(1))));  // the z = 0 term is 0
  EXPECT_THROW(law.FirstMomentTailSum(Int(-1)), InvalidArgument);
}

// ---- the grid rule --------------------------------------------------------------------------------
TEST(QuantizedGaussianGrid, RuleAndItsLimits) {
  // σ = 1, k = 4, C = 1: L = 3·2^16, σ/g = σL/(2C) = 98304 exactly, so s² = 98304² and σ̃ = σ.
  const QgGrid g = QuantizedGaussianGridFor(Q("1"), 4, Q("1"));
  EXPECT_EQ(g.step_bits, 16);
  EXPECT_EQ(g.span, Int(3) << 16);
  EXPECT_EQ(g.sigma2, Int(98304) * Int(98304));
  EXPECT_EQ(g.radius, Int(3) << 14);
  EXPECT_EQ(g.unit, Rational(2, 3 * 65536));
  // σ/g not an integer square: s² is the ceiling (never less noise).
  const QgGrid h = QuantizedGaussianGridFor(Q("1/3"), 2, Q("1"));
  const Rational ratio = Q("1/3") / h.unit;
  EXPECT_GE(Rational(h.sigma2), ratio * ratio);
  EXPECT_LT(Rational(h.sigma2) - 1, ratio * ratio);
  // A σ far above the step lowers m until s² < 2^62.
  const QgGrid big = QuantizedGaussianGridFor(Q("100"), 65536, Q("1"));
  EXPECT_LT(big.step_bits, 16);
  EXPECT_LT(big.sigma2, Int(1) << 62);
  EXPECT_THROW(QuantizedGaussianGridFor(Q("1000000000000"), 65536, Q("1")), InvalidArgument);
  EXPECT_THROW(QuantizedGaussianGridFor(Q("0"), 4, Q("1")), InvalidArgument);
  EXPECT_THROW(QuantizedGaussianGridFor(Q("1"), 1, Q("1")), InvalidArgument);
  EXPECT_THROW(QuantizedGaussianGridFor(Q("1"), 65537, Q("1")), InvalidArgument);
  EXPECT_THROW(QuantizedGaussianGridFor(Q("1"), 4, Q("-1")), InvalidArgument);
}

TEST(QuantizedGaussianGrid, PositionIsNearestWithClamp) {
  const QgGrid g = QuantizedGaussianGridFor(Q("1"), 4, Q("1"));  // g = 2/(3·2^16)
  EXPECT_EQ(QuantizedGaussianGridPosition(g, Q("1/2")), g.radius);
  EXPECT_EQ(QuantizedGaussianGridPosition(g, Q("7")), g.radius);     // clamped to C/2
  EXPECT_EQ(QuantizedGaussianGridPosition(g, Q("-7")), -g.radius);
  EXPECT_EQ(QuantizedGaussianGridPosition(g, Q("0")), Int(0));
  // Half a unit rounds away from zero.
  EXPECT_EQ(QuantizedGaussianGridPosition(g, Rational(g.unit / 2)), Int(1));
  EXPECT_EQ(QuantizedGaussianGridPosition(g, Rational(-g.unit / 2)), Int(-1));
  EXPECT_EQ(QuantizedGaussianGridPosition(g, Rational(g.unit * Rational(5, 2) - g.unit / 1000)), Int(2));
}

// ---- the pmf ----------------------------------------------------------------------------------------
// s² near 2^16 (σ = δ_q/256), so both methods are practical: they must overlap entry by entry.
TEST(QuantizedGaussianGridPmf, TermsAndCellsOverlap) {
  for (long k : {2L, 3L, 5L}) {
    const Rational sigma = Rational(2, k - 1) / 256;  // δ_q/256 with C = 1
    const QgGrid g = QuantizedGaussianGridFor(sigma, k, Q("1"));
    for (const Int& q : {Int(0), Int(g.radius), Int(-g.radius), Int(g.radius / 3 + 7)}) {
      const auto terms = QuantizedGaussianGridPmf(g, q, 96, DiscreteGaussianSum::kDirect);
      const auto cells = QuantizedGaussianGridPmf(g, q, 96, DiscreteGaussianSum::kEulerMaclaurin);
      for (long i = 0; i < k; ++i) {
        const auto& a = terms[static_cast<size_t>(i)];
        const auto& b = cells[static_cast<size_t>(i)];
        EXPECT_TRUE(Overlap(a, b)) << "k=" << k << " q=" << q.str() << " i=" << i << ": " << a.MidDouble()
                                   << " vs " << b.MidDouble();
      }
    }
  }
}

double Mass(const std::vector<Enclosure>& pmf) {
  double s = 0;
  for (const auto& e : pmf) s += e.MidDouble();
  return s;
}

TEST(QuantizedGaussianGridPmf, MassSymmetryAndMean) {
  for (const char* sigma : {"1", "3/10", "1/20"}) {
    for (long k : {2L, 4L, 16L}) {
      const QgGrid g = QuantizedGaussianGridFor(Q(sigma), k, Q("1"));
      const Int q = g.radius / 2 + 1;
      const auto plus = QuantizedGaussianGridPmf(g, q, 128);
      const auto minus = QuantizedGaussianGridPmf(g, Int(-q), 128);
      Enclosure total(256, 0L);
      for (const auto& e : plus) total += e;
      EXPECT_TRUE(Contains(total, Rational(1)) || std::abs(total.MidDouble() - 1) < 1e-25) << sigma << " k=" << k;
      for (long i = 0; i < k; ++i)
        EXPECT_TRUE(Overlap(plus[static_cast<size_t>(i)], minus[static_cast<size_t>(k - 1 - i)]))
            << sigma << " k=" << k << " i=" << i;
      // Stochastic rounding is unbiased given the saturated position: Σ_i i·M·P(i) = E[clamp(p + Z, 0, L)].
      // With the input at C/4 and σ ≤ 1 the saturation shifts the mean by a computable amount;
      // here only the unsaturated case σ = 1/20 is checked to 1e-12 (the saturation mass < 1e-30).
      if (std::string(sigma) == "1/20") {
        double mean = 0;
        for (long i = 0; i < k; ++i) mean += double(i) * plus[static_cast<size_t>(i)].MidDouble();
        const double expected = (g.span / 2 + q).convert_to<double>() / double(1L << g.step_bits);
        EXPECT_NEAR(mean, expected, 1e-9 * expected) << "k=" << k;
      }
      EXPECT_NEAR(Mass(plus), 1.0, 1e-14);
    }
  }
}

// Lemma 2 with σ̃ = g·s: at M = 2^16 the implemented law and the continuous pmf agree to ~1e-10
// (spec 003 Table B: σ = 1, C = 1, x = ±1/2, where σ̃ = σ exactly).
TEST(QuantizedGaussianGridPmf, CloseToLemma2) {
  struct Row {
    long k;
    const char* x;
    std::vector<double> pmf;
  };
  const std::vector<Row> rows = {
      {2, "1/2", {0.334244881819351, 0.665755118180649}},
      {4, "1/2", {0.125997146266993, 0.185751049127743, 0.253241108401588, 0.435010696203677}},
      {4, "-1/2", {0.435010696203677, 0.253241108401588, 0.185751049127743, 0.125997146266993}},
      {4, "0", {0.256380965567078, 0.243619034432922, 0.243619034432922, 0.256380965567078}},
  };
  double worst = 0;
  for (const Row& row : rows) {
    const QgGrid g = QuantizedGaussianGridFor(Q("1"), row.k, Q("1"));
    const Int q = QuantizedGaussianGridPosition(g, Q(row.x));
    EXPECT_EQ(Rational(q) * g.unit, Q(row.x));  // the inputs are grid points
    const auto pmf = QuantizedGaussianGridPmf(g, q, 128);
    for (size_t i = 0; i < pmf.size(); ++i) {
      const double diff = std::abs(pmf[i].MidDouble() - row.pmf[i]);
      worst = std::max(worst, diff);
      EXPECT_LT(diff, 1e-9) << "k=" << row.k << " x=" << row.x << " i=" << i;
    }
  }
  // And against the reference's own Lemma 2 (MPFI) at a σ̃ ≠ σ: σ = 3/10, k = 16, x = 1/4.
  const QgGrid g = QuantizedGaussianGridFor(Q("3/10"), 16, Q("1"));
  const Int q = QuantizedGaussianGridPosition(g, Q("1/4"));
  const auto grid_pmf = QuantizedGaussianGridPmf(g, q, 128);
  const Rational sigma_tilde2 = Rational(g.sigma2) * g.unit * g.unit;  // σ̃² (σ̃ itself is irrational)
  const auto lemma2 = QuantizedGaussianPmf({Q("3/10"), 16, Q("1")}, Rational(q) * g.unit, 128);
  for (size_t i = 0; i < 16; ++i) {
    const double diff = std::abs(grid_pmf[i].MidDouble() - lemma2[i].MidDouble());
    worst = std::max(worst, diff);
    // σ̃/σ − 1 ≤ 1/(2(σ/g)²) ≈ 2e−11 here, plus the grid's own ~1e−10.
    EXPECT_LT(diff, 1e-9) << "i=" << i;
  }
  EXPECT_GE(sigma_tilde2, Q("9/100"));
  RecordProperty("max_abs_difference_from_lemma2", std::to_string(worst));
}

TEST(QuantizedGaussianGridPmf, RejectsOutOfRangePositions) {
  const QgGrid g = QuantizedGaussianGridFor(Q("1"), 4, Q("1"));
  EXPECT_THROW(QuantizedGaussianGridPmf(g, Int(g.radius + 1), 64), InvalidArgument);
  EXPECT_THROW(QuantizedGaussianGridPmf(g, Int(0), 8), InvalidArgument);
  EXPECT_THROW(QuantizedGaussianGridPmf(g, Int(0), 64, DiscreteGaussianSum::kDirect), InvalidArgument);
}

}  // namespace
}  // namespace dpfl::ref
