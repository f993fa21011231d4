// seed 001 (CoQ-FL / LDP-FedCR): every number of spec 001 Appendix A, the E1 literal
// ProbList check, E14, the D9 table, Lemma 2 / Eq. 6 / {S}(1−{S}), §4.6(d), item 13, D8,
// and one test per invalid argument. All comparisons are exact (Rational ==).
// Suites are named coq* so that `ctest -R coq` (case-sensitive) selects them.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "dpfl/ref/coq.hpp"

namespace dpfl::ref {
namespace {

Rational Q(const std::string& text) { return ParseRational(text, "test"); }

// One row of spec 001 Appendix A (all three tables).
struct CoqVector {
  std::string id;
  std::string E, alpha, c, r, wA, wB;
  int d;
  std::string px;  // row 6 prints "–" (d = 0: the codebook is {0} with p(0) = 1 for any p_x)
  std::vector<std::string> F;
  std::string P_A, P_B;
  int k_A;
  std::string theta_A;
  int k_B;
  std::string theta_B;  // θ_B′ = P(U_B = −1 | I = k_B)
  std::string pp, pm, mp, mm, cov, var_A, var_B, var_sum;
  std::string ideal_pp, ideal_cov, ideal_var_sum;  // "same as computed" rows spelled out
  std::string var_sum_independent;
};

const std::vector<CoqVector> kAppendixA = {
    {"row1", "3", "2", "0", "1", "1/2", "-1/4", 2, "1/2", {"0", "1/4", "1/2", "3/4", "1"},
     "5/8", "7/16", 2, "1/2", 2, "1/4",
     "3/32", "17/32", "11/32", "1/32", "-23/8", "15/4", "63/16", "31/16",
     "1/16", "-27/8", "15/16", "123/16"},
    {"row2", "3", "2", "0", "1", "1/2", "-1/2", 2, "1/2", {"0", "1/4", "1/2", "3/4", "1"},
     "5/8", "3/8", 2, "1/2", 2, "1/2",
     "1/16", "9/16", "5/16", "1/16", "-11/4", "15/4", "15/4", "2",
     "0", "-15/4", "0", "15/2"},
    {"row3", "3", "2", "0", "1", "1/2", "-1/2", 3, "1/2",
     {"0", "1/8", "2/8", "3/8", "4/8", "5/8", "6/8", "7/8", "1"},
     "5/8", "3/8", 5, "0", 5, "0",
     "0", "5/8", "3/8", "0", "-15/4", "15/4", "15/4", "0",
     "0", "-15/4", "0", "15/2"},
    {"row4", "2", "3", "1/10", "1/2", "3/10", "1/5", 1, "1/2", {"0", "1/2", "1"},
     "17/30", "8/15", 1, "2/15", 0, "14/15",
     "1/10", "7/15", "13/30", "0", "-91/50", "221/100", "56/25", "81/100",
     "1/10", "-91/50", "81/100", "89/20"},
    {"row5", "2", "3", "0", "1", "1/3", "1/3", 2, "1/3", {"0", "4/9", "2/3", "8/9", "1"},
     "5/9", "5/9", 1, "1/2", 1, "0",
     "1/9", "4/9", "4/9", "0", "-64/9", "80/9", "80/9", "32/9",
     "1/9", "-64/9", "32/9", "160/9"},
    {"row6", "2", "3", "0", "1", "1/3", "1/3", 0, "1/2", {"0", "1"},
     "5/9", "5/9", 0, "5/9", 0, "4/9",
     "25/81", "20/81", "20/81", "16/81", "0", "80/9", "80/9", "160/9",
     "1/9", "-64/9", "32/9", "160/9"},
};

// Test names show the row id, not the bytes of the struct.
void PrintTo(const CoqVector& v, std::ostream* os) { *os << v.id; }

class coqAppendixA : public ::testing::TestWithParam<CoqVector> {};

TEST_P(coqAppendixA, CodebookPrefixSums) {
  const CoqVector& v = GetParam();
  const std::vector<Rational> F = ProbabilityListCorrected(Q(v.px), v.d);
  ASSERT_EQ(F.size(), v.F.size());
  const CoqCodebook book(Q(v.px), v.d);
  for (std::size_t i = 0; i < F.size(); ++i) {
    EXPECT_EQ(F[i], Q(v.F[i])) << "F[" << i << "]";
    EXPECT_EQ(book.F(Int(i)), Q(v.F[i])) << "codebook F(" << i << ")";
  }
}

TEST_P(coqAppendixA, MarginalsAndCells) {
  const CoqVector& v = GetParam();
  const Rational alpha = AlphaFromE(Q(v.E));
  EXPECT_EQ(alpha, Q(v.alpha));
  const Rational PA = LdpqProbPlus(alpha, Q(v.c), Q(v.r), Q(v.wA));
  const Rational PB = LdpqProbPlus(alpha, Q(v.c), Q(v.r), Q(v.wB));
  EXPECT_EQ(PA, Q(v.P_A));
  EXPECT_EQ(PB, Q(v.P_B));
  const CoqCodebook book(Q(v.px), v.d);
  const CoqCell<Rational> a = AliceCell(book, PA), b = BobCell(book, PB);
  EXPECT_EQ(a.k, Int(v.k_A));
  EXPECT_EQ(a.theta, Q(v.theta_A));
  EXPECT_EQ(b.k, Int(v.k_B));
  EXPECT_EQ(b.theta, Q(v.theta_B));
  EXPECT_EQ(AliceMarginalPlus(book, a), PA);  // D2
  EXPECT_EQ(BobMarginalPlus(book, b), PB);
}

TEST_P(coqAppendixA, JointClosedFormAndBruteForce) {
  const CoqVector& v = GetParam();
  const Rational PA = Q(v.P_A), PB = Q(v.P_B);
  const CoqCodebook book(Q(v.px), v.d);
  for (const CoqJoint<Rational>& j :
       {CoqJointClosedForm(book, PA, PB), CoqJointBruteForce(Q(v.px), v.d, PA, PB, CoqList::kCorrected)}) {
    EXPECT_EQ(j.pp, Q(v.pp));
    EXPECT_EQ(j.pm, Q(v.pm));
    EXPECT_EQ(j.mp, Q(v.mp));
    EXPECT_EQ(j.mm, Q(v.mm));
  }
}

TEST_P(coqAppendixA, EvaluateAllQuantities) {
  const CoqVector& v = GetParam();
  const CoqResult<Rational> res =
      EvaluateCoq(Q(v.E), Q(v.c), Q(v.r), Q(v.wA), Q(v.wB), v.d, Q(v.px), CoqList::kCorrected);
  EXPECT_EQ(res.alpha, Q(v.alpha));
  EXPECT_EQ(res.P_A, Q(v.P_A));
  EXPECT_EQ(res.P_B, Q(v.P_B));
  EXPECT_EQ(res.cell_A.k, Int(v.k_A));
  EXPECT_EQ(res.cell_A.theta, Q(v.theta_A));
  EXPECT_EQ(res.cell_B.k, Int(v.k_B));
  EXPECT_EQ(res.cell_B.theta, Q(v.theta_B));
  EXPECT_EQ(res.joint.pp, Q(v.pp));
  EXPECT_EQ(res.joint.pm, Q(v.pm));
  EXPECT_EQ(res.joint.mp, Q(v.mp));
  EXPECT_EQ(res.joint.mm, Q(v.mm));
  EXPECT_EQ(res.marginal_A_plus, Q(v.P_A));
  EXPECT_EQ(res.marginal_B_plus, Q(v.P_B));
  EXPECT_EQ(res.mean_A, Q(v.wA));  // unbiased (D2)
  EXPECT_EQ(res.mean_B, Q(v.wB));
  EXPECT_EQ(res.cov, Q(v.cov));
  EXPECT_EQ(res.var_A, Q(v.var_A));
  EXPECT_EQ(res.var_B, Q(v.var_B));
  EXPECT_EQ(res.var_sum, Q(v.var_sum));
  EXPECT_EQ(res.ideal_pi_pp, Q(v.ideal_pp));
  EXPECT_EQ(res.ideal_cov, Q(v.ideal_cov));
  EXPECT_EQ(res.ideal_var_sum, Q(v.ideal_var_sum));
  EXPECT_EQ(res.var_sum_independent, Q(v.var_sum_independent));
  // D4 formulas agree with the joint-based numbers.
  EXPECT_EQ(CoqCovariance(res.alpha, Q(v.r), res.joint.pp, res.P_A, res.P_B), Q(v.cov));
  EXPECT_EQ(CoqPairSumVariance(res.alpha, Q(v.r), res.joint.pp, res.P_A, res.P_B), Q(v.var_sum));
}

TEST_P(coqAppendixA, IdealFormsAgree) {
  const CoqVector& v = GetParam();
  const Rational alpha = Q(v.alpha), c = Q(v.c), r = Q(v.r), wA = Q(v.wA), wB = Q(v.wB);
  EXPECT_EQ(Lemma2Covariance(alpha, c, r, wA, wB), Q(v.ideal_cov));                   // Eq. (5)
  EXPECT_EQ(Eq6PairSumVariance(alpha, c, r, wA, wB), Q(v.ideal_var_sum));             // Eq. (6)
  EXPECT_EQ(FractionalPairSumVariance(alpha, r, Rational(Q(v.P_A) + Q(v.P_B))), Q(v.ideal_var_sum));
}

TEST_P(coqAppendixA, IntervalPathEnclosesExactValues) {
  const CoqVector& v = GetParam();
  const CoqResult<Interval> res = EvaluateCoq(Interval(Q(v.E)), Q(v.c), Q(v.r), Q(v.wA), Q(v.wB), v.d,
                                              Q(v.px), CoqList::kCorrected);
  EXPECT_TRUE(res.joint.pp.IsPoint());
  EXPECT_TRUE(res.joint.pp.Contains(Q(v.pp)));
  EXPECT_TRUE(res.var_sum.Contains(Q(v.var_sum)));
  EXPECT_TRUE(res.cov.Contains(Q(v.cov)));
  EXPECT_EQ(res.cell_A.k, Int(v.k_A));
  EXPECT_EQ(res.cell_B.k, Int(v.k_B));
}

INSTANTIATE_TEST_SUITE_P(Seed001AppendixA, coqAppendixA, ::testing::ValuesIn(kAppendixA),
                         [](const ::testing::TestParamInfo<CoqVector>& info) { return info.param.id; });

// Row 6 note: d = 0 is LDP-FL whatever p_x is.
TEST(coqAppendixA, Row6IndependentOfPx) {
  const CoqCodebook book(Q("1/3"), 0);
  const CoqJoint<Rational> j = CoqJointClosedForm(book, Q("5/9"), Q("5/9"));
  EXPECT_EQ(j.pp, Q("25/81"));
  EXPECT_EQ(j.mm, Q("16/81"));
}

// Row 2 note: at S = 1 the excess pair variance is 2 = 2r²α²p(k) (D5).
TEST(coqAppendixA, Row2ExcessAtSOne) {
  const CoqCodebook book(Q("1/2"), 2);
  const Rational v = CoqPairSumVarianceAtSOne(book, Rational(2), Q("1"), Q("5/8"), Q("3/8"));
  EXPECT_EQ(v, Q("2"));
  EXPECT_EQ(Rational(2 * 4) * book.p(Int(2)), Q("2"));
  EXPECT_EQ(CoqGapDelta(Q("1/16"), Q("5/8"), Q("3/8")), Q("1/16"));
  EXPECT_EQ(CoqGapDeltaBound(book, Q("5/8")), Q("1/16"));  // δ = p(k)/4: the bound is attained
}

// p_x = 1/2 closed forms up to d = 62 without lists.
TEST(coqCodebookTest, UniformClosedFormLargeD) {
  const CoqCodebook book(Q("1/2"), 62);
  EXPECT_EQ(book.size(), Int(1) << 62);
  EXPECT_EQ(book.p(Int(12345)), Pow2(-62));
  EXPECT_EQ(book.F(Int(3)), Rational(3) * Pow2(-62));
  EXPECT_EQ(book.F(book.size()), Rational(1));
  EXPECT_EQ(book.FindIndex(Q("5/8")), (Int(5) << 59));
  const CoqJoint<Rational> j = CoqJointClosedForm(book, Q("5/8"), Q("7/16"));
  EXPECT_EQ(j.pp, Q("1/16"));  // dyadic ⇒ ideal
}

// E2: v = 1 lands in the last cell with θ = 1.
TEST(coqCodebookTest, FindIndexAtOne) {
  for (const char* px : {"1/2", "1/3"}) {
    const CoqCodebook book(Q(px), 3);
    const CoqCell<Rational> cell = book.Cell(Rational(1));
    EXPECT_EQ(cell.k, Int(7));
    EXPECT_EQ(cell.theta, Rational(1));
    EXPECT_EQ(FindIndexLiteral(ProbabilityListCorrected(Q(px), 3), Rational(1), CoqList::kCorrected, "v"), 7u);
  }
}

// ---- E1: the literal ProbList (below Appendix A) ----

TEST(coqE1, LiteralProbListValues) {
  const std::vector<Rational> list = ProbabilityListAsPrinted(Q("1/2"), 2);
  const std::vector<Rational> expected = {Q("1/4"), Q("1/2"), Q("3/4"), Q("1"), Q("5/4")};
  EXPECT_EQ(list, expected);
}

TEST(coqE1, LiteralAliceMarginalAtFiveEighths) {
  const std::vector<Rational> list = ProbabilityListAsPrinted(Q("1/2"), 2);
  const PerturbWeightRule<Rational> rule = MakePerturbWeightRule(list, Q("5/8"), +1, CoqList::kAsPrinted, "wA");
  EXPECT_EQ(rule.idx, Int(1));
  EXPECT_EQ(AsPrintedAliceMarginal(Q("1/2"), 2, Q("5/8")), Q("3/8"));
  EXPECT_EQ(CoqJointBruteForce(Q("1/2"), 2, Q("5/8"), Q("1/2"), CoqList::kAsPrinted).APlus(), Q("3/8"));
  EXPECT_EQ(CoqJointAsPrinted(Q("1/2"), 2, Q("5/8"), Q("1/2")).APlus(), Q("3/8"));
}

TEST(coqE1, LiteralFindIndexUndefinedAtOneEighth) {
  EXPECT_THROW(AsPrintedAliceMarginal(Q("1/2"), 2, Q("1/8")), dpfl::InvalidArgument);
  EXPECT_THROW(CoqJointBruteForce(Q("1/2"), 2, Q("1/8"), Q("1/2"), CoqList::kAsPrinted), dpfl::InvalidArgument);
  try {
    AsPrintedAliceMarginal(Q("1/2"), 2, Q("1/8"));
  } catch (const dpfl::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("E1"), std::string::npos) << e.what();
  }
}

// E1: α = 3, d = 2: Pr[+1] ∈ [1/12, 5/12], ratio 5 > e^ε = 2; Bob gets P_B + 2^−d.
TEST(coqE1, LiteralBreaksLdp) {
  const Rational alpha = AlphaFromE(Q("2"));
  const Rational lo = AsPrintedAliceMarginal(Q("1/2"), 2, LdpqProbPlus(alpha, Q("0"), Q("1"), Q("-1")));
  const Rational hi = AsPrintedAliceMarginal(Q("1/2"), 2, LdpqProbPlus(alpha, Q("0"), Q("1"), Q("1")));
  EXPECT_EQ(lo, Q("1/12"));
  EXPECT_EQ(hi, Q("5/12"));
  EXPECT_EQ(hi / lo, Q("5"));
  EXPECT_GT(hi / lo, Q("2"));
  const CoqResult<Rational> res = EvaluateCoq(Q("2"), Q("0"), Q("1"), Q("1"), Q("1/2"), 2, Q("1/2"), CoqList::kAsPrinted);
  EXPECT_EQ(res.marginal_A_plus, Rational(res.P_A - Q("1/4")));
  EXPECT_EQ(res.marginal_B_plus, Rational(res.P_B + Q("1/4")));
}

// ---- E14: d = 1 is not LDP-FL; d = 0 is ----

TEST(coqE14, DOneIsNotIndependent) {
  const Rational PA = Q("17/30"), PB = Q("8/15");
  const CoqJoint<Rational> j1 = CoqJointClosedForm(CoqCodebook(Q("1/2"), 1), PA, PB);
  EXPECT_EQ(j1.pp, Q("1/10"));
  EXPECT_EQ(j1.pp, IdealPiPlusPlus(PA, PB));
  EXPECT_NE(j1.pp, Rational(PA * PB));
  EXPECT_NE(CoqIndependenceGap(j1), Rational(0));
  const CoqJoint<Rational> j0 = CoqJointClosedForm(CoqCodebook(Q("1/2"), 0), PA, PB);
  EXPECT_EQ(j0.pp, Rational(PA * PB));
  EXPECT_EQ(CoqIndependenceGap(j0), Rational(0));
}

// ---- D9: joint-view privacy loss ----

TEST(coqD9, ExampleTable) {
  const Rational alpha = AlphaFromE(Q("2"));
  ASSERT_EQ(alpha, Q("3"));
  const CoqCodebook book(Q("1/2"), 1);
  const Rational PB = LdpqProbPlus(alpha, Q("0"), Q("1"), Q("0"));
  ASSERT_EQ(PB, Q("1/2"));
  const CoqJoint<Rational> up = CoqJointClosedForm(book, LdpqProbPlus(alpha, Q("0"), Q("1"), Q("1")), PB);
  const CoqJoint<Rational> down = CoqJointClosedForm(book, LdpqProbPlus(alpha, Q("0"), Q("1"), Q("-1")), PB);
  EXPECT_EQ(up.pp, Q("1/6"));
  EXPECT_EQ(up.mm, Q("0"));
  EXPECT_EQ(down.pp, Q("0"));
  EXPECT_EQ(down.mm, Q("1/6"));
  const JointViewPrivacyLoss<Rational> loss =
      CoqJointViewPrivacyLoss(Q("2"), Q("0"), Q("1"), {Q("1"), Q("-1")}, Q("0"), 1, Q("1/2"));
  EXPECT_TRUE(loss.infinite);
}

TEST(coqD9, IndependentJointViewLossIsE) {
  const JointViewPrivacyLoss<Rational> loss =
      CoqJointViewPrivacyLoss(Q("2"), Q("0"), Q("1"), {Q("1"), Q("0"), Q("-1")}, Q("0"), 0, Q("1/2"));
  EXPECT_FALSE(loss.infinite);
  EXPECT_EQ(loss.ratio, Q("2"));
}

// ---- Lemma 2 / Eq. 6 / {S}(1−{S}) / D4-ideal on a grid ----

TEST(coqIdeal, FormsAgreeOnGrid) {
  for (const char* E : {"3", "2", "5", "11/10"}) {
    const Rational alpha = AlphaFromE(Q(E));
    const Rational c = Q("1/3"), r = Q("3/4");
    for (int a = -6; a <= 6; ++a)
      for (int b = -6; b <= 6; ++b) {
        const Rational wA = c + r * Rational(a, 6), wB = c + r * Rational(b, 6);
        const Rational PA = LdpqProbPlus(alpha, c, r, wA), PB = LdpqProbPlus(alpha, c, r, wB);
        const Rational pp = IdealPiPlusPlus(PA, PB);
        const Rational var = CoqPairSumVariance(alpha, r, pp, PA, PB);
        EXPECT_EQ(Lemma2Covariance(alpha, c, r, wA, wB), CoqCovariance(alpha, r, pp, PA, PB));
        EXPECT_EQ(Eq6PairSumVariance(alpha, c, r, wA, wB), var);
        EXPECT_EQ(FractionalPairSumVariance(alpha, r, Rational(PA + PB)), var);
      }
  }
}

// §4.6(b): at E[w] = c the ideal pair variance is 0.
TEST(coqIdeal, ZeroAtCenter) {
  const Rational alpha = AlphaFromE(Q("3/2"));
  EXPECT_EQ(Eq6PairSumVariance(alpha, Q("1"), Q("2"), Q("2"), Q("0")), Rational(0));
}

// ---- §4.6(d) / §7 item 12: worst cases (grid contains every maximiser) ----

TEST(coqSup, GridMaximaEqualClosedForms) {
  const Rational c = Q("0"), r = Q("1");
  for (const char* E : {"5", "4", "3", "2", "3/2"}) {  // α = 3/2, 5/3, 2, 3, 5
    const Rational alpha = AlphaFromE(Q(E));
    Rational ideal_max(-1), ind_max(-1), ind_min(1000);
    for (int a = -24; a <= 24; ++a)
      for (int b = -24; b <= 24; ++b) {
        const Rational wA(a, 24), wB(b, 24);
        ideal_max = Max(ideal_max, Eq6PairSumVariance(alpha, c, r, wA, wB));
        const Rational ind = IndependentPairSumVariance(alpha, c, r, wA, wB);
        ind_max = Max(ind_max, ind);
        ind_min = Min(ind_min, ind);
      }
    EXPECT_EQ(ideal_max, IdealPairSumVarianceSup(alpha, r)) << "E = " << E;
    EXPECT_EQ(ind_max, IndependentPairSumVarianceSup(alpha, r));
    EXPECT_EQ(ind_min, IndependentPairSumVarianceInf(alpha, r));
  }
  EXPECT_EQ(IdealPairSumVarianceSup(Q("3"), r), Q("8"));      // 4r²(α−1), α > 2
  EXPECT_EQ(IdealPairSumVarianceSup(Q("3/2"), r), Q("9/4"));  // r²α², α < 2
  // §4.6(c): for α > 2 the unconstrained maximum α²r² is not attained.
  EXPECT_LT(IdealPairSumVarianceSup(Q("3"), r), Q("9"));
}

// D7 [NUMERIC]: p_x = 1/2, d ≥ 1: the finite-d grid sup equals the ideal sup.
TEST(coqSup, FiniteDGridSupEqualsIdealSup) {
  const Rational c = Q("0"), r = Q("1");
  for (const char* E : {"3", "2", "3/2", "5"}) {
    const Rational alpha = AlphaFromE(Q(E));
    for (int d = 1; d <= 4; ++d) {
      const CoqCodebook book(Q("1/2"), d);
      Rational grid_max(-1);
      for (int a = -24; a <= 24; ++a)
        for (int b = -24; b <= 24; ++b) {
          const Rational PA = LdpqProbPlus(alpha, c, r, Rational(a, 24));
          const Rational PB = LdpqProbPlus(alpha, c, r, Rational(b, 24));
          grid_max = Max(grid_max, CoqPairSumVariance(alpha, r, CoqJointClosedForm(book, PA, PB).pp, PA, PB));
        }
      EXPECT_EQ(grid_max, IdealPairSumVarianceSup(alpha, r)) << "E = " << E << ", d = " << d;
    }
  }
}

// ---- §4.7 / §7 item 13 ----

TEST(coqBooleanProgram, BruteForceEqualsClosedForm) {
  for (int d = 0; d <= 2; ++d)
    for (int nA = 0; nA <= (1 << d); ++nA)
      for (int nB = 0; nB <= (1 << d); ++nB)
        EXPECT_EQ(BooleanProgramBruteForce(d, nA, nB), BooleanProgramOptimum(d, Int(nA), Int(nB)))
            << d << " " << nA << " " << nB;
}

TEST(coqBooleanProgram, ConstructionIsOptimalAndMatchesIdealJoint) {
  for (int d = 0; d <= 3; ++d) {
    const int N = 1 << d;
    for (int nA = 0; nA <= N; ++nA)
      for (int nB = 0; nB <= N; ++nB) {
        const Int opt = BooleanProgramOptimum(d, Int(nA), Int(nB));
        EXPECT_EQ(BooleanProgramConstructionValue(d, nA, nB), opt);
        // E[UV]_min = opt / 2^d = π++ + π−− − π+− − π−+ of the ideal joint (§4.5).
        const Rational PA(nA, N), PB(nB, N);
        const Rational pp = IdealPiPlusPlus(PA, PB);
        const Rational e_uv = pp + (1 - PA - PB + pp) - (PA - pp) - (PB - pp);
        EXPECT_EQ(e_uv, Rational(opt) / N);
      }
  }
}

// ---- D8 ----

TEST(coqD8, TwoClientsEqualsQuarterPairVariance) {
  const CoqResult<Rational> res =
      EvaluateCoq(Q("3"), Q("0"), Q("1"), Q("1/2"), Q("-1/4"), 2, Q("1/2"), CoqList::kCorrected);
  const Rational v = CoqEstimatorVariance(Q("3"), Q("0"), Q("1"), {Q("1/2"), Q("-1/4")}, {{0, 1}}, 2, Q("1/2"));
  EXPECT_EQ(v, Rational(res.var_sum / 4));
  EXPECT_EQ(v, Q("31/64"));
}

TEST(coqD8, RandomMatchingAverageEqualsEnumeration) {
  const std::vector<Rational> w = {Q("1/2"), Q("-1/4"), Q("1/3"), Q("-1")};
  const Rational E = Q("2"), c = Q("0"), r = Q("1");
  for (const char* px : {"1/2", "1/3"}) {
    const std::vector<CoqMatching> perfect = {{{0, 1}, {2, 3}}, {{0, 2}, {1, 3}}, {{0, 3}, {1, 2}}};
    Rational sum(0);
    int count = 0;
    for (const CoqMatching& m : perfect)
      for (int roles = 0; roles < 4; ++roles) {
        CoqMatching oriented = m;
        if (roles & 1) std::swap(oriented[0].first, oriented[0].second);
        if (roles & 2) std::swap(oriented[1].first, oriented[1].second);
        sum += CoqEstimatorVariance(E, c, r, w, oriented, 2, Q(px));
        ++count;
      }
    EXPECT_EQ(CoqEstimatorVarianceRandomMatching(E, c, r, w, 2, Q(px)), Rational(sum / count)) << px;
  }
}

// D6: for p_x ≠ 1/2 the law depends on the roles (an explicit witness).
TEST(coqD6, AsymmetricForBiasedCoin) {
  const CoqCodebook book(Q("1/3"), 2);
  const Rational PA = Q("1/2"), PB = Q("3/5");
  EXPECT_NE(CoqJointClosedForm(book, PA, PB).pp, CoqJointClosedForm(book, PB, PA).pp);
}

// ---- Invalid arguments: one test each ----

CoqResult<Rational> Eval(const std::string& E, const std::string& r, const std::string& wA, const std::string& wB,
                         int d, const std::string& px, CoqList list = CoqList::kCorrected) {
  return EvaluateCoq(Q(E), Q("0"), Q(r), Q(wA), Q(wB), d, Q(px), list);
}

TEST(coqInvalid, WAboveRange) { EXPECT_THROW(Eval("3", "1", "11/10", "0", 2, "1/2"), dpfl::InvalidArgument); }
TEST(coqInvalid, WABelowRange) { EXPECT_THROW(Eval("3", "1", "-2", "0", 2, "1/2"), dpfl::InvalidArgument); }
TEST(coqInvalid, WBOutsideRange) { EXPECT_THROW(Eval("3", "1", "0", "3/2", 2, "1/2"), dpfl::InvalidArgument); }
TEST(coqInvalid, RadiusZero) { EXPECT_THROW(Eval("3", "0", "0", "0", 2, "1/2"), dpfl::InvalidArgument); }
TEST(coqInvalid, RadiusNegative) { EXPECT_THROW(Eval("3", "-1", "0", "0", 2, "1/2"), dpfl::InvalidArgument); }
TEST(coqInvalid, EEqualsOne) { EXPECT_THROW(Eval("1", "1", "0", "0", 2, "1/2"), dpfl::InvalidArgument); }
TEST(coqInvalid, EBelowOne) { EXPECT_THROW(Eval("1/2", "1", "0", "0", 2, "1/2"), dpfl::InvalidArgument); }
TEST(coqInvalid, EnclosedEpsZero) {  // ε ≤ 0 ⇔ e^ε ≤ 1
  EXPECT_THROW(EvaluateCoq(Interval(Rational(1)), Q("0"), Q("1"), Q("0"), Q("0"), 2, Q("1/2"), CoqList::kCorrected),
               dpfl::InvalidArgument);
}
TEST(coqInvalid, DNegative) { EXPECT_THROW(Eval("3", "1", "0", "0", -1, "1/2"), dpfl::InvalidArgument); }
TEST(coqInvalid, DAbove62) { EXPECT_THROW(Eval("3", "1", "0", "0", 63, "1/2"), dpfl::InvalidArgument); }
TEST(coqInvalid, DAbove20WithBiasedCoin) { EXPECT_THROW(Eval("3", "1", "0", "0", 21, "1/3"), dpfl::InvalidArgument); }
TEST(coqInvalid, DAbove20AsPrinted) {
  EXPECT_THROW(Eval("3", "1", "0", "0", 21, "1/2", CoqList::kAsPrinted), dpfl::InvalidArgument);
}
TEST(coqInvalid, ListDAbove20) { EXPECT_THROW(ProbabilityListCorrected(Q("1/2"), 21), dpfl::InvalidArgument); }
TEST(coqInvalid, AsPrintedListDNegative) { EXPECT_THROW(ProbabilityListAsPrinted(Q("1/2"), -1), dpfl::InvalidArgument); }
TEST(coqInvalid, BruteForceDAbove20) {
  EXPECT_THROW(CoqJointBruteForce(Q("1/2"), 21, Q("1/2"), Q("1/2"), CoqList::kCorrected), dpfl::InvalidArgument);
}
TEST(coqInvalid, PxZero) { EXPECT_THROW(Eval("3", "1", "0", "0", 2, "0"), dpfl::InvalidArgument); }
TEST(coqInvalid, PxOne) { EXPECT_THROW(Eval("3", "1", "0", "0", 2, "1"), dpfl::InvalidArgument); }
TEST(coqInvalid, PxNegative) { EXPECT_THROW(Eval("3", "1", "0", "0", 2, "-1/2"), dpfl::InvalidArgument); }
TEST(coqInvalid, PxAboveOne) { EXPECT_THROW(Eval("3", "1", "0", "0", 2, "3/2"), dpfl::InvalidArgument); }
TEST(coqInvalid, CodebookPxZero) { EXPECT_THROW(CoqCodebook(Q("0"), 2), dpfl::InvalidArgument); }
TEST(coqInvalid, MalformedNumber) { EXPECT_THROW(ParseRational("1/2x", "--px"), dpfl::InvalidArgument); }
TEST(coqInvalid, ZeroDenominator) { EXPECT_THROW(ParseRational("1/0", "--wA"), dpfl::InvalidArgument); }
TEST(coqInvalid, AsPrintedUndefinedFindIndexBob) {
  // E1 for Bob: v = 1 − P_B = 1/3 < (1 − p_x)^d = 1/2 (α = 3, w_B = c + r, d = 1).
  EXPECT_THROW(Eval("2", "1", "0", "1", 1, "1/2", CoqList::kAsPrinted), dpfl::InvalidArgument);
}
TEST(coqInvalid, CodebookIndexOutOfRange) {
  const CoqCodebook book(Q("1/2"), 2);
  EXPECT_THROW(book.p(Int(4)), dpfl::InvalidArgument);
}
TEST(coqInvalid, FindIndexOutsideUnitInterval) {
  const CoqCodebook book(Q("1/3"), 2);
  EXPECT_THROW(book.FindIndex(Q("3/2")), dpfl::InvalidArgument);
}
TEST(coqInvalid, BooleanProgramCountTooLarge) { EXPECT_THROW(BooleanProgramOptimum(2, Int(5), Int(0)), dpfl::InvalidArgument); }
TEST(coqInvalid, BooleanBruteForceDTooLarge) { EXPECT_THROW(BooleanProgramBruteForce(3, 1, 1), dpfl::InvalidArgument); }
TEST(coqInvalid, RandomMatchingOddN) {
  EXPECT_THROW(CoqEstimatorVarianceRandomMatching(Q("2"), Q("0"), Q("1"), {Q("0"), Q("0"), Q("0")}, 1, Q("1/2")),
               dpfl::InvalidArgument);
}
TEST(coqInvalid, MatchingOverlaps) {
  EXPECT_THROW(CoqEstimatorVariance(Q("2"), Q("0"), Q("1"), {Q("0"), Q("0"), Q("0")}, {{0, 1}, {1, 2}}, 1, Q("1/2")),
               dpfl::InvalidArgument);
}
TEST(coqInvalid, JointViewEmptyGrid) {
  EXPECT_THROW(CoqJointViewPrivacyLoss(Q("2"), Q("0"), Q("1"), {}, Q("0"), 1, Q("1/2")), dpfl::InvalidArgument);
}

}  // namespace
}  // namespace dpfl::ref
