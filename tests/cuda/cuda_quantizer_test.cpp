// CUDA encoders vs the CPU path: bit-identical messages word for word, aggregation, bad inputs.
//
// Plain C++ (host compiler); the kernels live in dpfl_cuda. Tests that need a device start with
// a GTEST_SKIP with the reason when none is present, so this binary passes (skipped) on machines without a GPU.
// CudaHostValidation and CudaDeviceWork run everywhere: without a device they check that the API
// fails cleanly (InvalidArgument / CudaError, never a crash), with one that it works.
//
// Weights come from a fixed-seed std::mt19937_64 (test data, not DP randomness) plus a list of
// boundary values; the encoders' randomness is the counter-based streams under test.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/fl/quantized_gaussian.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/cuda_quantizer.hpp"
#include "testing/encoder_inputs.hpp"

namespace dpfl::quant {
namespace {

using dpfl::testing::Context;
using dpfl::testing::Latents;
using dpfl::testing::Name;
using dpfl::testing::TieLatents;
using dpfl::testing::Weights;

#define DPFL_REQUIRE_CUDA_DEVICE()                                                                              \
  do {                                                                                                          \
    if (!CudaAvailable())                                                                                       \
      GTEST_SKIP() << "no CUDA device: cudaGetDeviceCount reports none (or no driver), so the GPU kernels "    \
                      "cannot run here; bit-identity with the CPU path is checked on a GPU machine "           \
                      "(docs/cuda.md)";                                                                         \
  } while (0)

using dpfl::testing::kGenerators;
constexpr int kSharedBits[] = {0, 1, 4, 5, 7, 8, 9, 15, 16, 62};  // every head layout (binary_element.hpp)
constexpr PairRole kRoles[] = {PairRole::kQ1, PairRole::kQ2};
// Tails of every shape around the 32-parameter (thread) and 64-parameter (word) boundaries.
constexpr std::size_t kSizes[] = {1, 7, 31, 32, 33, 63, 64, 65, 95, 127, 129, 64 * 33 + 5, 100003};


struct LevelCase {
  double eps, c, r;
};
constexpr LevelCase kLevels[] = {{1.0, 0.0, 1.0}, {0.1, 0.25, 0.5}, {8.0, -3.0, 1e-3}};

// ---------------------------------------------------------------------------------------------
// Bit identity with the CPU path

TEST(CudaEncodeLdpq, MatchesCpuWordForWord) {
  DPFL_REQUIRE_CUDA_DEVICE();
  std::uint32_t seed = 1;
  for (const LevelCase& lc : kLevels) {
    const BinaryLevels k = MakeBinaryLevels(lc.eps, lc.c, lc.r);
    for (rng::Generator gen : kGenerators)
      for (std::size_t m : kSizes) {
        ++seed;
        const std::vector<float> w = Weights(m, k, seed);
        const StreamContext ctx = Context(gen, seed);
        const std::uint32_t client = seed * 2654435761u;
        std::vector<std::uint64_t> cpu(PackedWords(m), 0xdeadbeefu), gpu(PackedWords(m), 0x12345678u);
        EncodeLdpq(k, w, ctx, client, cpu);
        CudaEncodeLdpq(k, w, ctx, client, gpu);
        ASSERT_EQ(gpu, cpu) << Name(gen) << " m=" << m << " eps=" << lc.eps;
      }
  }
}

TEST(CudaEncodeCorBinQ, MatchesCpuWordForWordBothRolesAllD) {
  DPFL_REQUIRE_CUDA_DEVICE();
  std::uint32_t seed = 1000;
  for (const LevelCase& lc : kLevels) {
    const BinaryLevels k = MakeBinaryLevels(lc.eps, lc.c, lc.r);
    for (rng::Generator gen : kGenerators)
      for (std::size_t m : kSizes)
        for (int d : kSharedBits)
          for (PairRole role : kRoles) {
            ++seed;
            const std::vector<float> w = Weights(m, k, seed);
            const StreamContext ctx = Context(gen, seed);
            const std::uint32_t pair = seed % 97, client = 0xffffffffu - seed;
            std::vector<std::uint64_t> cpu(PackedWords(m)), gpu(PackedWords(m), ~std::uint64_t{0});
            EncodeCorBinQ(k, w, d, role, ctx, pair, client, cpu);
            CudaEncodeCorBinQ(k, w, d, role, ctx, pair, client, gpu);
            ASSERT_EQ(gpu, cpu) << Name(gen) << " m=" << m << " d=" << d
                                << " role=" << (role == PairRole::kQ1 ? "Q1" : "Q2") << " eps=" << lc.eps;
          }
  }
}

// The deployed form: the pair's key for Z, each client's own key for its coins (different keys
// and rounds).
TEST(CudaEncodeCorBinQ, TwoKeyFormMatchesCpuTwoKeyForm) {
  DPFL_REQUIRE_CUDA_DEVICE();
  const BinaryLevels k = MakeBinaryLevels(0.9, -0.2, 0.6);
  for (rng::Generator gen : kGenerators)
    for (std::size_t m : {std::size_t{65}, std::size_t{64 * 33 + 5}})
      for (int d : kSharedBits)
        for (PairRole role : kRoles) {
          const StreamContext shared = Context(gen, 501 + static_cast<std::uint32_t>(d)), own = Context(gen, 777);
          const std::vector<float> w = Weights(m, k, 40 + m);
          std::vector<std::uint64_t> cpu(PackedWords(m)), gpu(PackedWords(m), 1);
          EncodeCorBinQ(k, w, d, role, shared, own, 3, 12, cpu);
          CudaEncodeCorBinQ(k, w, d, role, shared, own, 3, 12, gpu);
          ASSERT_EQ(gpu, cpu) << Name(gen) << " m=" << m << " d=" << d;
        }
}

// Inputs built so that nearly every decision's heads tie with T >> 48 (the rare path
// that fetches the tails on the GPU): still word-for-word equal to the CPU.
TEST(CudaEncodeCorBinQ, HeadTiesMatchCpu) {
  DPFL_REQUIRE_CUDA_DEVICE();
  const BinaryLevels k = MakeBinaryLevels(8.0, 0.0, 1.0);
  const std::size_t m = 64 * 9 + 17;
  for (rng::Generator gen : kGenerators)
    for (int d : {0, 5, 7, 8, 12, 16, 31}) {
      const StreamContext ctx = Context(gen, 9000 + static_cast<std::uint32_t>(d));
      const std::vector<float> w = dpfl::testing::TieWeights(m, k, ctx, 2, 7, d);
      std::vector<std::uint64_t> cpu(PackedWords(m)), gpu(PackedWords(m));
      EncodeCorBinQ(k, w, d, PairRole::kQ1, ctx, 2, 7, cpu);
      CudaEncodeCorBinQ(k, w, d, PairRole::kQ1, ctx, 2, 7, gpu);
      ASSERT_EQ(gpu, cpu) << Name(gen) << " d=" << d;
    }
}

TEST(CudaEncodeCorBinQ, PairOfClientsMatchesCpuPairEncoder) {
  DPFL_REQUIRE_CUDA_DEVICE();
  const BinaryLevels k = MakeBinaryLevels(0.7, 0.1, 0.9);
  const std::size_t m = 64 * 20 + 3;
  for (rng::Generator gen : kGenerators) {
    const StreamContext ctx = Context(gen, 77);
    const std::vector<float> w1 = Weights(m, k, 5), w2 = Weights(m, k, 6);
    std::vector<std::uint64_t> cpu1(PackedWords(m)), cpu2(PackedWords(m)), gpu1(PackedWords(m)), gpu2(PackedWords(m));
    EncodeCorBinQPair(k, w1, w2, 5, ctx, 4, 8, 9, cpu1, cpu2);
    CudaEncodeCorBinQ(k, w1, 5, PairRole::kQ1, ctx, 4, 8, gpu1);
    CudaEncodeCorBinQ(k, w2, 5, PairRole::kQ2, ctx, 4, 9, gpu2);
    EXPECT_EQ(gpu1, cpu1) << Name(gen);
    EXPECT_EQ(gpu2, cpu2) << Name(gen);
  }
}

TEST(CudaEncode, LeavesWordsBeyondTheMessageUntouched) {
  DPFL_REQUIRE_CUDA_DEVICE();
  const BinaryLevels k = MakeBinaryLevels(1.0, 0.0, 1.0);
  const std::vector<float> w = Weights(70, k, 3);
  std::vector<std::uint64_t> bits(5, 0xabcdefu);
  CudaEncodeLdpq(k, w, Context(rng::Generator::kChaCha20, 3), 1, bits);
  EXPECT_EQ(bits[2], 0xabcdefu);
  EXPECT_EQ(bits[4], 0xabcdefu);
  EXPECT_EQ(bits[1] >> 6, 0u);  // padding bits of the last message word are 0
  const std::vector<std::uint64_t> before = bits;
  CudaEncodeLdpq(k, std::span<const float>{}, Context(rng::Generator::kChaCha20, 3), 1, bits);  // m = 0: no-op
  EXPECT_EQ(bits, before);
}

TEST(CudaEncode, DeviceBufferOverloadsMatchHostOverloads) {
  DPFL_REQUIRE_CUDA_DEVICE();
  const BinaryLevels k = MakeBinaryLevels(0.5, -0.2, 0.3);
  const std::size_t m = 64 * 50 + 31, words = PackedWords(m);
  const std::vector<float> w = Weights(m, k, 11);
  float* w_dev = nullptr;
  std::uint64_t* bits_dev = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&w_dev), m * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&bits_dev), words * sizeof(std::uint64_t)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(w_dev, w.data(), m * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
  for (rng::Generator gen : kGenerators) {
    const StreamContext ctx = Context(gen, 12);
    std::vector<std::uint64_t> cpu(words), gpu(words);
    EncodeLdpq(k, w, ctx, 3, cpu);
    CudaEncodeLdpq(k, w_dev, m, ctx, 3, bits_dev);
    ASSERT_EQ(cudaMemcpy(gpu.data(), bits_dev, words * sizeof(std::uint64_t), cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(gpu, cpu) << "LDPQ " << Name(gen);
    for (PairRole role : kRoles) {
      EncodeCorBinQ(k, w, 62, role, ctx, 2, 3, cpu);
      CudaEncodeCorBinQ(k, w_dev, m, 62, role, ctx, 2, 3, bits_dev);
      ASSERT_EQ(cudaMemcpy(gpu.data(), bits_dev, words * sizeof(std::uint64_t), cudaMemcpyDeviceToHost), cudaSuccess);
      EXPECT_EQ(gpu, cpu) << "CorBinQ " << Name(gen);
    }
  }
  cudaFree(w_dev);
  cudaFree(bits_dev);
}

// ---------------------------------------------------------------------------------------------
// Aggregation

TEST(CudaAccumulateBits, MatchesCpuAccumulateOverClients) {
  DPFL_REQUIRE_CUDA_DEVICE();
  const BinaryLevels k = MakeBinaryLevels(1.0, 0.0, 1.0);
  for (std::size_t m : {std::size_t{1}, std::size_t{64}, std::size_t{65}, std::size_t{10007}}) {
    const std::size_t words = PackedWords(m), n = 7;
    std::vector<std::uint64_t> all(n * words);
    for (std::size_t i = 0; i < n; ++i)
      EncodeLdpq(k, Weights(m, k, 40 + i), Context(rng::Generator::kPhilox4x32, 9), static_cast<std::uint32_t>(i),
                 std::span<std::uint64_t>(all).subspan(i * words, words));
    std::vector<std::uint32_t> cpu(m), gpu(m);
    for (std::size_t j = 0; j < m; ++j) cpu[j] = gpu[j] = static_cast<std::uint32_t>(j * 3);  // accumulates (+=)
    for (std::size_t i = 0; i < n; ++i)
      AccumulateBits(std::span<const std::uint64_t>(all).subspan(i * words, words), cpu);
    CudaAccumulateBits(all, n, gpu);
    EXPECT_EQ(gpu, cpu) << "m=" << m;
  }
}

TEST(CudaAccumulateBits, DeviceBufferOverloadMatchesCpu) {
  DPFL_REQUIRE_CUDA_DEVICE();
  const std::size_t m = 300, words = PackedWords(m), n = 3;
  std::vector<std::uint64_t> all(n * words);
  std::mt19937_64 mt(5);
  for (std::uint64_t& x : all) x = mt();
  for (std::size_t i = 0; i < n; ++i) all[i * words + words - 1] &= (std::uint64_t{1} << (m % 64)) - 1;
  std::vector<std::uint32_t> cpu(m, 0), gpu(m, 0);
  for (std::size_t i = 0; i < n; ++i) AccumulateBits(std::span<const std::uint64_t>(all).subspan(i * words, words), cpu);
  std::uint64_t* bits_dev = nullptr;
  std::uint32_t* counts_dev = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&bits_dev), all.size() * sizeof(std::uint64_t)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&counts_dev), m * sizeof(std::uint32_t)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(bits_dev, all.data(), all.size() * sizeof(std::uint64_t), cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemset(counts_dev, 0, m * sizeof(std::uint32_t)), cudaSuccess);
  CudaAccumulateBits(bits_dev, n, counts_dev, m);
  ASSERT_EQ(cudaMemcpy(gpu.data(), counts_dev, m * sizeof(std::uint32_t), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(gpu, cpu);
  cudaFree(bits_dev);
  cudaFree(counts_dev);
}

// ---------------------------------------------------------------------------------------------
// Bad inputs (one TEST per kind)

TEST(CudaEncodeLdpq, RejectsNonFiniteWeightsNamingTheIndex) {
  DPFL_REQUIRE_CUDA_DEVICE();
  const BinaryLevels k = MakeBinaryLevels(1.0, 0.0, 1.0);
  std::vector<std::uint64_t> bits(2);
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                    -std::numeric_limits<float>::infinity()}) {
    std::vector<float> w(100, 0.5f);
    w[70] = bad;
    w[90] = bad;
    try {
      CudaEncodeLdpq(k, w, Context(rng::Generator::kChaCha20, 1), 0, bits);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("w[70]"), std::string::npos) << e.what();
    }
  }
}

