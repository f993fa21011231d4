// Statistical and exact-replay tests of the production DPFL-BNN encoders (seed 004 Alg. B, C, D)
// against the exact reference laws (label `statistical`).
//
//  (1) Harness (tests/testing/bnn_harness.hpp) on both generators: 12 instances × (RR marginal,
//      StoSign marginal, upload marginal, RR lag-1 independence) + the aggregate (count K vs the
//      exact Poisson-binomial, mean and variance of the broadcast average): m = 2 × 51 = 102
//      checks, Holm at family-wise α_test = 1e-3.
//      Power (printed): at N = 2^20 and Holm's step-1 level 1e-3/102, any shift of ≥ 0.0037
//      probability between the two outcomes of a marginal (dof 1) is detected with probability
//      ≥ 0.999; seed-004 E27 (γ read as the flip probability) shifts P(+) by |1 − 2γ − γ| … , E13
//      (logistic StoSign) by up to 0.13 (θ = 1).
//  (2) Exact replay: every decision of a message equals the rule applied to its 64-bit uniform
//      (rng::DecisionUniform64) and the *rational* threshold ⌊p·2^64⌋, p = (θ + 1)/2 or 1/2 − γ
//      from the exact values of the float θ and the double γ.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "dpfl/quant/randomized_response.hpp"
#include "dpfl/ref/numbers.hpp"
#include "dpfl/rng/streams.hpp"
#include "testing/bnn_harness.hpp"
#include "testing/stat.hpp"

namespace {

namespace q = dpfl::quant;
namespace ref = dpfl::ref;
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
  ASSERT_EQ(checks.size(), 102u);
  const double a1 = kAlphaTest / static_cast<double>(checks.size());
  const double w = stat::MinDetectableEffect(1, a1, kPower, static_cast<double>(bnn::kSamples));
  // For two outcomes with P(+) near 1/2, Cohen's w = 2·|shift|.
  std::printf("[bnn] power: m=%zu checks, N=%zu, Holm step-1 level %.3g: Cohen w* = %.5f, i.e. a shift of >= %.5f "
              "in P(+) near 1/2 is detected with probability >= %.3f\n",
              checks.size(), bnn::kSamples, a1, w, w / 2, kPower);
  EXPECT_EQ(bnn::HolmRejections(checks, kAlphaTest, true), 0);
}

// The exact value of a double/float as a rational, and ⌊x·2^64⌋.
ref::Rational FloorTimes2To64(const ref::Rational& x) { return ref::Rational(ref::FloorInt(x * ref::Pow2(64))); }

TEST(BnnExactReplay, EveryDecisionEqualsTheRationalThresholdRule) {
  std::mt19937_64 mt(404);
  std::size_t replayed = 0;
  for (dpfl::rng::Generator gen : {dpfl::rng::Generator::kChaCha20, dpfl::rng::Generator::kPhilox4x32}) {
    const q::StreamContext ctx = bnn::Context(gen, 99, 5);
    const std::size_t m = 3000;
    std::vector<float> theta(m);
    for (float& t : theta) t = std::uniform_real_distribution<float>(-1.2f, 1.2f)(mt);
    std::vector<std::uint64_t> bits(q::PackedWords(m));
    q::EncodeStoSign(theta, ctx, 4, bits);
    const dpfl::rng::StreamAddress sa{ctx.round, 4, dpfl::rng::Purpose::kStoSign};
    std::vector<std::uint64_t> in = bits;
    const double gamma = std::uniform_real_distribution<double>(0.0, 0.5)(mt);
    q::ApplyRandomizedResponse(q::MakeRandomizedResponse(gamma), m, ctx, 4, bits);
    const dpfl::rng::StreamAddress ra{ctx.round, 4, dpfl::rng::Purpose::kRandomizedResponse};
    const ref::Rational flip_t = FloorTimes2To64(ref::Rational(1, 2) - ref::Rational(gamma));
    for (std::size_t j = 0; j < m; ++j) {
      const ref::Rational x(static_cast<double>(theta[j]));
      const ref::Rational p = x >= 1 ? ref::Rational(2) : (x <= -1 ? ref::Rational(0) : (x + 1) / 2);  // 2: always
      const ref::Rational v(ref::Int(dpfl::rng::DecisionUniform64(gen, ctx.key, sa, j, q::kBnnHeadBits)));
      const bool plus = x >= 1 || v < FloorTimes2To64(p);
      ASSERT_EQ(((in[j / 64] >> (j % 64)) & 1u) != 0, plus) << "StoSign j=" << j << " theta=" << theta[j];
      const ref::Rational u(ref::Int(dpfl::rng::DecisionUniform64(gen, ctx.key, ra, j, q::kBnnHeadBits)));
      ASSERT_EQ(((bits[j / 64] >> (j % 64)) & 1u) != 0, plus != (u < flip_t)) << "RR j=" << j << " gamma=" << gamma;
      ++replayed;
    }
  }
  EXPECT_EQ(replayed, 6000u);
}

}  // namespace
