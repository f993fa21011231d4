// seed-001 D10 (budget equivalence) and spec 000 R12 (Experiment 8 surfaces).
#include <gtest/gtest.h>

#include "dpfl/ref/coq_budget.hpp"
#include "dpfl/ref/experiment8.hpp"

namespace dpfl::ref {
namespace {

Rational Q(const char* s) { return ParseRational(s, "test"); }
// |x − printed| ≤ half a unit in the last printed decimal place (exact rationals; the
// enclosure radius is < 2^−200, far below that).
bool MatchesPrinted(const Interval& x, const std::string& printed) {
  const std::size_t dot = printed.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(printed.size() - dot - 1);
  Rational half_ulp(Int(1), Int(2));
  for (int i = 0; i < decimals; ++i) half_ulp /= 10;
  return Abs(Rational(x.Mid() - ParseRational(printed, "spec"))) <= half_ulp;
}

// spec 001 §4.9 D10 table (ε_cor to 5 decimals; ratios to 3).
struct D10Row {
  const char* eps;
  const char* loose;
  const char* loose_ratio;
  const char* exact;
  const char* exact_ratio;
};
TEST(CoqBudget, SpecD10Table) {
  const D10Row rows[] = {{"0.25", "0.17632", "0.705", "0.06002", "0.240"},
                         {"0.5", "0.34989", "0.700", "0.21506", "0.430"},
                         {"1", "0.67841", "0.678", "0.61746", "0.617"},
                         {"2", "1.20416", "0.602", "1.20416", "0.602"},
                         {"4", "1.66446", "0.416", "1.66446", "0.416"}};
  for (const D10Row& row : rows) {
    const BudgetEquivalence b = CoqBudgetEquivalence(Q(row.eps));
    EXPECT_TRUE(MatchesPrinted(b.eps_cor_loose, row.loose)) << row.eps << " " << ToDecimalString(b.eps_cor_loose.Mid(), 8);
    EXPECT_TRUE(MatchesPrinted(b.ratio_loose, row.loose_ratio)) << row.eps;
    EXPECT_TRUE(MatchesPrinted(b.eps_cor_exact, row.exact)) << row.eps << " " << ToDecimalString(b.eps_cor_exact.Mid(), 8);
    EXPECT_TRUE(MatchesPrinted(b.ratio_exact, row.exact_ratio)) << row.eps;
    EXPECT_LT(b.eps_cor_exact.Radius(), Pow2(-200));
  }
  // ε → ∞: ε_cor → 2 ln(1 + √2) = 1.76275 (the table's last row); at ε = 60 it agrees to 5 decimals.
  EXPECT_TRUE(MatchesPrinted(CoqBudgetEquivalence(Q("60")).eps_cor_loose, "1.76275"));
  EXPECT_THROW(CoqBudgetEquivalence(Q("0")), InvalidArgument);
  EXPECT_THROW(CoqBudgetEquivalence(Q("-1")), InvalidArgument);
}

TEST(Experiment8, SurfacesAreExactAndCorBinQIsBelowLdpq) {
  const Experiment8Surface s = Experiment8(Q("3"), 5, 8);
  ASSERT_EQ(s.w.size(), 9u);
  EXPECT_EQ(s.w.front(), Q("-1/2"));
  EXPECT_EQ(s.w.back(), Q("1/2"));
  for (std::size_t i = 0; i < s.w.size(); ++i)
    for (std::size_t j = 0; j < s.w.size(); ++j) {
      EXPECT_LE(s.corbinq[i][j], s.ldpq[i][j]);
      // LDPQ surface: 2r²α² − w1² − w2² with r = 1/2, α = 2.
      EXPECT_EQ(s.ldpq[i][j], Rational(2 * Q("1/4") * 4 - s.w[i] * s.w[i] - s.w[j] * s.w[j]));
    }
  // w1 = −w2 (S = 0): CorBinQ's MSE is 0 once the cells separate; exactly 0 here (dyadic).
  EXPECT_EQ(s.corbinq[2][6], Q("0"));
  EXPECT_THROW(Experiment8(Q("3"), 5, 0), InvalidArgument);
}

}  // namespace
}  // namespace dpfl::ref