TEST(CudaEncode, DeviceOverloadRejectsNonFiniteWeightsBeforeLaunch) {
  DPFL_REQUIRE_CUDA_DEVICE();
  const BinaryLevels k = MakeBinaryLevels(1.0, 0.0, 1.0);
  const std::size_t m = 5000;
  std::vector<float> w(m, 0.25f);
  w[4097] = std::numeric_limits<float>::quiet_NaN();
  w[4999] = std::numeric_limits<float>::infinity();
  float* w_dev = nullptr;
  std::uint64_t* bits_dev = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&w_dev), m * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&bits_dev), PackedWords(m) * sizeof(std::uint64_t)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(w_dev, w.data(), m * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemset(bits_dev, 0x77, PackedWords(m) * sizeof(std::uint64_t)), cudaSuccess);
  for (rng::Generator gen : kGenerators) {
    try {
      CudaEncodeCorBinQ(k, w_dev, m, 3, PairRole::kQ2, Context(gen, 2), 0, 1, bits_dev);
      ADD_FAILURE() << "accepted NaN";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("w[4097]"), std::string::npos) << e.what();
    }
    EXPECT_THROW(CudaEncodeLdpq(k, w_dev, m, Context(gen, 2), 1, bits_dev), InvalidArgument);
  }
  std::vector<std::uint64_t> bits(PackedWords(m));
  ASSERT_EQ(cudaMemcpy(bits.data(), bits_dev, bits.size() * sizeof(std::uint64_t), cudaMemcpyDeviceToHost), cudaSuccess);
  for (std::uint64_t x : bits) ASSERT_EQ(x, 0x7777777777777777u) << "output written despite invalid input";
  cudaFree(w_dev);
  cudaFree(bits_dev);
}

