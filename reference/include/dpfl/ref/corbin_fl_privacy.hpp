// dpfl::ref — transcendental quantities of seed 000 Theorems 3 and 4 as rigorous enclosures.
//
// spec 000 §4.4 (Thm 3 eq. (5), cpSGD [20, Thm 1], re-derived ε_u), §4.5 (Thm 4), E18–E31,
// §7 R10–R11. Every value is computed with MPFI (interval arithmetic on MPFR endpoints with
// outward rounding) at `precision_bits`, and its endpoints are converted exactly to rationals
// (MPFR values are dyadic), so each field is an Interval that certainly contains the true value.
// Logarithms are natural (spec 000 preamble). DP statements are for the replace-one-client
// neighbourhood the proofs actually bound (E25), not the printed removal form of eq. (1).
#pragma once

#include <array>

#include "dpfl/ref/numbers.hpp"

namespace dpfl::ref {

inline constexpr int kDefaultPrivacyPrecisionBits = 256;

// ε_p given either through E = e^ε (exact rational; α is then rational) or as ε itself
// (α = coth(ε/2) is then enclosed).
struct PrivacyBudget {
  enum class Kind { kE, kEpsilon };
  Kind kind = Kind::kE;
  Rational value;
  static PrivacyBudget FromE(const Rational& E) { return {Kind::kE, E}; }
  static PrivacyBudget FromEpsilon(const Rational& eps) { return {Kind::kEpsilon, eps}; }
};

// A precondition "lhs ≥ rhs"; holds is decided from the enclosures (Undecidable if they overlap).
struct Precondition {
  Interval lhs, rhs;
  bool holds = false;
};

// ---- R10(a)/(b): Theorem 3 ----------------------------------------------------------------
struct Thm3Params {
  PrivacyBudget budget;
  Rational n;      // clients, integer ≥ 1
  Rational gamma;  // AugCorBin-FL fraction in (0, 1]; nγ − 1 > 0 is required
  Rational m;      // model parameters, integer ≥ 1
  Rational delta;  // in (0, 1)
  Rational r;      // max radius > 0
  int precision_bits = kDefaultPrivacyPrecisionBits;
};

struct Thm3Privacy {
  Interval alpha;
  // (a) eq. (5) exactly as printed: e_p = 1 + α⁻², b_p = e_p/3 + 1/α, the 3.75 constant.
  Interval e_p, b_p;
  std::array<Interval, 3> terms_as_printed;  // the three bracket terms, before × rα
  Interval eps_u_as_printed;                 // rα · (sum of the terms)
  // (nγ−1)(1/4 − 1/(4α²)) ≥ max(23 log(m/δ), 2rα)
  Precondition precondition_as_printed;
  // (b) re-derived ε_u^corr (normalized units, no rα factor; E20–E24).
  Interval c_p, d_p;                      // √2(1.75 + 3.25/α²), 2e_p/3
  std::array<Interval, 3> terms_corrected;
  Interval eps_u_corrected;
  // N_b·(1/4)(1 − α⁻²) ≥ max(23 log(10m/δ), 2), N_b = nγ − 1
  Precondition precondition_corrected;
};

// Throws InvalidArgument naming "E"/"eps", "n", "gamma", "m", "delta", "r" or "precision".
Thm3Privacy Theorem3Privacy(const Thm3Params& params);

// ---- R10(c): cpSGD [20, Theorem 1], the binomial mechanism --------------------------------
struct CpSgdParams {
  Rational N;            // binomial trials > 0
  Rational p;            // binomial parameter in (0, 1)
  Rational s;            // scale > 0
  Rational sens1;        // Δ1 ≥ 0
  Rational sens2;        // Δ2 ≥ 0
  Rational sens_inf;     // Δ∞ ≥ 0
  Rational d_dim;        // dimension, integer ≥ 1
  Rational delta;        // in (0, 1)
  int precision_bits = kDefaultPrivacyPrecisionBits;
};

struct CpSgdEpsilon {
  Interval b_p, c_p, d_p;
  std::array<Interval, 3> terms;  // the three summands of ε, in the order of spec 000 §4.4
  Interval epsilon;
  // N p(1−p) ≥ max(23 log(10 d_dim/δ), 2Δ∞/s)
  Precondition precondition;
};

// Throws InvalidArgument naming "N", "p", "s", "Delta1", "Delta2", "Delta_inf", "d_dim",
// "delta" or "precision".
CpSgdEpsilon CpSgdTheorem1(const CpSgdParams& params);

// ---- R11: Theorem 4 (dropout) -------------------------------------------------------------
struct Thm4Params {
  PrivacyBudget budget;
  Rational p;       // dropout probability in (0, 1)
  Rational n;       // clients, integer ≥ 1
  Rational delta;   // in (0, 1)
  Rational delta1;  // in (0, δ)
  Rational r;       // max radius > 0
  Rational m;       // model parameters, integer ≥ 1 (for ε_u)
  int precision_bits = kDefaultPrivacyPrecisionBits;
};

struct Thm4Variant {
  Interval gamma, gamma_prime, theta, theta_prime;
  Interval mse_bound;
  // ε_u of (5) evaluated with δ1 in place of δ and this variant's γ (E31); as printed: the
  // printed (5) and its precondition; corrected: ε_u^corr and the corrected precondition.
  Interval eps_u;
  Precondition precondition;
};

// Exact rational moments (spec 000 §4.5, E27).
struct Thm4Moments {
  Rational expected_solo;                 // E Σ E_i = n p(1−p)
  Rational var_solo;                      // Var Σ E_i = n p(1−p)(1 − 2p(1−p))
  Rational expected_survivors;            // E N = n(1−p)
  Rational var_survivors;                 // Var N = n p(1−p)
  Rational expected_survivors_as_printed; // the proof's E N = np (E27)
};

struct Thm4Result {
  Interval alpha;
  // As printed: radius with the extra 4 (E26), θ = p(1−p) − … (E28), MSE with γ'/(nθ) (E30)
  // and 8r²α²δ1 (E29).
  Thm4Variant as_printed;
  // Chebyshev-consistent (§4.5 [PAPER-CORRECTED]); θ' = (1−p) + … is [DERIVED] likewise.
  Thm4Variant corrected;
  Thm4Moments moments;
};

// Throws InvalidArgument naming "E"/"eps", "p", "n", "delta", "delta1", "r", "m" or
// "precision"; "n" also when n is too small for γ n > 1 or θ > 0.
Thm4Result Theorem4(const Thm4Params& params);

// The exact moments alone (no transcendental part).
Thm4Moments Theorem4Moments(const Rational& p, const Rational& n);

}  // namespace dpfl::ref
