// The SIMD fast path (used by the public encoders) against the scalar reference loops of
// cpu_encoders.hpp: word-for-word identical output on every instruction set this CPU supports,
// both generators, both roles, d ∈ {0, 1, 5, 31, 62}, sizes that exercise unaligned thread
// ranges and partial words, and inputs at, inside and outside the clipping range.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <random>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/quant/cpu_encoders.hpp"
#include "dpfl/quant/fast_encoders.hpp"
#include "testing/encoder_inputs.hpp"

namespace dpfl::quant {
namespace {

using dpfl::testing::SupportedIsas;

std::vector<float> Weights(std::size_t m, std::uint64_t seed, const BinaryLevels& k) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  std::vector<float> w(m);
  for (std::size_t j = 0; j < m; ++j) {
    switch (j % 7) {
      case 0: w[j] = static_cast<float>(k.lo); break;  // exactly c − r
      case 1: w[j] = static_cast<float>(k.hi); break;  // exactly c + r
      case 2: w[j] = static_cast<float>(k.c); break;
      default: w[j] = static_cast<float>(k.c + k.r * u(rng));  // some outside: clipped
    }
  }
  return w;
}

TEST(FastEncoders, BitIdenticalToScalarLoops) {
  const BinaryLevels k = MakeBinaryLevels(0.7, 0.25, 0.5);
  int compared = 0;
  for (std::size_t m : {std::size_t{1}, std::size_t{64}, std::size_t{127}, std::size_t{128}, std::size_t{64 * 131 + 5},
                        std::size_t{64 * 400}})
    for (rng::Generator gen : {rng::Generator::kChaCha20, rng::Generator::kPhilox4x32}) {
      StreamContext ctx;
      ctx.generator = gen;
      for (int i = 0; i < 8; ++i) ctx.key.words[i] = 0xDEADBEEFu * static_cast<std::uint32_t>(i + 3);
      ctx.round = 11;
      const std::vector<float> w = Weights(m, m * 31 + static_cast<std::uint64_t>(gen), k);
      for (int threads : {1, 3}) {
        std::vector<std::uint64_t> expected(PackedWords(m)), actual(PackedWords(m));
        detail::EncodeLdpqT<NoFaults>(k, w, ctx, 9, expected, threads);
        for (fast::Isa isa : SupportedIsas()) {
          std::fill(actual.begin(), actual.end(), 0xAAAAAAAAAAAAAAAAull);
          fast::EncodeLdpqFast(k, w, ctx, 9, actual, threads, isa);
          EXPECT_EQ(actual, expected) << "ldpq m=" << m << " isa=" << static_cast<int>(isa);
          ++compared;
        }
        // Every head layout: d ≤ 4 (8-bit shared, 16-bit private heads), 5–7 (both 8-bit, V's
        // top 13–15 bits from heads), 8, 9–15 (16-bit shared, 8-bit private), ≥ 16 (no private).
        for (int d : {0, 1, 4, 5, 7, 8, 9, 15, 31, 62})
          for (PairRole role : {PairRole::kQ1, PairRole::kQ2}) {
            detail::EncodeCorBinQT<NoFaults>(k, w, d, role, ctx, 4, 9, expected, threads);
            for (fast::Isa isa : SupportedIsas()) {
              std::fill(actual.begin(), actual.end(), 0x5555555555555555ull);
              fast::EncodeCorBinQFast(k, w, d, role, ctx, ctx, 4, 9, actual, threads, isa);
              EXPECT_EQ(actual, expected) << "corbinq m=" << m << " d=" << d << " isa=" << static_cast<int>(isa);
              ++compared;
            }
          }
      }
    }
  std::cout << "compared " << compared << " encodings; best ISA " << static_cast<int>(fast::BestIsa()) << "\n";
}

// V of parameter j for the rule (d < 0: LDPQ, V = the private uniform).
std::uint64_t RuleUniform(const StreamContext& ctx, std::uint32_t pair, std::uint32_t client, int d, std::size_t j) {
  const std::uint64_t priv = rng::DecisionUniform64(ctx.generator, ctx.key, {ctx.round, client, rng::Purpose::kPrivateCoin},
                                                    j, d < 0 ? kLdpqHeadBits : RolePrivateHeadBits(d));
  if (d < 0) return priv;
  return MergeSharedPrivate(
      rng::DecisionUniform64(ctx.generator, ctx.key, {ctx.round, pair, rng::Purpose::kSharedBits}, j, SharedHeadBits(d)),
      priv, d);
}

// Encodes w with the scalar loop and with the fast path on every supported ISA, 1 and 2
// threads, and expects equal words (d < 0: LDPQ). Returns the number of comparisons.
int ExpectFastEqualsScalar(const BinaryLevels& k, const std::vector<float>& w, const StreamContext& ctx, int d,
                           PairRole role, std::uint32_t pair, std::uint32_t client) {
  int compared = 0;
  for (int threads : {1, 2}) {
    std::vector<std::uint64_t> expected(PackedWords(w.size())), actual(PackedWords(w.size()));
    if (d < 0) {
      detail::EncodeLdpqT<NoFaults>(k, w, ctx, client, expected, threads);
    } else {
      detail::EncodeCorBinQT<NoFaults>(k, w, d, role, ctx, pair, client, expected, threads);
    }
    for (fast::Isa isa : SupportedIsas()) {
      std::fill(actual.begin(), actual.end(), 0x5555555555555555ull);
      if (d < 0) {
        fast::EncodeLdpqFast(k, w, ctx, client, actual, threads, isa);
      } else {
        fast::EncodeCorBinQFast(k, w, d, role, ctx, ctx, pair, client, actual, threads, isa);
      }
      EXPECT_EQ(actual, expected) << "c=" << k.c << " r=" << k.r << " d=" << d << " role=" << static_cast<int>(role)
                                  << " isa=" << static_cast<int>(isa) << " threads=" << threads;
      ++compared;
    }
  }
  return compared;
}

// The SIMD path decides from the heads and fetches the tails only when the heads tie with
// T >> 48 (probability 2^-13 … 2^-16 per decision, so random inputs rarely reach that code).
// Here every weight is chosen so that its threshold's top 16 bits equal the top 16 bits of its
// own V: nearly every decision is a tie, and the output must still equal the scalar loop's.
TEST(FastEncoders, HeadTiesAreResolvedExactly) {
  const BinaryLevels k = MakeBinaryLevels(8.0, 0.0, 1.0);  // α ≈ 1.0007: q covers ~[0.0003, 0.9997]
  const std::size_t m = 64 * 40 + 3;                       // 5 SIMD groups of 512 and a scalar tail
  const std::uint32_t pair = 6, client = 2;
  int compared = 0;
  for (rng::Generator gen : {rng::Generator::kChaCha20, rng::Generator::kPhilox4x32}) {
    StreamContext ctx;
    ctx.generator = gen;
    for (int i = 0; i < 8; ++i) ctx.key.words[i] = 0x9E3779B9u * static_cast<std::uint32_t>(i + 1);
    ctx.round = 3;
    // d = -1 stands for LDPQ.
    for (int d : {-1, 0, 1, 4, 5, 7, 8, 9, 15, 16, 31})
      for (PairRole role : {PairRole::kQ1, PairRole::kQ2}) {
        if (d < 0 && role == PairRole::kQ2) continue;
        std::vector<float> w(m);
        std::size_t ties = 0;
        for (std::size_t j = 0; j < m; ++j) {
          const std::uint64_t v = RuleUniform(ctx, pair, client, d, j);
          const double q = (static_cast<double>(v >> 48) + 0.5) / 65536.0;  // middle of V's top-16 cell
          const double offset = (role == PairRole::kQ1 ? q - 0.5 : 0.5 - q) / k.inv_two_r_alpha;
          w[j] = static_cast<float>(k.c + offset);
          const std::uint64_t t = role == PairRole::kQ1 ? PlusThreshold(ClipWeight(static_cast<double>(w[j]), k), k)
                                                        : MinusThreshold(ClipWeight(static_cast<double>(w[j]), k), k);
          ties += (t >> 48) == (v >> 48);
        }
        EXPECT_GE(ties, m * 99 / 100) << "construction failed to force head ties, d=" << d;
        compared += ExpectFastEqualsScalar(k, w, ctx, d, role, pair, client);
      }
  }
  std::cout << "compared " << compared << " tie-heavy encodings\n";
}

// Every instruction set's path screens the head comparison in single precision and decides a lane
// only when its margin makes the answer certain (simd_decisions.hpp, FloatScreen: 16 lanes per
// instruction on AVX-512, 8 on AVX2, 4 on baseline x86-64). Here every weight puts
// q·2^16 within ±0.25 of an edge of its own head's cell, where a margin that is too small would
// flip bits; and one layer (|c| ≫ r) where the screen must refuse and the exact double
// comparison runs instead. The heads give V's top 16 bits, except for the roles with
// 5 ≤ d < 8 (8-bit shared and private heads: docs/production.md "Decision streams"), whose
// heads give its top d + 8 bits: the cell is then [V16, V16 + 2^(8−d)) with V16's low 8 − d
// bits cleared.
TEST(FastEncoders, WeightsAtTheEdgesOfTheHeadCellMatchTheScalarLoops) {
  const std::size_t m = 64 * 24;
  const std::uint32_t pair = 3, client = 5;
  const double offsets[] = {1e-4, -1e-4, 1e-3, -1e-3, 4e-3, -4e-3, 2e-2, -2e-2, 0.1, -0.1, 0.25, -0.25};
  int compared = 0;
  for (const BinaryLevels& k : {MakeBinaryLevels(8.0, 0.0, 1.0), MakeBinaryLevels(1.0, 0.3, 0.05),
                                MakeBinaryLevels(2.0, 1000.0, 1e-3)})
    for (rng::Generator gen : {rng::Generator::kChaCha20, rng::Generator::kPhilox4x32}) {
      StreamContext ctx;
      ctx.generator = gen;
      for (int i = 0; i < 8; ++i) ctx.key.words[i] = 0x85EBCA6Bu * static_cast<std::uint32_t>(i + 7);
      ctx.round = 9;
      for (int d : {-1, 0, 4, 5, 6, 7, 8, 12, 16})  // -1: LDPQ
        for (PairRole role : {PairRole::kQ1, PairRole::kQ2}) {
          if (d < 0 && role == PairRole::kQ2) continue;
          const int unknown = d >= 5 && d < 8 ? 8 - d : 0;  // low bits of V16 not in the heads
          std::vector<float> w(m);
          for (std::size_t j = 0; j < m; ++j) {
            const std::uint64_t v = RuleUniform(ctx, pair, client, d, j);
            const std::uint64_t cell = (v >> 48) >> unknown << unknown;
            const double edge = static_cast<double>(cell + (j % 2) * (std::uint64_t{1} << unknown));  // either edge
            const double q = (edge + offsets[j % 12]) / 65536.0;
            w[j] = static_cast<float>(k.c + (role == PairRole::kQ1 ? q - 0.5 : 0.5 - q) / k.inv_two_r_alpha);
          }
          compared += ExpectFastEqualsScalar(k, w, ctx, d, role, pair, client);
        }
    }
  std::cout << "compared " << compared << " edge-of-cell encodings\n";
}

// The server's vectorized, threaded sum over messages against a plain per-bit loop written here.
// The fast path checks weights for NaN/±Inf as it encodes them (no separate pass): wherever the
// first bad weight sits — a SIMD group of either thread, the misaligned head or scalar tail of a
// range, a second bad weight later on — the error names the first index and every output word
// is 0, on every instruction set, for LDPQ and both roles.
TEST(FastEncoders, NonFiniteWeightAnywhereNamesFirstIndexAndZeroesOutput) {
  // The second levels make the single-precision screen refuse (|c| ≫ r), so the exact double
  // comparison meets the bad lanes there.
  for (const BinaryLevels& k : {MakeBinaryLevels(1.0, 0.0, 1.0), MakeBinaryLevels(2.0, 1000.0, 1e-3)}) {
    StreamContext ctx;
    ctx.generator = rng::Generator::kChaCha20;
    const std::size_t m = 64 * 1000 + 13;  // 3 threads: ranges start off the 8-word SIMD grid
    const float bad_values[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                                -std::numeric_limits<float>::infinity()};
    int checked = 0;
    for (std::size_t first : {std::size_t{0}, std::size_t{511}, std::size_t{512 * 40 + 7}, std::size_t{64 * 333 + 1},
                              std::size_t{64 * 667 + 2}, m - 14, m - 1})
      for (int threads : {1, 3})
        for (fast::Isa isa : SupportedIsas())
          for (int rule = 0; rule < 3; ++rule) {
            std::vector<float> w = Weights(m, 5, k);
            w[first] = bad_values[checked % 3];
            if (first + 600 < m) w[first + 600] = bad_values[(checked + 1) % 3];  // a later one is not named
            std::vector<std::uint64_t> bits(PackedWords(m), 0x5555555555555555ull);
            try {
              const PairRole role = rule == 1 ? PairRole::kQ1 : PairRole::kQ2;
              if (rule == 0) {
                fast::EncodeLdpqFast(k, w, ctx, 1, bits, threads, isa);
              } else {
                fast::EncodeCorBinQFast(k, w, 5, role, ctx, ctx, 2, 1, bits, threads, isa);
              }
              ADD_FAILURE() << "accepted a non-finite weight at " << first;
            } catch (const InvalidArgument& e) {
              EXPECT_NE(std::string(e.what()).find("w[" + std::to_string(first) + "]"), std::string::npos)
                  << e.what() << " first=" << first;
            }
            EXPECT_EQ(std::count(bits.begin(), bits.end(), std::uint64_t{0}), static_cast<long>(bits.size()))
                << "output not zeroed, first=" << first << " threads=" << threads << " rule=" << rule;
            ++checked;
          }
    EXPECT_EQ(checked, 7 * 2 * static_cast<int>(SupportedIsas().size()) * 3);
  }
}

TEST(AccumulateMessages, EqualsPerBitSumOnEveryIsaAndThreadCount) {
  std::mt19937_64 rng(20261122);
  for (std::size_t m : {std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{65}, std::size_t{64 * 37 + 5}})
    for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{100}}) {
      const std::size_t words = PackedWords(m);
      std::vector<std::vector<std::uint64_t>> store(n, std::vector<std::uint64_t>(words));
      for (auto& msg : store)
        for (auto& x : msg) x = rng();
      std::vector<std::span<const std::uint64_t>> messages(store.begin(), store.end());
      std::vector<std::uint32_t> start(m);
      for (auto& x : start) x = static_cast<std::uint32_t>(rng() % 1000);
      std::vector<std::uint32_t> expected = start;
      for (const auto& msg : store)
        for (std::size_t j = 0; j < m; ++j) expected[j] += static_cast<std::uint32_t>((msg[j / 64] >> (j % 64)) & 1u);
      for (int threads : {1, 3})
        for (fast::Isa isa : SupportedIsas()) {
          std::vector<std::uint32_t> counts = start;
          fast::AccumulateMessagesFast(messages, counts, threads, isa);
          EXPECT_EQ(counts, expected) << "m=" << m << " n=" << n << " isa=" << static_cast<int>(isa);
        }
      std::vector<std::uint32_t> counts = start;
      AccumulateMessages(messages, counts, 2);
      EXPECT_EQ(counts, expected);
    }
  std::vector<std::uint64_t> short_msg(1);
  const std::vector<std::span<const std::uint64_t>> too_short = {short_msg};
  std::vector<std::uint32_t> counts(65);
  EXPECT_THROW(AccumulateMessages(too_short, counts), InvalidArgument);
}

}  // namespace
}  // namespace dpfl::quant