TEST(CudaEncode, DeviceOverloadRejectsNullAndPageableHostPointers) {
  DPFL_REQUIRE_CUDA_DEVICE();
  const BinaryLevels k = MakeBinaryLevels(1.0, 0.0, 1.0);
  std::vector<float> w(10, 0.0f);
  std::vector<std::uint64_t> bits(1);
  const StreamContext ctx = Context(rng::Generator::kChaCha20, 1);
  EXPECT_THROW(CudaEncodeLdpq(k, static_cast<const float*>(nullptr), 10, ctx, 0, bits.data()), InvalidArgument);
  EXPECT_THROW(CudaEncodeLdpq(k, w.data(), 10, ctx, 0, bits.data()), InvalidArgument);  // host memory
  EXPECT_THROW(CudaAccumulateBits(static_cast<const std::uint64_t*>(nullptr), 1, static_cast<std::uint32_t*>(nullptr), 10),
               InvalidArgument);
}

TEST(CudaEncodeLdpq, RejectsShortOutput) {
  DPFL_REQUIRE_CUDA_DEVICE();
  const BinaryLevels k = MakeBinaryLevels(1.0, 0.0, 1.0);
  std::vector<float> w(65, 0.0f);
  std::vector<std::uint64_t> bits(1);
  EXPECT_THROW(CudaEncodeLdpq(k, w, Context(rng::Generator::kChaCha20, 1), 0, bits), InvalidArgument);
  EXPECT_THROW(CudaEncodeCorBinQ(k, w, 3, PairRole::kQ1, Context(rng::Generator::kChaCha20, 1), 0, 0, bits),
               InvalidArgument);
}

