// Per-element math of the binary quantizers (LDPQ, CorBinQ, CoQ-FL), host and device.
//
// Exact decisions (DESIGN.md "Randomness and exact decisions"): for a "+" probability q the
// threshold T = ⌊q·2^64⌋ is computed once per parameter, a 64-bit uniform V is drawn, and the
// output is "+" iff V < T. The implemented probability is exactly T/2^64.
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
//
// `Faults` is a compile-time policy that is all-false in production (NoFaults). The planted
// mutants of tests/mutants instantiate these functions with a faulty policy, so the harness is
// proven to catch faults in *this* code, not in a copy of it.
#pragma once

#include <cstdint>

#include "dpfl/hd.hpp"

namespace dpfl::quant {

struct NoFaults {
  static constexpr bool kAlphaSignAsPrinted = false;   // seed-000 E1: α = (1+E)/(1−E) < 0
  static constexpr bool kClipToAlphaRadius = false;    // clip to [c − rα, c + rα] instead of [c − r, c + r]
  static constexpr int kQ1CellOffset = 0;              // threshold moved by whole cells (2^(64−d) units)
  static constexpr bool kProbListOffByOne = false;     // seed-001 E1: Alice's marginal P − 2^−d
  static constexpr bool kDropTieCoin = false;          // private bits of V forced to 0
  static constexpr bool kRoundCellToNearest = false;   // cell index round(2^d q) instead of ⌊2^d q⌋
  static constexpr bool kBothRolesQ1 = false;          // partner roles not reversed
  static constexpr bool kReuseSharedBits = false;      // parameter 0's shared bits used for every parameter
  static constexpr bool kLine14AsPrinted = false;      // seed-000 E3 (needs the partner's threshold)
  static constexpr bool kDecodeZeroOne = false;        // U ∈ {0,1}: levels {c, c + rα}
};

// Per-layer constants, computed once on the host from validated parameters.
struct BinaryLevels {
  double c;                // center
  double r;                // radius > 0
  double alpha;            // α = (e^ε+1)/(e^ε−1) > 1 (or −α under kAlphaSignAsPrinted)
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

template <class Faults = NoFaults>
DPFL_HD double ClipWeight(double w, const BinaryLevels& k) {
  double lo = k.lo, hi = k.hi;
  if (Faults::kClipToAlphaRadius) {
    const double ra = k.r * (k.alpha < 0 ? -k.alpha : k.alpha);
    lo = k.c - ra;
    hi = k.c + ra;
  }
  return w < lo ? lo : (w > hi ? hi : w);
}

// T+ = ⌊q(w)·2^64⌋, q(w) = 1/2 + (w − c)/(2rα) (Alg. 1 l.2), w already clipped.
template <class Faults = NoFaults>
DPFL_HD std::uint64_t PlusThreshold(double w, const BinaryLevels& k) {
  return ProbabilityToThreshold(0.5 + (w - k.c) * k.inv_two_r_alpha);
}
// T− = ⌊(1 − q(w))·2^64⌋, computed as 1/2 − (w − c)/(2rα) (no cancellation in 1 − q).
template <class Faults = NoFaults>
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
template <class Faults = NoFaults>
DPFL_HD std::uint64_t MergeSharedPrivate(std::uint64_t shared, std::uint64_t priv, int d) {
  if (Faults::kDropTieCoin) priv = 0;
  if (d == 0) return priv;
  const std::uint64_t high_mask = ~std::uint64_t{0} << (64 - d);
  return (shared & high_mask) | (priv >> d);
}

// "+" iff V < T. (A "V ≤ T" fault changes the law only with probability 2^−64 per draw, so no
// statistical test can see it; it is not part of the mutant catalog: docs/mutants.md.)
template <class Faults = NoFaults>
DPFL_HD bool Below(std::uint64_t v, std::uint64_t t) {
  return v < t;
}

// kRoundCellToNearest mutant only (the classic float bug t = round(2^d q) instead of ⌊2^d q⌋):
// with T = t·2^(64−d) + ⌊f·2^(64−d)⌋, f ≥ 1/2 moves the cell to t + 1 and leaves the tie
// probability 2^d q − (t + 1) < 0, i.e. the threshold becomes (t + 1)·2^(64−d) (saturated);
// f < 1/2 keeps T. The identity when the fault is off.
template <class Faults = NoFaults>
DPFL_HD std::uint64_t RoundCellFault(std::uint64_t t, int d) {
  if (!Faults::kRoundCellToNearest) return t;
  if (d == 0) return t < (std::uint64_t{1} << 63) ? t : ~std::uint64_t{0};
  const std::uint64_t cell = std::uint64_t{1} << (64 - d);
  const std::uint64_t frac = t & (cell - 1);
  if (frac < (cell >> 1)) return t;
  const std::uint64_t start = t - frac;
  return start > ~std::uint64_t{0} - cell ? ~std::uint64_t{0} : start + cell;
}

// Moves a threshold by `cells` whole cells of 2^(64−d), saturating at 0 and 2^64 − 1.
DPFL_HD std::uint64_t ShiftThresholdByCells(std::uint64_t t, int cells, int d) {
  if (cells == 0) return t;
  const std::uint64_t cell = d == 0 ? ~std::uint64_t{0} : (std::uint64_t{1} << (64 - d));
  if (cells < 0) return t < cell ? 0 : t - cell;
  return t > ~std::uint64_t{0} - cell ? ~std::uint64_t{0} : t + cell;
}

// LDPQ (Alg. 1): bit 1 = "+" level c + rα.
template <class Faults = NoFaults>
DPFL_HD bool LdpqBit(double w, std::uint64_t priv, const BinaryLevels& k) {
  return Below<Faults>(priv, PlusThreshold<Faults>(ClipWeight<Faults>(w, k), k));
}

// CorBinQ Q1 role / CoQ-FL Alice: bit 1 = "+".
template <class Faults = NoFaults>
DPFL_HD bool Q1RoleBit(double w, std::uint64_t shared, std::uint64_t priv, int d, const BinaryLevels& k) {
  std::uint64_t t = RoundCellFault<Faults>(PlusThreshold<Faults>(ClipWeight<Faults>(w, k), k), d);
  t = ShiftThresholdByCells(t, Faults::kQ1CellOffset - (Faults::kProbListOffByOne ? 1 : 0), d);
  return Below<Faults>(MergeSharedPrivate<Faults>(shared, priv, d), t);
}

// CorBinQ Q2 role / CoQ-FL Bob: bit 1 = "+" (the rule decides "−" iff V' < T−).
template <class Faults = NoFaults>
DPFL_HD bool Q2RoleBit(double w, std::uint64_t shared, std::uint64_t priv, int d, const BinaryLevels& k) {
  if (Faults::kBothRolesQ1) return Q1RoleBit<Faults>(w, shared, priv, d, k);
  const std::uint64_t t = RoundCellFault<Faults>(MinusThreshold<Faults>(ClipWeight<Faults>(w, k), k), d);
  return !Below<Faults>(MergeSharedPrivate<Faults>(shared, priv, d), t);
}

// Decoded value of one bit: c + U·rα, U = ±1 (seed-000 §3.0) — U ∈ {0, 1} is a planted mutant.
template <class Faults = NoFaults>
DPFL_HD double DecodeBit(bool plus, const BinaryLevels& k) {
  const double u = Faults::kDecodeZeroOne ? (plus ? 1.0 : 0.0) : (plus ? 1.0 : -1.0);
  return k.c + u * k.r * k.alpha;
}

}  // namespace dpfl::quant
