// CQ: one-bit correlated quantization of Suresh, Sun, Ro, Yu (ICML 2022), the no-privacy
// baseline of seed-000 Exp. 1/5 (spec 001 §8 [EXTERNAL]).
//
// n clients, inputs clipped to [l, u] = [c − r, c + r], p_i = (w_i − l)/(u − l). Per coordinate
// j the clients share a uniformly random permutation π_j of {0..n−1} (stream kCqPermutation,
// entity = j); client i draws a private γ_ij ~ U[0,1) (its kPrivateCoin stream) and sends
// bit = [(π_j(i) + γ_ij)/n < p_ij]; the server decodes l + (u − l)·bit and averages. Each
// (π_j(i) + γ_ij)/n is marginally U[0,1), so the mean is unbiased; the strata are distinct.
//
// Exact decision: (π + γ)/n < p ⇔ π·2^64 + G < ⌊n·p·2^64⌋ with G the private 64-bit uniform,
// evaluated as a 128-bit comparison (implemented probability ⌊n·p·2^64⌋/2^64 − π, clamped).
// No privacy: this baseline has no ε; the server may know π.
#pragma once

#include <cstdint>
#include <span>

#include "dpfl/quant/binary_quantizer.hpp"

namespace dpfl::quant {

struct CqRange {
  double lo, hi;  // [c − r, c + r]
};
CqRange MakeCqRange(double c, double r);  // validated like MakeBinaryLevels (finite, r > 0)

// weights: n rows of m floats (row i = client i); bits: n rows of PackedWords(m) words.
void EncodeCq(const CqRange& range, std::uint32_t n, std::span<const float> weights, std::size_t m,
              const StreamContext& ctx, std::span<std::uint64_t> bits);
// π_j as used by EncodeCq (exposed for tests).
void CqPermutation(std::uint32_t n, std::uint64_t coordinate, const StreamContext& ctx, std::span<std::uint32_t> perm);
// Mean of decoded messages: l + (u − l)·count/n.
void DecodeCqMean(const CqRange& range, std::span<const std::uint32_t> counts, std::uint32_t n, std::span<float> mean);

}  // namespace dpfl::quant
