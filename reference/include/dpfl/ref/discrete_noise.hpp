// dpfl::ref — the discrete Laplace and discrete Gaussian laws on ℤ: pmfs, tails and privacy,
// as rigorous MPFI enclosures (the oracle of the exact noise of the gaussian/laplace baselines,
// production/…/discrete_noise.hpp, written independently of it).
//
// Laws (Canonne, Kamath & Steinke 2020, "The Discrete Gaussian for Differential Privacy"; CKS):
//   L_Z(t):      P(z) = e^{−|z|/t} / C_L,   C_L = Σ_{z∈ℤ} e^{−|z|/t},       t > 0 rational
//   N_Z(0, σ²):  P(z) = e^{−z²/(2σ²)} / C_G, C_G = Σ_{z∈ℤ} e^{−z²/(2σ²)},   σ² > 0 rational
//
// Discrete Laplace (geometric series, summed in closed form; q = e^{−1/t}, 1 − q = −expm1(−1/t)
// enclosed without cancellation):
//   C_L = (1 + q)/(1 − q);  P(z) = (1 − q)/(1 + q) · e^{−|z|/t};
//   P(Z ≥ a) = e^{−a/t}/(1 + q) for a ≥ 1, and 1 − P(Z ≥ 1 − a) for a ≤ 0 (symmetry);
//   Var = 2q/(1 − q)²  (Σ_{z≥1} z² q^z = q(1 + q)/(1 − q)³).
//   Privacy: P(z)/P(z + s) = e^{(|z + s| − |z|)/t} ≤ e^{|s|/t}, so a query of ℓ1 sensitivity Δ
//   released with L_Z(t) noise is exactly (Δ/t)-DP (DiscreteLaplaceEpsilon; the bound is attained
//   at z ≥ 0, s = Δ).
//
// Discrete Gaussian: S(a) = Σ_{z≥a} f(z), f(x) = e^{−x²/(2σ²)}, for integers a ≥ 0; C_G = 2S(0) − 1;
// P(Z ≥ a) = S(a)/C_G for a ≥ 1 and 1 − S(1 − a)/C_G for a ≤ 0. S(a) is enclosed by one of:
//  * Direct (default for σ² ≤ 2^20): Σ_{z=a}^{b−1} f(z) by the exact recurrence
//    f(z + 1) = f(z)·r_z, r_z = e^{−(2z+1)/(2σ²)}, r_{z+1} = r_z·e^{−1/σ²} (each product
//    outward-rounded), plus the remainder Σ_{z≥b} f(z) ∈ [0, f(b)/(1 − r_b)] (since
//    f(b + j) = f(b)e^{−(2bj + j²)/(2σ²)} ≤ f(b)·r_b^j), b chosen so that the remainder is below
//    2^−(prec+10) of the partial sum.
//  * Euler–Maclaurin (default for σ² > 2^20), to the B_4 term:
//      S(a) = ∫_a^∞ f + f(a)/2 − f′(a)/12 + f‴(a)/720 + R,  |R| ≤ (1/720)∫_a^∞ |f⁗|
//    (the remainder bound |R_p| ≤ 2ζ(p)/(2π)^p ∫|f^{(p)}| for even p = 4, and 2ζ(4)/(2π)^4 = 1/720),
//    with ∫_a^∞ f = σ√(π/2)·erfc(a/(σ√2)), f′(a) = −(a/σ²) f(a), f‴(a) = −(a³/σ⁶ − 3a/σ⁴) f(a),
//    and ∫_a^∞ |f⁗| = −f‴(a) when a ≥ √(3 + √6)·σ (f⁗ = f·He₄(x/σ)/σ⁴ ≥ 0 beyond the largest root
//    of He₄(u) = u⁴ − 6u² + 3), else ≤ ∫_ℝ |f⁗| ≤ σ^{−3}∫(u⁴ + 6u² + 3)e^{−u²/2}du = 12√(2π)/σ³.
//    The relative error of C_G is then below 1/(30σ⁴).
//  Both methods are rigorous for every σ²; the unit tests require them to overlap.
//   Privacy (CKS Thm 7): an integer-valued query of sensitivity Δ released with N_Z(0, σ²) noise
//   is (ε, δ)-DP with
//      δ(ε) = P(Z > εσ²/Δ − Δ/2) − e^ε · P(Z > εσ²/Δ + Δ/2),   Z ~ N_Z(0, σ²),
//   the hockey-stick divergence of N_Z(0, σ²) from N_Z(Δ, σ²) (privacy loss L(y) = (Δ² − 2yΔ)/(2σ²)
//   exceeds ε iff y < Δ/2 − εσ²/Δ). P(Z > x) = P(Z ≥ ⌊x⌋ + 1), ⌊x⌋ exact on rationals.
//
// Precision: every function takes the MPFI precision (Interval versions: ValidatePrecision's
// range, default 256 bits). Thread-safety: values only.
#pragma once

#include "dpfl/ref/enclosure.hpp"
#include "dpfl/ref/gaussian.hpp"

