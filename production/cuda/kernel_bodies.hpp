// The per-thread bodies of the CUDA kernels in binary_quantizer.cu, as DPFL_HD functions, and
// the launch geometry they assume. The kernels are thin wrappers around these bodies (they add
// only what exists on a device: blockIdx/threadIdx, __shfl_xor_sync, atomicMin), so the host
// compiler can compile the very same bodies: tests/unit/cuda_emulator_test.cpp runs each body
// over every (block, thread) index of the launch the host code would make and checks the result
// bit for bit against the CPU path (docs/cuda.md "What runs without a GPU").
//
// Work mapping of the encode kernel: thread g handles the 32 parameters 32g … 32g+31, whose
// 16-bit heads (rng::DecisionHead) are exactly one ChaCha20 block (block counter g) or four
// Philox blocks (4g … 4g+3) of each stream (8-bit heads: half a ChaCha20 block or two Philox
// blocks), and builds one 32-bit half of a packed word. Lanes 2q and 2q+1 of a warp hold the
// two halves of word q; one __shfl_xor_sync joins them and lane 2q writes the word. A tie of the
// heads with T >> 48 (probability 2^−13 … 2^−16) recomputes that parameter's full uniforms. A
// message of m parameters runs ⌈m/64⌉·2 threads. Out-of-range threads of the last warp take
// part in the shuffle with zero bits (no early return before it).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "dpfl/hd.hpp"
#include "dpfl/quant/binary_rules.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/rng/streams.hpp"

// `#pragma unroll` in the device compilation pass only (the host compiler, also under nvcc's
// host pass, would warn about an unknown pragma).
#if defined(__CUDA_ARCH__)
#define DPFL_UNROLL _Pragma("unroll")
#else
#define DPFL_UNROLL
#endif