namespace dpfl::quant {
namespace {

// dpfl/quant/isa.hpp: names round-trip, unknown names are refused, SetActiveIsa moves ActiveIsa
// (which the public encoders use) and refuses what this CPU lacks; the encoders' bits do not
// depend on it.
TEST(Isa, NamesSwitchAndRefusal) {
  for (fast::Isa isa : {fast::Isa::kAvx512, fast::Isa::kAvx2, fast::Isa::kBaseline})
    EXPECT_EQ(fast::ParseIsa(fast::IsaName(isa)), isa);
  EXPECT_FALSE(fast::ParseIsa("AVX2").has_value());
  EXPECT_FALSE(fast::ParseIsa("").has_value());
  const fast::Isa before = fast::ActiveIsa();
  const BinaryLevels k = MakeBinaryLevels(1.0, 0.0, 1.0);
  std::vector<float> w(64 * 40 + 5);
  for (std::size_t j = 0; j < w.size(); ++j) w[j] = static_cast<float>(std::sin(0.37 * static_cast<double>(j)));
  StreamContext ctx;
  std::vector<std::uint64_t> reference(PackedWords(w.size()));
  EncodeLdpq(k, w, ctx, 2, reference);
  for (fast::Isa isa : SupportedIsas()) {
    fast::SetActiveIsa(isa);
    EXPECT_EQ(fast::ActiveIsa(), isa);
    std::vector<std::uint64_t> bits(PackedWords(w.size()));
    EncodeLdpq(k, w, ctx, 2, bits);
    EXPECT_EQ(bits, reference) << fast::IsaName(isa);
  }
  if (fast::BestIsa() != fast::Isa::kAvx512) {
    EXPECT_THROW(fast::SetActiveIsa(fast::Isa::kAvx512), InvalidArgument);
  }
  fast::SetActiveIsa(before);
}

}  // namespace
}  // namespace dpfl::quant
