// The CUDA kernels without a GPU: a grid emulator runs each kernel's per-thread body
// (production/cuda/kernel_bodies.hpp, the DPFL_HD functions the kernels call) over every
// (block, thread) index of the launch the host code makes, emulates what needs a device — the
// xor-1 warp shuffle of the encode kernel, atomicMin of the non-finite scan — and compares the
// result bit for bit with the CPU path. It also checks the indexing itself: every output word or
// counter is written exactly once, by the thread the mapping says, and nothing outside the
// message. Compiled by the host compiler, so it runs in every CI configuration (the ASan one
// included). What it cannot show (launch failures, coalescing, races, the device compiler's
// code) is listed in docs/cuda.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <vector>

#include "dpfl/quant/binary_quantizer.hpp"
#include "kernel_bodies.hpp"
#include "testing/encoder_inputs.hpp"

namespace dpfl::quant {
namespace {

namespace ck = cuda_kernels;
using dpfl::testing::Context;
using dpfl::testing::Name;
using dpfl::testing::Weights;

using dpfl::testing::kGenerators;
constexpr int kSharedBits[] = {0, 1, 4, 5, 7, 8, 9, 15, 16, 62};  // every head layout (binary_element.hpp)
// Tails around the 32-parameter (thread), 64-parameter (word), warp (32 threads = 1024
// parameters) and block (256 threads = 8192 parameters) boundaries.
constexpr std::size_t kSizes[] = {1, 31, 32, 33, 63, 64, 65, 1023, 1024, 1025, 8191, 8192, 8193, 64 * 300 + 37};


// ---- the emulator ----------------------------------------------------------------------------

// One launch <<<blocks, kBlockThreads>>> of the encode kernel: every thread's body, the xor-1
// shuffle inside each warp (lane L receives lane L ^ 1's value; kBlockThreads is a multiple of
// 32, so L ^ 1 is in the same warp), and the writes of the lanes that write. `writes` counts the
// writes per word of `bits` (which may be longer than the message).
template <rng::Generator G, ck::Mode M>
void EmulateEncode(const BinaryLevels& levels, std::span<const float> w, const StreamContext& shared_ctx,
                   const StreamContext& ctx, std::uint32_t pair, std::uint32_t client, int d,
                   std::vector<std::uint64_t>& bits, std::vector<int>& writes) {
  const std::uint64_t m = w.size();
  const ck::EncodeLaunch launch = ck::MakeEncodeLaunch(m, shared_ctx, ctx, pair, client);
  std::vector<std::uint64_t> lane_word(ck::kBlockThreads);
  for (std::uint64_t block = 0; block < launch.blocks; ++block) {
    for (unsigned t = 0; t < ck::kBlockThreads; ++t) {
      const std::uint64_t g = block * ck::kBlockThreads + t;
      const std::uint64_t half = ck::EncodeThreadBits<G, M>(levels, w.data(), m, ctx.key, launch.private_addr,
                                                            shared_ctx.key, launch.shared_addr, d, g);
      lane_word[t] = ck::HalfInWord(half, t);
    }
    for (unsigned t = 0; t < ck::kBlockThreads; ++t) {
      const std::uint64_t g = block * ck::kBlockThreads + t;
      const std::uint64_t word = lane_word[t] | lane_word[t ^ 1u];  // __shfl_xor_sync(…, 1)
      if (!ck::WritesWord(t, g, m)) continue;
      const std::uint64_t index = ck::WordOfThread(g);
      ASSERT_LT(index, bits.size()) << "thread " << g << " writes past the output";
      bits[index] = word;
      ++writes[index];
    }
  }
}

template <ck::Mode M>
void EmulateEncodeAnyGenerator(const BinaryLevels& levels, std::span<const float> w, const StreamContext& shared_ctx,
                               const StreamContext& ctx, std::uint32_t pair, std::uint32_t client, int d,
                               std::vector<std::uint64_t>& bits, std::vector<int>& writes) {
  if (ctx.generator == rng::Generator::kChaCha20)
    EmulateEncode<rng::Generator::kChaCha20, M>(levels, w, shared_ctx, ctx, pair, client, d, bits, writes);
  else
    EmulateEncode<rng::Generator::kPhilox4x32, M>(levels, w, shared_ctx, ctx, pair, client, d, bits, writes);
}

// Every word of the message written exactly once, the words after it (bits has 2 extra) never.
void ExpectEachWordWrittenOnce(const std::vector<int>& writes, std::size_t m) {
  for (std::size_t i = 0; i < writes.size(); ++i)
    ASSERT_EQ(writes[i], i < PackedWords(m) ? 1 : 0) << "word " << i << " of a " << m << "-parameter message";
}

// A grid-stride kernel over `blocks` blocks: body(g, stride) for every thread.
template <class Body>
void ForEachGridStrideThread(std::uint64_t blocks, Body body) {
  const std::uint64_t stride = blocks * ck::kBlockThreads;
  for (std::uint64_t g = 0; g < stride; ++g) body(g, stride);
}

// ---- encode ----------------------------------------------------------------------------------

TEST(CudaEmulator, EncodeLaunchGeometryCoversEveryWordWithTwoLanes) {
  for (std::size_t m : kSizes) {
    EXPECT_EQ(ck::EncodeThreads(m), 2 * PackedWords(m));
    EXPECT_GE(ck::EncodeBlocks(m) * ck::kBlockThreads, ck::EncodeThreads(m));
    EXPECT_LT((ck::EncodeBlocks(m) - 1) * ck::kBlockThreads, ck::EncodeThreads(m)) << "a whole idle block, m=" << m;
  }
}

TEST(CudaEmulator, LdpqKernelMatchesCpuWordForWord) {
  const BinaryLevels levels[] = {MakeBinaryLevels(1.0, 0.0, 1.0), MakeBinaryLevels(8.0, -3.0, 1e-3)};
  for (rng::Generator gen : kGenerators)
    for (const BinaryLevels& k : levels)
      for (std::size_t m : kSizes) {
        const StreamContext ctx = Context(gen, static_cast<std::uint32_t>(m));
        const std::vector<float> w = Weights(m, k, m + 1);
        std::vector<std::uint64_t> cpu(PackedWords(m) + 2, 0), emu(PackedWords(m) + 2, 0);
        std::vector<int> writes(emu.size(), 0);
        EncodeLdpq(k, w, ctx, 5, cpu);
        EmulateEncodeAnyGenerator<ck::Mode::kLdpq>(k, w, ctx, ctx, 0, 5, 0, emu, writes);
        ExpectEachWordWrittenOnce(writes, m);
        ASSERT_EQ(emu, cpu) << Name(gen) << " m=" << m;
      }
}

TEST(CudaEmulator, CorBinQKernelMatchesCpuForBothRolesEveryHeadLayoutAndTwoKeys) {
  const BinaryLevels k = MakeBinaryLevels(0.7, 0.1, 0.9);
  for (rng::Generator gen : kGenerators)
    for (int d : kSharedBits)
      for (std::size_t m : {std::size_t{33}, std::size_t{1025}, std::size_t{8193}}) {
        const StreamContext shared = Context(gen, 40 + static_cast<std::uint32_t>(d));
        const StreamContext priv = Context(gen, 90 + static_cast<std::uint32_t>(d));
        const std::vector<float> w = Weights(m, k, static_cast<std::uint64_t>(d) * 7 + m);
        for (PairRole role : {PairRole::kQ1, PairRole::kQ2}) {
          std::vector<std::uint64_t> cpu(PackedWords(m) + 2, 0), emu(PackedWords(m) + 2, 0);
          std::vector<int> writes(emu.size(), 0);
          EncodeCorBinQ(k, w, d, role, shared, priv, 3, 8, cpu);
          if (role == PairRole::kQ1)
            EmulateEncodeAnyGenerator<ck::Mode::kQ1>(k, w, shared, priv, 3, 8, d, emu, writes);
          else
            EmulateEncodeAnyGenerator<ck::Mode::kQ2>(k, w, shared, priv, 3, 8, d, emu, writes);
          ExpectEachWordWrittenOnce(writes, m);
          ASSERT_EQ(emu, cpu) << Name(gen) << " d=" << d << " m=" << m << (role == PairRole::kQ1 ? " Q1" : " Q2");
        }
      }
}

// Weights built so that nearly every decision's heads tie with T >> 48, so the body's exact
// tail path (rng::DecisionUniform64) runs for almost every parameter.
TEST(CudaEmulator, HeadTiesTakeTheExactPathAndStillMatchCpu) {
  const BinaryLevels k = MakeBinaryLevels(8.0, 0.0, 1.0);
  const std::size_t m = 64 * 9 + 17;
  for (rng::Generator gen : kGenerators)
    for (int d : {0, 5, 7, 8, 12, 16, 31}) {
      const StreamContext ctx = Context(gen, 9000 + static_cast<std::uint32_t>(d));
      const std::vector<float> w = dpfl::testing::TieWeights(m, k, ctx, 2, 7, d);
      std::vector<std::uint64_t> cpu(PackedWords(m), 0), emu(PackedWords(m), 0);
      std::vector<int> writes(emu.size(), 0);
      EncodeCorBinQ(k, w, d, PairRole::kQ1, ctx, 2, 7, cpu);
      EmulateEncodeAnyGenerator<ck::Mode::kQ1>(k, w, ctx, ctx, 2, 7, d, emu, writes);
      ExpectEachWordWrittenOnce(writes, m);
      ASSERT_EQ(emu, cpu) << Name(gen) << " d=" << d;
    }
}

TEST(CudaEmulator, ThreadsPastTheMessageContributeNothing) {
  const BinaryLevels k = MakeBinaryLevels(1.0, 0.0, 1.0);
  const StreamContext ctx = Context(rng::Generator::kChaCha20, 3);
  const std::vector<float> w = Weights(65, k, 1);
  const ck::EncodeLaunch launch = ck::MakeEncodeLaunch(65, ctx, ctx, 0, 1);
  // Threads 0..3 exist for words 0 and 1; thread 2 holds parameters 64..95 of which only 64 exists.
  for (std::uint64_t g = 3; g < launch.blocks * ck::kBlockThreads; ++g)
    ASSERT_EQ((ck::EncodeThreadBits<rng::Generator::kChaCha20, ck::Mode::kLdpq>(k, w.data(), 65, ctx.key,
                                                                                 launch.private_addr, ctx.key,
                                                                                 launch.shared_addr, 0, g)),
              0u)
        << "thread " << g;
  EXPECT_LE((ck::EncodeThreadBits<rng::Generator::kChaCha20, ck::Mode::kLdpq>(
                k, w.data(), 65, ctx.key, launch.private_addr, ctx.key, launch.shared_addr, 0, 2)),
            1u);
}

// ---- non-finite scan -------------------------------------------------------------------------

std::uint64_t EmulateFirstNonFinite(std::span<const float> w, std::uint64_t blocks) {
  std::uint64_t first_bad = std::numeric_limits<std::uint64_t>::max();  // the kernel's ULLONG_MAX
  ForEachGridStrideThread(blocks, [&](std::uint64_t g, std::uint64_t stride) {
    const std::uint64_t j = ck::FirstNonFiniteOfThread(w.data(), w.size(), g, stride);
    if (j < w.size()) first_bad = std::min(first_bad, j);  // atomicMin
  });
  return first_bad;
}

TEST(CudaEmulator, NonFiniteScanFindsTheFirstBadIndexForAnyGrid) {
  const float bad[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                       -std::numeric_limits<float>::infinity()};
  for (std::size_t m : {std::size_t{1}, std::size_t{257}, std::size_t{5000}}) {
    // The host's grid, and small grids whose threads stride over many items each.
    for (std::uint64_t blocks : {std::uint64_t{ck::GridStrideBlocks(m)}, std::uint64_t{1}, std::uint64_t{3}}) {
      std::vector<float> w(m, 0.5f);
      EXPECT_EQ(EmulateFirstNonFinite(w, blocks), std::numeric_limits<std::uint64_t>::max()) << "none, m=" << m;
      for (std::size_t first : {std::size_t{0}, m / 2, m - 1}) {
        std::vector<float> v(m, -1.0f);
        v[first] = bad[first % 3];
        if (first + 1 < m) v[m - 1] = bad[(first + 1) % 3];  // a later one must not win
        if (first > 0) v[first - 1] = FLT_MAX;              // finite extremes are fine
        EXPECT_EQ(EmulateFirstNonFinite(v, blocks), first) << "m=" << m << " blocks=" << blocks;
      }
    }
  }
}

// ---- aggregation -----------------------------------------------------------------------------

TEST(CudaEmulator, AccumulateKernelMatchesCpuAggregationForAnyGrid) {
  std::mt19937_64 mt(11);
  for (std::size_t m : {std::size_t{1}, std::size_t{64}, std::size_t{65}, std::size_t{1000}, std::size_t{64 * 40 + 9}}) {
    const std::size_t n = 7, words = PackedWords(m);
    std::vector<std::uint64_t> device_bits(n * words);  // message i at words i·words … (device layout)
    for (auto& x : device_bits) x = mt();
    for (std::size_t i = 0; i < n; ++i)  // unused high bits of each last word are 0, as the encoders leave them
      if (m % 64 != 0) device_bits[i * words + words - 1] &= (std::uint64_t{1} << (m % 64)) - 1;
    std::vector<std::span<const std::uint64_t>> messages;
    for (std::size_t i = 0; i < n; ++i) messages.emplace_back(device_bits.data() + i * words, words);
    std::vector<std::uint32_t> start(m);
    for (auto& c : start) c = static_cast<std::uint32_t>(mt() % 1000);
    std::vector<std::uint32_t> cpu = start;
    AccumulateMessages(messages, cpu);
    for (std::uint64_t blocks : {std::uint64_t{ck::GridStrideBlocks(m)}, std::uint64_t{1}, std::uint64_t{2}}) {
      std::vector<std::uint32_t> emu = start;
      ForEachGridStrideThread(blocks, [&](std::uint64_t g, std::uint64_t stride) {
        ck::AccumulateThread(device_bits.data(), n, words, emu.data(), m, g, stride);
      });
      ASSERT_EQ(emu, cpu) << "m=" << m << " blocks=" << blocks;
    }
  }
}

// ---- benchmark fill --------------------------------------------------------------------------

TEST(CudaEmulator, BenchWeightFillWritesEveryIndex) {
  for (std::size_t m : {std::size_t{1}, std::size_t{300}, std::size_t{70000}}) {
    for (std::uint64_t blocks : {std::uint64_t{ck::GridStrideBlocks(m)}, std::uint64_t{1}}) {
      std::vector<float> w(m, std::numeric_limits<float>::quiet_NaN());
      ForEachGridStrideThread(blocks, [&](std::uint64_t g, std::uint64_t stride) {
        ck::FillBenchWeightsThread(w.data(), m, g, stride);
      });
      for (std::size_t j = 0; j < m; ++j)
        ASSERT_EQ(w[j], static_cast<float>(0.8 * std::sin(0.001 * static_cast<double>(j)))) << "j=" << j;
    }
  }
}

}  // namespace
}  // namespace dpfl::quant
