// Planted mutants of the DPFL-BNN encoders (label `mutants`; docs/mutants.md "Seed 004"):
// each is a fault policy deriving from dpfl::quant::NoRrFaults with one flag set, instantiated
// through the production loops of the internal rr_encoders.hpp (EncodeStoSignT,
// ApplyRandomizedResponseT, DecodeBnnAverageT), so the fault sits in the production rules. The
// harness is tests/testing/bnn_harness.hpp on the Philox generator (m = 88 checks: 87 statistical
// and the exact replay, Holm at α_test = 1e-3). Every mutant must be flagged; NoRrFaults through
// the same loops must not be. The printout separates the statistical rejections from the replay's
// mismatches, since one mutant (RR before binarization with StoSign) leaves the law unchanged.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "testing/bnn_harness.hpp"

namespace {

namespace q = dpfl::quant;
namespace bnn = dpfl::testing::bnn;

constexpr double kAlphaTest = 1e-3;

// seed-004 E27: γ (the keep bias) read as the flip probability (the authors' dp_flip).
struct GammaAsFlipProbability : q::NoRrFaults {
  static constexpr bool kGammaAsFlipProbability = true;
};
// seed-004 E29: one coin per message (the public code negates whole tensors).
struct OneCoinPerMessage : q::NoRrFaults {
  static constexpr bool kOneCoinPerMessage = true;
};
// seed-004 E8: the server receives the un-noised bits.
struct SkipRandomizedResponse : q::NoRrFaults {
  static constexpr bool kSkipRandomizedResponse = true;
};
// seed-004 E13: StoSign with the logistic sigmoid instead of the hard sigmoid.
struct LogisticStoSign : q::NoRrFaults {
  static constexpr bool kLogisticStoSign = true;
};
// seed-004 E9: the server broadcasts the sum 2K − n instead of the average.
struct SumNotAverage : q::NoRrFaults {
  static constexpr bool kSumNotAverage = true;
};

// seed-004 E17: Sign(0) = −1 (ties binarize to −).
struct SignZeroMinus : q::NoRrFaults {
  static constexpr bool kSignZeroMinus = true;
};
// §1.2: StoSign's hard sigmoid without the clip (the 64-bit threshold wraps for |θ| ≥ 1).
struct StoSignWithoutClip : q::NoRrFaults {
  static constexpr bool kStoSignWithoutClip = true;
};
// Alg. 1' lines 13–14 swapped: RR applied to the latents' signs, then binarization.
struct RrBeforeBinarization : q::NoRrFaults {
  static constexpr bool kRrBeforeBinarization = true;
};
// The same RR/StoSign coins in every round (the round dropped from the stream address).
struct StreamReusedAcrossRounds : q::NoRrFaults {
  static constexpr bool kStreamReusedAcrossRounds = true;
};

int Rejections(const char* name, const bnn::Encoders& enc) {
  const auto t0 = std::chrono::steady_clock::now();
  std::printf("[bnn mutant] %s\n", name);
  const std::vector<bnn::Check> checks = bnn::RunHarness(enc, dpfl::rng::Generator::kPhilox4x32);
  const int n = bnn::HolmRejections(checks, kAlphaTest, true);
  const std::vector<bnn::Check> statistical(checks.begin(), checks.end() - 1);
  std::printf("  statistical checks rejected by Holm: %d of %zu; exact replay: %.0f mismatching decisions\n",
              bnn::HolmRejections(statistical, kAlphaTest, false), statistical.size(), checks.back().statistic);
  std::printf("  %.1f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return n;
}

TEST(BnnMutants, TheFaultFreeLoopsPassTheHarness) {
  EXPECT_EQ(Rejections("none (NoRrFaults)", bnn::FaultyEncoders<q::NoRrFaults>()), 0);
}
TEST(BnnMutants, GammaAsFlipProbabilityIsFlagged) {
  EXPECT_GT(Rejections("kGammaAsFlipProbability (E27)", bnn::FaultyEncoders<GammaAsFlipProbability>()), 0);
}
TEST(BnnMutants, OneCoinPerMessageIsFlagged) {
  EXPECT_GT(Rejections("kOneCoinPerMessage (E29)", bnn::FaultyEncoders<OneCoinPerMessage>()), 0);
}
TEST(BnnMutants, SkipRandomizedResponseIsFlagged) {
  EXPECT_GT(Rejections("kSkipRandomizedResponse (E8)", bnn::FaultyEncoders<SkipRandomizedResponse>()), 0);
}
TEST(BnnMutants, LogisticStoSignIsFlagged) {
  EXPECT_GT(Rejections("kLogisticStoSign (E13)", bnn::FaultyEncoders<LogisticStoSign>()), 0);
}
TEST(BnnMutants, SumNotAverageIsFlagged) {
  EXPECT_GT(Rejections("kSumNotAverage (E9)", bnn::FaultyEncoders<SumNotAverage>()), 0);
}

TEST(BnnMutants, SignZeroMinusIsFlagged) {
  EXPECT_GT(Rejections("kSignZeroMinus (E17)", bnn::FaultyEncoders<SignZeroMinus>()), 0);
}
TEST(BnnMutants, StoSignWithoutClipIsFlagged) {
  EXPECT_GT(Rejections("kStoSignWithoutClip", bnn::FaultyEncoders<StoSignWithoutClip>()), 0);
}
TEST(BnnMutants, RrBeforeBinarizationIsFlagged) {
  EXPECT_GT(Rejections("kRrBeforeBinarization", bnn::FaultyEncoders<RrBeforeBinarization>()), 0);
}
TEST(BnnMutants, StreamReusedAcrossRoundsIsFlagged) {
  EXPECT_GT(Rejections("kStreamReusedAcrossRounds", bnn::FaultyEncoders<StreamReusedAcrossRounds>()), 0);
}

}  // namespace
