// Production binary quantizers on the CPU: LDPQ (LDP-FL), CorBinQ (CorBin-FL, per-client
// form), CoQ-FL (p_x = 1/2), with bit-packed output and aggregation.
//
// Contract (docs/production.md):
//  * Parameters are validated once by MakeBinaryLevels: ε finite and > 0 with α = (e^ε+1)/(e^ε−1)
//    > 1 in double; c finite; r finite and > 0. Violations throw dpfl::InvalidArgument.
//  * Weights: finite values are clipped to [c − r, c + r] (seed-000 footnote 2, seed-001 E12);
//    NaN or ±Inf anywhere in the input throws dpfl::InvalidArgument naming the first index,
//    and every word of `bits` is then 0 (the encoders check the weights as they stream through
//    them, so no partial message is left behind).
//  * d ∈ [0, 62] shared bits per parameter.
//  * Output: bit j of the message is bit (j % 64) of word j / 64; 1 = "+" level c + rα. Unused
//    high bits of the last word are 0. `bits` must hold ⌈m/64⌉ words.
//  * Randomness: private uniforms at (key, round, client, kPrivateCoin, j); shared uniforms at
//    (key, round, pair, kSharedBits, j), both decision streams (rng::DecisionUniform64: an 8- or
//    16-bit head (binary_element.hpp: kLdpqHeadBits, SharedHeadBits, RolePrivateHeadBits), the
//    tail drawn only when the heads tie). Deterministic given the addresses, any thread count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "dpfl/quant/binary_element.hpp"
#include "dpfl/rng/streams.hpp"

namespace dpfl::quant {

// Validated per-layer constants. seed-000 §3.1 Alg. 1 l.1: α = (e^ε+1)/(e^ε−1).
BinaryLevels MakeBinaryLevels(double eps, double c, double r);

inline std::size_t PackedWords(std::size_t m) { return (m + 63) / 64; }

struct StreamContext {
  rng::Generator generator = rng::Generator::kChaCha20;
  rng::StreamKey key{};
  std::uint32_t round = 0;
};

enum class PairRole { kQ1, kQ2 };  // CorBinQ Q1/Q2 = CoQ-FL Alice (UP=+1) / Bob (UP=−1)

// Throws InvalidArgument if any weight is NaN or ±Inf, or the sizes disagree.
void ValidateWeights(std::span<const float> w, std::size_t packed_words);
// Throws InvalidArgument("bits", …) if packed_words < ⌈m/64⌉ (the size half of ValidateWeights).
void ValidateOutputSize(std::size_t m, std::size_t packed_words);
void ValidateSharedBits(int d);
// Throws InvalidArgument("generator", …) unless the pair's shared stream and the client's private
// stream use the same generator (the two-key CorBinQ / CoQ-FL forms, CPU and CUDA).
void ValidateSameGenerator(const StreamContext& shared_ctx, const StreamContext& private_ctx);

// LDP-FL client: m independent LDPQ bits.
void EncodeLdpq(const BinaryLevels& levels, std::span<const float> w, const StreamContext& ctx,
                std::uint32_t client, std::span<std::uint64_t> bits, int threads = 1);

// CorBin-FL client in role Q1 or Q2 of pair `pair`; it needs only its own weights. The shared
// bits Z come from `shared_ctx` (the pair's key, agreed by X25519 — DESIGN.md), the private tie
// coins from `private_ctx` (the client's own secret key). Both must use the same generator.
void EncodeCorBinQ(const BinaryLevels& levels, std::span<const float> w, int d, PairRole role,
                   const StreamContext& shared_ctx, const StreamContext& private_ctx, std::uint32_t pair,
                   std::uint32_t client, std::span<std::uint64_t> bits, int threads = 1);
void EncodeCoq(const BinaryLevels& levels, std::span<const float> w, int d, PairRole role, double p_x,
               const StreamContext& shared_ctx, const StreamContext& private_ctx, std::uint32_t pair,
               std::uint32_t client, std::span<std::uint64_t> bits, int threads = 1);
// Simulation form: one key for both streams (the addresses still differ by purpose and entity;
// used by tests, benchmarks and `dpfl sample`, where no partner needs to be kept out).
void EncodeCorBinQ(const BinaryLevels& levels, std::span<const float> w, int d, PairRole role,
                   const StreamContext& ctx, std::uint32_t pair, std::uint32_t client,
                   std::span<std::uint64_t> bits, int threads = 1);

// Both clients of one pair at once (simulation): client1 takes the Q1 role, client2 the Q2
// role; identical to two EncodeCorBinQ calls.
void EncodeCorBinQPair(const BinaryLevels& levels, std::span<const float> w1, std::span<const float> w2, int d,
                       const StreamContext& ctx, std::uint32_t pair, std::uint32_t client1, std::uint32_t client2,
                       std::span<std::uint64_t> bits1, std::span<std::uint64_t> bits2, int threads = 1);

// CoQ-FL (seed-001 §3.6, corrected ProbabilityList) for p_x = 1/2; other p_x throw
// InvalidArgument (the production path supports the default codebook only).
void EncodeCoq(const BinaryLevels& levels, std::span<const float> w, int d, PairRole role, double p_x,
               const StreamContext& ctx, std::uint32_t pair, std::uint32_t client,
               std::span<std::uint64_t> bits, int threads = 1);

// counts[j] += bit j of `bits`, for j < counts.size().
void AccumulateBits(std::span<const std::uint64_t> bits, std::span<std::uint32_t> counts);
// The server's sum over n messages at once: counts[j] += Σ_i bit j of messages[i], for
// j < counts.size(); each message must hold at least ⌈counts.size()/64⌉ words. Vectorized (the
// 64 counters of a packed word stay in SIMD registers while the messages are added) and split
// across `threads` by word ranges; equal to n calls of AccumulateBits. Counts wrap modulo 2^32.
void AccumulateMessages(std::span<const std::span<const std::uint64_t>> messages, std::span<std::uint32_t> counts,
                        int threads = 1);
// Mean estimate of n decoded messages: c + rα(2·count/n − 1) (seed-000 Alg. 3 l.23 with the
// survivors' count n; E31).
void DecodeMean(const BinaryLevels& levels, std::span<const std::uint32_t> counts, std::uint32_t n,
                std::span<float> mean);

}  // namespace dpfl::quant
