// INTERNAL to the dpfl libraries and their tests; not installed.
//
// The per-element rules of the DPFL-BNN client encoders (seed 004 Alg. B and C) and of the
// server's decoding (Alg. D/E), host and device, templated on a compile-time fault policy that is
// all-false in production (NoRrFaults), as binary_rules.hpp is for the seed-000/001 quantizers:
// the planted mutants of tests/mutants instantiate these very rules through the loops of
// rr_encoders.hpp, so the harness is proven to catch faults in this code (docs/mutants.md).
#pragma once

#include <cmath>
#include <cstdint>

#include "dpfl/hd.hpp"
#include "dpfl/quant/binary_element.hpp"
#include "dpfl/quant/rr_element.hpp"

namespace dpfl::quant {

struct NoRrFaults {
  static constexpr bool kGammaAsFlipProbability = false;  // seed-004 E27: flip w.p. γ instead of 1/2 − γ
  static constexpr bool kOneCoinPerMessage = false;       // seed-004 E29: coordinate 0's coin for every coordinate
  static constexpr bool kSkipRandomizedResponse = false;  // seed-004 E8: the un-noised bits are uploaded
  static constexpr bool kLogisticStoSign = false;         // seed-004 E13: StoSign with the logistic sigmoid
  static constexpr bool kSumNotAverage = false;           // seed-004 E9: the server broadcasts 2K − n, not (2K − n)/n
  static constexpr bool kSignZeroMinus = false;           // seed-004 E17: Sign(0) = −1 (a tie binarizes to −)
  static constexpr bool kStoSignWithoutClip = false;      // seed-004 §1.2: (θ + 1)/2 unclipped, wrapping mod 2^64
  static constexpr bool kRrBeforeBinarization = false;    // seed-004 Alg. 1' l. 13–14 swapped: RR on the latents' signs
  static constexpr bool kStreamReusedAcrossRounds = false;  // the RR/StoSign coins of round 0 in every round
};

template <class Faults = NoRrFaults>
DPFL_HD bool SignRule(float theta) {
  if (Faults::kSignZeroMinus) return theta > 0.0f;
  return SignPlus(theta);
}

template <class Faults = NoRrFaults>
DPFL_HD bool StoSignRule(float theta, std::uint64_t v) {
  if (Faults::kLogisticStoSign) return v < ProbabilityToThreshold(1.0 / (1.0 + std::exp(-static_cast<double>(theta))));
  if (Faults::kStoSignWithoutClip) {
    // The threshold (θ + 1)/2·2^64 in unsigned 64-bit arithmetic without the clip: it wraps
    // modulo 2^64 (θ = 1.25 gives P(+) = 1/8, θ = −1.25 gives 7/8). Computed UB-free as the
    // fractional part of the (exact) double (θ + 1)/2.
    const double p = (static_cast<double>(theta) + 1.0) / 2.0;
    return v < ProbabilityToThreshold(p - std::floor(p));
  }
  return StoSignPlus(theta, v);
}

// The flip threshold the rule compares with (the E27 mutant reads γ as the flip probability).
template <class Faults = NoRrFaults>
DPFL_HD std::uint64_t FlipThresholdRule(double gamma) {
  if (Faults::kGammaAsFlipProbability) return ProbabilityToThreshold(gamma);
  return RrFlipThreshold(gamma);
}

template <class Faults = NoRrFaults>
DPFL_HD bool RrRule(bool plus, std::uint64_t v, std::uint64_t flip_threshold) {
  if (Faults::kSkipRandomizedResponse) return plus;
  return RrOutput(plus, v, flip_threshold);
}

// The server's broadcast value of one coordinate from the secure-aggregation count K of "+"
// among n uploads (Alg. D [DERIVED]: Σ_i b̃_i = 2K − n; E9: the average (2K − n)/n ∈ [−1, 1]).
template <class Faults = NoRrFaults>
DPFL_HD double BnnAverageRule(std::uint32_t count, std::uint32_t n) {
  const double sum = 2.0 * static_cast<double>(count) - static_cast<double>(n);
  return Faults::kSumNotAverage ? sum : sum / static_cast<double>(n);
}

}  // namespace dpfl::quant
