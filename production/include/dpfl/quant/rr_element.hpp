// What the DPFL-BNN client encoders (seed 004 Alg. 1' lines 13–14) implement, element by element,
// host and device: the binarizers of Alg. B and the randomized response of Alg. C on ±1 values,
// as exact 64-bit threshold decisions (DESIGN.md "Randomness and exact decisions"). The
// per-element rules with the mutant fault policy live in the internal header
// dpfl/quant/rr_rules.hpp.
//
// Bits: 1 = +1, 0 = −1 (bit j of a message is bit j % 64 of word j / 64, as for the other
// binary quantizers).
//
//  * Sign (eq. 6 corrected, E12; Sign(0) = +1, E17 [RECOMMENDED]): "+" iff θ ≥ 0 (−0 included).
//  * StoSign (Alg. B; the hard sigmoid of Hubara et al., spec §1.2 [RECOMMENDED], E13): "+"
//    w.p. clip((θ + 1)/2, 0, 1). Decision: θ ≥ 1 → "+"; otherwise "+" iff V < T(θ) with
//    T(θ) = ⌊(θ + 1)·2^63⌋ = 2^63 + ⌊θ·2^63⌋ (0 for θ ≤ −1), V a 64-bit uniform. For a float θ
//    the product θ·2^63 is exact in double and its floor too, so T(θ) is the exact floor and the
//    implemented probability T(θ)/2^64 is below (θ + 1)/2 by less than 2^−64 (equal when θ·2^63
//    is an integer, e.g. every θ that is a multiple of 2^−63).
//  * RR (Alg. C, ±1 form, E16): the bit is flipped iff V < T_flip with
//    T_flip = 2^63 − ⌈γ·2^64⌉ (γ ∈ [0, 1/2]); so the implemented flip probability is exactly
//    q̃ = T_flip/2^64 = 1/2 − γ̃ with γ̃ = ⌈γ·2^64⌉/2^64 ∈ [γ, γ + 2^−64): the certificate
//    accounts γ̃ (slightly more privacy loss than γ, never less). γ = 0 flips w.p. exactly 1/2
//    (the output is independent of the input); γ = 1/2 never flips (no privacy).
//
// Streams (dpfl/rng/streams.hpp): StoSign coins at (key, round, client, kStoSign, j), RR flips at
// (key, round, client, kRandomizedResponse, j), both decision streams with 16-bit heads
// (kBnnHeadBits): V's top 16 bits decide unless they tie with T's (probability 2^−16), and only
// then is the 48-bit tail read.
#pragma once

#include <cmath>
#include <cstdint>

#include "dpfl/hd.hpp"

namespace dpfl::quant {

inline constexpr int kBnnHeadBits = 16;

// T(θ) of StoSign for a finite θ < 1 (θ ≥ 1 is "+" without a comparison: StoSignPlus).
DPFL_HD std::uint64_t StoSignThreshold(float theta) {
  if (!(theta > -1.0f)) return 0;
  const double scaled = std::floor(static_cast<double>(theta) * 9223372036854775808.0);  // ⌊θ·2^63⌋, exact
  return (std::uint64_t{1} << 63) + static_cast<std::uint64_t>(static_cast<std::int64_t>(scaled));
}

// "+" of StoSign for a finite θ and the 64-bit uniform v.
DPFL_HD bool StoSignPlus(float theta, std::uint64_t v) { return theta >= 1.0f || v < StoSignThreshold(theta); }

// "+" of Sign (E17: Sign(0) = +1).
DPFL_HD bool SignPlus(float theta) { return theta >= 0.0f; }

// T_flip = 2^63 − ⌈γ·2^64⌉ for γ ∈ [0, 1/2] (validated by MakeRandomizedResponse): γ·2^64 is an
// exact scaling of a double and ⌈·⌉ of a double is exact, so T_flip is exact.
DPFL_HD std::uint64_t RrFlipThreshold(double gamma) {
  const double up = std::ceil(gamma * 18446744073709551616.0);  // ⌈γ·2^64⌉ ≤ 2^63
  return (std::uint64_t{1} << 63) - static_cast<std::uint64_t>(up);
}

// The RR output bit: the input bit flipped iff v < T_flip.
DPFL_HD bool RrOutput(bool plus, std::uint64_t v, std::uint64_t flip_threshold) { return plus != (v < flip_threshold); }

}  // namespace dpfl::quant
