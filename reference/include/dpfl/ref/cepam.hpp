// dpfl::ref — CEPAM / layered RSUQ (seed 002, Ling et al.), privacy and rate quantities as
// rigorous MPFI enclosures. Spec: specs/seed-002-cepam.md.
//
//  * §3.4–3.6, §4.9: acceptance probability p_acc = V_n/(2c)^n (Gaussian target, cubic cell,
//    β = 2cσ√ũ/α) and 1/c (Laplace, n = 1); trials h ~ Geom(p_acc): E[h] = 1/p, Var[h] = (1−p)/p²;
//    unit-ball volume V_n = π^{n/2}/Γ(n/2+1).
//  * §3.10 / §4.8 bits: H(Geom(p)) = (−p log2 p − (1−p) log2(1−p))/p; the Golomb parameter
//    m_G = ⌈ln(2−p)/(−ln(1−p))⌉ (Gallager–Van Voorhis) and the unary expected length 1/p.
//  * §4.5 Lemmas 14/15, error laws of LRSUQ: the law of ‖Z‖ computed through the layered
//    construction (Ũ ~ χ²_{n+2} resp. Gamma(2,1), then uniform on the layer) against the target law
//    (‖Z‖²/σ² ~ χ²_n; |Z|/b ~ Exp(1)). The two are separate formulas, so agreement checks the lemma.
//  * §4.6–4.8 privacy: p_s = 1 − (1 − 1/n_k)^τ (exact), ε = ln(1 + p_s(e^ε̃ − 1)) and its inverse,
//    the analytic Gaussian profile δ_G (Theorem 8, eq. 13), the Laplace profile (Theorem 10),
//    Lemma 9's bound (14) (E-P1: "if", not "iff"), Theorem 12's δ (16) as printed and with the
//    errata variants (E-P2 capped summands, E-P4 sensitivity 2γ/K, E-P6 own-noise σ√(K−1)/K), its
//    σ → 0 floor, calibration of σ by bisection, and Theorem 13's Laplace condition as printed
//    (ε̃ ≥ 2τγ/b) and corrected (E-P5: ε̃ ≥ 2τγ√m/b).
//
// Adjacency: substitute-one data point of one client (spec §2.3, ≃_s), central DP with a trusted
// server, one round (E-P7: no composition over rounds in the paper). Logarithms inside privacy
// formulas are natural; bit counts are base 2.
//
// Rigor: every Enclosure contains the exact value; precision p ∈ [32, 100000] bits, guard bits
// are added until the relative width is ≤ 2^−p (or 4096 guard bits were tried).
#pragma once

#include <optional>

#include "dpfl/ref/enclosure.hpp"
#include "dpfl/ref/numbers.hpp"

