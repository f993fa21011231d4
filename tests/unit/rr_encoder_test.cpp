// DPFL-BNN client encoders (production/include/dpfl/quant/randomized_response.hpp): exact
// thresholds against rational floors, the SIMD path against the scalar loops word for word
// (every instruction set, both generators, forced head ties), validation, Sign at 0 (E17), the
// server's decoding (E9).
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/quant/fast_encoders.hpp"
#include "dpfl/quant/randomized_response.hpp"
#include "dpfl/quant/rr_encoders.hpp"  // internal (dpfl_testing_internals): the scalar loops
#include "dpfl/ref/numbers.hpp"        // exact rationals for the thresholds
#include "testing/encoder_inputs.hpp"

namespace dpfl::quant {
namespace {

using dpfl::testing::Context;
using dpfl::testing::Latents;
using dpfl::testing::Name;
using dpfl::testing::TieLatents;
using ref::Rational;

using dpfl::testing::kGenerators;
// Around the word (64) and SIMD-group (512) boundaries, and several groups per thread range.
constexpr std::size_t kSizes[] = {1, 63, 64, 65, 511, 512, 513, 1024, 4096 + 37, 8 * 512 * 3 + 64 * 5 + 9};

using dpfl::testing::SupportedIsas;

// ⌊x·2^64⌋ of an exact rational x ∈ [0, 1], as an integer.
Rational FloorTimes2To64(const Rational& x) { return Rational(ref::FloorInt(x * ref::Pow2(64))); }
Rational AsRational(std::uint64_t t) { return Rational(ref::Int(t)); }

TEST(RrThresholds, FlipThresholdIsTheExactFloorOfOneHalfMinusGamma) {
  std::mt19937_64 mt(11);
  std::vector<double> gammas = {0.0, 0.5, 0.1, 0.25, 0.4, 1e-30, std::numeric_limits<double>::denorm_min(),
                                std::nextafter(0.5, 0.0), 0x1p-64, 0x1.8p-64, 0x1p-65};
  for (int i = 0; i < 2000; ++i) gammas.push_back(std::uniform_real_distribution<double>(0.0, 0.5)(mt));
  for (double g : gammas) {
    const RandomizedResponse rr = MakeRandomizedResponse(g);
    const Rational exact = FloorTimes2To64(Rational(1) / 2 - Rational(g));
    ASSERT_EQ(AsRational(rr.flip_threshold), exact) << "gamma=" << g;
    // γ̃ = ⌈γ·2^64⌉/2^64 ≥ γ, within 2^−64.
    const Rational implemented = AsRational(ImplementedGammaNumerator(rr)) / ref::Pow2(64);
    ASSERT_GE(implemented, Rational(g));
    ASSERT_LT(implemented - Rational(g), 1 / ref::Pow2(64));
  }
  EXPECT_EQ(MakeRandomizedResponse(0.0).flip_threshold, std::uint64_t{1} << 63);  // flip w.p. exactly 1/2
  EXPECT_EQ(MakeRandomizedResponse(0.5).flip_threshold, 0u);                      // never flips
}

TEST(RrThresholds, StoSignThresholdIsTheExactFloorOfTheHardSigmoid) {
  std::vector<float> thetas = Latents(20000, 5);
  for (int e = -149; e <= 0; ++e) {
    thetas.push_back(std::ldexp(1.0f, e));
    thetas.push_back(-std::ldexp(1.0f, e));
    thetas.push_back(std::ldexp(1.0f, e) * 1.75f);
    thetas.push_back(-std::ldexp(1.0f, e) * 1.75f);
  }
  for (float t : thetas) {
    if (!std::isfinite(t) || t >= 1.0f) continue;  // θ ≥ 1 is "+" without a threshold
    const Rational x = Rational(static_cast<double>(t));
    const Rational p = x <= -1 ? Rational(0) : (x + 1) / 2;  // hard sigmoid on (−∞, 1)
    ASSERT_EQ(AsRational(StoSignThreshold(t)), FloorTimes2To64(p)) << "theta=" << t;
  }
  // θ ≥ 1 is "+" for every uniform, θ ≤ −1 "−" for every uniform.
  for (std::uint64_t v : {std::uint64_t{0}, std::uint64_t{1} << 63, ~std::uint64_t{0}}) {
    EXPECT_TRUE(StoSignPlus(1.0f, v));
    EXPECT_TRUE(StoSignPlus(FLT_MAX, v));
    EXPECT_FALSE(StoSignPlus(-1.0f, v));
    EXPECT_FALSE(StoSignPlus(-FLT_MAX, v));
  }
}

TEST(RrValidation, BadGammaAndNonFiniteLatentsAreRejected) {
  for (double g : {-0.1, 0.5000001, -0.0 - 1e-300, std::nan(""), std::numeric_limits<double>::infinity(), 1.0}) {
    try {
      (void)MakeRandomizedResponse(g);
      ADD_FAILURE() << "gamma " << g << " accepted";
    } catch (const InvalidArgument& e) {
      EXPECT_EQ(e.argument(), "rr-gamma");
    }
  }
  EXPECT_NO_THROW((void)MakeRandomizedResponse(-0.0));
  const StreamContext ctx = Context(rng::Generator::kChaCha20, 3);
  for (std::size_t m : {std::size_t{5}, std::size_t{700}, std::size_t{5000}}) {
    for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                      -std::numeric_limits<float>::infinity()}) {
      for (std::size_t where : {std::size_t{0}, m / 2, m - 1}) {
        std::vector<float> theta = Latents(m, 9);
        theta[where] = bad;
        for (fast::Isa isa : SupportedIsas()) {
          std::vector<std::uint64_t> bits(PackedWords(m), 0x5555u);
          try {
            fast::EncodeStoSignFast(theta, ctx, 0, bits, 2, isa);
            ADD_FAILURE() << "non-finite latent accepted";
          } catch (const InvalidArgument& e) {
            EXPECT_EQ(e.argument(), "theta");
            EXPECT_NE(std::string(e.what()).find("theta[" + std::to_string(where) + "]"), std::string::npos) << e.what();
          }
          for (std::uint64_t w : bits) EXPECT_EQ(w, 0u);
          // The fused upload: the same contract.
          std::vector<std::uint64_t> up(PackedWords(m), 0x5555u);
          try {
            fast::EncodeBnnUploadFast(theta, MakeRandomizedResponse(0.1).flip_threshold, ctx, 0, up, 2, isa);
            ADD_FAILURE() << "non-finite latent accepted by the upload";
          } catch (const InvalidArgument& e) {
            EXPECT_NE(std::string(e.what()).find("theta[" + std::to_string(where) + "]"), std::string::npos) << e.what();
          }
          for (std::uint64_t w : up) EXPECT_EQ(w, 0u);
        }
        std::vector<std::uint64_t> bits(PackedWords(m));
        EXPECT_THROW(EncodeSign(theta, bits), InvalidArgument);
      }
    }
    std::vector<std::uint64_t> short_bits(PackedWords(m) - 1);
    EXPECT_THROW(EncodeStoSign(Latents(m, 1), ctx, 0, short_bits), InvalidArgument);
    EXPECT_THROW(ApplyRandomizedResponse(MakeRandomizedResponse(0.1), m, ctx, 0, short_bits), InvalidArgument);
  }
  RandomizedResponse forged = MakeRandomizedResponse(0.1);
  forged.flip_threshold = 0;  // claims γ = 0.1 but never flips
  std::vector<std::uint64_t> bits(1);
  EXPECT_THROW(ApplyRandomizedResponse(forged, 10, ctx, 0, bits), InvalidArgument);
  EXPECT_THROW(EncodeBnnUpload(Binarizer::kStoSign, &forged, Latents(10, 1), ctx, 0, bits), InvalidArgument);
  for (double g : {std::nan(""), -0.25, 0.75}) {  // hand-built, out of range: rejected before any conversion
    RandomizedResponse bad;
    bad.gamma = g;
    EXPECT_THROW(ApplyRandomizedResponse(bad, 10, ctx, 0, bits), InvalidArgument);
  }
}

