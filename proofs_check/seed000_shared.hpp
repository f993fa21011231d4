// dpfl-proofs — seed 000 (CorBin-FL): helpers that seed000_corbin_fl.cpp, seed000_central_truth.cpp
// and seed000_dropout.cpp share (exact rationals).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "claims.hpp"
#include "instances.hpp"

namespace dpfl::proofs::seed000 {

// Exact pmf of Binomial(trials, q), q ∈ (0, 1) rational, by the ratio recurrence.
inline std::vector<Rational> BinomialPmf(long trials, const Rational& q) {
  std::vector<Rational> pmf(static_cast<std::size_t>(trials) + 1);
  Rational first(1);
  for (long k = 0; k < trials; ++k) first *= 1 - q;
  pmf[0] = first;
  const Rational ratio = q / (1 - q);
  for (long x = 0; x < trials; ++x)
    pmf[static_cast<std::size_t>(x) + 1] = pmf[static_cast<std::size_t>(x)] * Rational(trials - x, x + 1) * ratio;
  return pmf;
}

// The smallest even n where Theorem 4 applies (`applies(n)`, monotone in n), found by doubling
// from 2 and bisection: {lo, hi} with applies(hi), !applies(lo) (or lo = 1). Each failed doubling
// step and each bisection step counts one instance in v.instances_checked. nullopt (v INCONCLUSIVE,
// with a note) when it does not apply for any n up to 2^41.
struct EvenBracket {
  long lo, hi;
};
template <class Applies>
std::optional<EvenBracket> SmallestEvenNWhereTheorem4Applies(Applies&& applies, Verdict& v) {
  long hi = 2;
  while (!applies(hi)) {
    ++v.instances_checked;
    if (hi > (1L << 40)) {
      v.status = Status::kInconclusive;
      v.note = "Theorem 4 does not apply for any n up to 2^41";
      return std::nullopt;
    }
    hi *= 2;
  }
  long lo = hi / 2;
  while (hi - lo > 2) {
    const long mid = (lo + hi) / 2 / 2 * 2;
    ++v.instances_checked;
    (applies(mid) ? hi : lo) = mid;
  }
  return EvenBracket{lo, hi};
}

}  // namespace dpfl::proofs::seed000