TEST(CudaEncodeCorBinQ, RejectsSharedBitsOutOfRange) {
  DPFL_REQUIRE_CUDA_DEVICE();
  const BinaryLevels k = MakeBinaryLevels(1.0, 0.0, 1.0);
  std::vector<float> w(10, 0.0f);
  std::vector<std::uint64_t> bits(1);
  for (int d : {-1, 63, 64, 1000}) {
    EXPECT_THROW(CudaEncodeCorBinQ(k, w, d, PairRole::kQ1, Context(rng::Generator::kChaCha20, 1), 0, 0, bits),
                 InvalidArgument)
        << d;
    EXPECT_THROW(CudaEncodeCorBinQ(k, static_cast<const float*>(nullptr), 10, d, PairRole::kQ2,
                                   Context(rng::Generator::kPhilox4x32, 1), 0, 0, static_cast<std::uint64_t*>(nullptr)),
                 InvalidArgument)
        << d;
  }
}

TEST(CudaEncodeLdpq, RejectsChaChaIndexRangeOverflow) {
  DPFL_REQUIRE_CUDA_DEVICE();
  const BinaryLevels k = MakeBinaryLevels(1.0, 0.0, 1.0);
  // Checked on the host before the pointers are touched: m > 2^35 with ChaCha20.
  EXPECT_THROW(CudaEncodeLdpq(k, static_cast<const float*>(nullptr), (std::size_t{1} << 35) + 1,
                              Context(rng::Generator::kChaCha20, 1), 0, static_cast<std::uint64_t*>(nullptr)),
               InvalidArgument);
}

