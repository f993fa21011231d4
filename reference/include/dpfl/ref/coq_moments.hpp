// dpfl::ref — CoQ-FL (seed 001) part 3 of 4: second moments of a pair — Lemma 2 (Eq. 5), Eq. 6,
// D4 and the ideal coupling (§4.6), the D5 gap, E14 (independence) and D6 (roles).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dpfl/ref/coq_codebook.hpp"

namespace dpfl::ref {

// ---- D4 and the ideal coupling (Lemma 2, Eq. 6, §4.6) ----

template <class Real>
Real FourR2Alpha2(const Real& alpha, const Rational& r) {
  return Real(Rational(4 * r * r)) * alpha * alpha;
}
// D4: Cov(w*_A, w*_B) = 4r²α²(π++ − P_A P_B).
template <class Real>
Real CoqCovariance(const Real& alpha, const Rational& r, const Real& pi_pp, const Real& P_A, const Real& P_B) {
  return FourR2Alpha2(alpha, r) * (pi_pp - P_A * P_B);
}
// D4: Var(w*_A + w*_B) = 4r²α²(S − S² + 2π++), S = P_A + P_B.
template <class Real>
Real CoqPairSumVariance(const Real& alpha, const Rational& r, const Real& pi_pp, const Real& P_A,
                        const Real& P_B) {
  const Real S = P_A + P_B;
  return FourR2Alpha2(alpha, r) * (S - S * S + Real(2) * pi_pp);
}
// §4.5 / §7 item 9: the ideal (d → ∞, countermonotone) π++ = max(0, S − 1).
template <class Real>
Real IdealPiPlusPlus(const Real& P_A, const Real& P_B) {
  return Max(Real(0), Real(P_A + P_B - Real(1)));
}
// Lemma 2, Eq. (5): −(w_A − w_lo)(w_B − w_lo) if (w_A + w_B)/2 ≤ c, else −(w_A − w_hi)(w_B − w_hi).
template <class Real>
Real Lemma2Covariance(const Real& alpha, const Rational& c, const Rational& r, const Rational& wA,
                      const Rational& wB) {
  const Real level = (wA + wB) / 2 <= c ? Real(Real(c) - Real(r) * alpha) : Real(Real(c) + Real(r) * alpha);
  return -((Real(wA) - level) * (Real(wB) - level));
}
// Eq. (6): with E[w] = (w_A + w_B)/2, −4(E[w] − c)(E[w] − w_lo) if E[w] ≤ c, else with w_hi.
template <class Real>
Real Eq6PairSumVariance(const Real& alpha, const Rational& c, const Rational& r, const Rational& wA,
                        const Rational& wB) {
  const Rational mean = (wA + wB) / 2;
  const Real level = mean <= c ? Real(Real(c) - Real(r) * alpha) : Real(Real(c) + Real(r) * alpha);
  return Real(Rational(-4 * (mean - c))) * (Real(mean) - level);
}
// §4.6 [DERIVED]: 4r²α²{S}(1 − {S}), {S} = S − ⌊S⌋.
template <class Real>
Real FractionalPairSumVariance(const Real& alpha, const Rational& r, const Real& S) {
  const Real frac = S - Real(Rational(FloorInt(S)));
  return FourR2Alpha2(alpha, r) * frac * (Real(1) - frac);
}
// §7 item 10: independent (LDP-FL, d = 0) pair: 2r²α² − (w_A − c)² − (w_B − c)².
template <class Real>
Real IndependentPairSumVariance(const Real& alpha, const Rational& c, const Rational& r, const Rational& wA,
                                const Rational& wB) {
  const Rational a = wA - c, b = wB - c;
  return Real(Rational(2 * r * r)) * alpha * alpha - Real(Rational(a * a + b * b));
}
// §4.6(d) / §7 item 12: sup over admissible weights of the ideal pair variance:
// r²α² for α ≤ 2, 4r²(α − 1) for α ≥ 2.
template <class Real>
Real IdealPairSumVarianceSup(const Real& alpha, const Rational& r) {
  const Real r2 = Real(Rational(r * r));
  return alpha <= Real(2) ? Real(r2 * alpha * alpha) : Real(Real(4) * r2 * (alpha - Real(1)));
}
// §4.6(d): independent pair: sup 2r²α² (w_A = w_B = c), inf 2r²(α² − 1) (w = c ± r).
template <class Real>
Real IndependentPairSumVarianceSup(const Real& alpha, const Rational& r) {
  return Real(Rational(2 * r * r)) * alpha * alpha;
}
template <class Real>
Real IndependentPairSumVarianceInf(const Real& alpha, const Rational& r) {
  return Real(Rational(2 * r * r)) * (alpha * alpha - Real(1));
}

// ---- D5 gap, E14 independence, D6 roles ----

// D5: δ = π++ − max(0, S − 1) ≥ 0; δ = 0 unless k_A = k_B.
template <class Real>
Real CoqGapDelta(const Real& pi_pp, const Real& P_A, const Real& P_B) {
  return pi_pp - IdealPiPlusPlus(P_A, P_B);
}
// D5 bound: δ ≤ p(k)/4 with k = k_A (returned whatever the cells; δ = 0 when k_A ≠ k_B).
template <class Real>
Rational CoqGapDeltaBound(const CoqCodebook& book, const Real& P_A) {
  return book.p(AliceCell(book, P_A).k) / 4;
}
// D5 / §7 item 12: at S = 1 the finite-d pair variance is 8r²α² x y / p with
// x = P_A − F(k), y = F(k+1) − (1 − P_B), p = p(k) (0 when k_A ≠ k_B).
template <class Real>
Real CoqPairSumVarianceAtSOne(const CoqCodebook& book, const Real& alpha, const Rational& r, const Real& P_A,
                              const Real& P_B) {
  const CoqCell<Real> a = AliceCell(book, P_A), b = BobCell(book, P_B);
  if (a.k != b.k) return Real(0);
  const Real x = P_A - Real(book.F(a.k));
  const Real y = Real(book.F(Int(a.k + 1))) - (Real(1) - P_B);
  return Real(Rational(8 * r * r)) * alpha * alpha * x * y / Real(book.p(a.k));
}
// E14 / §4.8 item 1: π++ − P(U_A=+1)P(U_B=+1), zero iff the two bits are independent
// (binary variables). d = 0 gives 0 (LDP-FL); d = 1, p_x = 1/2 does not.
template <class Real>
Real CoqIndependenceGap(const CoqJoint<Real>& j) {
  return j.pp - j.APlus() * j.BPlus();
}

}  // namespace dpfl::ref
