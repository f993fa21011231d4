// Planted mutants of the CEPAM / layered-RSUQ codec (label `mutants`; docs/mutants.md
// "Seed 002"): each is a fault policy deriving from dpfl::quant::NoCepamFaults with one flag set,
// instantiated through the production codec of the internal cepam_codec.hpp (Encode/Decode), so
// the fault sits in the production loops. The harness is tests/testing/cepam_harness.hpp on the
// Philox generator with D = 512 draws of 16 blocks per input (8,192 errors), Holm at α_test = 1e-3. Every mutant must be flagged; NoCepamFaults through
// the same loops must not be.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "testing/cepam_harness.hpp"

namespace {

namespace q = dpfl::quant;
namespace cep = dpfl::testing::cepam;

constexpr double kAlphaTest = 1e-3;

// seed-002 E-Q3: the paper's decoder draws U once, before the loop over blocks.
struct LayerDrawnOnce : q::NoCepamFaults {
  static constexpr bool kLayerDrawnOnce = true;
};
// c = 0.9 < 1: the layer's ball no longer fits the scaled cell (§3.5 requires c ≥ 1).
struct CellTooSmall : q::NoCepamFaults {
  static constexpr bool kCellTooSmall = true;
};
// The round dropped from the dither address: every round reuses round 0's dithers.
struct DitherReusedAcrossRounds : q::NoCepamFaults {
  static constexpr bool kDitherReusedAcrossRounds = true;
};
// The decoder adds the dither of trial h + 1.
struct TrialIndexOffByOne : q::NoCepamFaults {
  static constexpr bool kTrialIndexOffByOne = true;
};
// seed-002 E-Q1 (the public code, T10 negative control): lattice step r·α, α = 10^−5.
struct AlphaScaledStep : q::NoCepamFaults {
  static constexpr bool kAlphaScaledStep = true;
};

int Rejections(const char* name, const cep::Codec& codec) {
  const auto t0 = std::chrono::steady_clock::now();
  std::printf("[cepam mutant] %s\n", name);
  const std::vector<cep::Check> checks = cep::RunHarness(codec, dpfl::rng::Generator::kPhilox4x32, cep::kMutantDraws);
  const int n = cep::HolmRejections(checks, kAlphaTest, false);
  cep::HolmRejections(checks, kAlphaTest, true);
  std::printf("  %.1f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return n;
}

TEST(CepamMutants, TheFaultFreeCodecPassesTheHarness) {
  EXPECT_EQ(Rejections("none (NoCepamFaults)", cep::FaultyCodec<q::NoCepamFaults>()), 0);
}
TEST(CepamMutants, LayerDrawnOnceIsFlagged) {
  EXPECT_GT(Rejections("kLayerDrawnOnce (E-Q3)", cep::FaultyCodec<LayerDrawnOnce>()), 0);
}
TEST(CepamMutants, CellTooSmallIsFlagged) {
  EXPECT_GT(Rejections("kCellTooSmall (c = 0.9)", cep::FaultyCodec<CellTooSmall>()), 0);
}
TEST(CepamMutants, DitherReusedAcrossRoundsIsFlagged) {
  EXPECT_GT(Rejections("kDitherReusedAcrossRounds", cep::FaultyCodec<DitherReusedAcrossRounds>()), 0);
}
TEST(CepamMutants, TrialIndexOffByOneIsFlagged) {
  EXPECT_GT(Rejections("kTrialIndexOffByOne", cep::FaultyCodec<TrialIndexOffByOne>()), 0);
}
TEST(CepamMutants, AlphaScaledStepIsFlagged) {
  EXPECT_GT(Rejections("kAlphaScaledStep (E-Q1)", cep::FaultyCodec<AlphaScaledStep>()), 0);
}

}  // namespace