TEST(CudaAccumulateBits, RejectsSizeMismatch) {
  DPFL_REQUIRE_CUDA_DEVICE();
  std::vector<std::uint64_t> bits(5);
  std::vector<std::uint32_t> counts(130);  // 3 words per message
  EXPECT_THROW(CudaAccumulateBits(bits, 2, counts), InvalidArgument);
  EXPECT_THROW(CudaAccumulateBits(bits, 1, counts), InvalidArgument);
  std::vector<std::uint64_t> six(6);
  EXPECT_NO_THROW(CudaAccumulateBits(six, 2, counts));
}

TEST(CudaCopyBandwidth, IsPositiveAndRejectsZeroBytes) {
  DPFL_REQUIRE_CUDA_DEVICE();
  const double gbs = CudaCopyBandwidth(std::size_t{64} << 20);
  EXPECT_GT(gbs, 0.0);
  EXPECT_TRUE(std::isfinite(gbs));
  EXPECT_THROW(CudaCopyBandwidth(0), InvalidArgument);
}

// ---------------------------------------------------------------------------------------------
// Host validation needs no device: bad input is rejected before any CUDA call. Without a device,
// device work is reported as dpfl::CudaError — never a crash; with one, the same calls succeed.

TEST(CudaHostValidation, RejectsBadInputWithOrWithoutDevice) {
  const BinaryLevels k = MakeBinaryLevels(1.0, 0.0, 1.0);
  std::vector<float> w(10, 0.0f);
  w[3] = std::numeric_limits<float>::quiet_NaN();
  std::vector<std::uint64_t> bits(1);
  EXPECT_THROW(CudaEncodeLdpq(k, w, Context(rng::Generator::kChaCha20, 1), 0, bits), InvalidArgument);
  std::vector<float> ok(10, 0.0f);
  EXPECT_THROW(CudaEncodeCorBinQ(k, ok, 63, PairRole::kQ1, Context(rng::Generator::kChaCha20, 1), 0, 0, bits),
               InvalidArgument);
  EXPECT_THROW(CudaEncodeCorBinQ(k, ok, 5, PairRole::kQ1, Context(rng::Generator::kChaCha20, 1),
                                 Context(rng::Generator::kPhilox4x32, 2), 0, 0, bits),
               InvalidArgument);
}

TEST(CudaDeviceWork, FailsCleanlyWithoutDeviceAndRunsWithOne) {
  const BinaryLevels k = MakeBinaryLevels(1.0, 0.0, 1.0);
  std::vector<float> w(10, 0.0f);
  std::vector<std::uint64_t> bits(1);
  if (CudaAvailable()) {
    EXPECT_NO_THROW(CudaEncodeLdpq(k, w, Context(rng::Generator::kChaCha20, 1), 0, bits));
    EXPECT_GT(CudaCopyBandwidth(1024), 0.0);
    return;
  }
  EXPECT_THROW(CudaEncodeLdpq(k, w, Context(rng::Generator::kChaCha20, 1), 0, bits), CudaError);
  EXPECT_THROW(CudaCopyBandwidth(1024), CudaError);
  try {
    CudaCopyBandwidth(1024);
  } catch (const CudaError& e) {
    EXPECT_NE(std::string(e.what()).find("binary_quantizer.cu:"), std::string::npos) << e.what();
    EXPECT_GT(e.line(), 0);
    EXPECT_NE(e.code(), 0);
  }
}

// ---------------------------------------------------------------------------------------------
// DPFL-BNN kernels (seed 004 Alg. B StoSign, Alg. C randomized response): CudaEncodeStoSign and
// CudaApplyRandomizedResponse against the CPU's EncodeStoSign / ApplyRandomizedResponse.

// Sizes around the thread (32), word (64), warp (1024) and block (8192 coordinates) boundaries.
constexpr std::size_t kBnnSizes[] = {1, 31, 32, 33, 63, 64, 65, 1023, 1024, 1025, 8191, 8192, 8193, 64 * 300 + 37};
constexpr std::uint64_t kBnnSentinel = 0xa5a5a5a5a5a5a5a5u;

// A γ whose T_flip >> 48 equals the RR head of some coordinate (the first head ≤ 2^15).
double BnnTieGamma(const StreamContext& ctx, std::uint32_t client) {
  const rng::StreamAddress addr{ctx.round, client, rng::Purpose::kRandomizedResponse};
  for (std::uint64_t j = 0;; ++j) {
    const std::uint32_t head = rng::DecisionHead(ctx.generator, ctx.key, addr, j, kBnnHeadBits);
    if (head <= 32768u) return head == 32768u ? 0.0 : 0.5 - (static_cast<double>(head) + 0.5) / 65536.0;
  }
}

// Random message bits, the unused high bits of the last word set (RR must clear them), then two
// sentinel words that no call may touch.
std::vector<std::uint64_t> BnnMessage(std::size_t m, std::uint64_t seed) {
  std::mt19937_64 mt(seed);
  std::vector<std::uint64_t> bits(PackedWords(m) + 2, kBnnSentinel);
  for (std::size_t i = 0; i < PackedWords(m); ++i) bits[i] = mt() | (std::uint64_t{1} << 63);
  return bits;
}