namespace dpfl::ref {

inline constexpr const char* kCepamAdjacency =
    "substitute-one data point of one client (seed 002 §2.3), central DP, one round";

// ---- RSUQ / LRSUQ rates -------------------------------------------------------------------------
Enclosure UnitBallVolume(long n, int precision_bits);                   // V_n, n ≥ 1 ("n")
Enclosure GaussianAcceptance(long n, const Rational& c, int precision_bits);  // V_n/(2c)^n, c ≥ 1 ("c")
Rational LaplaceAcceptance(const Rational& c);                           // 1/c, c ≥ 1 ("c")
Enclosure ExpectedTrials(const Enclosure& p_acc);                        // 1/p
Enclosure TrialsVariance(const Enclosure& p_acc);                        // (1 − p)/p²
Enclosure GeometricEntropyBits(const Enclosure& p_acc);                  // H(Geom(p)) in bits (0 at p = 1)
long GolombParameter(const Enclosure& p_acc);  // m_G (Undecidable if the ceil is); 1 at p = 1 (h ≡ 1, 0 bits sent)

// Error laws (Lemmas 14/15): P(‖Z‖ ≤ ρ) through the layered construction and by the target law.
// Gaussian: s = ρ²/σ² ≥ 0 ("s"), n ≥ 1. Laplace (n = 1): s = ρ/b ≥ 0.
Enclosure GaussianErrorNormCdfLayered(long n, const Rational& s, int precision_bits);
Enclosure GaussianErrorNormCdfTarget(long n, const Rational& s, int precision_bits);
Enclosure LaplaceErrorAbsCdfLayered(const Rational& s, int precision_bits);
Enclosure LaplaceErrorAbsCdfTarget(const Rational& s, int precision_bits);

// §4.8 / §5.6 [DERIVED]: E_U⌈log2 |M(U)|⌉, the expected fixed-length index bits of M per
// sub-vector, for n = 1, the cubic lattice, X = γB^1 and β = 2c·r/α (α cancels, E-Q1):
// |M(u)| = C_1(s) = 2⌊s + 1/2⌋ + 1 with s = (γ + r)/(2c r), r = σ√Ũ (Ũ ~ χ²_3, Gaussian target)
// or r = bŨ (Ũ ~ Gamma(2,1), Laplace target). Computed as Σ_{j≥1} P(s ≥ 2^{max(j−2,0)} − 1/2)
// by the exact χ²/Gamma cdf at the thresholds, with a rigorous geometric tail bound.
enum class LrsuqTarget { kGaussian, kLaplace };
Enclosure ExpectedIndexBitsN1(LrsuqTarget target, const Rational& scale, const Rational& gamma, const Rational& c,
                              int precision_bits);

// ---- privacy building blocks --------------------------------------------------------------------
// p_s = 1 − (1 − 1/n)^τ, exact. n ≥ 1 ("n_k"), τ ≥ 1 ("tau").
Rational SubsamplingProbability(long n, long tau);
// ε = ln(1 + p_s(e^ε̃ − 1)) (Theorem 7); ε̃ ≥ 0 ("eps_tilde"), p_s ∈ (0, 1] ("p_s").
Enclosure AmplifiedEpsilon(const Rational& eps_tilde, const Rational& p_s, int precision_bits);
// ε̃ = ln(1 + (e^ε − 1)/p_s), the inverse (§3.11); ε ≥ 0 ("eps").
Enclosure BaseEpsilon(const Rational& eps, const Rational& p_s, int precision_bits);
// Theorem 8 (13): δ_G(ε; Δ, σ̃) = Φ(Δ/(2σ̃) − εσ̃/Δ) − e^ε Φ(−Δ/(2σ̃) − εσ̃/Δ). ε ≥ 0, Δ > 0, σ̃ > 0.
Enclosure CepamAnalyticGaussianDelta(const Rational& eps, const Rational& sensitivity, const Rational& sigma,
                                int precision_bits);
// Theorem 10: [1 − e^{(ε − Δ1/b)/2}]_+ ; ε > 0, Δ1 > 0, b > 0.
Enclosure CepamLaplaceProfile(const Rational& eps, const Rational& sensitivity, const Rational& b, int precision_bits);
// Lemma 9 (14): Σ_{κ=1}^{τ} C(τ,κ) n^{−κ}(1−1/n)^{τ−κ} (e^ε̃−1)/(e^{ε̃/κ}−1) δ_G(ε̃/κ; Δ, σ̃); with
// `capped` each summand is w_κ·min{1, ·} (E-P2; valid since δ ≤ 1). ε̃ > 0.
Enclosure SubsampledGaussianDelta(const Rational& eps_tilde, long tau, long n, const Rational& sensitivity,
                                  const Rational& sigma, bool capped, int precision_bits);

// ---- Theorem 12 (CEPAM-Gaussian) ----------------------------------------------------------------
enum class Thm12Variant {
  kAsPrinted,             // (16): Δ2 = 2τγ/K, σ̃ = σ/√K (valid, conservative — E-P4)
  kSensitivityCorrected,  // E-P4: Δ2 = 2γ/K
  kOwnNoiseSubtracted,    // E-P4 + E-P6: Δ2 = 2γ/K, σ̃ = σ√(K−1)/K (against a curious client)
};
struct Thm12Params {
  Rational sigma;      // per-client noise std σ > 0 ("sigma")
  Rational eps_tilde;  // ε̃ > 0 ("eps_tilde")
  long tau;            // local steps τ ≥ 1 ("tau")
  long clients;        // K ≥ 1 (≥ 2 for kOwnNoiseSubtracted) ("clients")
  Rational gamma;      // clipping threshold γ > 0 ("gamma")
  long n_k;            // local dataset size ≥ 1 ("n_k"; E-P8: use min_k n_k)
};
struct Thm12Result {
  Rational p_s;
  Enclosure epsilon;  // ln(1 + p_s(e^ε̃ − 1))
  Enclosure delta;    // uncapped (16) for the variant
  Enclosure delta_capped;  // E-P2
  Rational sensitivity, sigma_tilde_squared;  // Δ2 and σ̃² of the variant (exact)
};
Thm12Result Theorem12(const Thm12Params& p, Thm12Variant variant, int precision_bits);
// σ → 0 limit of (16): Σ w_κ (e^ε̃−1)/(e^{ε̃/κ}−1) (uncapped); the capped floor is exactly p_s.
Enclosure Theorem12Floor(const Rational& eps_tilde, long tau, long n_k, int precision_bits);
// Smallest σ (to relative tolerance 2^−tolerance_bits) with δ_(16)(σ) ≤ δ for ε̃ = BaseEpsilon(ε):
// returns [σ_lo, σ_hi] with δ(σ_hi) ≤ δ certified and δ(σ_lo) > δ certified (σ_lo may be 0), or
// nullopt when the floor is already ≤ δ (every σ ≥ 0 qualifies — E-P3).
std::optional<Interval> CalibrateTheorem12Sigma(const Rational& eps, const Rational& delta, long tau, long clients,
                                                const Rational& gamma, long n_k, Thm12Variant variant, bool capped,
                                                int tolerance_bits, int precision_bits);

// ---- Theorem 13 (CEPAM-Laplace) -----------------------------------------------------------------
struct Thm13Result {
  Rational p_s;
  Enclosure epsilon;               // ln(1 + p_s(e^ε̃ − 1))
  Rational required_as_printed;    // 2τγ/b
  Enclosure required_corrected_l2; // 2τγ√m/b (ℓ2 clipping, ℓ1 sensitivity 2γ√m per substitution)
  bool holds_as_printed;           // ε̃ ≥ 2τγ/b
  bool holds_corrected;            // ε̃ ≥ 2τγ√m/b (decided from the enclosure)
};
// ε̃ > 0, τ ≥ 1, γ > 0, b > 0, m ≥ 1 ("m": model dimension), n_k ≥ 1.
Thm13Result Theorem13(const Rational& eps_tilde, long tau, const Rational& gamma, const Rational& b, long m, long n_k,
                      int precision_bits);

}  // namespace dpfl::ref
