// dpfl::ref — the quantized Gaussian mechanism of seed 003 (Kang et al., "The Effect of
// Quantization in Federated Learning: a Rényi DP perspective"), as rigorous MPFI enclosures.
//
// Spec sections implemented (specs/seed-003-quantized-rdp.md):
//  * §4.1 Lemma 2: the exact pmf of G_{σ,k,C}x = Q(x + N(0,σ²); k, C) on the k levels
//    B(r) = −C + r·δ_q, δ_q = 2C/(k−1), per-coordinate saturation (E12), via the second-difference
//    form P_x[B(r)] = (σ/δ_q)[G(u_{r−1}) − 2G(u_r) + G(u_{r+1})], G(t) = tΦ(t) + φ(t),
//    u_j = (x − B(j))/σ, evaluated on the tail side (§7.2).
//  * §2.2 Rényi divergence D_α (α > 1, natural log), KL (α → 1; E1: the printed eq. (8) is D_2,
//    the corrected KL is used) and D_∞ = log max_r P_r/Q_r.
//  * §4.2 the worst case over inputs: ε(α) = D_α(P_{C/2} ‖ P_{−C/2}) (E10: asserted by the paper,
//    verified numerically by the spec; property E-a is a regression test, not a theorem).
//  * §4.3 Theorem 2 bound ε_∞ ≤ log(δ_q / I) with I = ∫_{B(k−2)}^{B(k−1)} f_{−C/2}(y)(y − B(k−2)) dy.
//  * §4.4 Lemma 3: g(δ) = I/δ and its slope ∂g/∂δ (corrected E6 derivation; see Lemma3Slope).
//  * §4.5 the clamped-Gaussian limit k → ∞ (closed form in Φ), the Gaussian RDP α Δ²/(2σ²).
//  * §2.9 / §4.6 vector forms: independent coordinates add; the DPI bound α C²/(2σ²) for a whole
//    vector with ‖x − x'‖ ≤ C; composition over T rounds multiplies by T. These are standard tools
//    (labelled [STANDARD] in the spec), not results of the paper.
//
// Adjacency: replace-one-client (spec §2.4): one client's clipped input moves anywhere inside its
// ball, so per coordinate x, x' ∈ [−C/2, C/2] and |x − x'| ≤ C. Removal is not analysed.
//
// Rigor. Every returned Enclosure contains the exact real value. Two evaluation methods:
//  * kDirect: Φ and φ by MPFR (erfc, exp) with outward rounding, G second differences; the
//    cancellation (≈ 2 log2(σ/δ_q) bits) is absorbed by guard bits, and the interval width is
//    checked after the fact (more guard bits are taken until the result is narrow enough).
//  * kSeries (used automatically when h = δ_q/σ is small): P_r = h φ(u_r) S(u_r) with the
//    convergent Taylor series S(u) = Σ_m He_{2m}(u)·2h^{2m}/(2m+2)! (He: probabilists' Hermite
//    polynomials), whose truncation error is bounded a priori by the Taylor remainder
//    sup|φ^{(N)}| 2h^{N+1}/(N+2)! with |He_N(ξ)| ≤ Σ|coeffs| |ξ|^j (exact rational bound). log S
//    and exp(·) of the small corrections use power series with explicit remainders, so the hot
//    loop has no transcendental calls: this is what makes K = 2^16 levels fast. The end bins
//    always use kDirect.
// Precision: `precision_bits` p ∈ [32, 100000]; the result's relative width (absolute where the
// value is 0) is at most 2^−p, unless 4096 guard bits did not suffice (then the wider, still
// rigorous enclosure is returned). Thread-safety: pure functions.
#pragma once

#include <optional>
#include <vector>

#include "dpfl/ref/enclosure.hpp"
#include "dpfl/ref/numbers.hpp"

