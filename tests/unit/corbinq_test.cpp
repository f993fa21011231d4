// CorBinQ exact reference against every test vector of spec 000 §7.1 (asserted with ==).
#include <gtest/gtest.h>

#include "dpfl/ref/corbinq.hpp"

namespace dpfl::ref {
namespace {

Rational Q(const char* text) { return ParseRational(text, "test"); }

// One row of spec 000 §7.1. Provenance: the table "Test vectors (computed exactly for this
// spec)"; the columns are transcribed verbatim (P(−,−), P(−,+), P(+,−), P(+,+), first sign Q1).
struct CorBinQVector {
  const char* id;
  const char* E;
  const char* c;
  const char* r;
  int d;
  const char* w1;
  const char* w2;
  Line14 line14;
  const char* q1;
  const char* q2;
  int t1;
  const char* f1;
  int t2;
  const char* f2;
  const char* mm;
  const char* mp;
  const char* pm;
  const char* pp;
  const char* md;
  const char* m_star;
  const char* independent;
};

const CorBinQVector kSeed000Vectors[] = {
    {"seed000_TV1", "3", "0", "1", 2, "-3/5", "1/5", Line14::kCorrected, "7/20", "11/20", 1, "2/5", 1, "4/5",
     "3/25", "53/100", "33/100", "1/50", "52/25", "36/25", "38/5"},
    {"seed000_TV2", "3", "0", "1", 3, "-3/5", "1/5", Line14::kCorrected, "7/20", "11/20", 2, "4/5", 3, "3/5",
     "1/10", "11/20", "7/20", "0", "36/25", "36/25", "38/5"},
    {"seed000_TV3", "3", "0", "1", 4, "3/5", "1/2", Line14::kCorrected, "13/20", "5/8", 10, "2/5", 6, "0",
     "0", "7/20", "3/8", "11/40", "319/100", "319/100", "739/100"},
    {"seed000_TV4", "2", "1/2", "1/2", 3, "1/4", "5/8", Line14::kCorrected, "5/12", "13/24", 3, "1/3", 3, "2/3",
     "1/18", "19/36", "29/72", "1/72", "39/64", "23/64", "283/64"},
    {"seed000_TV6", "2", "1/2", "1/2", 0, "1/4", "5/8", Line14::kCorrected, "5/12", "13/24", 0, "5/12", 0,
     "11/24", "77/288", "91/288", "55/288", "65/288", "283/64", "23/64", "283/64"},
    {"seed000_TV5_printed", "3", "0", "1", 2, "-4/5", "-2/5", Line14::kAsPrinted, "3/10", "2/5", 1, "1/5", 2,
     "2/5", "1/5", "1/2", "3/10", "0", "68/25", "84/25", "36/5"},
    {"seed000_TV5_corrected", "3", "0", "1", 2, "-4/5", "-2/5", Line14::kCorrected, "3/10", "2/5", 1, "1/5", 2,
     "2/5", "3/10", "2/5", "3/10", "0", "84/25", "84/25", "36/5"},
};

class CorBinQVectors : public ::testing::TestWithParam<CorBinQVector> {};

TEST_P(CorBinQVectors, ClosedFormMatchesSpecExactly) {
  const CorBinQVector& v = GetParam();
  const CorBinQResult<Rational> res =
      EvaluateCorBinQ(Q(v.E), Q(v.c), Q(v.r), Q(v.w1), Q(v.w2), v.d, v.line14);
  EXPECT_EQ(res.q1, Q(v.q1));
  EXPECT_EQ(res.q2, Q(v.q2));
  EXPECT_EQ(res.cells.t1, Int(v.t1));
  EXPECT_EQ(res.cells.f1, Q(v.f1));
  EXPECT_EQ(res.cells.t2, Int(v.t2));
  EXPECT_EQ(res.cells.f2, Q(v.f2));
  EXPECT_EQ(res.joint.mm, Q(v.mm));
  EXPECT_EQ(res.joint.mp, Q(v.mp));
  EXPECT_EQ(res.joint.pm, Q(v.pm));
  EXPECT_EQ(res.joint.pp, Q(v.pp));
  EXPECT_EQ(res.mse, Q(v.md));
  EXPECT_EQ(res.mse_min, Q(v.m_star));
  EXPECT_EQ(res.mse_independent, Q(v.independent));
  if (v.line14 == Line14::kCorrected) {
    EXPECT_EQ(res.mse_closed_form, res.mse);
  }
}

TEST_P(CorBinQVectors, BruteForceMatchesSpecExactly) {
  const CorBinQVector& v = GetParam();
  const Rational alpha = AlphaFromE(Q(v.E));
  const Rational q1 = LdpqProbPlus(alpha, Q(v.c), Q(v.r), Q(v.w1));
  const Rational q2 = LdpqProbPlus(alpha, Q(v.c), Q(v.r), Q(v.w2));
  const JointPmf<Rational> p = CorBinQJointBruteForce(q1, q2, v.d, v.line14);
  EXPECT_EQ(p.mm, Q(v.mm));
  EXPECT_EQ(p.mp, Q(v.mp));
  EXPECT_EQ(p.pm, Q(v.pm));
  EXPECT_EQ(p.pp, Q(v.pp));
}

INSTANTIATE_TEST_SUITE_P(Seed000, CorBinQVectors, ::testing::ValuesIn(kSeed000Vectors),
                         [](const auto& info) { return std::string(info.param.id); });

TEST(CorBinQ, TieCaseExcessMatchesSpecChecks) {
  // spec 000 §7.1 "Checks on these rows": TV1 excess 16/25, TV4 excess 1/4.
  const auto tv1 = EvaluateCorBinQ(Q("3"), Q("0"), Q("1"), Q("-3/5"), Q("1/5"), 2, Line14::kCorrected);
  EXPECT_EQ(tv1.mse - tv1.mse_min, Q("16/25"));
  const auto tv4 = EvaluateCorBinQ(Q("2"), Q("1/2"), Q("1/2"), Q("1/4"), Q("5/8"), 3, Line14::kCorrected);
  EXPECT_EQ(tv4.mse - tv4.mse_min, Q("1/4"));
  // Thm 1 printed right-hand side m* + 64 r²α²/2^d: TV1 1636/25, TV4 1175/64.
  EXPECT_EQ(tv1.thm1_bound_as_printed, Q("1636/25"));
  EXPECT_EQ(tv4.thm1_bound_as_printed, Q("1175/64"));
}

TEST(CorBinQ, ErratumE3ExampleBiasesQ2) {
  // spec 000 E3: d = 2, α = 2, c = 0, r = 1, w = −4/5, w' = −2/5. As printed P(Q2=+) = 1/2,
  // E Q2 = 0 ≠ w'; corrected gives exactly 2/5 and −2/5.
  const auto printed = EvaluateCorBinQ(Q("3"), Q("0"), Q("1"), Q("-4/5"), Q("-2/5"), 2, Line14::kAsPrinted);
  EXPECT_EQ(printed.joint.Q2Plus(), Q("1/2"));
  EXPECT_EQ(printed.mean2, Q("0"));
  const auto corrected = EvaluateCorBinQ(Q("3"), Q("0"), Q("1"), Q("-4/5"), Q("-2/5"), 2, Line14::kCorrected);
  EXPECT_EQ(corrected.joint.Q2Plus(), Q("2/5"));
  EXPECT_EQ(corrected.mean2, Q("-2/5"));
  // The printed marginal formula of E3: P(Q2 = −) = (t2 + f2·max(0, t1 − t2 + 1))/2^d.
  const Rational expected_minus = (Rational(printed.cells.t2) + printed.cells.f2 * Rational(std::max(0, 1 - 2 + 1))) / 4;
  EXPECT_EQ(Rational(1 - printed.joint.Q2Plus()), expected_minus);
}

TEST(CorBinQ, E12InstanceCorBinQMseIsThreeForEveryDAtLeastTwo) {
  // spec 000 E12: E = 3, c = 0, r = 1, w = w' = 1/2 → m_d = m* = 3 for d ≥ 2.
  for (int d = 2; d <= 62; ++d) {
    const auto res = EvaluateCorBinQ(Q("3"), Q("0"), Q("1"), Q("1/2"), Q("1/2"), d, Line14::kCorrected);
    EXPECT_EQ(res.mse, Q("3")) << d;
    EXPECT_EQ(res.mse_min, Q("3"));
  }
}

TEST(CorBinQ, WorstCaseMinPairMse) {
  // R5: 4r²(α−1) for α ≥ 2 (attained at |S| = 2r), r²α² for α ≤ 2 (at |S| = rα).
  EXPECT_EQ(WorstCaseMinPairMse(Q("2"), Q("1")), Q("4"));
  EXPECT_EQ(WorstCaseMinPairMse(Q("3"), Q("1")), Q("8"));
  EXPECT_EQ(WorstCaseMinPairMse(Q("3/2"), Q("1")), Q("9/4"));
  EXPECT_EQ(MinPairMseClosedForm(Q("3"), Q("1"), Q("2")), Q("8"));
  EXPECT_EQ(MinPairMseClosedForm(Q("3/2"), Q("1"), Q("3/2")), Q("9/4"));
}

TEST(CorBinQ, LargestDIsExact) {
  // d = 62: N = 2^62, floors are exact integers, marginals still exactly LDPQ's.
  const auto res = EvaluateCorBinQ(Q("5/3"), Q("1/7"), Q("2/3"), Q("1/3"), Q("-1/5"), 62, Line14::kCorrected);
  EXPECT_EQ(res.joint.Q1Plus(), res.q1);
  EXPECT_EQ(res.joint.Q2Plus(), res.q2);
  EXPECT_EQ(res.joint.Total(), Q("1"));
}

TEST(CorBinQ, RejectsDOutOfRange) {
  EXPECT_THROW(EvaluateCorBinQ(Q("3"), Q("0"), Q("1"), Q("0"), Q("0"), -1, Line14::kCorrected), InvalidArgument);
  EXPECT_THROW(EvaluateCorBinQ(Q("3"), Q("0"), Q("1"), Q("0"), Q("0"), 63, Line14::kCorrected), InvalidArgument);
  EXPECT_THROW(CorBinQJointBruteForce(Q("1/2"), Q("1/2"), 21, Line14::kCorrected), InvalidArgument);
}
TEST(CorBinQ, RejectsWeightsOutsideTheRange) {
  EXPECT_THROW(EvaluateCorBinQ(Q("3"), Q("0"), Q("1"), Q("1.01"), Q("0"), 3, Line14::kCorrected), InvalidArgument);
  EXPECT_THROW(EvaluateCorBinQ(Q("3"), Q("0"), Q("1"), Q("0"), Q("-1.01"), 3, Line14::kCorrected), InvalidArgument);
}
TEST(CorBinQ, RejectsBadPrivacyAndRadius) {
  EXPECT_THROW(EvaluateCorBinQ(Q("1"), Q("0"), Q("1"), Q("0"), Q("0"), 3, Line14::kCorrected), InvalidArgument);
  EXPECT_THROW(EvaluateCorBinQ(Q("3"), Q("0"), Q("0"), Q("0"), Q("0"), 3, Line14::kCorrected), InvalidArgument);
  EXPECT_THROW(EvaluateCorBinQ(Q("3"), Q("0"), Q("-2"), Q("0"), Q("0"), 3, Line14::kCorrected), InvalidArgument);
}

TEST(CorBinQ, EnclosureRefusesUndecidableCells) {
  // q1 = 1/2 exactly at E = 3 with w = 0... choose w so that 2^d q1 is an integer and
  // perturb E: the floor of an enclosure straddling the integer is undecidable.
  // w = 1/4, α = 2: q1 = 1/2 + 1/16 = 9/16, 2^4 q1 = 9 exactly.
  const Interval E(Q("3") - Pow2(-100), Q("3") + Pow2(-100));
  EXPECT_THROW(EvaluateCorBinQ(E, Q("0"), Q("1"), Q("1/4"), Q("0"), 4, Line14::kCorrected), Undecidable);
  // Off the boundary the enclosure is decided and contains the exact result.
  const auto enclosed = EvaluateCorBinQ(E, Q("0"), Q("1"), Q("-3/5"), Q("1/5"), 2, Line14::kCorrected);
  EXPECT_TRUE(enclosed.mse.Contains(Q("52/25")));
  EXPECT_TRUE(enclosed.joint.mp.Contains(Q("53/100")));
}

}  // namespace
}  // namespace dpfl::ref