TEST(CudaEncodeStoSign, MatchesCpuWordForWord) {
  DPFL_REQUIRE_CUDA_DEVICE();
  for (rng::Generator gen : kGenerators)
    for (std::size_t m : kBnnSizes) {
      const StreamContext ctx = Context(gen, 5000 + static_cast<std::uint32_t>(m));
      const std::uint32_t client = static_cast<std::uint32_t>(m * 2654435761u);
      for (const std::vector<float>& theta : {Latents(m, m), TieLatents(m, ctx, client)}) {
        std::vector<std::uint64_t> cpu(PackedWords(m) + 2, kBnnSentinel), gpu(PackedWords(m) + 2, kBnnSentinel);
        EncodeStoSign(theta, ctx, client, cpu);
        CudaEncodeStoSign(theta, ctx, client, gpu);
        ASSERT_EQ(gpu, cpu) << Name(gen) << " m=" << m;  // sentinel words included: untouched
      }
    }
}

TEST(CudaApplyRandomizedResponse, MatchesCpuWordForWord) {
  DPFL_REQUIRE_CUDA_DEVICE();
  for (rng::Generator gen : kGenerators)
    for (std::size_t m : kBnnSizes) {
      const StreamContext ctx = Context(gen, 6000 + static_cast<std::uint32_t>(m));
      const std::uint32_t client = static_cast<std::uint32_t>(m % 11);
      for (double gamma : {0.0, 0.1, 0.45, 0.5, BnnTieGamma(ctx, client)}) {
        const RandomizedResponse rr = MakeRandomizedResponse(gamma);
        std::vector<std::uint64_t> cpu = BnnMessage(m, m), gpu = cpu;
        ApplyRandomizedResponse(rr, m, ctx, client, cpu);
        CudaApplyRandomizedResponse(rr, m, ctx, client, gpu);
        ASSERT_EQ(gpu, cpu) << Name(gen) << " m=" << m << " gamma=" << gamma;
      }
    }
}

