// The quantized Gaussian's fast path (seed 003; src/cpu/fast_qgauss.cpp, src/cpu/fast_stream_words.cpp)
// against the plain loops, bit for bit:
//  * QgaussRoundIndicesFast on every instruction set of this CPU = the rule written out here with
//    rng::Uniform64 coins (saturated positions below 0 and above L, multiples of 2^m, the top
//    interval's f = 2^m, aligned and unaligned first coordinates, partial groups);
//  * QgaussEncodeFast = QgaussEncodeScalar (the fault-free qgauss_rules.hpp loop) for both
//    generators, every instruction set, 1 and 3 threads, sizes around the 128-coordinate groups
//    and the 4,096-coordinate noise chunks, k from 2 to 65,536;
//  * quant::fast::StreamWords128 = rng::Uniform64 for groups 0, 1 and near the end of a ChaCha20 stream;
//  * bad arguments throw InvalidArgument.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/fl/quantized_gaussian.hpp"
#include "dpfl/quant/fast_encoders.hpp"
#include "dpfl/rng/streams.hpp"
#include "testing/encoder_inputs.hpp"

namespace dpfl {
namespace {

using testing::Context;
using testing::kGenerators;
using testing::SupportedIsas;

// The rounding rule of dpfl/fl/quantized_gaussian.hpp, written out independently of both paths.
std::uint32_t RuleIndex(std::int64_t n, std::uint64_t coin, std::int64_t span, int m, std::uint32_t k) {
  n = std::max<std::int64_t>(0, std::min(n, span));
  std::int64_t r = std::min<std::int64_t>(n / (std::int64_t{1} << m), static_cast<std::int64_t>(k) - 2);
  const std::int64_t f = n - r * (std::int64_t{1} << m);
  const auto u = static_cast<std::int64_t>(coin / (std::uint64_t{1} << (64 - m)));
  return static_cast<std::uint32_t>(r + (u < f ? 1 : 0));
}

TEST(QgaussFast, RoundingMatchesTheRuleOnEveryInstructionSet) {
  struct Grid {
    std::uint32_t k;
    int m;
  };
  for (const rng::Generator gen : kGenerators) {
    const quant::StreamContext ctx = Context(gen, 41);
    const rng::StreamAddress addr{2, 7, rng::Purpose::kQgaussRounding};
    for (const Grid grid : {Grid{2, 16}, Grid{3, 5}, Grid{16, 16}, Grid{65536, 2}}) {
      const std::int64_t span = (static_cast<std::int64_t>(grid.k) - 1) << grid.m;
      std::mt19937_64 mt(grid.k);
      for (const std::uint64_t first : {std::uint64_t{0}, std::uint64_t{128}, std::uint64_t{4096}, std::uint64_t{77}}) {
        for (const std::size_t count : {std::size_t{1}, std::size_t{127}, std::size_t{128}, std::size_t{300}, std::size_t{1024}}) {
          std::vector<std::int64_t> pos(count);
          for (std::size_t j = 0; j < count; ++j) {
            switch (j % 5) {
              case 0: pos[j] = -static_cast<std::int64_t>(mt() % 1000); break;        // saturates at 0
              case 1: pos[j] = span + static_cast<std::int64_t>(mt() % 1000); break;  // saturates at L
              case 2: pos[j] = static_cast<std::int64_t>(mt() % static_cast<std::uint64_t>(grid.k)) << grid.m; break;
              default: pos[j] = static_cast<std::int64_t>(mt() % static_cast<std::uint64_t>(span + 1));
            }
          }
          std::vector<std::uint32_t> expected(count);
          for (std::size_t j = 0; j < count; ++j)
            expected[j] = RuleIndex(pos[j], rng::Uniform64(gen, ctx.key, addr, first + j), span, grid.m, grid.k);
          for (const quant::fast::Isa isa : SupportedIsas()) {
            std::vector<std::uint32_t> got(count, 0xdeadbeef);
            quant::fast::QgaussRoundIndicesFast(ctx, addr, first, pos, span, grid.m, grid.k, got, isa);
            ASSERT_EQ(got, expected) << testing::Name(gen) << " k=" << grid.k << " first=" << first << " count=" << count
                                     << " isa=" << static_cast<int>(isa);
          }
        }
      }
    }
  }
}

TEST(QgaussFast, EncodeFastEqualsTheScalarLoop) {
  struct Case {
    double sigma;
    std::uint32_t k;
    double clip;
    std::size_t size;
  };
  const Case cases[] = {{0.03, 16, 1.0, 1},      {0.03, 16, 1.0, 129},    {1.0, 2, 1.0, 4095},
                        {0.3, 4, 0.5, 4097},     {0.01, 255, 2.0, 8192},  {2.0, 65536, 1.0, 3 * 4096 + 77},
                        {0.03, 8, 1.0, 10000}};
  for (const rng::Generator gen : kGenerators) {
    quant::StreamContext ctx = Context(gen, 5);
    ctx.round = 4;
    for (const Case& c : cases) {
      const fl::QgaussGrid grid = fl::MakeQgaussGrid({c.sigma, c.k, c.clip});
      std::vector<float> update(c.size);
      for (std::size_t j = 0; j < c.size; ++j) update[j] = static_cast<float>(std::sin(0.37 * static_cast<double>(j)));
      const std::vector<std::int64_t> q = fl::QgaussClipToGrid(grid, update);
      const fl::QgaussMessage scalar = fl::QgaussEncodeScalar(grid, q, ctx, 9, 1);
      for (const quant::fast::Isa isa : SupportedIsas())
        for (const int threads : {1, 3}) {
          const fl::QgaussMessage fast = fl::QgaussEncodeFast(grid, q, ctx, 9, threads, isa);
          ASSERT_EQ(fast.size, scalar.size);
          ASSERT_EQ(fast.words, scalar.words) << testing::Name(gen) << " k=" << c.k << " size=" << c.size
                                              << " isa=" << static_cast<int>(isa) << " threads=" << threads;
        }
      EXPECT_EQ(fl::QgaussEncode(grid, q, ctx, 9, 2).words, scalar.words);  // the default path
    }
  }
}

TEST(QgaussFast, StreamWordsAreTheGeneratorsWords) {
  for (const rng::Generator gen : kGenerators) {
    const quant::StreamContext ctx = Context(gen, 77);
    const rng::StreamAddress addr{1, 3, rng::Purpose::kQgaussNoise};
    const std::uint64_t last_chacha_group = rng::kChaChaMaxIndex / 128 - 1;
    for (const std::uint64_t group : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{8191}, last_chacha_group}) {
      for (const quant::fast::Isa isa : SupportedIsas()) {
        std::uint64_t out[128];
        quant::fast::StreamWords128(ctx, addr, group, out, isa);
        for (std::uint64_t w = 0; w < 128; ++w)
          ASSERT_EQ(out[w], rng::Uniform64(gen, ctx.key, addr, 128 * group + w)) << testing::Name(gen) << " " << group << " " << w;
      }
    }
  }
}

TEST(QgaussFast, BadArgumentsThrow) {
  const quant::StreamContext ctx = Context(rng::Generator::kChaCha20, 1);
  const rng::StreamAddress addr{0, 0, rng::Purpose::kQgaussRounding};
  std::vector<std::int64_t> pos(10, 0);
  std::vector<std::uint32_t> small(9), ok(10);
  const quant::fast::Isa isa = quant::fast::Isa::kBaseline;
  EXPECT_THROW(quant::fast::QgaussRoundIndicesFast(ctx, addr, 0, pos, 15 << 4, 4, 16, small, isa), InvalidArgument);
  EXPECT_THROW(quant::fast::QgaussRoundIndicesFast(ctx, addr, 0, pos, 15 << 4, 0, 16, ok, isa), InvalidArgument);
  EXPECT_THROW(quant::fast::QgaussRoundIndicesFast(ctx, addr, 0, pos, 15 << 4, 4, 1, ok, isa), InvalidArgument);
  EXPECT_THROW(quant::fast::QgaussRoundIndicesFast(ctx, addr, 0, pos, 0, 4, 16, ok, isa), InvalidArgument);
  const fl::QgaussGrid grid = fl::MakeQgaussGrid({1.0, 4, 1.0});
  const std::vector<std::int64_t> outside = {grid.radius + 1};
  EXPECT_THROW(fl::QgaussEncodeFast(grid, outside, ctx, 0, 1, isa), InvalidArgument);
}

}  // namespace
}  // namespace dpfl
