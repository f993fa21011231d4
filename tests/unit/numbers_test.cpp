// Exact number layer: parsing, printing, rational-endpoint intervals, e^x enclosures.
#include <gtest/gtest.h>

#include "dpfl/ref/numbers.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "dpfl/validate.hpp"

namespace dpfl::ref {
namespace {

Rational Q(long p, long q = 1) { return Rational(Int(p), Int(q)); }

TEST(ParseRational, IntegersDecimalsFractionsAreExact) {
  EXPECT_EQ(ParseRational("3", "x"), Q(3));
  EXPECT_EQ(ParseRational("-3", "x"), Q(-3));
  EXPECT_EQ(ParseRational("0.1", "x"), Q(1, 10));  // not the double 0.1000000000000000055…
  EXPECT_EQ(ParseRational("-0.8", "x"), Q(-4, 5));
  EXPECT_EQ(ParseRational(".5", "x"), Q(1, 2));
  EXPECT_EQ(ParseRational("5.", "x"), Q(5));
  EXPECT_EQ(ParseRational("08", "x"), Q(8));  // leading zero is not octal
  EXPECT_EQ(ParseRational("1e-6", "x"), Q(1, 1000000));
  EXPECT_EQ(ParseRational("2.5E3", "x"), Q(2500));
  EXPECT_EQ(ParseRational("+7/21", "x"), Q(1, 3));
  EXPECT_EQ(ParseRational("-3/5", "x"), Q(-3, 5));
  EXPECT_EQ(ParseRational("010/020", "x"), Q(1, 2));
}

TEST(ParseRational, MalformedInputIsRejectedNamingTheArgument) {
  for (const char* bad : {"", " 1", "1 ", "abc", "nan", "NaN", "inf", "-inf", "1.2.3", "1/0", "1/-2", "0x10",
                          "1e", "e5", "--1", "1/2/3", ".", "1e1234567", "/", "3/"}) {
    try {
      ParseRational(bad, "--w");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InvalidArgument& e) {
      EXPECT_EQ(e.argument(), "--w") << bad;
    }
  }
}

TEST(ParseInt, AcceptsIntegersOnly) {
  EXPECT_EQ(ParseInt("62", "--d"), 62);
  EXPECT_EQ(ParseInt("-1", "--d"), -1);
  EXPECT_THROW(ParseInt("1.5", "--d"), InvalidArgument);
  EXPECT_THROW(ParseInt("9999999999", "--d"), InvalidArgument);
  EXPECT_THROW(ParseInt("", "--d"), InvalidArgument);
}

TEST(FloorInt, IsFloorForNegativeValuesToo) {
  EXPECT_EQ(FloorInt(Q(7, 2)), Int(3));
  EXPECT_EQ(FloorInt(Q(-7, 2)), Int(-4));
  EXPECT_EQ(FloorInt(Q(-4)), Int(-4));
  EXPECT_EQ(Pow2(-3), Q(1, 8));
  EXPECT_EQ(Pow2(62), Rational(Int(1) << 62));
}

TEST(ToDecimalString, RoundsHalfToEvenAndChoosesNotation) {
  EXPECT_EQ(ToDecimalString(Q(1, 3), 5), "0.33333");
  EXPECT_EQ(ToDecimalString(Q(2, 3), 5), "0.66667");
  EXPECT_EQ(ToDecimalString(Q(-1, 8), 2), "-0.12");   // 0.125 → 0.12 (half to even)
  EXPECT_EQ(ToDecimalString(Q(3, 8), 2), "0.38");     // 0.375 → 0.38
  EXPECT_EQ(ToDecimalString(Q(9999, 1000), 3), "10");  // rounds up to the next decade
  EXPECT_EQ(ToDecimalString(Q(1, 1000000000), 3), "1e-9");
  EXPECT_EQ(ToDecimalString(Q(123456, 1), 3), "123000");
  EXPECT_EQ(ToDecimalString(Q(0), 3), "0");
  EXPECT_EQ(ToDecimalString(Q(1, 7) * Pow2(-100), 4), "1.127e-31");
}

TEST(ToDecimalString, ErrorIsWithinTheStatedBound) {
  for (const Rational& x : {Q(1, 3), Q(-22, 7), Q(1, 7) * Pow2(-100), Q(99995, 10)}) {
    const std::string s = ToDecimalString(x, 4);
    const Rational printed = ParseRational(s, "printed");
    EXPECT_LE(Abs(Rational(printed - x)), DecimalRoundingBound(x, 4)) << s;
  }
}

TEST(Interval, ArithmeticEnclosesEveryMember) {
  const Interval a(Q(-1), Q(2)), b(Q(3), Q(4));
  const Interval prod = a * b;
  EXPECT_EQ(prod.lo(), Q(-4));
  EXPECT_EQ(prod.hi(), Q(8));
  const Interval quot = b / Interval(Q(2), Q(4));
  EXPECT_EQ(quot.lo(), Q(3, 4));
  EXPECT_EQ(quot.hi(), Q(2));
  EXPECT_EQ((a - b).lo(), Q(-5));
  EXPECT_EQ((a - b).hi(), Q(-1));
  EXPECT_EQ(Abs(a).lo(), Q(0));
  EXPECT_EQ(Abs(a).hi(), Q(2));
}

TEST(Interval, UndecidableDecisionsThrowInsteadOfGuessing) {
  const Interval straddles(Q(99, 100), Q(101, 100));
  EXPECT_THROW(FloorInt(straddles), Undecidable);
  EXPECT_THROW((void)(straddles < Interval(1)), Undecidable);
  EXPECT_THROW(Interval(1) / Interval(Q(-1, 100), Q(1, 100)), Undecidable);
  EXPECT_EQ(FloorInt(Interval(Q(101, 100), Q(199, 100))), Int(1));
  EXPECT_TRUE(Interval(Q(1, 2), Q(3, 4)) < Interval(Q(4, 5), Q(1)));
  EXPECT_FALSE(Interval(Q(4, 5), Q(1)) < Interval(Q(1, 2), Q(4, 5)));
  EXPECT_THROW(Interval(Q(2), Q(1)), InvalidArgument);
  EXPECT_THROW(Interval(1) / Interval(0), InvalidArgument);
}

TEST(ExpEnclosure, EnclosesEAndIsNarrow) {
  // e = 2.71828182845904523536028747135266249775724709369995… (a known constant, not computed here).
  const Rational e_lo = ParseRational("2.71828182845904523536028747135266249775", "e");
  const Rational e_hi = ParseRational("2.71828182845904523536028747135266249776", "e");
  const Interval e = ExpEnclosure(Q(1), 256, "--eps");
  EXPECT_LE(e_lo, e.lo());
  EXPECT_LE(e.hi(), e_hi);
  EXPECT_LT(e.Radius(), Pow2(-250));
  const Interval small = ExpEnclosure(Q(1, 10), 64, "--eps");
  EXPECT_LT(small.Radius(), Pow2(-60));
  EXPECT_GT(small.lo(), Q(1));
  EXPECT_THROW(ExpEnclosure(Q(1), 8, "--eps"), InvalidArgument);
  EXPECT_THROW(ExpEnclosure(Q(10000000), 64, "--eps"), InvalidArgument);
}

// ---- dpfl/validate.hpp: one domain check for every argument -------------------------------

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// The message of the InvalidArgument that f throws (checking that its argument is `name`).
template <class F>
std::string MessageOf(F f, const std::string& name) {
  try {
    f();
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.argument(), name) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no InvalidArgument";
  return {};
}

TEST(Validate, OpenAndClosedEnds) {
  EXPECT_FALSE(Domain::Open(0, 1).Contains(0.0));
  EXPECT_FALSE(Domain::Open(0, 1).Contains(1.0));
  EXPECT_TRUE(Domain::Open(0, 1).Contains(0.5));
  EXPECT_TRUE(Domain::Closed(0, 1).Contains(0.0));
  EXPECT_TRUE(Domain::Closed(0, 1).Contains(1.0));
  EXPECT_FALSE(Domain::Closed(0, 1).Contains(std::nextafter(1.0, 2.0)));
  EXPECT_FALSE(Domain::OpenClosed(0, 1).Contains(0.0));
  EXPECT_TRUE(Domain::OpenClosed(0, 1).Contains(1.0));
  EXPECT_TRUE(Domain::ClosedOpen(0, 1).Contains(0.0));
  EXPECT_FALSE(Domain::ClosedOpen(0, 1).Contains(1.0));
  EXPECT_TRUE(Domain::Closed(0, 1).Contains(-0.0));  // -0 == 0
  EXPECT_FALSE(Domain::Positive().Contains(-0.0));
  EXPECT_FALSE(Domain::Positive().Contains(0.0));
  EXPECT_TRUE(Domain::Positive().Contains(4.9e-324));  // the least subnormal is > 0
  EXPECT_TRUE(Domain::Budget(1e6).Contains(1e6));
  EXPECT_FALSE(Domain::Budget(1e6).Contains(std::nextafter(1e6, kInf)));
  EXPECT_TRUE(Domain::Probability().Contains(0.0) && Domain::Probability().Contains(1.0));
  EXPECT_FALSE(Domain::OpenUnit().Contains(0.0) || Domain::OpenUnit().Contains(1.0));
}

TEST(Validate, NaNIsInNoDomainAndInfinityOnlyThroughAClosedInfiniteEnd) {
  for (const Domain d : {Domain::Finite(), Domain::Positive(), Domain::NonNegative(), Domain::Probability(),
                         Domain::OpenUnit(), Domain::Budget(30), Domain::Closed(-kInf, kInf)})
    EXPECT_FALSE(d.Contains(kNaN));
  EXPECT_FALSE(Domain::Finite().Contains(kInf));
  EXPECT_FALSE(Domain::Finite().Contains(-kInf));
  EXPECT_FALSE(Domain::Positive().Contains(kInf));
  EXPECT_FALSE(Domain::NonNegative().Contains(kInf));
  EXPECT_TRUE(Domain::Closed(0, kInf).Contains(kInf));
  EXPECT_TRUE(Domain::Closed(-kInf, kInf).Contains(-kInf));
  EXPECT_EQ(MessageOf([] { Require("c", kNaN, Domain::Finite()); }, "c"), "c: must be finite, got nan");
  EXPECT_EQ(MessageOf([] { Require("c", -kInf, Domain::Finite()); }, "c"), "c: must be finite, got -inf");
  EXPECT_EQ(MessageOf([] { Require("sigma", kInf, Domain::Positive()); }, "sigma"),
            "sigma: must be finite and > 0, got inf");
  EXPECT_EQ(MessageOf([] { Require("p", kNaN, Domain::Probability()); }, "p"), "p: must be in [0, 1], got nan");
}

TEST(Validate, MessageEchoesTheValueInShortestRoundTripForm) {
  EXPECT_EQ(MessageOf([] { Require("eps", 1e308, Domain::Budget(1e6)); }, "eps"),
            "eps: must be in (0, 1e6], got 1e+308");
  EXPECT_EQ(MessageOf([] { Require("r", 1e-320, Domain::ClosedOpen(1e-300, 1e300)); }, "r"),
            "r: must be in [1e-300, 1e300), got 1e-320");
  EXPECT_EQ(MessageOf([] { Require("p", 0.1, Domain::Closed(0.5, 1)); }, "p"), "p: must be in [0.5, 1], got 0.1");
  EXPECT_EQ(MessageOf([] { Require("--eps-p", -0.0, Domain::Positive()); }, "--eps-p"),
            "--eps-p: must be finite and > 0, got -0");
  EXPECT_EQ(MessageOf([] { Require("delta", 1.0, Domain::OpenUnit()); }, "delta"), "delta: must be in (0, 1), got 1");
  EXPECT_EQ(MessageOf([] { Require("x", -1.5, Domain::NonNegative()); }, "x"), "x: must be finite and >= 0, got -1.5");
  EXPECT_EQ(MessageOf([] { Require("x", 3.0, Domain::Closed(-kInf, 2.5)); }, "x"), "x: must be <= 2.5, got 3");
}

TEST(Validate, MessageCarriesTheSpecReference) {
  EXPECT_EQ(MessageOf([] { Require("eps", 1e308, Domain::Budget(1e6), "seed-000 §3.1"); }, "eps"),
            "eps: must be in (0, 1e6], got 1e+308 (seed-000 §3.1)");
  EXPECT_EQ(MessageOf([] { ThrowDomainError("n", "must be even", "3", "E43"); }, "n"), "n: must be even, got 3 (E43)");
}

TEST(Validate, ReturnsTheValue) {
  EXPECT_EQ(Require("eps", 1e6, Domain::Budget(1e6)), 1e6);
  EXPECT_EQ(Require("r", 4.9e-324, Domain::Positive(), "seed-000 Alg. 1"), 4.9e-324);
  EXPECT_EQ(Require("w", kInf, Domain::Closed(-kInf, kInf)), kInf);
  const Rational q = Q(1, 3);
  EXPECT_EQ(&Require("q", q, Domain::OpenUnit(), EchoValue), &q);  // a reference to the argument
}

TEST(Validate, ExactValuesUseTheirOwnEchoAndIgnoreInfiniteEnds) {
  EXPECT_EQ(MessageOf([] { Require("eps", Q(-1, 3), Domain::Positive(), EchoValue); }, "eps"),
            "eps: must be > 0, got -1/3");  // no "finite": a rational always is
  EXPECT_EQ(MessageOf([] { Require("eps", Q(2000001, 2), Domain::Closed(0, 1e6), EchoValue); }, "eps"),
            "eps: must be in [0, 1e6], got 2000001/2");
  EXPECT_EQ(MessageOf([] { Require("p_s", Q(3, 2), Domain::OpenClosed(0, 1), EchoValue, "E-P2"); }, "p_s"),
            "p_s: must be in (0, 1], got 3/2 (E-P2)");
  EXPECT_EQ(MessageOf([] { Require("gamma", Q(1, 2), Domain::ClosedOpen(0, 0.5), EchoValue); }, "gamma"),
            "gamma: must be in [0, 0.5), got 1/2");
  EXPECT_NO_THROW(Require("b", Rational(Pow2(2000)), Domain::Positive(), EchoValue));
  EXPECT_NO_THROW(Require("x", Rational(-Pow2(2000)), Domain::Finite(), EchoValue));
  EXPECT_NO_THROW(Require("p", Q(1), Domain::Probability(), EchoValue));
  EXPECT_NO_THROW(Require("p", Q(0), Domain::NonNegative(), EchoValue));
  // Rational endpoints compare exactly with the double bound: 1e6 + 2^-60 is outside (0, 1e6].
  EXPECT_THROW(Require("eps", Rational(Q(1000000) + Pow2(-60)), Domain::Budget(1e6), EchoValue), InvalidArgument);
}

}  // namespace
}  // namespace dpfl::ref
