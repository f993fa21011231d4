// Statistical and exact-replay tests of the production DPFL-BNN encoders (seed 004 Alg. B, C, D)
// against the exact reference laws (label `statistical`).
//
// The harness (tests/testing/bnn_harness.hpp) on both generators: 12 instances × (RR marginal,
// StoSign marginal, StoSign-upload marginal, RR lag-1 independence, Sign marginal, Sign-upload
// marginal, upload independence across rounds) + the aggregate (count K vs the exact
// Poisson-binomial, mean and variance of the broadcast average) + the exact replay of 40,998
// decisions against rational thresholds: m = 2 × 88 = 176 checks, Holm at family-wise
// α_test = 1e-3 (the replay's false-alarm probability is 0).
// Power (printed): at N = 2^20 and Holm's step-1 level 1e-3/176, any shift of ≥ 0.0037 in P(+)
// near 1/2 (dof 1) is detected with probability ≥ 0.999; seed-004 E27 (γ read as the flip
// probability) shifts P(+) by |1 − 2γ − γ| … , E13 (logistic StoSign) by up to 0.13 (θ = 1).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "testing/bnn_harness.hpp"
#include "testing/stat.hpp"

namespace {

namespace q = dpfl::quant;
namespace bnn = dpfl::testing::bnn;
namespace stat = dpfl::testing::stat;

constexpr double kAlphaTest = 1e-3;
constexpr double kPower = 0.999;

TEST(BnnStatistical, ProductionEncodersFitTheExactLaws) {
  std::vector<bnn::Check> checks;
  for (dpfl::rng::Generator gen : {dpfl::rng::Generator::kChaCha20, dpfl::rng::Generator::kPhilox4x32}) {
    const std::vector<bnn::Check> c = bnn::RunHarness(bnn::ProductionEncoders(), gen);
    checks.insert(checks.end(), c.begin(), c.end());
  }
  ASSERT_EQ(checks.size(), 176u);
  const double a1 = kAlphaTest / static_cast<double>(checks.size());
  const double w = stat::MinDetectableEffect(1, a1, kPower, static_cast<double>(bnn::kSamples));
  // For two outcomes with P(+) near 1/2, Cohen's w = 2·|shift|.
  std::printf("[bnn] power: m=%zu checks, N=%zu, Holm step-1 level %.3g: Cohen w* = %.5f, i.e. a shift of >= %.5f "
              "in P(+) near 1/2 is detected with probability >= %.3f\n",
              checks.size(), bnn::kSamples, a1, w, w / 2, kPower);
  EXPECT_EQ(bnn::HolmRejections(checks, kAlphaTest, true), 0);
}

}  // namespace
