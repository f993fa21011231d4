// Production binary quantizers: input contract, determinism, and the one-comparison identity.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/binary_rules.hpp"  // internal (dpfl_testing_internals)
#include "dpfl/quant/sampling.hpp"

namespace dpfl::quant {
namespace {

StreamContext Context(rng::Generator gen) {
  StreamContext ctx;
  ctx.generator = gen;
  for (int i = 0; i < 8; ++i) ctx.key.words[i] = 0x01234567u + 0x11111111u * static_cast<std::uint32_t>(i);
  ctx.round = 7;
  return ctx;
}

TEST(MakeBinaryLevels, ComputesAlphaAndRejectsBadParameters) {
  const BinaryLevels k = MakeBinaryLevels(std::log(3.0), 0.0, 1.0);
  EXPECT_NEAR(k.alpha, 2.0, 1e-15);  // E = 3 ⇒ α = 2 (double, not an oracle: a sanity check)
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (double eps : {0.0, -1.0, nan, inf, 1000.0}) EXPECT_THROW(MakeBinaryLevels(eps, 0.0, 1.0), InvalidArgument) << eps;
  for (double r : {0.0, -1.0, nan, inf}) EXPECT_THROW(MakeBinaryLevels(1.0, 0.0, r), InvalidArgument) << r;
  for (double c : {nan, inf, -inf}) EXPECT_THROW(MakeBinaryLevels(1.0, c, 1.0), InvalidArgument) << c;
  EXPECT_THROW(MakeBinaryLevels(1.0, 1e308, 1e308), InvalidArgument);
}

TEST(EncodeLdpq, RejectsNonFiniteWeightsAndShortOutput) {
  const BinaryLevels k = MakeBinaryLevels(1.0, 0.0, 1.0);
  std::vector<std::uint64_t> bits(1);
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                    -std::numeric_limits<float>::infinity()}) {
    std::vector<float> w = {0.1f, bad, 0.2f};
    try {
      EncodeLdpq(k, w, Context(rng::Generator::kChaCha20), 0, bits);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("w[1]"), std::string::npos) << e.what();
    }
  }
  std::vector<float> w(65, 0.0f);
  EXPECT_THROW(EncodeLdpq(k, w, Context(rng::Generator::kChaCha20), 0, bits), InvalidArgument);
}

TEST(EncodeCorBinQ, RejectsSharedBitsOutOfRange) {
  const BinaryLevels k = MakeBinaryLevels(1.0, 0.0, 1.0);
  std::vector<float> w(10, 0.0f);
  std::vector<std::uint64_t> bits(1);
  EXPECT_THROW(EncodeCorBinQ(k, w, -1, PairRole::kQ1, Context(rng::Generator::kChaCha20), 0, 0, bits), InvalidArgument);
  EXPECT_THROW(EncodeCorBinQ(k, w, 63, PairRole::kQ1, Context(rng::Generator::kChaCha20), 0, 0, bits), InvalidArgument);
  EXPECT_THROW(EncodeCoq(k, w, 3, PairRole::kQ1, 0.3, Context(rng::Generator::kChaCha20), 0, 0, bits), InvalidArgument);
}

TEST(EncodeCorBinQ, OutputIndependentOfThreadCountAndPaddingIsZero) {
  const BinaryLevels k = MakeBinaryLevels(0.5, 0.1, 0.7);
  std::vector<float> w(64 * 300 + 17);
  for (std::size_t j = 0; j < w.size(); ++j) w[j] = static_cast<float>(std::sin(0.37 * static_cast<double>(j)));
  for (rng::Generator gen : {rng::Generator::kChaCha20, rng::Generator::kPhilox4x32}) {
    std::vector<std::uint64_t> one(PackedWords(w.size())), four(PackedWords(w.size()));
    EncodeCorBinQ(k, w, 5, PairRole::kQ2, Context(gen), 3, 6, one, 1);
    EncodeCorBinQ(k, w, 5, PairRole::kQ2, Context(gen), 3, 6, four, 4);
    EXPECT_EQ(one, four);
    EXPECT_EQ(one.back() >> 17, 0u);
  }
}

