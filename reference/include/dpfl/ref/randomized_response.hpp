// dpfl::ref — randomized response (RR) and the DPFL-BNN accountant of seed 004.
//
// One RR bit with keep probability p ∈ (0, 1) (q = 1 − p); spec 004 writes p = 1/2 + γ.
// Adjacency: replace-one — the two input bits differ (spec 004 §2, E7: the proof bounds
// replacement; with h differing coordinates per client and T rounds, k = T·h bits compose).
// Natural logs. With S(α) = p^α q^{1−α} + q^α p^{1−α} (spec 004 §4.3, Lemma 3 [PAPER]):
//   ρ(α) = ln S(α)/(α − 1) (α > 1),  KL = (p − q) ln(p/q),  ρ(∞) = ℓ = |ln(p/q)|.
// ln S is evaluated in the stable form α ln m + (1 − α) ln n + log1p((n/m)^{2α−1}) with
// m = max(p, q), n = min(p, q) (spec 004 §7.1 item 3); at p = 1/2 it is exactly 0. For integer α
// S is the exact rational (p^{2α−1} + q^{2α−1})/(pq)^{α−1}.
//
// DPFL-BNN (spec 004 §3.3 Alg. P, §4.5–4.7), with γ ∈ [0, 1/2), Λ = ln(1/δ), k = T·h:
//  * Theorem 1 as printed (E3): γ ≤ g^{-1}((1/δ)/T); corrected: γ ≤ g^{-1}(Λ/(T h)), where
//    g(γ) = ln S(α*, γ), α* = 1 + 2Λ/ε. γ_max by bisection on exact dyadic q = 1/2 − γ (g is
//    strictly increasing in γ): the returned interval certainly contains γ_max.
//  * ε_thm1(γ): the root of T h ρ_γ(1 + 2Λ/ε) − ε/2 (strictly decreasing), by bisection.
//  * ε_rdp-opt(γ) = inf_α (k ln S(α) + Λ)/(α − 1) (Lemma 1): = kℓ (α = ∞) iff Λ ≥ k ln(1/p)
//    (decided on enclosures); otherwise a golden-section search on ln(α − 1) picks α̂ and the
//    returned ε is the rigorous enclosure of the Lemma-1 bound at α̂ (a valid guarantee; it
//    exceeds the infimum only by the search's second-order error).
//  * Exact profile (§4.6): δ(ε) = Σ_j C(k,j) [p^j q^{k−j} − e^ε q^j p^{k−j}]_+ (tight; the
//    dominating pair Bern(p)^⊗k vs Bern(q)^⊗k), and ε_exact(δ) = min{ε : δ(ε) ≤ δ} by bisection.
//    Two independent methods (they agree on the overlap; tests/unit/accounting_test.cpp):
//    - k ≤ kBnnExactRationalMaxBits: every C(k,j) p^j q^{k−j} is an exact rational, rounded
//      outward, and the positive parts are summed in interval arithmetic. Cost ~k² (bignums).
//    - k ≤ kBnnExactMaxBits (binomial tails, randomized_response_tail.cpp; §7 "log-space
//      binomial tails"): δ(ε) = A − e^ε B with X ~ Bin(k,p), A = P[X ≥ j*], B = P[X ≤ k − j*],
//      j* = ⌊(k + ε/ℓ)/2⌋ + 1. Rigor: (i) for every J, D(J) = P[X ≥ J] − e^ε P[X ≤ k − J]
//      drops positive or adds non-positive summands, so δ = max_J D(J); j* is bracketed by an
//      enclosure of (k + ε/ℓ)/2 and the Max over the bracket (and 0) encloses δ. (ii) A tail
//      starts at a term enclosed in log space, ln C(k,j) = lnΓ(k+1) − lnΓ(j+1) − lnΓ(k−j+1)
//      with mpfr_lngamma rounded down and up (correctly rounded), and walks away from the mode
//      by the exact ratio t_{j+1}/t_j = (k−j)p/((j+1)q) (or its inverse) in MPFI. (iii) That
//      ratio is monotone along the walk and < 1 from its first step (A is summed upward from
//      j* when j* > kp, else as 1 − P[X ≤ j* − 1]; B downward from k − j* < kp), so the unsummed
//      rest after a term t is ≤ t·r/(1 − r), r the next ratio's upper end: that bound is added
//      to the upper end, and the walk stops once it is ≤ 2^−w of the sum. Working precision
//      w = precision + 64 + 2·bitlen(k) absorbs the walk's roundings and lnΓ's magnitude.
//      Cost: O(σ√w + w) MPFI steps per tail, σ = √(kpq) (≈ 3·10^4 at k = 8.2·10^6, 0.35 µs
//      each); ε_exact caches the two tails per j*, so its bisection computes ~30 pairs.
#pragma once

#include <memory>
#include <optional>

#include "dpfl/ref/gaussian.hpp"