namespace dpfl::quant::cuda_kernels {

inline constexpr unsigned kBlockThreads = 256;  // a multiple of 32 (whole warps), so lane pairs share a word
static_assert(kBlockThreads % 32 == 0);

enum class Mode { kLdpq, kQ1, kQ2 };

// ---- Launch geometry (host side) -------------------------------------------------------------

// Threads of the encode kernel: 2 lanes (32 parameters each) per packed word.
inline std::uint64_t EncodeThreads(std::uint64_t m) { return PackedWords(m) * 2; }
inline std::uint64_t EncodeBlocks(std::uint64_t m) { return (EncodeThreads(m) + kBlockThreads - 1) / kBlockThreads; }
// Blocks of the grid-stride kernels (non-finite scan, aggregation): one thread per item, capped.
inline unsigned GridStrideBlocks(std::uint64_t items) {
  const std::uint64_t blocks = (items + kBlockThreads - 1) / kBlockThreads;
  return static_cast<unsigned>(blocks < 65535u * 16u ? blocks : 65535u * 16u);
}

// What the host passes to one encode launch: the grid size and the two stream addresses (the
// client's private coins and the pair's shared bits), as fast::EncodeCorBinQFast forms them on
// the CPU. `ctx` addresses the private coins, `shared_ctx` the shared bits (the same context in
// the one-key simulation form).
struct EncodeLaunch {
  std::uint64_t blocks;
  rng::StreamAddress private_addr, shared_addr;
};
inline EncodeLaunch MakeEncodeLaunch(std::uint64_t m, const StreamContext& shared_ctx, const StreamContext& ctx,
                                     std::uint32_t pair, std::uint32_t client) {
  return {EncodeBlocks(m), {ctx.round, client, rng::Purpose::kPrivateCoin},
          {shared_ctx.round, pair, rng::Purpose::kSharedBits}};
}

// ---- Encode --------------------------------------------------------------------------------

// The 8 raw uniforms 8·g … 8·g + 7 of one stream (rng::Uniform64 layout): ChaCha20 block g, or
// Philox blocks 4·g … 4·g + 3. For a decision stream they hold the 16-bit heads of parameters
// 32·g … 32·g + 31 (rng::DecisionHead: head 32·g + k = bits 16·(k % 4) … of uniform k / 4).
template <rng::Generator G>
DPFL_HD void RawOctet(const rng::StreamKey& key, const rng::StreamAddress& addr, std::uint64_t g, std::uint64_t u[8]) {
  if constexpr (G == rng::Generator::kChaCha20) {
    rng::ChaChaUniformBlock(key, addr, static_cast<std::uint32_t>(g), u);  // g < 2^32 (m ≤ 2^35)
  } else {
    DPFL_UNROLL
    for (int b = 0; b < 4; ++b) rng::PhiloxUniformBlock(key, addr, g * 4 + static_cast<std::uint64_t>(b), u + 2 * b);
  }
}

// The 4 raw uniforms 4·g … 4·g + 3 of one stream: with 8-bit heads (SharedHeadBits,
// RolePrivateHeadBits) they hold the heads of parameters 32·g … 32·g + 31 — half of ChaCha20
// block g / 2 (both threads of a word compute that block and keep their half), or Philox blocks
// 2·g, 2·g + 1.
template <rng::Generator G>
DPFL_HD void RawQuartet(const rng::StreamKey& key, const rng::StreamAddress& addr, std::uint64_t g, std::uint64_t u[4]) {
  if constexpr (G == rng::Generator::kChaCha20) {
    std::uint64_t block[8];
    rng::ChaChaUniformBlock(key, addr, static_cast<std::uint32_t>(g / 2), block);
    DPFL_UNROLL
    for (int k = 0; k < 4; ++k) u[k] = block[4 * (g % 2) + static_cast<std::uint64_t>(k)];
  } else {
    DPFL_UNROLL
    for (int b = 0; b < 2; ++b) rng::PhiloxUniformBlock(key, addr, g * 2 + static_cast<std::uint64_t>(b), u + 2 * b);
  }
}

// Head k (0 … 31) of a thread's head uniforms as a 16-bit value: 16-bit chunk k of u[0..7], or
// 8-bit chunk k of u[0..3] widened to b << 8 (its bits where a 16-bit head's would be).
DPFL_HD std::uint32_t Head16(const std::uint64_t* u, int k, bool bytes) {
  return bytes ? rng::HeadChunk(u, static_cast<std::uint64_t>(k), rng::kHeadBits8) << 8
               : rng::HeadChunk(u, static_cast<std::uint64_t>(k), rng::kHeadBits16);
}

// Body of thread g: the bits of parameters 32·g … 32·g + 31 (those < m) in the low 32 bits,
// decided from their heads (at most one head block per stream); the full 64-bit uniforms
// (rng::DecisionUniform64) are fetched only when the heads tie with T >> 48 — the same rule as
// the CPU's SIMD path, so the bits are identical. 0 for a thread past the message.
template <rng::Generator G, Mode M>
DPFL_HD std::uint64_t EncodeThreadBits(const BinaryLevels& levels, const float* w, std::uint64_t m,
                                       const rng::StreamKey& private_key, const rng::StreamAddress& private_addr,
                                       const rng::StreamKey& shared_key, const rng::StreamAddress& shared_addr, int d,
                                       std::uint64_t g) {
  const std::uint64_t first = g * 32;
  std::uint64_t half = 0;
  if (first >= m) return half;
  std::uint64_t priv[8] = {}, shared[8] = {};
  const bool shared_bytes = SharedHeadBits(d) == rng::kHeadBits8;
  const bool private_bytes = M != Mode::kLdpq && RolePrivateHeadBits(d) == rng::kHeadBits8;
  // Low bits of V >> 48 that the heads leave unknown: the heads are compared with T >> 48
  // after dropping them, as on the CPU.
  const int unknown = M == Mode::kLdpq ? 0 : RoleHeadUnknownBits(d);
  if (private_bytes) {
    RawQuartet<G>(private_key, private_addr, g, priv);
  } else {
    RawOctet<G>(private_key, private_addr, g, priv);
  }
  if constexpr (M != Mode::kLdpq) {
    if (shared_bytes) {
      RawQuartet<G>(shared_key, shared_addr, g, shared);
    } else {
      RawOctet<G>(shared_key, shared_addr, g, shared);
    }
  }
  const int shift = d < 16 ? d : 16;
  const std::uint32_t high = (0xffffu << (16 - shift)) & 0xffffu;
  const int n = m - first < 32 ? static_cast<int>(m - first) : 32;
  for (int k = 0; k < n; ++k) {
    const std::uint64_t j = first + static_cast<std::uint64_t>(k);
    const double x = ClipWeight(static_cast<double>(w[j]), levels);
    const std::uint32_t t16 =
        static_cast<std::uint32_t>((M == Mode::kQ2 ? MinusThreshold(x, levels) : PlusThreshold(x, levels)) >> 48);
    const std::uint32_t shared16 = Head16(shared, k, shared_bytes);
    const std::uint32_t priv16 = Head16(priv, k, private_bytes);
    const std::uint32_t v_head = (M == Mode::kLdpq ? priv16 : ((shared16 & high) | (priv16 >> shift))) >> unknown;
    const std::uint32_t t_head = t16 >> unknown;
    bool plus;
    if (v_head != t_head) {
      plus = (v_head < t_head) != (M == Mode::kQ2);
    } else {
      const std::uint64_t pu = rng::DecisionUniform64(G, private_key, private_addr, j,
                                                      M == Mode::kLdpq ? kLdpqHeadBits : RolePrivateHeadBits(d));
      if constexpr (M == Mode::kLdpq) {
        plus = LdpqBit(w[j], pu, levels);
      } else {
        const std::uint64_t su = rng::DecisionUniform64(G, shared_key, shared_addr, j, SharedHeadBits(d));
        plus = M == Mode::kQ1 ? Q1RoleBit(w[j], su, pu, d, levels) : Q2RoleBit(w[j], su, pu, d, levels);
      }
    }
    half |= std::uint64_t{plus} << k;
  }
  return half;
}

// Lane `lane` of a warp holds the low (even lane) or high (odd lane) half of packed word g / 2
// (blockDim is even, so g % 2 = lane % 2); after the xor-1 shuffle both lanes hold the word and
// the even lane writes it, if its parameters exist.
DPFL_HD std::uint64_t HalfInWord(std::uint64_t half, unsigned lane) { return half << (32 * (lane & 1u)); }
DPFL_HD bool WritesWord(unsigned lane, std::uint64_t g, std::uint64_t m) { return (lane & 1u) == 0 && g * 32 < m; }
DPFL_HD std::uint64_t WordOfThread(std::uint64_t g) { return g / 2; }

// ---- Non-finite scan -----------------------------------------------------------------------

DPFL_HD std::uint32_t FloatBits(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
#endif
}

// Body of grid-stride thread g (of `stride` threads): the index of its first NaN/±Inf weight
// (exponent-bit test, so it does not depend on fast-math settings), or m if it finds none.
// The kernel takes the atomic minimum over threads: a thread's first hit is its smallest.
DPFL_HD std::uint64_t FirstNonFiniteOfThread(const float* w, std::uint64_t m, std::uint64_t g, std::uint64_t stride) {
  for (std::uint64_t j = g; j < m; j += stride)
    if ((FloatBits(w[j]) & 0x7f800000u) == 0x7f800000u) return j;
  return m;
}

// ---- Aggregation ---------------------------------------------------------------------------

// Body of grid-stride thread g: counts[j] += Σ_{i<n} bit j of message i for its parameters j
// (the 64 threads of one word read the same word, which the cache broadcasts).
DPFL_HD void AccumulateThread(const std::uint64_t* bits, std::uint64_t n, std::uint64_t words, std::uint32_t* counts,
                              std::uint64_t m, std::uint64_t g, std::uint64_t stride) {
  for (std::uint64_t j = g; j < m; j += stride) {
    const std::uint64_t word = j / 64;
    const unsigned shift = static_cast<unsigned>(j % 64);
    std::uint32_t c = counts[j];
    for (std::uint64_t i = 0; i < n; ++i) c += static_cast<std::uint32_t>((bits[i * words + word] >> shift) & 1u);
    counts[j] = c;
  }
}

// ---- Benchmark input ------------------------------------------------------------------------

// Body of grid-stride thread g of the benchmark's weight fill: w[j] = 0.8·sin(j/1000). The
// device's sin is not the host's (not correctly rounded), so the emulator checks which indices
// a thread writes, not the values.
DPFL_HD void FillBenchWeightsThread(float* w, std::uint64_t m, std::uint64_t g, std::uint64_t stride) {
  for (std::uint64_t j = g; j < m; j += stride) w[j] = static_cast<float>(0.8 * sin(0.001 * static_cast<double>(j)));
}

}  // namespace dpfl::quant::cuda_kernels
