// dpfl::ref — RDP of the Sampled Gaussian Mechanism (SGM).
//
// Mironov, Talwar, Zhang 2019, "Rényi Differential Privacy of the Sampled Gaussian Mechanism",
// Sec. 3.3 (the computation used by Opacus and TF-Privacy). SGM: Poisson subsampling with rate q,
// sum of the sampled records' contributions (ℓ2 norm clipped to 1), plus N(0, σ²). Adjacency:
// add/remove one record (Poisson subsampling); D_α(SGM) = log(A_α)/(α − 1) with
//   A_α = E_{z∼μ0}[(μ(z)/μ0(z))^α],  μ0 = N(0, σ²),  μ1 = N(1, σ²),  μ = (1−q)μ0 + qμ1.
//
//  * Integer α (binomial expansion, exact coefficients):
//      A_α = Σ_{k=0}^{α} C(α,k) (1−q)^{α−k} q^k exp((k² − k)/(2σ²)).
//    The coefficient C(α,k)(1−q)^{α−k}q^k is an exact rational; only exp and log are enclosed.
//  * Fractional α (two series, split at z0 = σ² ln(1/q − 1) + 1/2 where qμ1 = (1−q)μ0):
//      A_α = Σ_{i≥0} C(α,i) [ q^i (1−q)^{α−i} e^{(i²−i)/(2σ²)} Φ((z0 − i)/σ)
//                            + q^{α−i} (1−q)^i e^{(j²−j)/(2σ²)} Φ((j − z0)/σ) ],  j = α − i,
//    from (1+x)^α = Σ C(α,i) x^i on z ≤ z0 (x = qμ1/((1−q)μ0) ∈ [0,1]) and on z > z0
//    (x = (1−q)μ0/(qμ1) ∈ (0,1)).
//    Truncation bound (our derivation, Taylor with Lagrange remainder): for N + 1 > α and
//    x ∈ [0, 1], (1+x)^α − Σ_{i≤N} C(α,i)x^i = C(α,N+1) x^{N+1} (1+ξ)^{α−N−1} with ξ ∈ (0, x),
//    and 0 < (1+ξ)^{α−N−1} ≤ 1. Integrating, each series' remainder has the sign of C(α,N+1)
//    and modulus at most its (N+1)-th term. So A_α lies between the N-term partial sum and the
//    partial sum plus both (N+1)-th terms; we return that hull (rigorous, not an estimate).
//    The series converge only polynomially (terms ~ i^{−α−2}), so the fractional-order width is
//    limited by `max_terms`, not by the precision: it is reported in the result.
//  * q = 1 is the Gaussian mechanism: α/(2σ²), exactly (both branches; tested).
#pragma once

#include "dpfl/ref/gaussian.hpp"

namespace dpfl::ref {

struct SgmOptions {
  int precision_bits = kDefaultAccountingPrecisionBits;
  int max_terms = 200;            // fractional orders: series terms (each series)
  Rational relative_tolerance = Rational(1, 1000000) * Rational(1, 1000000) * Rational(1, 1000000) *
                                Rational(1, 1000000) * Rational(1, 1000000);  // 1e-30
};

struct SgmRdp {
  Interval value;       // D_α
  bool integer_order = true;
  int terms = 0;        // fractional: series terms summed (each series)
};

// log A_α by the integer expansion; q ∈ [0, 1], σ > 0, integer α ≥ 2 (no q = 1 shortcut: used by
// the tests to check that the expansion itself reduces to the Gaussian at q = 1).
Enclosure SampledGaussianLogAInteger(const Rational& q, const Rational& sigma, unsigned long order, mpfr_prec_t prec);

// D_α of the SGM. Names "q" (∉ (0, 1]), "sigma" (≤ 0), "order" (≤ 1, or > 1e5), "precision".
Enclosure SampledGaussianRdpEnclosure(const Rational& q, const Rational& sigma, const Rational& order,
                                      const SgmOptions& options = {}, int* terms_used = nullptr);
SgmRdp SampledGaussianRdp(const Rational& q, const Rational& sigma, const Rational& order,
                          const SgmOptions& options = {});

}  // namespace dpfl::ref
