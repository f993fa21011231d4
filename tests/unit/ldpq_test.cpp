// LDPQ (seed-000 §3.1 Alg. 1, §7 R1–R2; seed-001 Eq. 2–3, Thm 1).
#include <gtest/gtest.h>

#include "dpfl/ref/ldpq.hpp"

namespace dpfl::ref {
namespace {

Rational Q(long p, long q = 1) { return Rational(Int(p), Int(q)); }

TEST(Ldpq, PrivacyFunctionR1) {
  // spec 000 §7: E = 3 ⇒ α = 2; E = 2 ⇒ α = 3; E = 5/3 ⇒ α = 4.
  EXPECT_EQ(AlphaFromE(Q(3)), Q(2));
  EXPECT_EQ(AlphaFromE(Q(2)), Q(3));
  EXPECT_EQ(AlphaFromE(Q(5, 3)), Q(4));
  EXPECT_EQ(EFromAlpha(Q(4)), Q(5, 3));
  // seed-000 E1: the §II-C print is −α.
  EXPECT_EQ(AlphaFromEAsPrinted(Q(3)), Q(-2));
}

TEST(Ldpq, LawAtASpecPoint) {
  // E = 3 (α = 2), c = 0, r = 1, w = 1/2: q = 1/2 + 1/8 = 5/8, MSE = r²α² − w̃² = 15/4.
  const LdpqLaw<Rational> law = Ldpq(Q(3), Q(0), Q(1), Q(1, 2));
  EXPECT_EQ(law.alpha, Q(2));
  EXPECT_EQ(law.q_plus, Q(5, 8));
  EXPECT_EQ(law.q_minus, Q(3, 8));
  EXPECT_EQ(law.level_minus, Q(-2));
  EXPECT_EQ(law.level_plus, Q(2));
  EXPECT_EQ(law.mean, Q(1, 2));
  EXPECT_EQ(law.mse, Q(15, 4));
  EXPECT_EQ(law.pldp_ratio, Q(3));
}

TEST(Ldpq, UnbiasedMseClosedFormAndTightRatioOnAGrid) {
  for (const Rational& E : {Q(3, 2), Q(2), Q(3), Q(5), Q(101, 100)}) {
    for (const Rational& c : {Q(-1, 3), Q(0), Q(5, 2)}) {
      const Rational r = Q(3, 4);
      for (int k = 0; k <= 12; ++k) {
        const Rational w = c - r + Rational(2 * r * k) / 12;
        const LdpqLaw<Rational> law = Ldpq(E, c, r, w);
        EXPECT_EQ(law.mean, w);  // C1 / seed-001 Lemma 1
        EXPECT_EQ(law.mse, Rational(r * r * law.alpha * law.alpha - (w - c) * (w - c)));  // R2
        EXPECT_EQ(law.pldp_ratio, E);  // R2: worst-case ratio is exactly e^ε
        EXPECT_GE(law.mse, Rational(r * r * (law.alpha * law.alpha - 1)));  // seed-001 Eq. (3)
      }
    }
  }
}

TEST(Ldpq, RejectsWeightOutsideTheClippingRange) {
  EXPECT_THROW(Ldpq(Q(3), Q(0), Q(1), Q(11, 10)), InvalidArgument);
  EXPECT_THROW(Ldpq(Q(3), Q(0), Q(1), Q(-11, 10)), InvalidArgument);
  EXPECT_NO_THROW(Ldpq(Q(3), Q(0), Q(1), Q(1)));
  EXPECT_NO_THROW(Ldpq(Q(3), Q(0), Q(1), Q(-1)));
}
TEST(Ldpq, RejectsNonPositiveRadius) {
  EXPECT_THROW(Ldpq(Q(3), Q(0), Q(0), Q(0)), InvalidArgument);
  EXPECT_THROW(Ldpq(Q(3), Q(0), Q(-1), Q(0)), InvalidArgument);
}
TEST(Ldpq, RejectsEAtMostOne) {
  EXPECT_THROW(Ldpq(Q(1), Q(0), Q(1), Q(0)), InvalidArgument);
  EXPECT_THROW(Ldpq(Q(1, 2), Q(0), Q(1), Q(0)), InvalidArgument);
  EXPECT_THROW(Ldpq(Q(-3), Q(0), Q(1), Q(0)), InvalidArgument);
}
TEST(Ldpq, ErrorNamesTheArgument) {
  try {
    Ldpq(Q(3), Q(0), Q(1), Q(2));
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.argument(), "w");
  }
}

TEST(Ldpq, EnclosureModeContainsTheExactValue) {
  // E enclosed in a tiny interval around 3: every output encloses the exact E = 3 result.
  const Interval E(Q(3) - Pow2(-200), Q(3) + Pow2(-200));
  const LdpqLaw<Interval> law = Ldpq(E, Q(0), Q(1), Q(1, 2));
  EXPECT_TRUE(law.alpha.Contains(Q(2)));
  EXPECT_TRUE(law.q_plus.Contains(Q(5, 8)));
  EXPECT_TRUE(law.mse.Contains(Q(15, 4)));
  EXPECT_LT(law.mse.Radius(), Pow2(-190));
}

}  // namespace
}  // namespace dpfl::ref
