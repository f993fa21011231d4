// Production DPFL-BNN client encoders on the CPU (seed 004 Alg. 1' lines 13–14): binarization of
// the latent weights θ ∈ [−1, 1]^m (Alg. B: StoSign or Sign) into bit-packed ±1 vectors, and
// randomized response on those bits (Alg. C); plus the server's decoding of the
// secure-aggregation counts (Alg. D/E). Element rules and exactness: dpfl/quant/rr_element.hpp.
//
// Contract (docs/production.md "DPFL-BNN encoders"):
//  * γ ∈ [0, 1/2], finite, else InvalidArgument("rr-gamma"). γ = 1/2 never flips (no privacy).
//  * θ: NaN or ±Inf anywhere throws InvalidArgument("theta") naming the first index, and every
//    word of `bits` is then 0; finite values outside [−1, 1] binarize as the clip would (StoSign's
//    hard sigmoid saturates, Sign keeps the sign: E14).
//  * Output: bit j of a message is bit (j % 64) of word j / 64, 1 = +1; unused high bits of the
//    last word are 0 (ApplyRandomizedResponse clears them). `bits` must hold ⌈m/64⌉ words.
//  * Randomness: StoSign coins at (key, round, client, kStoSign, j), RR flips at (key, round,
//    client, kRandomizedResponse, j); decision streams with 16-bit heads. Deterministic given the
//    addresses, for any thread count; the SIMD path is bit-identical to the scalar loops of the
//    internal rr_encoders.hpp (tests/unit/rr_encoder_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/rr_element.hpp"

namespace dpfl::quant {

// A validated RR parameter: γ and its exact flip threshold (flip iff V < flip_threshold).
struct RandomizedResponse {
  double gamma = 0;
  std::uint64_t flip_threshold = std::uint64_t{1} << 63;
};
RandomizedResponse MakeRandomizedResponse(double gamma);

// The implemented bias γ̃ = ⌈γ·2^64⌉/2^64 as its numerator ⌈γ·2^64⌉ = 2^63 − flip_threshold.
inline std::uint64_t ImplementedGammaNumerator(const RandomizedResponse& rr) {
  return (std::uint64_t{1} << 63) - rr.flip_threshold;
}

enum class Binarizer { kStoSign, kSign };

// Throws InvalidArgument("theta", …) naming the first NaN/±Inf, or InvalidArgument("bits", …).
void ValidateLatents(std::span<const float> theta, std::size_t packed_words);

void EncodeSign(std::span<const float> theta, std::span<std::uint64_t> bits, int threads = 1);
void EncodeStoSign(std::span<const float> theta, const StreamContext& ctx, std::uint32_t client,
                   std::span<std::uint64_t> bits, int threads = 1);
// EncodeStoSign or EncodeSign (which ignores ctx and client).
void Binarize(Binarizer binarizer, std::span<const float> theta, const StreamContext& ctx, std::uint32_t client,
              std::span<std::uint64_t> bits, int threads = 1);

// In place: bit j (j < m) flipped iff its RR uniform is below rr.flip_threshold; bits ≥ m cleared.
void ApplyRandomizedResponse(const RandomizedResponse& rr, std::size_t m, const StreamContext& ctx,
                             std::uint32_t client, std::span<std::uint64_t> bits, int threads = 1);

// A client's whole upload (Alg. 1' lines 13–14): Binarize, then ApplyRandomizedResponse unless rr
// is null (the no-noise baseline). The order matters for Sign: RR on the latents' signs before
// binarization would upload a tie θ = 0 as "+" surely (tests/mutants, kRrBeforeBinarization).
void EncodeBnnUpload(Binarizer binarizer, const RandomizedResponse* rr, std::span<const float> theta,
                     const StreamContext& ctx, std::uint32_t client, std::span<std::uint64_t> bits, int threads = 1);

// The broadcast aggregate of n uploads from the per-coordinate counts K of "+" (AccumulateBits /
// AccumulateMessages, the secure-aggregation view): mean[j] = (2K_j − n)/n (E9: the average).
void DecodeBnnAverage(std::span<const std::uint32_t> counts, std::uint32_t n, std::span<float> mean);

}  // namespace dpfl::quant
