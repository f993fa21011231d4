// Statistical tests of the production CEPAM / layered-RSUQ codec (seed 002) against the exact
// laws (label `statistical`): the seed's central claim that the reconstruction error is exactly
// N(0, σ²I_n) / Lap(0, b) (Props. 3 and 5, Lemmas 14/15), uniform on the layer given Ũ,
// independent of the input, with Geom(p_acc) trials; SDQ's error Unif(cell) and RSUQ's uniform
// on ρB^2. Harness: tests/testing/cepam_harness.hpp on both generators (8 configurations, 21
// inputs, N = 1024 × 16 = 16,384 block errors per input), Holm at family-wise α_test = 10^−3.
// Power (printed): a KS check at Holm's step-1 level detects any sup-distance ≥ D* between the
// error's CDF and the law with probability ≥ 0.999 (D* from the DKW inequality, computed below).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "testing/cepam_harness.hpp"
#include "testing/stat.hpp"

namespace {

namespace cep = dpfl::testing::cepam;
namespace stat = dpfl::testing::stat;

constexpr double kAlphaTest = 1e-3;

TEST(CepamStatistical, ProductionCodecErrorsFollowTheExactLaws) {
  std::vector<cep::Check> checks;
  for (dpfl::rng::Generator gen : {dpfl::rng::Generator::kChaCha20, dpfl::rng::Generator::kPhilox4x32}) {
    const std::vector<cep::Check> c = cep::RunHarness(cep::ProductionCodec(), gen);
    checks.insert(checks.end(), c.begin(), c.end());
  }
  // Power of one KS check at Holm's step-1 level a1: under an alternative at sup-distance D from
  // the law, √N·D_N ≥ √N·D − √N·|D_N − D| and P(√N sup|F_N − F| ≥ t) ≤ 2e^{−2t²} (DKW), so the
  // test rejects with probability ≥ 1 − 2e^{−2t²} once √N·D ≥ c(a1) + t.
  const double a1 = kAlphaTest / static_cast<double>(checks.size());
  double c = 1.0;  // c(a1): KolmogorovUpperTail(c) = a1
  while (stat::KolmogorovUpperTail(c) > a1) c += 1e-4;
  const double t = std::sqrt(std::log(2.0 / 1e-3) / 2.0);
  const double n = static_cast<double>(cep::kDraws * cep::kBlocks);
  std::printf("[cepam] m=%zu checks, N=%.0f per input, Holm step-1 level %.3g: a KS check detects any sup-distance "
              ">= %.4f between the error's CDF and the law with probability >= 0.999\n",
              checks.size(), n, a1, (c + t) / std::sqrt(n));
  EXPECT_EQ(cep::HolmRejections(checks, kAlphaTest, true), 0);
}

}  // namespace
