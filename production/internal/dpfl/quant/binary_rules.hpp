// INTERNAL to the dpfl libraries and their tests; not installed. Use only for testing outside
// production/src and production/cuda.
//
// The per-element decision rules of the binary quantizers (seed-000 Alg. 1 and 2, seed-001
// §3.6 with p_x = 1/2), host and device, built from the thresholds and stream layout of
// dpfl/quant/binary_element.hpp. They are templated on a compile-time fault policy that is
// all-false in production (NoFaults): the planted mutants of tests/mutants instantiate them
// (through the loops of cpu_encoders.hpp) with one flag set, so the harness is proven to catch
// faults in *this* code, not in a copy of it (docs/mutants.md). The policy and every faulty
// instantiation stay out of the installed API: a user of the library cannot reach a mutant.
#pragma once

#include <cstdint>

#include "dpfl/hd.hpp"
#include "dpfl/quant/binary_element.hpp"

namespace dpfl::quant {

struct NoFaults {
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
// (seed-000 E1, the α sign as printed, is a fault of the levels, not of the rules: the mutant
// catalog builds those levels itself, tests/mutants/mutant_test.cpp.)

template <class Faults = NoFaults>
DPFL_HD double ClipWeightRule(double w, const BinaryLevels& k) {
  if (Faults::kClipToAlphaRadius) {
    const double ra = k.r * (k.alpha < 0 ? -k.alpha : k.alpha);
    const double lo = k.c - ra, hi = k.c + ra;
    return w < lo ? lo : (w > hi ? hi : w);
  }
  return ClipWeight(w, k);
}

template <class Faults = NoFaults>
DPFL_HD std::uint64_t MergeRule(std::uint64_t shared, std::uint64_t priv, int d) {
  return MergeSharedPrivate(shared, Faults::kDropTieCoin ? 0 : priv, d);
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

// LDPQ (Alg. 1): bit 1 = "+" level c + rα; "+" iff V < T+. (A "V ≤ T" fault changes the law
// only with probability 2^−64 per draw, so no statistical test can see it; it is not part of
// the mutant catalog: docs/mutants.md.)
template <class Faults = NoFaults>
DPFL_HD bool LdpqBit(double w, std::uint64_t priv, const BinaryLevels& k) {
  return priv < PlusThreshold(ClipWeightRule<Faults>(w, k), k);
}

// CorBinQ Q1 role / CoQ-FL Alice: bit 1 = "+".
template <class Faults = NoFaults>
DPFL_HD bool Q1RoleBit(double w, std::uint64_t shared, std::uint64_t priv, int d, const BinaryLevels& k) {
  std::uint64_t t = RoundCellFault<Faults>(PlusThreshold(ClipWeightRule<Faults>(w, k), k), d);
  t = ShiftThresholdByCells(t, Faults::kQ1CellOffset - (Faults::kProbListOffByOne ? 1 : 0), d);
  return MergeRule<Faults>(shared, priv, d) < t;
}

// CorBinQ Q2 role / CoQ-FL Bob: bit 1 = "+" (the rule decides "−" iff V' < T−).
template <class Faults = NoFaults>
DPFL_HD bool Q2RoleBit(double w, std::uint64_t shared, std::uint64_t priv, int d, const BinaryLevels& k) {
  if (Faults::kBothRolesQ1) return Q1RoleBit<Faults>(w, shared, priv, d, k);
  const std::uint64_t t = RoundCellFault<Faults>(MinusThreshold(ClipWeightRule<Faults>(w, k), k), d);
  return !(MergeRule<Faults>(shared, priv, d) < t);
}

// Decoded value of one bit: c + U·rα, U = ±1 (seed-000 §3.0) — U ∈ {0, 1} is a planted mutant.
template <class Faults = NoFaults>
DPFL_HD double DecodeBit(bool plus, const BinaryLevels& k) {
  const double u = Faults::kDecodeZeroOne ? (plus ? 1.0 : 0.0) : (plus ? 1.0 : -1.0);
  return k.c + u * k.r * k.alpha;
}

}  // namespace dpfl::quant