// StoSign then RR in place on device buffers, as a client's upload is built.
TEST(CudaBnn, DeviceBufferOverloadsMatchCpu) {
  DPFL_REQUIRE_CUDA_DEVICE();
  const std::size_t m = 64 * 50 + 31, words = PackedWords(m);
  const std::vector<float> theta = Latents(m, 21);
  float* theta_dev = nullptr;
  std::uint64_t* bits_dev = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&theta_dev), m * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&bits_dev), words * sizeof(std::uint64_t)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(theta_dev, theta.data(), m * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
  for (rng::Generator gen : kGenerators) {
    const StreamContext ctx = Context(gen, 22);
    const RandomizedResponse rr = MakeRandomizedResponse(0.2);
    std::vector<std::uint64_t> cpu(words), gpu(words);
    EncodeStoSign(theta, ctx, 4, cpu);
    CudaEncodeStoSign(theta_dev, m, ctx, 4, bits_dev);
    ASSERT_EQ(cudaMemcpy(gpu.data(), bits_dev, words * sizeof(std::uint64_t), cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(gpu, cpu) << "StoSign " << Name(gen);
    ApplyRandomizedResponse(rr, m, ctx, 4, cpu);
    CudaApplyRandomizedResponse(rr, m, ctx, 4, bits_dev);
    ASSERT_EQ(cudaMemcpy(gpu.data(), bits_dev, words * sizeof(std::uint64_t), cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(gpu, cpu) << "RR " << Name(gen);
  }
  cudaFree(theta_dev);
  cudaFree(bits_dev);
}

TEST(CudaEncodeStoSign, RejectsNonFiniteLatentsNamingTheIndexOnBothOverloads) {
  DPFL_REQUIRE_CUDA_DEVICE();
  const std::size_t m = 5000;
  float* theta_dev = nullptr;
  std::uint64_t* bits_dev = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&theta_dev), m * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&bits_dev), PackedWords(m) * sizeof(std::uint64_t)), cudaSuccess);
  ASSERT_EQ(cudaMemset(bits_dev, 0x77, PackedWords(m) * sizeof(std::uint64_t)), cudaSuccess);
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                    -std::numeric_limits<float>::infinity()}) {
    std::vector<float> theta = Latents(m, 3);
    theta[4097] = bad;
    theta[4999] = std::numeric_limits<float>::quiet_NaN();  // a later one must not win
    ASSERT_EQ(cudaMemcpy(theta_dev, theta.data(), m * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
    for (rng::Generator gen : kGenerators) {
      std::vector<std::uint64_t> bits(PackedWords(m), 0x1234u);
      for (int overload = 0; overload < 2; ++overload) {
        try {
          if (overload == 0)
            CudaEncodeStoSign(theta, Context(gen, 2), 1, bits);
          else
            CudaEncodeStoSign(theta_dev, m, Context(gen, 2), 1, bits_dev);
          ADD_FAILURE() << "accepted " << bad;
        } catch (const InvalidArgument& e) {
          EXPECT_EQ(e.argument(), "theta");
          EXPECT_NE(std::string(e.what()).find("theta[4097]"), std::string::npos) << e.what();
        }
      }
      for (std::uint64_t x : bits) ASSERT_EQ(x, 0x1234u) << "host output written despite invalid input";
    }
  }
  std::vector<std::uint64_t> after(PackedWords(m));
  ASSERT_EQ(cudaMemcpy(after.data(), bits_dev, after.size() * sizeof(std::uint64_t), cudaMemcpyDeviceToHost),
            cudaSuccess);
  for (std::uint64_t x : after) ASSERT_EQ(x, 0x7777777777777777u) << "device output written despite invalid input";
  cudaFree(theta_dev);
  cudaFree(bits_dev);
}

TEST(CudaBnn, DeviceOverloadsRejectPageableHostPointers) {
  DPFL_REQUIRE_CUDA_DEVICE();
  std::vector<float> theta(10, 0.0f);
  std::vector<std::uint64_t> bits(1);
  const StreamContext ctx = Context(rng::Generator::kChaCha20, 1);
  EXPECT_THROW(CudaEncodeStoSign(theta.data(), 10, ctx, 0, bits.data()), InvalidArgument);
  EXPECT_THROW(CudaApplyRandomizedResponse(MakeRandomizedResponse(0.1), 10, ctx, 0, bits.data()), InvalidArgument);
}

// Host-side checks need no device: they throw InvalidArgument before any CUDA call (and leave
// the output alone), with or without a GPU.
TEST(CudaBnnHostValidation, RejectsBadInputWithOrWithoutDevice) {
  const StreamContext ctx = Context(rng::Generator::kChaCha20, 1);
  std::vector<float> theta(100, 0.25f);
  theta[70] = std::numeric_limits<float>::infinity();
  std::vector<std::uint64_t> bits(2, 0x99u);
  try {
    CudaEncodeStoSign(theta, ctx, 0, bits);
    ADD_FAILURE() << "accepted +Inf";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.argument(), "theta");
    EXPECT_NE(std::string(e.what()).find("theta[70]"), std::string::npos) << e.what();
  }
  EXPECT_EQ(bits, (std::vector<std::uint64_t>{0x99u, 0x99u}));
  // Output too short.
  std::vector<float> ok(65, 0.0f);
  std::vector<std::uint64_t> one(1);
  EXPECT_THROW(CudaEncodeStoSign(ok, ctx, 0, one), InvalidArgument);
  EXPECT_THROW(CudaApplyRandomizedResponse(MakeRandomizedResponse(0.1), 65, ctx, 0, one), InvalidArgument);
  // An RR parameter not made by MakeRandomizedResponse: threshold and γ disagree, or γ outside [0, 1/2].
  for (RandomizedResponse forged : {RandomizedResponse{0.1, 0}, RandomizedResponse{0.75, 0},
                                    RandomizedResponse{-0.1, std::uint64_t{1} << 63},
                                    RandomizedResponse{std::numeric_limits<double>::quiet_NaN(), 0}}) {
    if (forged.gamma == 0.75) forged.flip_threshold = RrFlipThreshold(0.75);  // matches, but γ > 1/2
    try {
      CudaApplyRandomizedResponse(forged, 10, ctx, 0, bits);
      ADD_FAILURE() << "accepted gamma " << forged.gamma;
    } catch (const InvalidArgument& e) {
      EXPECT_EQ(e.argument(), "rr");
    }
    EXPECT_THROW(CudaApplyRandomizedResponse(forged, 10, ctx, 0, static_cast<std::uint64_t*>(nullptr)),
                 InvalidArgument);
  }
  // Device overloads: m > 2^35 with ChaCha20 and null pointers, checked before any pointer is used.
  EXPECT_THROW(CudaEncodeStoSign(static_cast<const float*>(nullptr), (std::size_t{1} << 35) + 1, ctx, 0,
                                 static_cast<std::uint64_t*>(nullptr)),
               InvalidArgument);
  EXPECT_THROW(CudaApplyRandomizedResponse(MakeRandomizedResponse(0.1), (std::size_t{1} << 35) + 1, ctx, 0,
                                           static_cast<std::uint64_t*>(nullptr)),
               InvalidArgument);
  try {
    CudaEncodeStoSign(static_cast<const float*>(nullptr), 10, ctx, 0, static_cast<std::uint64_t*>(nullptr));
    ADD_FAILURE() << "accepted a null theta";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.argument(), "theta");
  }
  std::uint64_t* const null_bits = nullptr;
  EXPECT_THROW(CudaApplyRandomizedResponse(MakeRandomizedResponse(0.1), 10, ctx, 0, null_bits), InvalidArgument);
  // m = 0 is a no-op on both overloads (no pointer is needed).
  EXPECT_NO_THROW(CudaEncodeStoSign(static_cast<const float*>(nullptr), 0, ctx, 0, null_bits));
  EXPECT_NO_THROW(CudaApplyRandomizedResponse(MakeRandomizedResponse(0.1), 0, ctx, 0, null_bits));
  std::vector<std::uint64_t> untouched(1, 0x42u);
  EXPECT_NO_THROW(CudaEncodeStoSign(std::span<const float>{}, ctx, 0, untouched));
  EXPECT_NO_THROW(CudaApplyRandomizedResponse(MakeRandomizedResponse(0.1), 0, ctx, 0, untouched));
  EXPECT_EQ(untouched[0], 0x42u);
}

