// dpfl-proofs — seed 002 (CEPAM / RSUQ / LRSUQ): helpers that seed002_cepam.cpp, seed002_laws.cpp
// and seed002_tables.cpp share (MPFI enclosures: a violation needs disjoint enclosures).
#pragma once

#include <cmath>

#include "claims.hpp"
#include "dpfl/ref/enclosure.hpp"
#include "instances.hpp"

namespace dpfl::proofs::seed002 {

// Working precision of the enclosures (bits).
inline int Prec(const CheckOptions& o) { return o.quick ? 128 : 192; }

// C(n, k) as an exact rational.
inline Rational Binom(long n, long k) {
  Rational c(1);
  for (long i = 0; i < k; ++i) c = c * (n - i) / (i + 1);
  return c;
}

// Γ(m/2 + 1) for an integer m ≥ 0.
inline ref::Enclosure GammaHalfPlusOne(long m, mpfr_prec_t w) {
  ref::Enclosure g(w, 1L);
  long start = 2;  // Γ(1) = 1; multiply by j/2 for j = 2, 4, …, m
  if (m % 2 == 1) {
    g = ref::Sqrt(ref::Pi(w)) / Rational(2);  // Γ(3/2)
    start = 3;
  }
  for (long j = start; j <= m; j += 2) g = g * Rational(j, 2);
  return g;
}

// Regularized lower incomplete gamma P(m/2, x) by its power series
//   P(a, x) = x^a e^{−x} Σ_{j≥0} x^j/Γ(a + j + 1),
// independent of the reference's erf recurrence; the tail after term J is ≤ t_J/(1 − x/(a+J+1))
// once x < a + J + 1 (terms then decrease geometrically), enclosed as [0, that bound].
inline ref::Enclosure SeriesGammaP(long m, const Rational& x, mpfr_prec_t w) {
  using ref::Enclosure;
  if (x == 0) return Enclosure(w, 0L);
  const Rational a(m, 2);
  const Enclosure xe(w, x);
  Enclosure term = ref::Pow(ref::Sqrt(xe), m) * ref::Exp(-xe) / GammaHalfPlusOne(m, w);  // j = 0
  Enclosure sum(w, 0L);
  for (long j = 0;; ++j) {
    sum += term;
    const Rational den = a + j + 1;
    term = term * x / den;
    if (x < den / 2 && term.HiDouble() < std::ldexp(sum.LoDouble(), -static_cast<int>(w) - 4)) {
      const Rational ratio = x / (den + 1);
      const Enclosure bound = term / Rational(1 - ratio);
      return sum + ref::Hull(Enclosure(w, 0L), bound);
    }
    if (j > 100000) throw Undecidable("series for P(a, x) did not converge");
  }
}

}  // namespace dpfl::proofs::seed002
