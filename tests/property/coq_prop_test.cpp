// seed 001 (CoQ-FL / LDP-FedCR): properties over random exact instances (1000 each, see
// tests/CMakeLists.txt RC_PARAMS). Instances are built from small integers so every
// quantity is an exact Rational: E = 1 + a/b, c and r on rational grids, w = c + r·j/m
// (so w ∈ [c − r, c + r], endpoints included), d ∈ 0..10, p_x = k/m ∈ (0, 1).
// Suites are named coq* so that `ctest -R coq` (case-sensitive) selects them.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

#include "dpfl/ref/coq.hpp"

namespace dpfl::ref {
namespace {

struct Instance {
  Rational E, alpha, c, r, wA, wB, px, P_A, P_B;
  int d;
};

Rational GenRatio(int num_lo, int num_hi, int den_hi) {  // num ∈ [num_lo, num_hi], den ∈ [1, den_hi]
  const int num = *rc::gen::inRange(num_lo, num_hi + 1);
  const int den = *rc::gen::inRange(1, den_hi + 1);
  return Rational(num, den);
}

Rational GenWeight(const Rational& c, const Rational& r) {
  const int m = *rc::gen::inRange(1, 13);
  const int j = *rc::gen::inRange(-m, m + 1);
  return c + r * Rational(j, m);
}

Rational GenPx(bool force_half) {
  if (force_half) return Rational(1, 2);
  const int m = *rc::gen::inRange(2, 13);
  const int k = *rc::gen::inRange(1, m);
  return Rational(k, m);
}

Instance GenInstance(bool force_half, int max_d = 10) {
  Instance in;
  in.E = Rational(1) + GenRatio(1, 20, 20);
  in.alpha = AlphaFromE(in.E);
  in.c = GenRatio(-10, 10, 10);
  in.r = GenRatio(1, 10, 10);
  in.wA = GenWeight(in.c, in.r);
  in.wB = GenWeight(in.c, in.r);
  in.d = *rc::gen::inRange(0, max_d + 1);
  in.px = GenPx(force_half || *rc::gen::arbitrary<bool>());
  in.P_A = LdpqProbPlus(in.alpha, in.c, in.r, in.wA);
  in.P_B = LdpqProbPlus(in.alpha, in.c, in.r, in.wB);
  return in;
}

// D2: the corrected marginals are exactly LDPQ's P(w), for every d and p_x, by the cell
// formula, by the closed-form joint and by the literal brute force.
RC_GTEST_PROP(coqProperty, CorrectedMarginalsEqualLdpq, ()) {
  const Instance in = GenInstance(false);
  const CoqCodebook book(in.px, in.d);
  RC_ASSERT(AliceMarginalPlus(book, AliceCell(book, in.P_A)) == in.P_A);
  RC_ASSERT(BobMarginalPlus(book, BobCell(book, in.P_B)) == in.P_B);
  const CoqJoint<Rational> closed = CoqJointClosedForm(book, in.P_A, in.P_B);
  RC_ASSERT(closed.APlus() == in.P_A);
  RC_ASSERT(closed.BPlus() == in.P_B);
  const CoqJoint<Rational> brute = CoqJointBruteForce(in.px, in.d, in.P_A, in.P_B, CoqList::kCorrected);
  RC_ASSERT(brute.APlus() == LdpqProbPlus(in.alpha, in.c, in.r, in.wA));
  RC_ASSERT(brute.BPlus() == LdpqProbPlus(in.alpha, in.c, in.r, in.wB));
  const CoqResult<Rational> res = EvaluateCoq(in.E, in.c, in.r, in.wA, in.wB, in.d, in.px, CoqList::kCorrected);
  RC_ASSERT(res.mean_A == in.wA);  // unbiased
  RC_ASSERT(res.mean_B == in.wB);
  RC_ASSERT(res.var_A == Rational(in.r * in.r * in.alpha * in.alpha - (in.wA - in.c) * (in.wA - in.c)));  // Eq. 3
}

// E1, §7 item 14: with p_x = 1/2 the as-printed list gives Alice P − 2^−d (≠ P) and Bob
// P_B + 2^−d; FindIndex is undefined (InvalidArgument) when v < 2^−d.
RC_GTEST_PROP(coqProperty, AsPrintedMarginalsAreShiftedForHalf, ()) {
  const Instance in = GenInstance(true);
  const Rational shift = Pow2(-in.d);
  const bool alice_defined = in.P_A >= shift, bob_defined = Rational(1 - in.P_B) >= shift;
  if (!alice_defined) {
    RC_ASSERT_THROWS_AS(AsPrintedAliceMarginal(in.px, in.d, in.P_A), dpfl::InvalidArgument);
  } else {
    const Rational m = AsPrintedAliceMarginal(in.px, in.d, in.P_A);
    RC_ASSERT(m == Rational(in.P_A - shift));
    RC_ASSERT(m != in.P_A);
  }
  if (alice_defined && bob_defined) {
    const CoqJoint<Rational> seg = CoqJointAsPrinted(in.px, in.d, in.P_A, in.P_B);
    RC_ASSERT(seg.BPlus() == Rational(in.P_B + shift));
    RC_ASSERT(seg.APlus() == Rational(in.P_A - shift));
  } else {
    RC_ASSERT_THROWS_AS(CoqJointAsPrinted(in.px, in.d, in.P_A, in.P_B), dpfl::InvalidArgument);
  }
}

// The as-printed segment joint equals the literal as-printed brute force (any p_x); both
// throw InvalidArgument (E1) when v < ProbList[0] = (1 − p_x)^d for either client.
RC_GTEST_PROP(coqProperty, AsPrintedSegmentsEqualBruteForce, ()) {
  const Instance in = GenInstance(false);
  const Rational floor_value = PowRational(Rational(1 - in.px), in.d);  // ProbList[0]
  if (!(in.P_A >= floor_value && Rational(1 - in.P_B) >= floor_value)) {  // E1: FindIndex undefined
    RC_ASSERT_THROWS_AS(CoqJointBruteForce(in.px, in.d, in.P_A, in.P_B, CoqList::kAsPrinted),
                        dpfl::InvalidArgument);
    RC_ASSERT_THROWS_AS(CoqJointAsPrinted(in.px, in.d, in.P_A, in.P_B), dpfl::InvalidArgument);
    return;
  }
  const CoqJoint<Rational> seg = CoqJointAsPrinted(in.px, in.d, in.P_A, in.P_B);
  const CoqJoint<Rational> brute = CoqJointBruteForce(in.px, in.d, in.P_A, in.P_B, CoqList::kAsPrinted);
  RC_ASSERT(seg.pp == brute.pp);
  RC_ASSERT(seg.pm == brute.pm);
  RC_ASSERT(seg.mp == brute.mp);
  RC_ASSERT(seg.mm == brute.mm);
  RC_ASSERT(AsPrintedAliceMarginal(in.px, in.d, in.P_A) == brute.APlus());
}

// D3 closed form == literal PerturbWeight brute force, all four cells.
RC_GTEST_PROP(coqProperty, ClosedFormJointEqualsBruteForce, ()) {
  const Instance in = GenInstance(false);
  const CoqJoint<Rational> closed = CoqJointClosedForm(CoqCodebook(in.px, in.d), in.P_A, in.P_B);
  const CoqJoint<Rational> brute = CoqJointBruteForce(in.px, in.d, in.P_A, in.P_B, CoqList::kCorrected);
  RC_ASSERT(closed.pp == brute.pp);
  RC_ASSERT(closed.pm == brute.pm);
  RC_ASSERT(closed.mp == brute.mp);
  RC_ASSERT(closed.mm == brute.mm);
}

RC_GTEST_PROP(coqProperty, JointIsADistribution, ()) {
  const Instance in = GenInstance(false);
  const CoqJoint<Rational> j = CoqJointClosedForm(CoqCodebook(in.px, in.d), in.P_A, in.P_B);
  RC_ASSERT(j.Total() == Rational(1));
  RC_ASSERT(j.pp >= 0);
  RC_ASSERT(j.pm >= 0);
  RC_ASSERT(j.mp >= 0);
  RC_ASSERT(j.mm >= 0);
}

// d = 0 is LDP-FL: the joint is the product of the marginals (§4.8 item 1, E14).
RC_GTEST_PROP(coqProperty, DZeroIsIndependent, ()) {
  const Instance in = GenInstance(false, 0);
  const CoqJoint<Rational> j = CoqJointClosedForm(CoqCodebook(in.px, 0), in.P_A, in.P_B);
  RC_ASSERT(j.pp == Rational(in.P_A * in.P_B));
  RC_ASSERT(j.pm == Rational(in.P_A * (1 - in.P_B)));
  RC_ASSERT(j.mp == Rational((1 - in.P_A) * in.P_B));
  RC_ASSERT(j.mm == Rational((1 - in.P_A) * (1 - in.P_B)));
  const CoqResult<Rational> res = EvaluateCoq(in.E, in.c, in.r, in.wA, in.wB, 0, in.px, CoqList::kCorrected);
  RC_ASSERT(res.var_sum == res.var_sum_independent);
  RC_ASSERT(res.cov == Rational(0));
}

// D5: 0 ≤ δ ≤ p(k)/4, and δ = 0 unless k_A = k_B.
RC_GTEST_PROP(coqProperty, GapDeltaWithinBound, ()) {
  const Instance in = GenInstance(false);
  const CoqCodebook book(in.px, in.d);
  const Rational delta = CoqGapDelta(CoqJointClosedForm(book, in.P_A, in.P_B).pp, in.P_A, in.P_B);
  RC_ASSERT(delta >= 0);
  RC_ASSERT(delta <= CoqGapDeltaBound(book, in.P_A));
  if (AliceCell(book, in.P_A).k != BobCell(book, in.P_B).k) RC_ASSERT(delta == Rational(0));
}

// ideal ≤ Var(sum) ≤ independent Var(sum); the ideal forms (Lemma 2, Eq. 6, {S}) agree.
RC_GTEST_PROP(coqProperty, PairVarianceBetweenIdealAndIndependent, ()) {
  const Instance in = GenInstance(false);
  const CoqResult<Rational> res = EvaluateCoq(in.E, in.c, in.r, in.wA, in.wB, in.d, in.px, CoqList::kCorrected);
  RC_ASSERT(res.var_sum <= res.var_sum_independent);
  RC_ASSERT(res.ideal_var_sum <= res.var_sum);
  RC_ASSERT(res.var_sum == CoqPairSumVariance(res.alpha, in.r, res.joint.pp, in.P_A, in.P_B));
  RC_ASSERT(res.ideal_cov == Lemma2Covariance(in.alpha, in.c, in.r, in.wA, in.wB));
  RC_ASSERT(res.ideal_var_sum == Eq6PairSumVariance(in.alpha, in.c, in.r, in.wA, in.wB));
  RC_ASSERT(res.ideal_var_sum == FractionalPairSumVariance(in.alpha, in.r, Rational(in.P_A + in.P_B)));
  RC_ASSERT(res.ideal_var_sum <= IdealPairSumVarianceSup(in.alpha, in.r));
}

// D6: for p_x = 1/2 swapping the roles leaves the joint law unchanged.
RC_GTEST_PROP(coqProperty, RoleSymmetryForHalf, ()) {
  const Instance in = GenInstance(true);
  const CoqCodebook book(in.px, in.d);
  const CoqJoint<Rational> ab = CoqJointClosedForm(book, in.P_A, in.P_B);
  const CoqJoint<Rational> ba = CoqJointClosedForm(book, in.P_B, in.P_A);
  RC_ASSERT(ab.pp == ba.pp);
  RC_ASSERT(ab.pm == ba.mp);
  RC_ASSERT(ab.mm == ba.mm);
}

// p_x = 1/2 closed forms beyond the explicit-list range (d ∈ 21..62): still a distribution
// with the LDPQ marginal, and the D5 gap is within 2^−d/4.
RC_GTEST_PROP(coqProperty, UniformLargeDJointIsValid, ()) {
  const Instance in = GenInstance(true);
  const int d = *rc::gen::inRange(21, 63);
  const CoqJoint<Rational> j = CoqJointClosedForm(CoqCodebook(Rational(1, 2), d), in.P_A, in.P_B);
  RC_ASSERT(j.Total() == Rational(1));
  RC_ASSERT(j.APlus() == in.P_A);
  const Rational delta = CoqGapDelta(j.pp, in.P_A, in.P_B);
  RC_ASSERT(delta >= 0);
  RC_ASSERT(delta <= Rational(Pow2(-d) / 4));
}

// E1 for general p_x: a seeded grid search must find as-printed marginals ≠ P.
TEST(coqAsPrinted, GridSearchFindsBiasedMarginal) {
  int violations = 0, defined = 0;
  for (int m = 2; m <= 6; ++m)
    for (int k = 1; k < m; ++k)
      for (int d = 0; d <= 4; ++d)
        for (int j = 1; j < 24; ++j) {
          const Rational px(k, m), P(j, 24);
          if (P < PowRational(Rational(1 - px), d)) {
            EXPECT_THROW(AsPrintedAliceMarginal(px, d, P), dpfl::InvalidArgument);
            continue;
          }
          ++defined;
          if (AsPrintedAliceMarginal(px, d, P) != P) ++violations;
        }
  EXPECT_GT(defined, 0);
  EXPECT_GT(violations, 0);
}

}  // namespace
}  // namespace dpfl::ref
