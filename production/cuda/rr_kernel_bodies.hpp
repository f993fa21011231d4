// The per-thread bodies of the DPFL-BNN kernels in randomized_response.cu (StoSign, seed 004
// Alg. B; randomized response on ±1 bits, Alg. C), as DPFL_HD functions, and the launch geometry
// the host code uses. As for kernel_bodies.hpp, the kernels are thin wrappers (they add only
// blockIdx/threadIdx and __shfl_xor_sync), so tests/unit/cuda_emulator_rr_test.cpp compiles these
// very bodies with the host compiler, runs them over every (block, thread) of the launch the host
// code makes (MakeStoSignLaunch / MakeRandomizedResponseLaunch below) and compares the message bit
// for bit with the CPU's EncodeStoSign / ApplyRandomizedResponse (docs/cuda.md).
//
// Work mapping — the one of the binary encoders (kernel_bodies.hpp), reused unchanged: thread g
// decides coordinates 32·g … 32·g + 31, whose 16-bit heads (kBnnHeadBits; rng::DecisionHead) are
// exactly the raw uniforms 8·g … 8·g + 7 of the stream = one ChaCha20 block (counter g) or four
// Philox blocks (RawOctet). Lanes 2q and 2q + 1 of a warp hold the low and high 32 bits of packed
// word q; one __shfl_xor_sync (xor 1) joins them and the even lane alone touches memory for that
// word. ⌈m/64⌉·2 threads per message (EncodeBlocks); threads past the message return 0 and still
// take part in the shuffle.
//
// RR is in place. The body computes only the *flip* mask of its 32 coordinates (flip iff V <
// T_flip, which does not depend on the input bit: RrOutput(plus, v, t) = plus XOR (v < t)); after
// the shuffle the even lane reads its word, XORs the 64 flips and clears the bits ≥ m
// (RrOutputWord). So each word is read and written by one thread and by no other: no ordering
// between threads is needed for the in-place update, and the odd lane never touches `bits`.
//
// Decisions (the CPU's SIMD rule, src/cpu/fast_rr.cpp): with h = V >> 48 (the head) and
// t16 = T >> 48, h < t16 ⇒ V < T, h > t16 ⇒ V ≥ T, and only h = t16 (probability 2^−16) needs the
// full uniform, recomputed by its definition rng::DecisionUniform64 and passed to the CPU's
// element function (StoSignPlus, RrOutput of dpfl/quant/rr_element.hpp). All integer: the only
// floating point is StoSignThreshold's exact ⌊θ·2^63⌋ (a float widened to double, a power-of-two
// scaling, floor), the same DPFL_HD function the CPU calls.
#pragma once

#include <cstdint>
#include <string>

#include "dpfl/error.hpp"
#include "dpfl/hd.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/randomized_response.hpp"
#include "dpfl/quant/rr_element.hpp"
#include "dpfl/quant/rr_encoders.hpp"
#include "dpfl/rng/streams.hpp"
#include "kernel_bodies.hpp"