TEST(RrEncoders, SignIsPlusAtZeroAndKeepsTheSignOutsideTheClipRange) {
  const std::vector<float> theta = {0.0f, -0.0f, std::numeric_limits<float>::denorm_min(),
                                    -std::numeric_limits<float>::denorm_min(), 1.0f, -1.0f, 7.0f, -7.0f};
  std::vector<std::uint64_t> bits(1);
  EncodeSign(theta, bits);
  EXPECT_EQ(bits[0], 0b01010111u);  // bits 0..7: +, +, +, −, +, −, +, −
}

TEST(RrEncoders, FastPathIsBitIdenticalToTheScalarLoops) {
  int compared = 0;
  for (rng::Generator gen : kGenerators) {
    for (std::size_t m : kSizes) {
      const StreamContext ctx = Context(gen, static_cast<std::uint32_t>(m));
      const std::uint32_t client = static_cast<std::uint32_t>(m % 7);
      for (const std::vector<float>& theta : {Latents(m, m), TieLatents(m, ctx, client)}) {
        std::vector<std::uint64_t> want(PackedWords(m));
        detail::EncodeStoSignT<NoRrFaults>(theta, ctx, client, want, 1);
        for (fast::Isa isa : SupportedIsas()) {
          for (int threads : {1, 3}) {
            std::vector<std::uint64_t> got(PackedWords(m), ~std::uint64_t{0});
            fast::EncodeStoSignFast(theta, ctx, client, got, threads, isa);
            ASSERT_EQ(got, want) << Name(gen) << " m=" << m << " isa=" << static_cast<int>(isa) << " threads=" << threads;
            ++compared;
          }
        }
        // RR on those bits, at γ whose threshold head ties with many heads, and at the ends.
        // (T_flip >> 48 ≤ 2^15, so the tie is set up with the first head at most 2^15 − 1.)
        std::uint32_t head = 65535;
        for (std::uint64_t j = 0; head >= 32768; ++j)
          head = rng::DecisionHead(gen, ctx.key, detail::RrAddress(ctx, client), j, kBnnHeadBits);
        for (double g : {0.0, 0.1, 0.45, 0.5, 0.5 - (static_cast<double>(head) + 0.5) / 65536.0}) {
          const RandomizedResponse rr = MakeRandomizedResponse(g);
          std::vector<std::uint64_t> rr_want = want;
          detail::ApplyRandomizedResponseT<NoRrFaults>(rr, m, ctx, client, rr_want, 1);
          for (fast::Isa isa : SupportedIsas()) {
            for (int threads : {1, 3}) {
              std::vector<std::uint64_t> got = want;
              fast::ApplyRandomizedResponseFast(rr.flip_threshold, m, ctx, client, got, threads, isa);
              ASSERT_EQ(got, rr_want) << Name(gen) << " m=" << m << " gamma=" << g;
              ++compared;
              // The fused upload (one pass, both streams) gives the two scalar passes' bits, and so
              // does the public EncodeBnnUpload that uses it.
              std::vector<std::uint64_t> fused(PackedWords(m), ~std::uint64_t{0});
              fast::EncodeBnnUploadFast(theta, rr.flip_threshold, ctx, client, fused, threads, isa);
              ASSERT_EQ(fused, rr_want) << "fused upload " << Name(gen) << " m=" << m << " gamma=" << g;
              ++compared;
            }
          }
          std::vector<std::uint64_t> upload(PackedWords(m), ~std::uint64_t{0});
          EncodeBnnUpload(Binarizer::kStoSign, &rr, theta, ctx, client, upload, 2);
          ASSERT_EQ(upload, rr_want) << "EncodeBnnUpload " << Name(gen) << " m=" << m << " gamma=" << g;
          if (g == 0.5) {
            EXPECT_EQ(rr_want, want);  // γ = 1/2 never flips
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 400);
}

TEST(RrEncoders, RandomizedResponseClearsTheUnusedBitsAndNeverTouchesWordsBeyondTheMessage) {
  const StreamContext ctx = Context(rng::Generator::kPhilox4x32, 4);
  std::vector<std::uint64_t> bits(3, ~std::uint64_t{0});
  ApplyRandomizedResponse(MakeRandomizedResponse(0.2), 70, ctx, 1, std::span<std::uint64_t>(bits.data(), 2));
  EXPECT_EQ(bits[1] >> 6, 0u);
  EXPECT_EQ(bits[2], ~std::uint64_t{0});
}

TEST(RrEncoders, DecodeIsTheAverageOfThePlusMinusOneUploads) {
  const std::vector<std::uint32_t> counts = {0, 1, 2, 3, 4};
  std::vector<float> mean(5);
  DecodeBnnAverage(counts, 4, mean);
  EXPECT_EQ(mean, (std::vector<float>{-1.0f, -0.5f, 0.0f, 0.5f, 1.0f}));
  EXPECT_THROW(DecodeBnnAverage(counts, 0, mean), InvalidArgument);
  EXPECT_THROW(DecodeBnnAverage(counts, 3, mean), InvalidArgument);  // count 4 > n = 3
}

}  // namespace
}  // namespace dpfl::quant
