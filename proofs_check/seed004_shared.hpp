// dpfl-proofs — seed 004 (binary FL with randomized response): helpers that seed004_binary_fl.cpp,
// seed004_lemmas.cpp and seed004_errata.cpp share (exact rationals; MPFI where e^x enters).
#pragma once

#include <cstddef>
#include <vector>

#include "claims.hpp"
#include "dpfl/ref/bnn_laws.hpp"
#include "instances.hpp"

namespace dpfl::proofs::seed004 {

// Working precision of the enclosures (bits).
inline int Prec(const CheckOptions& o) { return o.quick ? 160 : 256; }

// Σ_y [P(y) − E·Q(y)]_+ (Definition 1's δ at e^ε = E, rational E).
inline Rational HockeyStick(const std::vector<Rational>& P, const std::vector<Rational>& Qv, const Rational& E) {
  Rational d(0);
  for (std::size_t y = 0; y < P.size(); ++y) d += ref::Max(Rational(0), P[y] - E * Qv[y]);
  return d;
}

// Law of Σ_i b̃_i (index Σ + m) over m reporters with P(b̃_i = +1) = plus_probs[i]: the
// Poisson-binomial law of K = #(+1) by exact convolution, Σ = 2K − m.
inline std::vector<Rational> SumLaw(const std::vector<Rational>& plus_probs) {
  const std::vector<Rational> k = ref::PoissonBinomialPmf(plus_probs);
  const std::size_t m = plus_probs.size();
  std::vector<Rational> law(2 * m + 1, Rational(0));
  for (std::size_t j = 0; j <= m; ++j) law[2 * j] = k[j];
  return law;
}

}  // namespace dpfl::proofs::seed004
