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
//    Tail enclosure (our derivation). Let i0 = ⌊α⌋ + 1 and a_i = |C(α,i)| (m_i + m'_i) with m_i,
//    m'_i the two series' i-th terms without the coefficient. For i ≥ i0 the sign of C(α,i) is
//    (−1)^{i−i0}, so A_α = Σ_{i<n} C(α,i)(m_i + m'_i) + (−1)^{n−i0} Σ_{j≥0} (−1)^j a_{n+j} for any
//    n ≥ i0. The sequence (a_{n+j})_{j≥0} is a Hausdorff moment sequence, a_{n+j} = ∫_0^1 u^j dρ(u)
//    with ρ ≥ 0:
//      - m_i = ∫_{z≤z0} x(z)^i (1−q)^α μ0(z) dz with x = qμ1/((1−q)μ0) ∈ (0, 1] there, and
//        m'_i = ∫_{z>z0} y(z)^i q^α μ1^α μ0^{1−α} dz with y = 1/x ∈ (0, 1): moments of positive
//        measures on [0, 1];
//      - |C(α,i)| = |C(α,i0)| Γ(i0+1)/Γ(i0−α) · Γ(i−α)/Γ(i+1) and Γ(i−α)/Γ(i+1) =
//        (1/Γ(α+1)) ∫_0^1 t^{i−i0} t^{i0−α−1}(1−t)^α dt (Beta integral, i0 − α > 0): moments too;
//      - a product of two moment sequences is the moment sequence of the product variable t·x.
//    Hence D_k := Σ_{l≤k} C(k,l)(−1)^l a_{n+l} = ∫ (1−u)^k dρ ≥ 0, Σ_j (−1)^j a_{n+j} = ∫ dρ/(1+u),
//    and from
//    1/(1+u) = Σ_{k<K} (1−u)^k/2^{k+1} + ((1−u)/2)^K/(1+u) (u ∈ [0, 1]) Euler's transformation
//    holds with an enclosed remainder:
//      Σ_{j≥0} (−1)^j a_{n+j} = Σ_{k<K} D_k/2^{k+1} + E,   0 ≤ E ≤ D_K/2^K.
//    (The interchange of sum and integral is dominated convergence: the partial sums of
//    Σ(−u)^j are bounded by 2 on [0, 1] and ρ({1}) = 0.) The D_k come from the K + 1 terms
//    a_n … a_{n+K} by repeated differences in interval arithmetic. Heuristically the remainder
//    shrinks like ~8^{−K} for n ≈ K (ρ behaves like (1−u)^{α+1} du near u = 1, as a_i ~ i^{−α−2};
//    only the computed bound D_K/2^K is relied on, not this estimate), whereas the
//    plain alternating bound (K = 0: E ≤ a_n, the previous implementation's Lagrange remainder)
//    shrinks only polynomially. With m terms computed, every split n ∈ [max(i0, m−1−128), m−1]
//    (K = m−1−n) is tried and the smallest remainder bound kept (K = 0 included, which wins when
//    the terms decay fast). Terms are added until D_K/2^K ≤ `relative_tolerance` × the sum
//    (checked every 4 terms) or `max_terms` terms are used; the enclosure is rigorous either way.
//    Since the result is only as tight as the tolerance, the terms are evaluated at
//    min(precision_bits, log2(1/relative_tolerance) + 40) bits (MPFI encloses at any precision).
//  * q = 1 is the Gaussian mechanism: α/(2σ²), exactly (both branches; tested).
#pragma once

#include "dpfl/ref/gaussian.hpp"

namespace dpfl::ref {

struct SgmOptions {
  int precision_bits = kDefaultAccountingPrecisionBits;
  int max_terms = 200;            // fractional orders: at most this many terms a_i (each covers both series)
  Rational relative_tolerance = Rational(1, 1000000) * Rational(1, 1000000) * Rational(1, 1000000) *
                                Rational(1, 1000000) * Rational(1, 1000000);  // 1e-30
};

struct SgmRdp {
  Interval value;       // D_α
  bool integer_order = true;
  int terms = 0;        // fractional: terms a_i evaluated (head plus Euler-transformed tail)
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