TEST(Q1RoleBit, OneComparisonImplementsTheCellRule) {
  // Alg. 2 l.4–10 spelled out on integers vs the single comparison V < T, at d = 3 on a grid of
  // z (shared top bits) and private bits, for a threshold inside cell t = 5.
  const BinaryLevels k = MakeBinaryLevels(std::log(3.0), 0.0, 1.0);
  const double w = 0.3;
  const std::uint64_t T = PlusThreshold(w, k);
  const int d = 3;
  const std::uint64_t t = T >> (64 - d), frac_bits = T & ((std::uint64_t{1} << (64 - d)) - 1);
  for (std::uint64_t z = 0; z < 8; ++z)
    for (std::uint64_t p : {std::uint64_t{0}, frac_bits << d, (frac_bits << d) - 8, ~std::uint64_t{0}}) {
      const std::uint64_t shared = z << 61, priv = p;
      const std::uint64_t low = priv >> d;
      const bool expected = z < t || (z == t && low < frac_bits);
      EXPECT_EQ(Q1RoleBit(w, shared, priv, d, k), expected) << z << " " << p;
    }
}

TEST(AccumulateAndDecode, MeanOfConstantMessages) {
  const BinaryLevels k = MakeBinaryLevels(std::log(3.0), 0.0, 1.0);
  std::vector<std::uint32_t> counts(70, 0);
  std::vector<std::uint64_t> all_plus(2, ~std::uint64_t{0});
  AccumulateBits(all_plus, counts);
  AccumulateBits(all_plus, counts);
  std::vector<float> mean(70);
  DecodeMean(k, counts, 4, mean);  // 2 of 4 messages "+", others "−": mean c = 0
  for (float v : mean) EXPECT_NEAR(v, 0.0f, 1e-6f);
  EXPECT_THROW(DecodeMean(k, counts, 0, mean), InvalidArgument);
}

}  // namespace
}  // namespace dpfl::quant

namespace dpfl::quant {
namespace {
// Regression tests for parameters found by fuzz_quantizer_inputs (fuzz/README.md).
TEST(MakeBinaryLevels, RejectsDegenerateScalesFoundByFuzzing) {
  EXPECT_THROW(MakeBinaryLevels(1.0, 0.0, 5e-324), InvalidArgument);    // 1/(2rα) = +inf: deterministic output
  EXPECT_THROW(MakeBinaryLevels(1.0, 0.0, 1e-310), InvalidArgument);
  EXPECT_THROW(MakeBinaryLevels(0.5, 0.0, 1.7e308), InvalidArgument);   // 2rα overflows: slope 0
  EXPECT_THROW(MakeBinaryLevels(0.01, 1.79e308, 1e305), InvalidArgument);  // c + rα overflows
  EXPECT_THROW(MakeBinaryLevels(1.0, std::ldexp(1.0, 702), 1.0), InvalidArgument);  // beyond float range
  EXPECT_NO_THROW(MakeBinaryLevels(1.0, 0.0, 1e-30));
}
TEST(EncodeLdpq, RejectsBadThreadCounts) {
  const BinaryLevels k = MakeBinaryLevels(1.0, 0.0, 1.0);
  std::vector<float> w(10, 0.0f);
  std::vector<std::uint64_t> bits(1);
  for (int threads : {0, -1, 257, 1 << 30})
    EXPECT_THROW(EncodeLdpq(k, w, StreamContext{}, 0, bits, threads), InvalidArgument) << threads;
}
TEST(DecodeMean, RejectsCountsAboveN) {
  const BinaryLevels k = MakeBinaryLevels(1.0, 0.0, 1.0);
  std::vector<std::uint32_t> counts = {3};
  std::vector<float> mean(1);
  EXPECT_THROW(DecodeMean(k, counts, 2, mean), InvalidArgument);
}
}  // namespace
}  // namespace dpfl::quant

