// Unit tests of dpfl::ref::Enclosure (reference/include/dpfl/ref/enclosure.hpp): containment of
// known exact values, monotonicity-based rigor of erfc, round trips, widths, and error paths.
#include "dpfl/ref/enclosure.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace dpfl::ref {
namespace {

constexpr mpfr_prec_t kPrec = 256;

Enclosure Q(const Rational& q) { return Enclosure(kPrec, q); }

TEST(Enclosure, RationalPointIsContained) {
  const Rational third(1, 3);
  const Enclosure x = Q(third);
  EXPECT_TRUE(Contains(x, third));
  EXPECT_FALSE(ToInterval(x).IsPoint());  // 1/3 is not dyadic
  EXPECT_LT(x.WidthDouble(), 1e-75);
  const Enclosure half = Q(Rational(1, 2));
  EXPECT_TRUE(ToInterval(half).IsPoint());  // dyadic: exact
}

TEST(Enclosure, ArithmeticContainsExactRationalResult) {
  const Rational a(2, 7), b(-5, 11);
  EXPECT_TRUE(Contains(Q(a) + Q(b), Rational(a + b)));
  EXPECT_TRUE(Contains(Q(a) - Q(b), Rational(a - b)));
  EXPECT_TRUE(Contains(Q(a) * Q(b), Rational(a * b)));
  EXPECT_TRUE(Contains(Q(a) / Q(b), Rational(a / b)));
  EXPECT_TRUE(Contains(a / Q(b) + Rational(3), Rational(a / b + 3)));
  EXPECT_TRUE(Contains(Pow(Q(b), 5), Rational(b * b * b * b * b)));
  EXPECT_TRUE(Contains(Pow(Q(b), -3), Rational(1 / (b * b * b))));
  EXPECT_TRUE(Contains(Pow(Q(b), 0), Rational(1)));
}

TEST(Enclosure, NormalCdfAtZeroIsExactlyOneHalf) {
  const Interval phi0 = ToInterval(NormalCdf(Q(0)));
  EXPECT_TRUE(phi0.IsPoint());
  EXPECT_EQ(phi0.lo(), Rational(1, 2));
}

TEST(Enclosure, ErfcAgreesWithDoubleAndIsDecreasing) {
  for (int i = -20; i <= 20; ++i) {
    const Rational x(i, 4);
    const Enclosure e = Erfc(Q(x));
    const double ref = std::erfc(static_cast<double>(i) / 4.0);
    EXPECT_NEAR(e.MidDouble(), ref, 4e-16 * std::max(1.0, ref)) << "x = " << i << "/4";
    EXPECT_LT(e.WidthDouble(), 1e-70);
    if (i < 20) {
      EXPECT_TRUE(CertainlyLess(Erfc(Q(Rational(i + 1, 4))), e));
    }
  }
  // A wide argument maps to [erfc(hi), erfc(lo)].
  const Enclosure wide = Hull(Q(-1), Q(2));
  const Enclosure img = Erfc(wide);
  EXPECT_NEAR(img.LoDouble(), std::erfc(2.0), 1e-16);
  EXPECT_NEAR(img.HiDouble(), std::erfc(-1.0), 1e-15);
}

TEST(Enclosure, NormalCdfSymmetryAndKnownValue) {
  const Enclosure x = Q(Rational(3, 10));
  const Enclosure sum = NormalCdf(x) + NormalCdf(-x);
  EXPECT_TRUE(Contains(sum, Rational(1)));
  // Φ(1.96) = 0.9750021048517795... (standard normal table value, 16 digits).
  EXPECT_NEAR(NormalCdf(Q(Rational(196, 100))).MidDouble(), 0.9750021048517795, 2e-16);
  // φ(0) = 1/√(2π)
  const Enclosure pdf0 = NormalPdf(Q(0));
  EXPECT_TRUE(Contains(Sqr(pdf0) * Rational(2) * Pi(kPrec) - Rational(1), Rational(0)));
}

TEST(Enclosure, LogExpRoundTrips) {
  for (const Rational& q : {Rational(1, 1000), Rational(7, 3), Rational(12345)}) {
    EXPECT_TRUE(Contains(Exp(Log(Q(q))), q));
    EXPECT_TRUE(Contains(Log(Exp(Q(q))), q));
    EXPECT_TRUE(Contains(Log1p(Expm1(Q(q))), q));
    EXPECT_TRUE(Contains(Sqr(Sqrt(Q(q))), q));
    EXPECT_TRUE(Contains(Pow(Q(q), Q(Rational(1, 2))) - Sqrt(Q(q)), Rational(0)));
  }
  // log 2 = 0.693147180559945309417232121458176568... (OEIS A002162)
  const Rational log2_lo = ParseRational("0.6931471805599453094172321214581765680755", "log2");
  const Interval log2 = ToInterval(LogQ(kPrec, Rational(2)));
  EXPECT_GT(log2.lo(), log2_lo);
  EXPECT_LT(log2.hi(), Rational(log2_lo + ParseRational("1e-40", "log2")));
  EXPECT_LT(LogQ(kPrec, Rational(2)).WidthDouble(), 1e-70);
}

TEST(Enclosure, PiContainsKnownDigits) {
  const Interval pi = ToInterval(Pi(kPrec));
  // π = 3.14159265358979323846264338327950288419716939937510... lies strictly between
  // the 50-digit truncation and the truncation + 1e-50.
  const Rational lo = ParseRational("3.14159265358979323846264338327950288419716939937510", "pi");
  const Rational hi = lo + ParseRational("1e-50", "pi");
  EXPECT_GT(pi.lo(), lo);
  EXPECT_LT(pi.hi(), hi);
}

TEST(Enclosure, BinomialsExactAndGeneralised) {
  EXPECT_TRUE(Contains(Exp(LogBinomial(kPrec, 64, 32)), Rational(Int("1832624140942590534"))));
  EXPECT_TRUE(Contains(BinomialCoefficient(Q(10), 3), Rational(120)));
  // C(1/2, 2) = (1/2)(−1/2)/2 = −1/8.
  EXPECT_TRUE(Contains(BinomialCoefficient(Q(Rational(1, 2)), 2), Rational(-1, 8)));
  EXPECT_THROW(LogBinomial(kPrec, 3, 4), InvalidArgument);
}

TEST(Enclosure, MaxMinHull) {
  const Enclosure a = Q(Rational(1, 3)), b = Q(Rational(1, 2));
  EXPECT_TRUE(Contains(Max(a, b), Rational(1, 2)));
  EXPECT_TRUE(Contains(Min(a, b), Rational(1, 3)));
  const Enclosure h = Hull(a, b);
  EXPECT_TRUE(Contains(h, Rational(2, 5)));
  EXPECT_TRUE(Contains(Abs(Q(Rational(-3, 7))), Rational(3, 7)));
}

TEST(Enclosure, SignTestsAndDecisions) {
  EXPECT_TRUE(CertainlyPositive(Q(Rational(1, 1000000))));
  EXPECT_FALSE(CertainlyPositive(Q(0)));
  EXPECT_TRUE(CertainlyNonNegative(Q(0)));
  EXPECT_TRUE(CertainlyNegative(Q(-1)));
  EXPECT_TRUE(CertainlyNonPositive(Q(0)));
  EXPECT_TRUE(DecideGreaterEqual(Q(2), Q(1)));
  EXPECT_FALSE(DecideGreaterEqual(Q(1), Q(2)));
  // 1/3 · 3 vs 1: the enclosures overlap, so the comparison is undecidable (never guessed).
  EXPECT_THROW(DecideGreaterEqual(Q(Rational(1, 3)) * Rational(3), Q(1)), Undecidable);
}

TEST(Enclosure, DomainErrorsThrowUndecidable) {
  EXPECT_THROW(Log(Q(0)), Undecidable);
  EXPECT_THROW(Log(Q(-1)), Undecidable);
  EXPECT_THROW(Sqrt(Q(-1)), Undecidable);
  EXPECT_THROW(Q(1) / Q(0), Undecidable);
  EXPECT_THROW(Log1p(Q(-1)), Undecidable);
  EXPECT_THROW(Pow(Q(-2), Q(Rational(1, 2))), Undecidable);
}

TEST(Enclosure, WidthShrinksWithPrecision) {
  const Enclosure lo = Log(Enclosure(64, Rational(10)));
  const Enclosure hi = Log(Enclosure(512, Rational(10)));
  EXPECT_GT(lo.WidthDouble(), 0.0);
  EXPECT_LT(hi.WidthDouble(), lo.WidthDouble() * 1e-100);
  EXPECT_TRUE(Contains(lo, ToInterval(hi).Mid()));
}

TEST(Enclosure, CopyAndMoveKeepValue) {
  Enclosure a = Q(Rational(5, 3));
  Enclosure b = a;
  Enclosure c = std::move(a);
  EXPECT_TRUE(Contains(b, Rational(5, 3)));
  EXPECT_TRUE(Contains(c, Rational(5, 3)));
  b = Q(Rational(1, 7));
  EXPECT_TRUE(Contains(b, Rational(1, 7)));
  a = c;  // a moved-from object may be assigned
  EXPECT_TRUE(Contains(a, Rational(5, 3)));
}

TEST(EnclosureValidation, Helpers) {
  EXPECT_THROW(ValidatePrecision(31), InvalidArgument);
  EXPECT_NO_THROW(ValidatePrecision(32));
  EXPECT_THROW(ValidatePrecision(100001), InvalidArgument);
  EXPECT_THROW(ValidatePositiveInteger(Rational(3, 2), "n"), InvalidArgument);
  EXPECT_THROW(ValidatePositiveInteger(Rational(0), "n"), InvalidArgument);
  EXPECT_THROW(ValidateOpenUnit(Rational(1), "delta"), InvalidArgument);
  EXPECT_THROW(ValidateOpenUnit(Rational(0), "delta"), InvalidArgument);
  EXPECT_THROW(ValidatePositive(Rational(0), "s"), InvalidArgument);
  EXPECT_THROW(ValidateNonNegative(Rational(-1, 9), "d"), InvalidArgument);
  try {
    ValidateOpenUnit(Rational(2), "delta");
    FAIL() << "no throw";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.argument(), "delta");
  }
}

}  // namespace
}  // namespace dpfl::ref
