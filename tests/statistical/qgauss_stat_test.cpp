// The production quantized Gaussian mechanism (seed 003 Alg. 1 lines 7–9) against the exact law
// of its noise grid (tests/testing/qgauss_harness.hpp: 8 cases × 2 G-tests, the vector clip and
// the exact replay), for both generators. α_test = 10^−3 family-wise (Holm over the 18 checks of
// a generator); the fault-free run must reject nothing. Power: the noncentrality of each case's
// marginal test against the law at 0.99σ (the smallest fault tests/mutants names) is computed from
// the exact pmfs and the power at the Holm-corrected level printed and required ≥ 0.999 for the
// cases sized for it.
#include <gtest/gtest.h>

#include <cstdio>

#include "testing/qgauss_harness.hpp"

namespace {

namespace qg = dpfl::testing::qgauss;
namespace ref = dpfl::ref;
constexpr double kAlphaTest = 1e-3;

class QgaussStat : public ::testing::TestWithParam<dpfl::rng::Generator> {};

TEST_P(QgaussStat, ProductionMatchesTheExactGridLaw) {
  const auto checks = qg::RunAll<dpfl::fl::NoQgaussFaults>(GetParam(), 0x5eed);
  const int rejected = dpfl::testing::ReportHolm(checks, kAlphaTest, true);
  EXPECT_EQ(rejected, 0);
  EXPECT_EQ(checks.size(), 2 * qg::Cases().size() + 2);
}

INSTANTIATE_TEST_SUITE_P(Generators, QgaussStat,
                         ::testing::Values(dpfl::rng::Generator::kChaCha20, dpfl::rng::Generator::kPhilox4x32));

// The stated power: a 1 % smaller σ moves each marginal pmf by Δp; λ = N Σ Δp²/p.
TEST(QgaussStatPower, OnePercentSigmaIsDetected) {
  const double level = kAlphaTest / static_cast<double>(2 * qg::Cases().size() + 2);  // Holm's first step
  int strong = 0;
  for (const qg::Case& c : qg::Cases()) {
    const ref::Rational x(static_cast<double>(static_cast<float>(c.x)));
    const std::vector<double> p = qg::ReferencePmf(c, x);
    const qg::Case off{c.sigma * 0.99, c.levels, c.clip, c.x};
    const std::vector<double> p1 = qg::ReferencePmf(off, x);
    double lambda = 0;
    for (std::size_t i = 0; i < p.size(); ++i) lambda += (p1[i] - p[i]) * (p1[i] - p[i]) / p[i];
    lambda *= static_cast<double>(qg::kDraws);
    const int dof = static_cast<int>(c.levels) - 1;
    const double power = dpfl::testing::stat::ChiSquarePower(dof, level, lambda);
    std::printf("  sigma=%g k=%u x=%g: lambda(0.99 sigma) = %.1f, power %.6f at level %.2g\n", c.sigma, c.levels, c.x,
                lambda, power, level);
    if (power >= 0.999) ++strong;
  }
  // At least three cases detect a 1 % σ error with probability ≥ 0.999 on their own.
  EXPECT_GE(strong, 3);
}

}  // namespace
