// Exact number layer: parsing, printing, rational-endpoint intervals, e^x enclosures.
#include <gtest/gtest.h>

#include "dpfl/ref/numbers.hpp"

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

}  // namespace
}  // namespace dpfl::ref
