// dpfl::ref — the Gaussian mechanism: RDP, classical and analytic (ε, δ) calibration.
//
// Mechanism M(X) = f(X) + N(0, σ² I) with ℓ2 sensitivity Δ. Adjacency: the results hold for
// any neighbouring notion under which ‖f(X) − f(X')‖₂ ≤ Δ (add/remove or replace-one alike; the
// caller's Δ encodes which). Natural logs. Every transcendental value is an Enclosure at
// `precision_bits` (default 256), converted exactly to an Interval.
//
//  * RDP (Mironov 2017, Prop. 7): D_α = α Δ²/(2σ²), exact rational for rational inputs.
//  * Classical calibration (Dwork & Roth 2014, Thm A.1; valid for ε < 1):
//      σ = Δ √(2 ln(1.25/δ)) / ε.
//  * Analytic Gaussian (Balle & Wang 2018, Thm 8): the mechanism is (ε, δ)-DP iff
//      δ ≥ δ(ε, σ, Δ) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ).
//    δ(ε, σ, Δ) is decreasing in σ, so the smallest σ with δ(ε, σ, Δ) ≤ δ is found by bisection
//    on exact dyadic σ: an endpoint moves only when the enclosure of δ(ε, mid, Δ) is certainly
//    above (lo ← mid) or certainly below (hi ← mid) the target, so the true σ always lies in
//    [lo, hi]. The result is that interval (relative width ≤ `rel_tol`, or as narrow as the
//    precision allows: the bisection stops when the comparison becomes undecidable).
#pragma once

#include "dpfl/ref/enclosure.hpp"

namespace dpfl::ref {

inline constexpr int kDefaultAccountingPrecisionBits = 256;

// α Δ²/(2σ²): exact. Throws InvalidArgument naming "sigma" (≤ 0), "order" (≤ 1),
// "sensitivity" (≤ 0).
Rational GaussianRdp(const Rational& sigma, const Rational& order, const Rational& sensitivity = 1);

// Δ √(2 ln(1.25/δ)) / ε. Names "eps" (≤ 0), "delta" (∉ (0,1)), "sensitivity" (≤ 0).
Interval GaussianClassicSigma(const Rational& eps, const Rational& delta, const Rational& sensitivity,
                              int precision_bits = kDefaultAccountingPrecisionBits);

// δ(ε, σ, Δ) of Balle & Wang (ε ≥ 0). Names "eps" (< 0), "sigma", "sensitivity".
Enclosure AnalyticGaussianDeltaEnclosure(const Rational& eps, const Rational& sigma, const Rational& sensitivity,
                                         mpfr_prec_t prec);
Interval AnalyticGaussianDelta(const Rational& eps, const Rational& sigma, const Rational& sensitivity,
                               int precision_bits = kDefaultAccountingPrecisionBits);

// 10^-45: enough for the 40 printed digits.
Rational DefaultCalibrationTolerance();

struct AnalyticSigma {
  Interval sigma;    // certainly contains the smallest σ with δ(ε, σ, Δ) ≤ δ
  int iterations = 0;
  bool reached_tolerance = false;  // false: stopped early because the comparison was undecidable
};
// Names "eps" (≤ 0), "delta" (∉ (0,1)), "sensitivity" (≤ 0), "tolerance" (∉ (0, 1)).
AnalyticSigma AnalyticGaussianSigma(const Rational& eps, const Rational& delta, const Rational& sensitivity,
                                    int precision_bits = kDefaultAccountingPrecisionBits,
                                    const Rational& rel_tol = DefaultCalibrationTolerance());

// The inverse direction: the smallest ε ≥ 0 with δ(ε, σ, Δ) ≤ δ (δ(·) is decreasing in ε), as a
// bracket [lo, hi] of exact dyadic rationals by the same certified bisection: hi moves only where
// the enclosure of δ(mid) is certainly ≤ δ, lo only where it is certainly > δ. Relative width
// ≤ `rel_tol` or as narrow as the precision decides. Names "sigma", "delta", "sensitivity",
// "tolerance"; ε beyond 1e6 throws InvalidArgument "sigma" (σ too small for this δ).
struct AnalyticEpsilon {
  Interval epsilon;
  int iterations = 0;
  bool reached_tolerance = false;
};
AnalyticEpsilon AnalyticGaussianEpsilon(const Rational& sigma, const Rational& delta, const Rational& sensitivity,
                                        int precision_bits = kDefaultAccountingPrecisionBits,
                                        const Rational& rel_tol = DefaultCalibrationTolerance());

}  // namespace dpfl::ref
