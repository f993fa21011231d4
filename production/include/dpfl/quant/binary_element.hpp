// What the binary quantizers (LDPQ, CorBinQ, CoQ-FL) implement, element by element, host and
// device: the validated per-layer constants, the exact thresholds, and the layout of the
// decision uniforms. The per-element decision rules built from these live in the library's
// internal header dpfl/quant/binary_rules.hpp (production/internal/, not installed).
//
// Exact decisions (DESIGN.md "Randomness and exact decisions"): for a "+" probability q the
// threshold T = ⌊q·2^64⌋ is computed once per parameter, a 64-bit uniform V is drawn, and the
// output is "+" iff V < T. The implemented probability is exactly T/2^64, so the certificate
// states the ε the thresholds implement (production/certify/privacy_ledger.cpp).
//
// CorBinQ (seed-000 §3.2, per-client form [DERIVED]) in one comparison: V = (top d bits of the
// pair's shared uniform) ‖ (top 64−d bits of the client's private uniform). Its top d bits are the
// shared index z = int(Z) (MSB first, spec 000 §3.0) and the rest an independent private
// uniform L on [0, 2^(64−d)). With T = t·2^(64−d) + ⌊f·2^(64−d)⌋:
//   V < T  ⇔  z < t, or z = t and L < ⌊f·2^(64−d)⌋,
// which is Alg. 2 lines 4–10 at the dyadic probability q̃ = T/2^64 (the tie coin has resolution
// 2^−(64−d)). The Q2 role (lines 12–19, corrected line 14: seed-000 E3) outputs "−" iff
// V' < ⌊(1−q2)·2^64⌋, V' built from the same shared uniform and the partner's private one.
// CoQ-FL with p_x = 1/2 (seed-001 §3.6, MSB-first ConvertToInteger) is the same pair of rules:
// Alice (UP = +1) = Q1 role, Bob (UP = −1) = Q2 role.
#pragma once

#include <cstdint>

#include "dpfl/hd.hpp"

namespace dpfl::quant {

// Per-layer constants, computed once on the host from validated parameters (MakeBinaryLevels).
struct BinaryLevels {
  double c;                // center
  double r;                // radius > 0
  double alpha;            // α = (e^ε+1)/(e^ε−1) > 1
  double inv_two_r_alpha;  // 1/(2rα)
  double lo, hi;           // clipping range [c − r, c + r]
};

// ⌊q·2^64⌋ for q ∈ [0, 1], saturated to 2^64 − 1 at q = 1 (then P(+) = 1 − 2^−64: the only
// value not representable; documented in docs/production.md). q is a double, so q·2^64 is
// exact and the conversion truncates, i.e. floors.
DPFL_HD std::uint64_t ProbabilityToThreshold(double q) {
  if (!(q > 0.0)) return 0;
  if (q >= 1.0) return ~std::uint64_t{0};
  return static_cast<std::uint64_t>(q * 18446744073709551616.0);  // 2^64
}

// Finite w clipped to [c − r, c + r] (seed-000 footnote 2, seed-001 E12).
DPFL_HD double ClipWeight(double w, const BinaryLevels& k) { return w < k.lo ? k.lo : (w > k.hi ? k.hi : w); }

// T+ = ⌊q(w)·2^64⌋, q(w) = 1/2 + (w − c)/(2rα) (Alg. 1 l.2), w already clipped.
DPFL_HD std::uint64_t PlusThreshold(double w, const BinaryLevels& k) {
  return ProbabilityToThreshold(0.5 + (w - k.c) * k.inv_two_r_alpha);
}
// T− = ⌊(1 − q(w))·2^64⌋, computed as 1/2 − (w − c)/(2rα) (no cancellation in 1 − q).
DPFL_HD std::uint64_t MinusThreshold(double w, const BinaryLevels& k) {
  return ProbabilityToThreshold(0.5 - (w - k.c) * k.inv_two_r_alpha);
}

// Head widths of the decision streams (dpfl/rng/streams.hpp): how many of V's top bits each
// stream supplies from its cheap head; the rest come from its tail, read only on a tie.
//  * LDPQ: V = the private uniform, 16-bit heads (a tie has probability 2^−16).
//  * CorBinQ roles, shared stream: only its top d bits enter V, so for d ≤ 8 one byte holds all
//    of them and its tail is never read: 8-bit heads; 16-bit heads for d > 8.
//  * CorBinQ roles, private stream: V = z ‖ (private >> d), so V's top 16 bits need 16 − d
//    private bits; 8-bit heads give V's top min(16, d + 8) bits, i.e. a tie of probability
//    2^−min(16, d+8). For d ≥ 5 (ties ≤ 2^−13) the roles use 8-bit private heads, below that 16.
// So CorBinQ draws 2 bytes of keystream per parameter for 5 ≤ d ≤ 8 (3 otherwise) instead of 4.
// A stream's width is part of its definition, so every path (scalar, SIMD, CUDA, replay) takes
// it from here.
inline constexpr int kLdpqHeadBits = 16;
DPFL_HD int SharedHeadBits(int d) { return d <= 8 ? 8 : 16; }
DPFL_HD int RolePrivateHeadBits(int d) { return d >= 5 ? 8 : 16; }

// Low bits of V >> 48 that a role's heads leave unknown, so that the fast paths compare V >> 48
// and T >> 48 without them: V's top 16 bits are min(d, 16) shared bits and then
// 16 − min(d, 16) private ones, of which the private head gives at most RolePrivateHeadBits(d).
// 8 − d for 5 ≤ d < 8, else 0.
DPFL_HD int RoleHeadUnknownBits(int d) {
  const int shared = d < 16 ? d : 16, missing = 16 - shared - RolePrivateHeadBits(d);
  return missing > 0 ? missing : 0;
}

// V = top d bits of `shared` ‖ top 64 − d bits of `priv`, 0 ≤ d ≤ 62.
DPFL_HD std::uint64_t MergeSharedPrivate(std::uint64_t shared, std::uint64_t priv, int d) {
  if (d == 0) return priv;
  const std::uint64_t high_mask = ~std::uint64_t{0} << (64 - d);
  return (shared & high_mask) | (priv >> d);
}

}  // namespace dpfl::quant