namespace dpfl::ref {

// Exact S(α) for an integer α ≥ 2. Names "p" (∉ (0, 1)) and "order".
Rational RrSInteger(const Rational& p, unsigned long order);
// ln S(α) for an enclosure α > 0 (α = 1 gives 0).
Enclosure RrLogS(const Rational& p, const Enclosure& order);
// ρ(α), α > 1 rational. Names "p", "order", "precision".
Interval RrRdp(const Rational& p, const Rational& order, int precision_bits = kDefaultAccountingPrecisionBits);
Enclosure RrRdpEnclosure(const Rational& p, const Enclosure& order);
Interval RrKl(const Rational& p, int precision_bits = kDefaultAccountingPrecisionBits);
Interval RrInfinity(const Rational& p, int precision_bits = kDefaultAccountingPrecisionBits);

// ---- DPFL-BNN (γ = p − 1/2 ∈ [0, 1/2)) ------------------------------------------------------
struct BnnSetting {
  Rational gamma;        // RR bias, keep probability 1/2 + γ
  Rational rounds = 1;   // T ≥ 1 (integer)
  Rational hamming = 1;  // h ≥ 1 (integer): differing coordinates per client; paper: 1, corrected: d
  Rational delta;        // in (0, 1)
  int precision_bits = kDefaultAccountingPrecisionBits;
};

struct RdpOptimum {
  Interval epsilon;
  std::optional<Rational> order;  // empty: α = ∞ (pure-DP value kℓ)
};
RdpOptimum BnnEpsilonRdpOpt(const BnnSetting& s);
// ε_thm1: names "gamma", "rounds", "hamming", "delta".
Interval BnnEpsilonThm1(const BnnSetting& s);
// γ_max of Theorem 1 at ε. `as_printed`: target (1/δ)/T (E3; hamming ignored), else Λ/(T h).
Interval BnnGammaMax(const Rational& eps, const Rational& delta, const Rational& rounds, const Rational& hamming,
                     bool as_printed, int precision_bits = kDefaultAccountingPrecisionBits);
// α* = 1 + 2 ln(1/δ)/ε.
Interval BnnAlphaStar(const Rational& eps, const Rational& delta, int precision_bits = kDefaultAccountingPrecisionBits);
// Largest k = T·h for the exact-rational method (its cost grows like k²); above it BnnExactDelta
// and BnnEpsilonExact use the binomial-tail method.
inline constexpr unsigned long kBnnExactRationalMaxBits = 20000;
// Largest k = T·h for which the exact profile is computed at all (the tail method's cap).
inline constexpr unsigned long kBnnExactMaxBits = 1UL << 40;
// Term budget of one tail walk of the tail method: a larger a-priori estimate (it grows like
// √k·√precision) or walk throws InvalidArgument "k" (≈ 2.5·10^7 at k = 2^40, 256 bits).
inline constexpr unsigned long kBnnTailMaxTerms = 50000000;
// Exact δ(ε) for k = T·h bits (k ≤ kBnnExactMaxBits; the rational method up to
// kBnnExactRationalMaxBits, the tail method above). Names "eps" (∉ [0, 1e6]), "gamma", "k".
Interval BnnExactDelta(const Rational& eps, const Rational& gamma, const Rational& k,
                       int precision_bits = kDefaultAccountingPrecisionBits);
// δ(ε) by the tail method for any k ≤ kBnnExactMaxBits (the cross-check of BnnExactDelta on
// small k). A δ certainly ≤ 2^−65536 is returned as [0, 2^−65536] (a rigorous, short rational).
Interval BnnExactDeltaTail(const Rational& eps, const Rational& gamma, const Rational& k,
                           int precision_bits = kDefaultAccountingPrecisionBits);
// ε_exact(δ) (k = T·h ≤ kBnnExactMaxBits): an interval that certainly contains min{ε : δ(ε) ≤ δ}.
Interval BnnEpsilonExact(const BnnSetting& s);
// The same by the tail method for every k (the cross-check of BnnEpsilonExact on small k).
Interval BnnEpsilonExactTail(const BnnSetting& s);
// The tail method's evaluator at fixed (γ, k): Delta(ε) encloses δ(ε) (at the working precision,
// lower end ≥ 0) and caches the two tails per j*, so a bisection over ε walks each tail once.
// Names "gamma", "k", "precision" (constructor), "eps" (Delta, < 0).
class BnnTailProfile {
 public:
  BnnTailProfile(const Rational& gamma, const Rational& k, int precision_bits = kDefaultAccountingPrecisionBits);
  BnnTailProfile(BnnTailProfile&&) noexcept;
  BnnTailProfile& operator=(BnnTailProfile&&) noexcept;
  ~BnnTailProfile();
  Enclosure Delta(const Rational& eps);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};
// Pure ε of k = T·h RR bits with keep probability 1/2 + γ: k·D_∞ = k·ln((1/2 + γ)/(1/2 − γ))
// (basic composition of pure DP, tight for RR since the worst outputs align), at s.precision_bits.
Interval BnnEpsilonPure(const BnnSetting& s);

}  // namespace dpfl::ref
