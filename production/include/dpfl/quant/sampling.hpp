// n draws of a production binary quantizer at fixed weights, as outcome counts: what
// `dpfl sample` prints and what anyone can hold against the exact pmfs of the reference.
//
// Draw j is parameter j of a message whose weights are all w (w1, w2): the encoders give every
// parameter index its own uniforms, so the n draws are independent. Stream policy:
//  * key (SampleKeyFromSeed): words (2i, 2i+1) = (low, high) 32 bits of the i-th output
//    (i = 0..3) of splitmix64 started at state = seed. A 64-bit seed gives a reproducible
//    simulation key, not a secret one (certified runs agree their keys by X25519; DESIGN.md).
//  * draws are taken in chunks of kSampleChunk = 2^20: chunk k uses round k and parameter
//    indices 0..2^20−1 (so at most 2^32 chunks);
//  * LDPQ: private coins of client 0. CorBinQ / CoQ-FL: pair 0; Q1 (Alice) = client 0,
//    Q2 (Bob) = client 1 (one key for both streams: the simulation form of the encoders).
//  * DPFL-BNN (seed 004): RR = Sign of the input ±1 then ApplyRandomizedResponse with client 0's
//    kRandomizedResponse stream; StoSign = EncodeStoSign with client 0's kStoSign stream.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>

#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/randomized_response.hpp"

namespace dpfl::quant {

// splitmix64 (Steele, Lea, Flood 2014): advances `state` by the golden-ratio increment and
// returns the mixed value.
std::uint64_t SplitMix64(std::uint64_t& state);
// The documented seed → stream-key expansion above.
rng::StreamKey SampleKeyFromSeed(std::uint64_t seed);

inline constexpr std::uint64_t kSampleChunk = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kMaxSampleDraws = std::uint64_t{1} << 48;

enum class SampledQuantizer { kLdpq, kCorBinQ, kCoq, kRr, kStoSign };
// CorBinQ and CoQ-FL draw pairs (joint counts); the others one bit per draw.
inline bool IsPairSampler(SampledQuantizer q) { return q == SampledQuantizer::kCorBinQ || q == SampledQuantizer::kCoq; }

// Encodes one chunk: ctx (round = chunk index) and m = w1.size() parameters; b2/w2 are empty
// for LDPQ. The default (CpuChunkEncoder) is the production CPU path; the CLI passes the CUDA
// kernels instead when asked to.
using ChunkEncoder = std::function<void(const StreamContext& ctx, std::span<const float> w1, std::span<const float> w2,
                                        std::span<std::uint64_t> b1, std::span<std::uint64_t> b2)>;
ChunkEncoder CpuChunkEncoder(SampledQuantizer quantizer, const BinaryLevels& levels, int d, int threads);
// kRr (w1 = the input, ±1) or kStoSign (w1 = θ; rr unused) on the CPU.
ChunkEncoder CpuBnnChunkEncoder(SampledQuantizer quantizer, const RandomizedResponse& rr, int threads);

struct SampleCounts {
  std::uint64_t plus = 0;                     // LDPQ, RR, StoSign: draws with "+"
  std::array<std::uint64_t, 4> joint{};       // pairs: (−,−), (−,+), (+,−), (+,+), Q1 sign first
};
// n ∈ [1, kMaxSampleDraws] draws at weights w1 (and w2 for the pairs) with key/generator from
// `ctx` (its round is ignored: chunks set it). Throws InvalidArgument("n", …) outside the range.
SampleCounts DrawSampleCounts(SampledQuantizer quantizer, float w1, float w2, std::uint64_t n, StreamContext ctx,
                              const ChunkEncoder& encode);

}  // namespace dpfl::quant
