// The DPFL-BNN CUDA kernels (StoSign, seed 004 Alg. B; randomized response, Alg. C) without a GPU:
// the grid emulator of cuda_emulator_test.cpp applied to production/cuda/rr_kernel_bodies.hpp. It
// runs the kernels' per-thread bodies over every (block, thread) of the launch the host code makes
// (MakeStoSignLaunch / MakeRandomizedResponseLaunch: the geometry randomized_response.cu uses),
// emulates the xor-1 warp shuffle, checks that every message word is written exactly once (RR: read
// and written by one thread) and nothing after the message, and compares the result bit for bit
// with the CPU's public EncodeStoSign / ApplyRandomizedResponse. Compiled by the host compiler, so
// it runs in every CI configuration; what it cannot show is listed in docs/cuda.md.
//
// Latents and input bits come from a fixed-seed std::mt19937_64 (test data, not DP randomness)
// plus boundary values; the encoders' randomness is the counter-based streams under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/randomized_response.hpp"
#include "dpfl/quant/rr_element.hpp"
#include "rr_kernel_bodies.hpp"
#include "testing/encoder_inputs.hpp"

namespace dpfl::quant {
namespace {

namespace ck = cuda_kernels;
using dpfl::testing::BoundaryLatents;
using dpfl::testing::Context;
using dpfl::testing::Latents;
using dpfl::testing::Name;
using dpfl::testing::TieLatents;

using dpfl::testing::kGenerators;
// Tails around the 32-coordinate (thread), 64-coordinate (word), warp (32 threads = 1024
// coordinates) and block (256 threads = 8192 coordinates) boundaries.
constexpr std::size_t kSizes[] = {1, 31, 32, 33, 63, 64, 65, 1023, 1024, 1025, 8191, 8192, 8193, 64 * 300 + 37};
constexpr std::uint64_t kSentinel = 0xa5a5a5a5a5a5a5a5u;  // memory before the launch; also words after the message
constexpr std::size_t kExtraWords = 2;                    // words after the message that must stay untouched

// ---- inputs ----------------------------------------------------------------------------------

// Latents (random and boundary θ) and TieLatents (every head ties): testing/encoder_inputs.hpp.

// A message of m coordinates in PackedWords(m) words of random bits, the unused high bits of the
// last word set too (RR must clear them), followed by kExtraWords sentinel words.
std::vector<std::uint64_t> RandomMessage(std::size_t m, std::uint64_t seed) {
  std::mt19937_64 mt(seed);
  std::vector<std::uint64_t> bits(PackedWords(m) + kExtraWords, kSentinel);
  for (std::size_t i = 0; i < PackedWords(m); ++i) bits[i] = mt() | (std::uint64_t{1} << 63);
  return bits;
}

// ---- the emulator ----------------------------------------------------------------------------

// One launch <<<launch.blocks, kBlockThreads>>>: every thread's body, then the xor-1 shuffle inside
// each warp (lane L receives lane L ^ 1's value; kBlockThreads is a multiple of 32, so L ^ 1 is in
// the same warp) and the step of the lanes that write, store(word index, joined 64 bits), for an
// m-coordinate message.
template <class Body, class Store>
void EmulateLaunch(std::uint64_t blocks, std::uint64_t m, Body body, Store store) {
  std::vector<std::uint64_t> lane_word(ck::kBlockThreads);
  for (std::uint64_t block = 0; block < blocks; ++block) {
    for (unsigned t = 0; t < ck::kBlockThreads; ++t)
      lane_word[t] = ck::HalfInWord(body(block * ck::kBlockThreads + t), t);
    for (unsigned t = 0; t < ck::kBlockThreads; ++t) {
      const std::uint64_t g = block * ck::kBlockThreads + t;
      const std::uint64_t joined = lane_word[t] | lane_word[t ^ 1u];  // __shfl_xor_sync(…, 1)
      if (ck::WritesWord(t, g, m)) store(ck::WordOfThread(g), joined);
    }
  }
}

// The store step of StoSignKernel: bits[q] = word. `accesses` counts the writes per word.
struct StoSignStore {
  std::vector<std::uint64_t>* bits;
  std::vector<int>* accesses;
  void operator()(std::uint64_t q, std::uint64_t word) const {
    ASSERT_LT(q, bits->size()) << "a thread writes past the output";
    (*bits)[q] = word;
    ++(*accesses)[q];
  }
};

// The store step of RandomizedResponseKernel: bits[q] = RrOutputWord(bits[q], flips, m, q), the
// only read and the only write of word q. `accesses` counts them (one per read-modify-write).
struct RrStore {
  std::uint64_t m;
  std::vector<std::uint64_t>* bits;
  std::vector<int>* accesses;
  void operator()(std::uint64_t q, std::uint64_t flips) const {
    ASSERT_LT(q, bits->size()) << "a thread reads and writes past the output";
    (*bits)[q] = ck::RrOutputWord((*bits)[q], flips, m, q);
    ++(*accesses)[q];
  }
};

void EmulateStoSign(std::span<const float> theta, const StreamContext& ctx, std::uint32_t client,
                    std::vector<std::uint64_t>& bits, std::vector<int>& accesses) {
  const std::uint64_t m = theta.size();
  const ck::RrLaunch launch = ck::MakeStoSignLaunch(m, ctx, client);
  const StoSignStore store{&bits, &accesses};
  if (ctx.generator == rng::Generator::kChaCha20)
    EmulateLaunch(launch.blocks, m, [&](std::uint64_t g) {
      return ck::StoSignThreadBits<rng::Generator::kChaCha20>(theta.data(), m, ctx.key, launch.addr, g);
    }, store);
  else
    EmulateLaunch(launch.blocks, m, [&](std::uint64_t g) {
      return ck::StoSignThreadBits<rng::Generator::kPhilox4x32>(theta.data(), m, ctx.key, launch.addr, g);
    }, store);
}

void EmulateRandomizedResponse(const RandomizedResponse& rr, std::uint64_t m, const StreamContext& ctx,
                               std::uint32_t client, std::vector<std::uint64_t>& bits, std::vector<int>& accesses) {
  const ck::RrLaunch launch = ck::MakeRandomizedResponseLaunch(m, ctx, client);
  const RrStore store{m, &bits, &accesses};
  if (ctx.generator == rng::Generator::kChaCha20)
    EmulateLaunch(launch.blocks, m, [&](std::uint64_t g) {
      return ck::RrFlipThreadBits<rng::Generator::kChaCha20>(rr.flip_threshold, m, ctx.key, launch.addr, g);
    }, store);
  else
    EmulateLaunch(launch.blocks, m, [&](std::uint64_t g) {
      return ck::RrFlipThreadBits<rng::Generator::kPhilox4x32>(rr.flip_threshold, m, ctx.key, launch.addr, g);
    }, store);
}

// Every word of the message accessed exactly once, the kExtraWords after it never.
void ExpectEachWordAccessedOnce(const std::vector<int>& accesses, std::size_t m) {
  for (std::size_t i = 0; i < accesses.size(); ++i)
    ASSERT_EQ(accesses[i], i < PackedWords(m) ? 1 : 0) << "word " << i << " of a " << m << "-coordinate message";
}

// ---- launch geometry -------------------------------------------------------------------------

TEST(CudaEmulatorRr, LaunchesCoverEveryWordWithTwoLanesOnTheCpuStreams) {
  const StreamContext ctx = Context(rng::Generator::kPhilox4x32, 17);
  for (std::size_t m : kSizes) {
    for (const ck::RrLaunch& launch : {ck::MakeStoSignLaunch(m, ctx, 9), ck::MakeRandomizedResponseLaunch(m, ctx, 9)}) {
      EXPECT_GE(launch.blocks * ck::kBlockThreads, 2 * PackedWords(m)) << "m=" << m;
      EXPECT_LT((launch.blocks - 1) * ck::kBlockThreads, 2 * PackedWords(m)) << "a whole idle block, m=" << m;
      EXPECT_EQ(launch.addr.round, ctx.round);
      EXPECT_EQ(launch.addr.entity, 9u);
    }
  }
  EXPECT_EQ(ck::MakeStoSignLaunch(1, ctx, 9).addr.purpose, rng::Purpose::kStoSign);
  EXPECT_EQ(ck::MakeRandomizedResponseLaunch(1, ctx, 9).addr.purpose, rng::Purpose::kRandomizedResponse);
}

// ---- exactness of the head comparisons -------------------------------------------------------

// For every 16-bit head h and every boundary θ (and T_flip of several γ): h < t16 makes both the
// smallest and the largest V with that head (h·2^48 and h·2^48 + 2^48 − 1) "below T" under the
// CPU's element rule, h > t16 neither; so the head decision equals the rule for every tail, and
// only h = t16 is left to the exact path.
TEST(CudaEmulatorRr, HeadComparisonsAgreeWithTheExactRuleForEveryHead) {
  std::vector<float> thetas = BoundaryLatents();
  for (int e = -149; e <= 1; ++e) thetas.insert(thetas.end(), {std::ldexp(1.0f, e), -std::ldexp(1.0f, e)});
  for (float theta : thetas) {
    const std::uint32_t t16 = ck::StoSignHeadThreshold(theta);
    ASSERT_EQ(t16, theta >= 1.0f ? 0x10000u : static_cast<std::uint32_t>(StoSignThreshold(theta) >> 48)) << theta;
    for (std::uint32_t h = 0; h < 0x10000u; ++h) {
      const std::uint64_t lo = std::uint64_t{h} << 48, hi = lo | ((std::uint64_t{1} << 48) - 1);
      if (h == t16) continue;
      ASSERT_EQ(StoSignPlus(theta, lo), h < t16) << "theta=" << theta << " head=" << h;
      ASSERT_EQ(StoSignPlus(theta, hi), h < t16) << "theta=" << theta << " head=" << h;
    }
  }
  for (double gamma : {0.0, 0.1, 0.25, 0.45, 0.5, 0x1p-64, 0.5 - 0x1p-17, 0.5 - 12345.5 / 65536.0}) {
    const RandomizedResponse rr = MakeRandomizedResponse(gamma);
    const std::uint32_t t16 = static_cast<std::uint32_t>(rr.flip_threshold >> 48);
    for (std::uint32_t h = 0; h < 0x10000u; ++h) {
      const std::uint64_t lo = std::uint64_t{h} << 48, hi = lo | ((std::uint64_t{1} << 48) - 1);
      if (h == t16) continue;
      ASSERT_EQ(RrOutput(false, lo, rr.flip_threshold), h < t16) << "gamma=" << gamma << " head=" << h;
      ASSERT_EQ(RrOutput(false, hi, rr.flip_threshold), h < t16) << "gamma=" << gamma << " head=" << h;
    }
  }
}

// ---- StoSign ---------------------------------------------------------------------------------

TEST(CudaEmulatorRr, StoSignKernelMatchesCpuWordForWord) {
  int compared = 0;
  for (rng::Generator gen : kGenerators)
    for (std::size_t m : kSizes) {
      const StreamContext ctx = Context(gen, 300 + static_cast<std::uint32_t>(m));
      const std::uint32_t client = static_cast<std::uint32_t>(m * 2654435761u);
      const std::vector<float> tie = TieLatents(m, ctx, client);
      for (std::size_t j = 0; j < m; ++j)  // the fixture: every coordinate takes the exact path
        ASSERT_EQ(ck::StoSignHeadThreshold(tie[j]),
                  rng::DecisionHead(gen, ctx.key, ck::MakeStoSignLaunch(m, ctx, client).addr, j, kBnnHeadBits))
            << "j=" << j;
      for (const std::vector<float>& theta : {Latents(m, m), tie}) {
        std::vector<std::uint64_t> cpu(PackedWords(m) + kExtraWords, kSentinel), emu = cpu;
        std::vector<int> accesses(emu.size(), 0);
        EncodeStoSign(theta, ctx, client, cpu);
        ASSERT_NO_FATAL_FAILURE(EmulateStoSign(theta, ctx, client, emu, accesses));
        ASSERT_NO_FATAL_FAILURE(ExpectEachWordAccessedOnce(accesses, m));
        ASSERT_EQ(emu, cpu) << Name(gen) << " m=" << m << (&theta == &tie ? " tie latents" : "");
        if (m % 64 != 0) {
          EXPECT_EQ(emu[PackedWords(m) - 1] >> (m % 64), 0u) << "padding bits of the last word";
        }
        ++compared;
      }
    }
  EXPECT_EQ(compared, 2 * 2 * static_cast<int>(std::size(kSizes)));
}

// ---- randomized response ---------------------------------------------------------------------

// A γ whose T_flip >> 48 equals the head of a coordinate of the message (T_flip ≤ 2^63, so the
// head must be ≤ 2^15): the first such coordinate j < m, else (only likely for tiny m) one after
// the message. `tie_in_message` says which.
double TieGamma(const StreamContext& ctx, std::uint32_t client, std::size_t m, bool& tie_in_message) {
  const rng::StreamAddress addr = ck::MakeRandomizedResponseLaunch(m, ctx, client).addr;
  for (std::uint64_t j = 0;; ++j) {
    const std::uint32_t head = rng::DecisionHead(ctx.generator, ctx.key, addr, j, kBnnHeadBits);
    if (head > 32768u) continue;
    tie_in_message = j < m;
    // γ = 1/2 − (head + 1/2)/2^16 is exact in double and T_flip = (head + 1/2)·2^48; head 2^15 ties at γ = 0.
    return head == 32768u ? 0.0 : 0.5 - (static_cast<double>(head) + 0.5) / 65536.0;
  }
}

TEST(CudaEmulatorRr, RandomizedResponseKernelMatchesCpuWordForWord) {
  int compared = 0, messages_with_tie = 0;
  for (rng::Generator gen : kGenerators)
    for (std::size_t m : kSizes) {
      const StreamContext ctx = Context(gen, 700 + static_cast<std::uint32_t>(m));
      const std::uint32_t client = static_cast<std::uint32_t>(m % 13);
      bool tie_in_message = false;
      const double tie_gamma = TieGamma(ctx, client, m, tie_in_message);
      messages_with_tie += tie_in_message ? 1 : 0;
      // Inputs: random bits with the padding set, and a StoSign message (padding 0).
      std::vector<std::uint64_t> stosign(PackedWords(m) + kExtraWords, kSentinel);
      EncodeStoSign(Latents(m, m + 1), ctx, client, stosign);
      for (const std::vector<std::uint64_t>& input : {RandomMessage(m, m), stosign})
        for (double gamma : {0.0, 0.1, 0.45, 0.5, tie_gamma}) {
          const RandomizedResponse rr = MakeRandomizedResponse(gamma);
          std::vector<std::uint64_t> cpu = input, emu = input;
          std::vector<int> accesses(emu.size(), 0);
          ApplyRandomizedResponse(rr, m, ctx, client, cpu);
          ASSERT_NO_FATAL_FAILURE(EmulateRandomizedResponse(rr, m, ctx, client, emu, accesses));
          ASSERT_NO_FATAL_FAILURE(ExpectEachWordAccessedOnce(accesses, m));
          ASSERT_EQ(emu, cpu) << Name(gen) << " m=" << m << " gamma=" << gamma;
          if (m % 64 != 0) {
            EXPECT_EQ(emu[PackedWords(m) - 1] >> (m % 64), 0u) << "padding bits not cleared";
          }
          if (gamma == 0.5) {  // never flips: the message itself, padding cleared
            for (std::size_t i = 0; i + 1 < PackedWords(m); ++i) ASSERT_EQ(emu[i], input[i]);
          }
          ++compared;
        }
    }
  EXPECT_EQ(compared, 2 * 2 * 5 * static_cast<int>(std::size(kSizes)));
  EXPECT_GE(messages_with_tie, 2 * static_cast<int>(std::size(kSizes)) - 4);  // all but tiny messages
}

// RR ties for many coordinates at once: with γ = 0, T_flip = 2^63 ties with every head 2^15; over
// many clients, each message is compared after choosing γ from its own first head ≤ 2^15.
TEST(CudaEmulatorRr, RandomizedResponseTiesAcrossClientsMatchCpu) {
  const std::size_t m = 64 * 5 + 3;
  for (rng::Generator gen : kGenerators) {
    const StreamContext ctx = Context(gen, 4242);
    for (std::uint32_t client = 0; client < 64; ++client) {
      bool tie_in_message = false;
      const RandomizedResponse rr = MakeRandomizedResponse(TieGamma(ctx, client, m, tie_in_message));
      ASSERT_TRUE(tie_in_message);
      const std::vector<std::uint64_t> input = RandomMessage(m, client);
      std::vector<std::uint64_t> cpu = input, emu = input;
      std::vector<int> accesses(emu.size(), 0);
      ApplyRandomizedResponse(rr, m, ctx, client, cpu);
      ASSERT_NO_FATAL_FAILURE(EmulateRandomizedResponse(rr, m, ctx, client, emu, accesses));
      ASSERT_NO_FATAL_FAILURE(ExpectEachWordAccessedOnce(accesses, m));
      ASSERT_EQ(emu, cpu) << Name(gen) << " client=" << client;
    }
  }
}

// ---- tails -----------------------------------------------------------------------------------

TEST(CudaEmulatorRr, ThreadsPastTheMessageContributeNothing) {
  const StreamContext ctx = Context(rng::Generator::kChaCha20, 3);
  const std::vector<float> theta(65, 1.0f);  // all "+": a bit past coordinate 64 would show
  const ck::RrLaunch s = ck::MakeStoSignLaunch(65, ctx, 1), r = ck::MakeRandomizedResponseLaunch(65, ctx, 1);
  // Threads 0..3 exist for words 0 and 1; thread 2 holds coordinates 64..95, of which only 64 exists.
  for (std::uint64_t g = 3; g < s.blocks * ck::kBlockThreads; ++g) {
    ASSERT_EQ(ck::StoSignThreadBits<rng::Generator::kChaCha20>(theta.data(), 65, ctx.key, s.addr, g), 0u) << g;
    ASSERT_EQ(ck::RrFlipThreadBits<rng::Generator::kChaCha20>(std::uint64_t{1} << 63, 65, ctx.key, r.addr, g), 0u) << g;
  }
  EXPECT_EQ(ck::StoSignThreadBits<rng::Generator::kChaCha20>(theta.data(), 65, ctx.key, s.addr, 2), 1u);
  EXPECT_LE(ck::RrFlipThreadBits<rng::Generator::kChaCha20>(std::uint64_t{1} << 63, 65, ctx.key, r.addr, 2), 1u);
  // The writer's mask: all 64 bits but in the last word, whose bits ≥ m it clears.
  for (std::uint64_t m : {1u, 63u, 64u, 65u, 200u}) {
    const std::uint64_t last = PackedWords(m) - 1;
    EXPECT_EQ(ck::RrOutputWord(~std::uint64_t{0}, 0, m, last) >> (m - 64 * last - 1), 1u) << m;
    EXPECT_EQ(ck::RrOutputWord(~std::uint64_t{0}, 0, m, last), ck::ValidBitsOfWord(m, last)) << m;
    EXPECT_EQ(ck::RrOutputWord(0, ~std::uint64_t{0}, m, last), ck::ValidBitsOfWord(m, last)) << m;
    if (last > 0) {
      EXPECT_EQ(ck::ValidBitsOfWord(m, 0), ~std::uint64_t{0});
    }
  }
}

// ---- non-finite latents ----------------------------------------------------------------------
// The scan kernel's body (FirstNonFiniteOfThread, shared through device_support.cuh) is emulated
// over every grid in cuda_emulator_test; here: the message the device overloads build from the
// index it finds is the CPU's ValidateLatents message, text and argument.

TEST(CudaEmulatorRr, NonFiniteLatentErrorIsTheCpuMessage) {
  const float bad[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                       -std::numeric_limits<float>::infinity()};
  for (std::size_t m : {std::size_t{1}, std::size_t{257}, std::size_t{8193}}) {
    for (std::size_t first : {std::size_t{0}, m / 2, m - 1}) {
      std::vector<float> theta = Latents(m, m);  // finite boundary values (±FLT_MAX, denormals) included
      theta[first] = bad[first % 3];
      if (first + 1 < m) theta[m - 1] = bad[(first + 1) % 3];  // a later one must not win
      const InvalidArgument gpu = ck::NonFiniteLatentError(first, theta[first]);
      try {
        ValidateLatents(theta, PackedWords(m));
        ADD_FAILURE() << "ValidateLatents accepted a non-finite latent";
      } catch (const InvalidArgument& cpu) {
        EXPECT_EQ(std::string(gpu.what()), std::string(cpu.what()));
        EXPECT_EQ(gpu.argument(), cpu.argument());
      }
    }
  }
}

}  // namespace
}  // namespace dpfl::quant