namespace dpfl::ref {

inline constexpr const char* kQuantizedGaussianAdjacency =
    "replace-one-client (seed 003 §2.4): per coordinate x, x' in [-C/2, C/2], |x - x'| <= C";

// (σ, k, C_q) of spec 003 §1.4. Validated by ValidateQuantizedGaussian.
struct QuantizedGaussianParams {
  Rational sigma;  // noise standard deviation σ > 0 ("sigma"; E5: a std, not a variance)
  long levels;     // k ≥ 2 ("levels")
  Rational clip;   // C_q > 0 ("clip")
};
// Throws InvalidArgument naming "sigma" (σ ≤ 0), "levels" (k < 2 or k > 2^24), "clip" (C ≤ 0).
void ValidateQuantizedGaussian(const QuantizedGaussianParams& p);

// A Rényi order: KL (α = 1), a finite α > 1 (rational), or ∞.
struct RenyiOrder {
  enum class Kind { kKl, kFinite, kInfinity };
  Kind kind = Kind::kKl;
  Rational alpha;  // meaningful for kFinite only
  static RenyiOrder Kl() { return {Kind::kKl, Rational(1)}; }
  static RenyiOrder Infinity() { return {Kind::kInfinity, Rational(0)}; }
  // Throws InvalidArgument("order") unless α > 1 (use Kl() for α = 1).
  static RenyiOrder Finite(const Rational& alpha);
};

enum class QgMethod { kAuto, kDirect, kSeries };

// Lemma 2: P_x[B(r)], r = 0..k−1, for x ∈ [−C, C] (InvalidArgument "x" otherwise; Lemma 2 is
// stated for [−C/2, C/2], the formula holds on [−C, C]).
std::vector<Enclosure> QuantizedGaussianPmf(const QuantizedGaussianParams& p, const Rational& x,
                                            int precision_bits, QgMethod method = QgMethod::kAuto);

// D_α(P_x ‖ P_{x'}) for inputs x, x' ∈ [−C, C] (natural log). kSeries throws InvalidArgument
// ("method") where the series is not applicable (h·(U + h) > 1 or k < 3).
Enclosure QuantizedGaussianDivergence(const QuantizedGaussianParams& p, const Rational& x,
                                      const Rational& x_prime, const RenyiOrder& order, int precision_bits,
                                      QgMethod method = QgMethod::kAuto);

// §4.2 worst case per coordinate: ε(α) = D_α(P_{C/2} ‖ P_{−C/2}).
Enclosure QuantizedGaussianRdp(const QuantizedGaussianParams& p, const RenyiOrder& order, int precision_bits,
                               QgMethod method = QgMethod::kAuto);

// §4.3 Theorem 2, closed form: I, g = I/δ_q, and the bound ε_∞ ≤ log(δ_q/I) = −log g.
struct QgTheorem2 {
  Enclosure integral;  // I
  Enclosure g;         // I/δ_q = P_{−C/2}[B(k−1)] − Φ̄(3C/(2σ))
  Enclosure bound;     // log(δ_q/I)
};
QgTheorem2 QuantizedGaussianTheorem2(const QuantizedGaussianParams& p, int precision_bits);

// §4.4 Lemma 3 [corrected, E6–E9]: ∂g/∂δ at δ = δ_q. With a = C − δ, b = C, f = pdf of
// N(−C/2, σ²): g(δ) = I(δ)/δ, I'(δ) = ∫_a^b f, hence ∂g/∂δ = ∫_a^b f(y)(b − y) dy / δ² > 0 for
// every k ≥ 2 (the integrand is ≥ 0), so the Theorem-2 bound −log g increases with k.
Enclosure Lemma3Slope(const QuantizedGaussianParams& p, int precision_bits);

// §4.5 / §7.1 item 5: D_α of the clamped Gaussian clamp(x + σZ, −C, C) (the k → ∞ limit).
Enclosure ClampedGaussianDivergence(const Rational& sigma, const Rational& clip, const Rational& x,
                                    const Rational& x_prime, const RenyiOrder& order, int precision_bits);

// §2.7 Gaussian mechanism RDP α Δ²/(2σ²), exact (KL: Δ²/(2σ²)); nullopt for α = ∞ (infinite).
std::optional<Rational> GaussianRdpExact(const Rational& sigma, const Rational& sensitivity, const RenyiOrder& order);

// §2.9 / §4.6 vector release with per-coordinate saturation: Σ_j D_α(P_{x_j} ‖ P_{x'_j}) for
// independent coordinates (xs, xs' of equal length ≥ 1; InvalidArgument "x_prime" otherwise).
Enclosure QuantizedGaussianVectorDivergence(const QuantizedGaussianParams& p, const std::vector<Rational>& xs,
                                            const std::vector<Rational>& xs_prime, const RenyiOrder& order,
                                            int precision_bits);

// Sound d-coordinate, T-round bound (§4.6): T · min{α C²/(2σ²), d · ε(α)} (the first term by the
// DPI against the vector Gaussian, absent for α = ∞). d ≥ 1 ("dimension"), T ≥ 1 ("rounds").
struct QgVectorRdp {
  Enclosure per_coordinate;               // ε(α)
  Enclosure coordinates_composed;         // T · d · ε(α)
  std::optional<Rational> gaussian_dpi;   // T · α C²/(2σ²)
  Enclosure bound;                        // the minimum of the two
};
QgVectorRdp QuantizedGaussianVectorRdp(const QuantizedGaussianParams& p, long dimension, long rounds,
                                       const RenyiOrder& order, int precision_bits);

}  // namespace dpfl::ref
