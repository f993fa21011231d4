// Planted mutants of the quantized Gaussian mechanism (label `mutants`; docs/mutants.md "Seed
// 003"): each is a fault policy deriving from dpfl::fl::NoQgaussFaults with one flag set,
// instantiated through the production loops of the internal qgauss_rules.hpp, so the fault sits
// in the production code. The harness is tests/testing/qgauss_harness.hpp on the Philox
// generator (18 checks: 17 statistical and the exact replay, Holm at α_test = 1e-3). Every mutant
// must be flagged, and the printout separates the statistical rejections from the replay.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "testing/qgauss_harness.hpp"

namespace {

namespace qg = dpfl::testing::qgauss;
namespace fl = dpfl::fl;
constexpr double kAlphaTest = 1e-3;

// Alg. 1 l. 8–9 swapped: quantize first, then add the noise (and round again to a level).
struct NoiseAfterQuantization : fl::NoQgaussFaults {
  static constexpr bool kNoiseAfterQuantization = true;
};
// Alg. 1 l. 7: clip to C instead of C/2 (the sensitivity doubles).
struct ClipToFullRange : fl::NoQgaussFaults {
  static constexpr bool kClipToFullRange = true;
};
// Def. 1 eq. (3) replaced by nearest rounding (biased, and a different law).
struct DeterministicRounding : fl::NoQgaussFaults {
  static constexpr bool kDeterministicRounding = true;
};
// The noise's σ 1 % too small.
struct SigmaOffByOnePercent : fl::NoQgaussFaults {
  static constexpr bool kSigmaOffByOnePercent = true;
};
// The levels grid off by one: δ_q = 2C/k instead of 2C/(k − 1).
struct LevelsOffByOne : fl::NoQgaussFaults {
  static constexpr bool kLevelsOffByOne = true;
};
// The noise and coins of round 0 in every round.
struct StreamReusedAcrossRounds : fl::NoQgaussFaults {
  static constexpr bool kStreamReusedAcrossRounds = true;
};

template <class F>
void ExpectFlagged(const char* name) {
  const auto checks = qg::RunAll<F>(dpfl::rng::Generator::kPhilox4x32, 0xbad);
  std::vector<qg::Check> stats, exact;
  for (const auto& c : checks) (c.exact ? exact : stats).push_back(c);
  std::printf("%s:\n", name);
  const int all = dpfl::testing::ReportHolm(checks, kAlphaTest, true);
  const int by_stats = dpfl::testing::ReportHolm(stats, kAlphaTest, false);
  const int by_replay = dpfl::testing::ReportHolm(exact, kAlphaTest, false);
  std::printf("  %s: %d of %zu checks rejected (statistical %d of %zu, replay %d of %zu)\n", name, all, checks.size(),
              by_stats, stats.size(), by_replay, exact.size());
  EXPECT_GT(all, 0) << name << " was not flagged";
}

TEST(QgaussMutants, NoiseAfterQuantizationIsFlagged) { ExpectFlagged<NoiseAfterQuantization>("noise after quantization"); }
TEST(QgaussMutants, ClipToFullRangeIsFlagged) { ExpectFlagged<ClipToFullRange>("clip to C instead of C/2"); }
TEST(QgaussMutants, DeterministicRoundingIsFlagged) { ExpectFlagged<DeterministicRounding>("deterministic rounding"); }
TEST(QgaussMutants, SigmaOffByOnePercentIsFlagged) { ExpectFlagged<SigmaOffByOnePercent>("sigma off by 1 %"); }
TEST(QgaussMutants, LevelsOffByOneIsFlagged) { ExpectFlagged<LevelsOffByOne>("levels grid off by one"); }
TEST(QgaussMutants, StreamReusedAcrossRoundsIsFlagged) { ExpectFlagged<StreamReusedAcrossRounds>("stream reused across rounds"); }

// The harness's fault-free control through the same template path.
TEST(QgaussMutants, FaultFreeIsNotFlagged) {
  const auto checks = qg::RunAll<fl::NoQgaussFaults>(dpfl::rng::Generator::kPhilox4x32, 0xbad);
  EXPECT_EQ(dpfl::testing::ReportHolm(checks, kAlphaTest, true), 0);
}

}  // namespace
