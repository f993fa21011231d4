// dpfl::ref — the law that production's quantized Gaussian mechanism (seed 003 Alg. 1 lines 7–9;
// production/include/dpfl/fl/quantized_gaussian.hpp) really samples, as rigorous MPFI
// enclosures: the oracle of its statistical tests, written independently of it.
//
// Production does not add continuous N(0, σ²) noise (floating-point noise leaks through its low
// bits, Mironov 2012). It works on a noise grid of step g = δ_q / M, M = 2^m grid points per
// quantizer step δ_q = 2C/(k − 1), so that the levels B(r) = −C + r·δ_q are grid points and the
// whole mechanism is integer arithmetic in grid units (the rule and its reasons: docs/production.md
// "Quantized Gaussian on a noise grid"):
//   L = (k − 1)·M                     grid units from B(0) = −C to B(k − 1) = C (g = 2C/L)
//   m = 16, lowered while s² ≥ 2^62   (m ≥ 2, so L/4 is an integer; the sampler's domain)
//   s² = ⌈(σ/g)²⌉ = ⌈(σL/(2C))²⌉      the discrete Gaussian's parameter (an integer ≥ 1); the
//                                     implemented noise N_Z(0, s²)·g has parameter σ̃ = g·s ≥ σ
//   q = nearest integer to x̃/g       the ℓ2-clipped input (‖x̃‖ ≤ C/2) on the grid, |q| ≤ L/4
//   n = clamp(L/2 + q + Z, 0, L)      Z ~ N_Z(0, s²): position above B(0), saturated (E12)
//   r = min(⌊n/M⌋, k − 2), f = n − rM ∈ [0, M]
//   output B(r + 1) iff U < f, U uniform in {0, …, M − 1}; else B(r)
// so, given q, output index i has probability
//   P(i) = Σ_{z∈ℤ} N_Z(0, s²)(z) · K_i(clamp(L/2 + q + z, 0, L)),
// K_i the piecewise-linear rounding kernel of Lemma 2 in grid units (K_i(n) = 1 − |n − iM|/M near
// iM; K_0 = 1 below 0, K_{k−1} = 1 above L). Summed cell by cell: for cell j (n ∈ [jM, (j+1)M))
// and z ∈ [a, b] = [jM − p, (j+1)M − 1 − p] (p = L/2 + q) the upper level gets
// U_j = Σ (z − a) P(z) / M = (T₁ − a·T₀)/M and the lower one T₀ − U_j, with T₀ = Σ_{z=a}^b P(z),
// T₁ = Σ_{z=a}^b z P(z) — discrete Gaussian range sums of z⁰ and z¹ (DiscreteGaussianLaw::TailSum,
// FirstMomentTailSum; negative ranges by the symmetry P(z) = P(−z)). For s² ≤ 2^20 the sum over z
// runs term by term instead (|z| ≤ Z, the remainder beyond Z enclosed in [0, P(|Z| > Z)]).
//
// As M → ∞ the law tends to Lemma 2's continuous pmf (QuantizedGaussianPmf) with σ̃ for σ; at the
// default M = 2^16 the two differ by far less than any sample can show (tests/unit/
// quantized_gaussian_grid_test.cpp measures it), so independent checkers may use Lemma 2.
//
// Privacy of the implemented mechanism (the certificate's bound): the integer vector L/2 + q has
// ℓ2 sensitivity ‖q − q′‖ ≤ 2·(L/4) = L/2 grid units between any two clients (replace-one), and
// the discrete Gaussian N_Z(0, s²)^d satisfies D_α ≤ α Δ²/(2s²) for integer vectors of ℓ2
// sensitivity Δ (Canonne, Kamath & Steinke 2020, Thm 14, multivariate: ½(Δ/s)²-concentrated DP); clamping and
// rounding are post-processing. With Δ = L/2 and s ≥ σ/g this is α C²/(2σ̃²) ≤ α C²/(2σ²).
#pragma once

#include <vector>

#include "dpfl/ref/discrete_noise.hpp"
#include "dpfl/ref/enclosure.hpp"
#include "dpfl/ref/numbers.hpp"

namespace dpfl::ref {

inline constexpr int kQgGridStepBits = 16;  // m before lowering
inline constexpr int kQgGridMinStepBits = 2;
inline constexpr long kQgGridMaxLevels = 1L << 16;

struct QgGrid {
  long levels = 2;   // k
  int step_bits = kQgGridStepBits;  // m
  Int span;          // L = (k − 1)·2^m
  Rational clip;     // C
  Rational unit;     // g = 2C/L
  Int sigma2;        // s² = ⌈(σ/g)²⌉
  Int radius;        // L/4: the ℓ2 radius C/2 in grid units
};

// The grid production uses for (σ, k, C). Throws InvalidArgument naming "sigma" (≤ 0, or so large
// that s² ≥ 2^62 even at m = 2: the output would be noise), "levels" (k ∉ [2, 2^16]), "clip" (≤ 0).
QgGrid QuantizedGaussianGridFor(const Rational& sigma, long levels, const Rational& clip);

// The grid position q of a scalar input x (d = 1: the ℓ2 clip is the clamp to [−C/2, C/2]),
// nearest integer to x̃/g, ties away from zero.
Int QuantizedGaussianGridPosition(const QgGrid& grid, const Rational& x);

// The output index law P(i), i = 0..k−1, for the input at grid position q (|q| ≤ L/4, else
// InvalidArgument "q"). `precision_bits` ∈ [32, 100000]; every enclosure contains the exact value
// (relative width typically 2^−p; wider when the Euler–Maclaurin remainder dominates, which the
// caller can see in the enclosure). `method`: kDirect sums term by term, kEulerMaclaurin cell by
// cell with Euler–Maclaurin tails, kAuto picks by s² as DiscreteGaussianLaw does (the unit tests
// require the two to overlap).
std::vector<Enclosure> QuantizedGaussianGridPmf(const QgGrid& grid, const Int& q, int precision_bits,
                                                DiscreteGaussianSum method = DiscreteGaussianSum::kAuto);

}  // namespace dpfl::ref