namespace dpfl::ref {

// ---- discrete Laplace L_Z(t) ---------------------------------------------------------------
// Δ/t, exact. Names "t" (≤ 0) and "sensitivity" (≤ 0).
Rational DiscreteLaplaceEpsilon(const Rational& t, const Rational& sensitivity);
// P(Z = z). Names "t".
Enclosure DiscreteLaplacePmf(const Rational& t, const Int& z, mpfr_prec_t prec);
// P(Z ≥ a). Names "t".
Enclosure DiscreteLaplaceUpperTail(const Rational& t, const Int& a, mpfr_prec_t prec);
// Σ_{z∈ℤ} e^{−|z|/t} = (1 + e^{−1/t})/(1 − e^{−1/t}). Names "t".
Enclosure DiscreteLaplaceNormalizer(const Rational& t, mpfr_prec_t prec);
// Var Z = 2e^{−1/t}/(1 − e^{−1/t})². Names "t".
Enclosure DiscreteLaplaceVariance(const Rational& t, mpfr_prec_t prec);

// ---- discrete Gaussian N_Z(0, σ²) ----------------------------------------------------------
enum class DiscreteGaussianSum { kAuto, kDirect, kEulerMaclaurin };
// kAuto picks kDirect up to this σ² and kEulerMaclaurin above.
inline constexpr long kDirectSumMaxSigma2 = 1L << 20;

class DiscreteGaussianLaw {
 public:
  // Names "sigma2" (≤ 0) and "precision" (outside [32, 100000]). Computes C_G once.
  DiscreteGaussianLaw(const Rational& sigma2, mpfr_prec_t prec, DiscreteGaussianSum method = DiscreteGaussianSum::kAuto);

  const Rational& sigma2() const { return sigma2_; }
  mpfr_prec_t prec() const { return prec_; }
  DiscreteGaussianSum method() const { return method_; }  // never kAuto
  // C_G = Σ_{z∈ℤ} e^{−z²/(2σ²)}.
  const Enclosure& Normalizer() const { return normalizer_; }
  // e^{−z²/(2σ²)} (unnormalised).
  Enclosure Weight(const Int& z) const;
  // S(a) = Σ_{z≥a} e^{−z²/(2σ²)} for an integer a ≥ 0 (InvalidArgument "a" otherwise).
  Enclosure TailSum(const Int& a) const;
  // S₁(a) = Σ_{z≥a} z·e^{−z²/(2σ²)} for an integer a ≥ 0 (InvalidArgument "a" otherwise): the
  // first-moment tail the quantized Gaussian's stochastic rounding needs (quantized_gaussian_grid.hpp).
  //  * Direct: the recurrence of TailSum with terms z·f(z); remainder Σ_{z≥b} z f(z) ≤
  //    b f(b)/(1 − ρ) with ρ = (1 + 1/b)·r_b ≥ (z + 1)f(z + 1)/(z f(z)) for z ≥ b, taken once ρ < 1.
  //  * Euler–Maclaurin with h(z) = z f(z) = σ·u e^{−u²/2} (u = z/σ), h^{(n)}(z) =
  //    σ^{1−n}(−1)^n He_{n+1}(u) e^{−u²/2}:  S₁(a) = σ² f(a) + h(a)/2 − h′(a)/12 + h‴(a)/720 + R,
  //    h′ = f·(1 − u²), h‴ = −f·He₄(u)/σ², |R| ≤ (1/720)∫_a^∞ |h⁗| with h⁗ = σ^{−3} He₅(u) e^{−u²/2}:
  //    = −h‴(a)/720 when u² ≥ 5 + √10 (He₅ > 0 beyond its largest root, and ∫_u^∞ He₅ e^{−t²/2} dt
  //    = He₄(u) e^{−u²/2}), else ≤ (1/720) σ^{−2} ∫_ℝ (|t|⁵ + 10|t|³ + 15|t|) e^{−t²/2} dt = 86/(720σ²).
  Enclosure FirstMomentTailSum(const Int& a) const;
  // P(Z = z).
  Enclosure Pmf(const Int& z) const;
  // P(Z ≥ a).
  Enclosure UpperTail(const Int& a) const;
  // P(a ≤ Z ≤ b) (0 if b < a): the pmfs summed when b − a < 64, else a difference of tails.
  Enclosure RangeProbability(const Int& a, const Int& b) const;

 private:
  Enclosure TailSumDirect(const Int& a) const;
  Enclosure TailSumEulerMaclaurin(const Int& a) const;
  Enclosure FirstMomentDirect(const Int& a) const;
  Enclosure FirstMomentEulerMaclaurin(const Int& a) const;
  Rational sigma2_;
  mpfr_prec_t prec_;
  DiscreteGaussianSum method_;
  Enclosure normalizer_;
};

// δ(ε) of CKS Thm 7 (above) for sensitivity Δ, an integer ≥ 1; clamped below at 0 (δ ≥ 0).
// Names "eps" (< 0 or > 10^6), "sigma2", "sensitivity" (not a positive integer), "precision".
Enclosure DiscreteGaussianDeltaEnclosure(const Rational& eps, const Rational& sigma2, const Rational& sensitivity,
                                         mpfr_prec_t prec, DiscreteGaussianSum method = DiscreteGaussianSum::kAuto);
Interval DiscreteGaussianDelta(const Rational& eps, const Rational& sigma2, const Rational& sensitivity,
                               int precision_bits = kDefaultAccountingPrecisionBits);

}  // namespace dpfl::ref
