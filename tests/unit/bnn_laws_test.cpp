// Exact DPFL-BNN laws (reference/include/dpfl/ref/bnn_laws.hpp) against the spec-004 facts that
// do not use them: §2 closure RR_γ2 ∘ RR_γ1 = RR_{2γ1γ2}, E[RR(StoSign(x))] = 2γx, §4.8 moments
// from the Poisson-binomial pmf, §7.3 property 18 (γ = 0: Binomial(n, 1/2) whatever the data).
#include <gtest/gtest.h>

#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/ref/bnn_laws.hpp"

namespace dpfl::ref {
namespace {

Rational Choose(long n, long k) {
  Rational c(1);
  for (long i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  return c;
}

TEST(BnnLaws, RandomizedResponseComposesAndStoSignIsUnbiased) {
  const std::vector<Rational> gammas = {Rational(0), Rational(1, 10), Rational(1, 4), Rational(2, 5), Rational(1, 2)};
  for (const Rational& g1 : gammas) {
    for (const Rational& g2 : gammas) {
      for (int b : {1, -1}) {
        // P(+) after RR_γ1 then RR_γ2: stay + w.p. p2 from +, become + w.p. q2 from −.
        const Rational p1 = RrPlusProbability(g1, b);
        const Rational two_step = p1 * RrPlusProbability(g2, 1) + (1 - p1) * RrPlusProbability(g2, -1);
        EXPECT_EQ(two_step, RrPlusProbability(2 * g1 * g2, b));
      }
    }
    for (const Rational& x : {Rational(-1), Rational(-1, 3), Rational(0), Rational(5, 7), Rational(1)}) {
      EXPECT_EQ(2 * BnnUploadPlusProbability(g1, x, true) - 1, 2 * g1 * x);  // E = 2γx
      EXPECT_EQ(2 * StoSignPlusProbability(x) - 1, x);                        // E[StoSign(x)] = x
    }
    EXPECT_EQ(BnnUploadPlusProbability(g1, Rational(0), false), Rational(1, 2) + g1);  // Sign(0) = +1 (E17)
    EXPECT_EQ(BnnUploadPlusProbability(g1, Rational(-1, 9), false), Rational(1, 2) - g1);
  }
  EXPECT_EQ(StoSignPlusProbability(Rational(3)), 1);   // saturates (E14)
  EXPECT_EQ(StoSignPlusProbability(Rational(-3)), 0);
}

TEST(BnnLaws, PoissonBinomialMatchesTheBinomialAndTheMoments) {
  const Rational p(3, 8);
  const std::vector<Rational> pmf = PoissonBinomialPmf(std::vector<Rational>(7, p));
  ASSERT_EQ(pmf.size(), 8u);
  for (long k = 0; k <= 7; ++k) {
    Rational want = Choose(7, k);
    for (long i = 0; i < k; ++i) want *= p;
    for (long i = k; i < 7; ++i) want *= 1 - p;
    EXPECT_EQ(pmf[static_cast<std::size_t>(k)], want) << k;
  }
  const std::vector<Rational> pi = {Rational(1, 3), Rational(9, 10), Rational(1, 2), Rational(0), Rational(1)};
  const std::vector<Rational> law = PoissonBinomialPmf(pi);
  Rational total(0), mean(0), second(0);
  const long n = static_cast<long>(pi.size());
  for (std::size_t k = 0; k < law.size(); ++k) {
    const Rational avg = Rational(2 * static_cast<long>(k) - n, n);  // (2K − n)/n
    total += law[k];
    mean += law[k] * avg;
    second += law[k] * avg * avg;
  }
  EXPECT_EQ(total, 1);
  const BnnAverageMoments m = BnnAverageLaw(pi);
  EXPECT_EQ(m.mean, mean);
  EXPECT_EQ(m.variance, second - mean * mean);
}

TEST(BnnLaws, AtGammaZeroTheAggregateIgnoresTheData) {
  std::vector<Rational> pi;
  for (const Rational& x : {Rational(-1), Rational(1, 2), Rational(1), Rational(-2, 7)})
    pi.push_back(BnnUploadPlusProbability(Rational(0), x, true));
  EXPECT_EQ(PoissonBinomialPmf(pi), PoissonBinomialPmf(std::vector<Rational>(4, Rational(1, 2))));
}

TEST(BnnLaws, BadInputIsRejected) {
  EXPECT_THROW((void)RrPlusProbability(Rational(-1, 10), 1), InvalidArgument);
  EXPECT_THROW((void)RrPlusProbability(Rational(6, 10), 1), InvalidArgument);
  EXPECT_THROW((void)RrPlusProbability(Rational(1, 10), 0), InvalidArgument);
  EXPECT_THROW((void)PoissonBinomialPmf({Rational(3, 2)}), InvalidArgument);
  EXPECT_THROW((void)BnnAverageLaw({}), InvalidArgument);
}

}  // namespace
}  // namespace dpfl::ref