namespace dpfl::quant::cuda_kernels {

// ---- Launch geometry (host side) -------------------------------------------------------------

// One launch <<<blocks, kBlockThreads>>> of a DPFL-BNN kernel: grid size (2 lanes per packed word,
// as the binary encoders) and the stream the heads are read from, addressed exactly as the CPU
// loops do (detail::StoSignAddress: (round, client, kStoSign); detail::RrAddress: (round, client,
// kRandomizedResponse)).
struct RrLaunch {
  std::uint64_t blocks;
  rng::StreamAddress addr;
};
inline RrLaunch MakeStoSignLaunch(std::uint64_t m, const StreamContext& ctx, std::uint32_t client) {
  return {EncodeBlocks(m), detail::StoSignAddress(ctx, client)};
}
inline RrLaunch MakeRandomizedResponseLaunch(std::uint64_t m, const StreamContext& ctx, std::uint32_t client) {
  return {EncodeBlocks(m), detail::RrAddress(ctx, client)};
}

// The device overload's error for a non-finite latent found by the scan (FirstNonFiniteOfThread
// over theta): the same argument name and text as the CPU's ValidateLatents, so a caller sees one
// message whichever path ran (the emulator test compares them).
inline InvalidArgument NonFiniteLatentError(std::uint64_t j, float value) {
  return InvalidArgument("theta", "latent weight theta[" + std::to_string(j) + "] is " + std::to_string(value) +
                                      " (NaN and +-Inf are rejected; finite values binarize as if clipped to [-1, 1])");
}

// ---- Work mapping of both bodies ---------------------------------------------------------------

// Body skeleton of thread g: bit k (k < 32) of the result is decide(j, head_j) for coordinate
// j = 32·g + k < m, with head_j its 16-bit head from the one RawOctet of the stream `addr`; 0 for
// a thread past the message. decide returns the coordinate's bit (StoSign: "+"; RR: "flip") and
// may recompute the full uniform rng::DecisionUniform64 on a head tie.
template <rng::Generator G, class Decide>
DPFL_HD std::uint64_t HeadDecisionBits(std::uint64_t m, const rng::StreamKey& key, const rng::StreamAddress& addr,
                                       std::uint64_t g, Decide decide) {
  const std::uint64_t first = g * 32;
  std::uint64_t half = 0;
  if (first >= m) return half;
  std::uint64_t heads[8];
  RawOctet<G>(key, addr, g, heads);
  const int n = m - first < 32 ? static_cast<int>(m - first) : 32;
  for (int k = 0; k < n; ++k) {
    const std::uint64_t j = first + static_cast<std::uint64_t>(k);
    const std::uint32_t head = rng::HeadChunk(heads, static_cast<std::uint64_t>(k), kBnnHeadBits);
    half |= std::uint64_t{decide(j, head)} << k;
  }
  return half;
}

// ---- StoSign (Alg. B) ------------------------------------------------------------------------

// T(θ) >> 48 as a 17-bit value. For θ ≥ 1 StoSignPlus says "+" without a threshold (T would be
// 2^64, and StoSignThreshold requires θ < 1): 2^16 is above every 16-bit head, so the head
// comparison gives "+" and never ties. Otherwise ⌊T(θ)/2^48⌋ of the exact T(θ) (θ ≤ −1: T = 0,
// so a head 0 ties and the exact rule gives "−").
DPFL_HD std::uint32_t StoSignHeadThreshold(float theta) {
  return theta >= 1.0f ? 0x10000u : static_cast<std::uint32_t>(StoSignThreshold(theta) >> 48);
}

// Body of thread g: the StoSign bits of coordinates 32·g … 32·g + 31 (those < m) in the low 32
// bits, 1 = +1; 0 for a thread past the message. A head tie recomputes V = DecisionUniform64 and
// decides with the CPU's StoSignPlus.
template <rng::Generator G>
DPFL_HD std::uint64_t StoSignThreadBits(const float* theta, std::uint64_t m, const rng::StreamKey& key,
                                        const rng::StreamAddress& addr, std::uint64_t g) {
  return HeadDecisionBits<G>(m, key, addr, g, [&](std::uint64_t j, std::uint32_t head) {
    const float t = theta[j];
    const std::uint32_t t16 = StoSignHeadThreshold(t);
    return head != t16 ? head < t16 : StoSignPlus(t, rng::DecisionUniform64(G, key, addr, j, kBnnHeadBits));
  });
}

// ---- Randomized response (Alg. C) ------------------------------------------------------------

// Body of thread g: the flip mask of coordinates 32·g … 32·g + 31 (those < m) in the low 32 bits,
// bit k set iff V_j < flip_threshold; 0 for a thread past the message. T_flip ≤ 2^63, so
// t16 ≤ 2^15. On a tie the exact flip is RrOutput(false, V, T_flip): a "−" input comes out "+"
// exactly when it is flipped.
template <rng::Generator G>
DPFL_HD std::uint64_t RrFlipThreadBits(std::uint64_t flip_threshold, std::uint64_t m, const rng::StreamKey& key,
                                       const rng::StreamAddress& addr, std::uint64_t g) {
  const std::uint32_t t16 = static_cast<std::uint32_t>(flip_threshold >> 48);
  return HeadDecisionBits<G>(m, key, addr, g, [&](std::uint64_t j, std::uint32_t head) {
    return head != t16 ? head < t16
                       : RrOutput(false, rng::DecisionUniform64(G, key, addr, j, kBnnHeadBits), flip_threshold);
  });
}

// Mask of the bits of packed word `word` that hold coordinates < m (all 64 but in the last word).
DPFL_HD std::uint64_t ValidBitsOfWord(std::uint64_t m, std::uint64_t word) {
  const std::uint64_t n = m - word * 64;  // ≥ 1 for a word of the message
  return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
}

// The writing lane's new word: the input with the 64 flips applied and the bits ≥ m cleared, as
// the CPU's RandomizeWords builds it (bit k = RrOutput(bit k of in, V, T_flip) for k < m, else 0).
DPFL_HD std::uint64_t RrOutputWord(std::uint64_t in, std::uint64_t flips, std::uint64_t m, std::uint64_t word) {
  return (in ^ flips) & ValidBitsOfWord(m, word);
}

}  // namespace dpfl::quant::cuda_kernels