namespace dpfl::quant {
namespace {
// The two-key form: the shared bits follow the pair key, the private coins the client key. With
// the same client key and a different pair key the tie-free parameters may change only through
// Z; with a different client key and the same pair key, the output changes (private coins).
TEST(EncodeCorBinQ, PrivateCoinsComeFromTheClientKeyNotThePairKey) {
  const BinaryLevels k = MakeBinaryLevels(1.0, 0.0, 1.0);
  std::vector<float> w(64 * 50, 0.1f);
  StreamContext pair_a, pair_b, client_a, client_b;
  pair_a.key.words[0] = 1;
  pair_b.key.words[0] = 2;
  client_a.key.words[0] = 3;
  client_b.key.words[0] = 4;
  std::vector<std::uint64_t> base(PackedWords(w.size())), other(PackedWords(w.size()));
  EncodeCorBinQ(k, w, 0, PairRole::kQ1, pair_a, client_a, 0, 0, base);
  // d = 0: no shared bits are used, so the pair key must not matter at all …
  EncodeCorBinQ(k, w, 0, PairRole::kQ1, pair_b, client_a, 0, 0, other);
  EXPECT_EQ(base, other);
  // … while the client key decides every bit.
  EncodeCorBinQ(k, w, 0, PairRole::kQ1, pair_a, client_b, 0, 0, other);
  EXPECT_NE(base, other);
  // The one-key simulation form equals the two-key form with the same key twice.
  EncodeCorBinQ(k, w, 5, PairRole::kQ2, pair_a, pair_a, 3, 7, base);
  EncodeCorBinQ(k, w, 5, PairRole::kQ2, pair_a, 3, 7, other);
  EXPECT_EQ(base, other);
  StreamContext philox = client_a;
  philox.generator = rng::Generator::kPhilox4x32;
  EXPECT_THROW(EncodeCorBinQ(k, w, 5, PairRole::kQ1, pair_a, philox, 0, 0, base), InvalidArgument);
}
}  // namespace
}  // namespace dpfl::quant

// `dpfl sample`'s draws (dpfl/quant/sampling.hpp): chunk k is round k, the last chunk's partial
// word is masked, pairs are counted jointly. Checked against the encoders called chunk by chunk
// and counted with AccumulateBits (not the popcount loop under test).
namespace dpfl::quant {
namespace {

TEST(DrawSampleCounts, ChunksAreRoundsAndPartialWordsAreMasked) {
  const BinaryLevels k = MakeBinaryLevels(1.0, 0.0, 1.0);
  StreamContext ctx;
  ctx.key = SampleKeyFromSeed(42);
  const std::uint64_t n = kSampleChunk + 77;  // a second, partial chunk
  const float w1 = 0.3f, w2 = -0.6f;
  const int d = 5;
  std::uint64_t plus = 0, joint[4] = {0, 0, 0, 0};
  for (std::uint32_t round = 0; round < 2; ++round) {
    const std::size_t m = round == 0 ? kSampleChunk : 77;
    StreamContext c = ctx;
    c.round = round;
    std::vector<float> x1(m, w1), x2(m, w2);
    std::vector<std::uint64_t> b1(PackedWords(m)), b2(PackedWords(m));
    std::vector<std::uint32_t> ones(m, 0);
    EncodeLdpq(k, x1, c, 0, b1);
    AccumulateBits(b1, ones);
    for (std::uint32_t o : ones) plus += o;
    EncodeCorBinQPair(k, x1, x2, d, c, 0, 0, 1, b1, b2);
    std::vector<std::uint32_t> q1(m, 0), q2(m, 0);
    AccumulateBits(b1, q1);
    AccumulateBits(b2, q2);
    for (std::size_t j = 0; j < m; ++j) ++joint[2 * q1[j] + q2[j]];
  }
  EXPECT_EQ(DrawSampleCounts(SampledQuantizer::kLdpq, w1, 0.0f, n, ctx, CpuChunkEncoder(SampledQuantizer::kLdpq, k, 0, 1)).plus,
            plus);
  const SampleCounts pair =
      DrawSampleCounts(SampledQuantizer::kCorBinQ, w1, w2, n, ctx, CpuChunkEncoder(SampledQuantizer::kCorBinQ, k, d, 2));
  for (int o = 0; o < 4; ++o) EXPECT_EQ(pair.joint[o], joint[o]) << o;
  EXPECT_EQ(pair.joint[0] + pair.joint[1] + pair.joint[2] + pair.joint[3], n);
  EXPECT_THROW(DrawSampleCounts(SampledQuantizer::kLdpq, w1, 0.0f, 0, ctx, CpuChunkEncoder(SampledQuantizer::kLdpq, k, 0, 1)),
               InvalidArgument);
  EXPECT_THROW(DrawSampleCounts(SampledQuantizer::kLdpq, w1, 0.0f, kMaxSampleDraws + 1, ctx,
                                CpuChunkEncoder(SampledQuantizer::kLdpq, k, 0, 1)),
               InvalidArgument);
}

}  // namespace
}  // namespace dpfl::quant