// Without a device, valid calls report dpfl::CudaError (file, line, CUDA code) rather than
// crashing; with one, they succeed and equal the CPU.
TEST(CudaBnnDeviceWork, FailsCleanlyWithoutDeviceAndRunsWithOne) {
  const StreamContext ctx = Context(rng::Generator::kPhilox4x32, 8);
  const std::vector<float> theta = Latents(100, 8);
  const RandomizedResponse rr = MakeRandomizedResponse(0.3);
  std::vector<std::uint64_t> gpu(2), cpu(2);
  if (CudaAvailable()) {
    CudaEncodeStoSign(theta, ctx, 1, gpu);
    CudaApplyRandomizedResponse(rr, 100, ctx, 1, gpu);
    EncodeStoSign(theta, ctx, 1, cpu);
    ApplyRandomizedResponse(rr, 100, ctx, 1, cpu);
    EXPECT_EQ(gpu, cpu);
    return;
  }
  EXPECT_THROW(CudaApplyRandomizedResponse(rr, 100, ctx, 1, gpu), CudaError);
  try {
    CudaEncodeStoSign(theta, ctx, 1, gpu);
    ADD_FAILURE() << "device work succeeded without a device";
  } catch (const CudaError& e) {
    EXPECT_NE(std::string(e.what()).find("randomized_response.cu:"), std::string::npos) << e.what();
    EXPECT_GT(e.line(), 0);
    EXPECT_NE(e.code(), 0);
  }
}

// ---------------------------------------------------------------------------------------------
// Quantized Gaussian (seed 003): the rounding+packing kernel on the CPU's noisy positions equals
// the CPU's message; argument checks run before any device work.

TEST(CudaQgaussRoundPack, MatchesCpuMessage) {
  DPFL_REQUIRE_CUDA_DEVICE();
  for (const rng::Generator gen : kGenerators) {
    StreamContext ctx = Context(gen, 21);
    ctx.round = 2;
    for (const std::uint32_t k : {2u, 3u, 16u, 300u, 65536u}) {
      const fl::QgaussGrid grid = fl::MakeQgaussGrid({0.05, k, 1.0});
      for (const std::size_t m : kSizes) {
        std::vector<float> update(m);
        for (std::size_t j = 0; j < m; ++j) update[j] = static_cast<float>(std::sin(0.7 * static_cast<double>(j)));
        const std::vector<std::int64_t> q = fl::QgaussClipToGrid(grid, update);
        std::vector<std::int64_t> position = fl::QgaussNoisy(grid, q, ctx, 4, 1);
        for (std::int64_t& v : position) v += grid.span / 2;
        std::vector<std::uint64_t> gpu(fl::QgaussMessageWords(grid, m));
        CudaQgaussRoundPack(position, grid.span, grid.step_bits, grid.levels, grid.index_bits, ctx, 4, gpu);
        ASSERT_EQ(gpu, fl::QgaussEncodeScalar(grid, q, ctx, 4, 1).words) << Name(gen) << " k=" << k << " m=" << m;
      }
    }
  }
}

TEST(CudaQgaussRoundPack, RejectsInconsistentGridsBeforeDeviceWork) {
  const StreamContext ctx = Context(rng::Generator::kChaCha20, 1);
  const fl::QgaussGrid grid = fl::MakeQgaussGrid({0.05, 16, 1.0});
  const std::vector<std::int64_t> position(100, grid.span / 2);
  std::vector<std::uint64_t> words(fl::QgaussMessageWords(grid, 100)), short_words(words.size() - 1);
  EXPECT_THROW(CudaQgaussRoundPack(position, grid.span + 1, grid.step_bits, 16, grid.index_bits, ctx, 0, words), InvalidArgument);
  EXPECT_THROW(CudaQgaussRoundPack(position, grid.span, grid.step_bits, 16, 3, ctx, 0, words), InvalidArgument);
  EXPECT_THROW(CudaQgaussRoundPack(position, grid.span, grid.step_bits, 1, grid.index_bits, ctx, 0, words), InvalidArgument);
  EXPECT_THROW(CudaQgaussRoundPack(position, grid.span, grid.step_bits, 16, grid.index_bits, ctx, 0, short_words),
               InvalidArgument);
}

}  // namespace
}  // namespace dpfl::quant
