// dpfl::ref — CorBin-FL / AugCorBin-FL aggregate quantities and the rational parts of
// Theorems 2–3, plus the E12 counterexample to the literal Theorem 1 (seed 000).
//
// spec 000 §3.4–3.5, §4.3 (Thm 2), §4.4 (Thm 3 MSE), §6 E12, E15–E17, E45, §7 R5 (E12 part),
// R7–R9. Templates on Real ∈ {Rational, Interval}: exact when E = e^ε is rational, a rigorous
// enclosure otherwise. The transcendental quantities of Theorems 3–4 (R10–R11) live in
// corbin_fl_privacy.hpp.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dpfl/ref/corbinq.hpp"
#include "dpfl/ref/ldpq.hpp"

namespace dpfl::ref {

// ---------------------------------------------------------------------------------------------
// R7: aggregate exact MSE of one coordinate.
// ---------------------------------------------------------------------------------------------

// One round of (Aug)CorBin-FL for one coordinate j: client i holds weights[i]; each pair
// (first, second) runs CorBinQ with `first` in the Q1 role; each solo client runs LDPQ
// (AugCorBin-FL's LDP-FL fraction, or a client whose partner dropped out, §3.4–3.5).
struct ClientLayout {
  std::vector<std::pair<size_t, size_t>> pairs;
  std::vector<size_t> solo;
};

template <class Real>
struct AggregateResult {
  Real alpha;
  // E[(W̄_g − (1/n)Σ w_i)²] from the exact joint pmfs (pairs) and LDPQ laws (solo clients);
  // computed without assuming unbiasedness (cross terms between independent groups kept).
  Real mse;
  // The spec formula (1/n²)[Σ_solo (r²α² − w̃²) + Σ_pairs m_d] with m_d in closed form (R4, R7).
  Real mse_closed_form;
  // E45: every client runs LDPQ independently: (1/n²) Σ_i (r²α² − w̃_i²), from the LDPQ laws.
  Real mse_ldp_fl;
  Real bias;               // E W̄_g − (1/n) Σ w_i (R7: exactly 0)
  std::vector<Real> pair_mse;  // m_d of each pair, in the order of layout.pairs
};

// Validates the layout: n ≥ 1 clients, every index < n, every client exactly once (in one
// pair or in the solo list), no pair (i, i). Throws InvalidArgument naming "pairs"/"solo".
inline void ValidateClientLayout(size_t n, const ClientLayout& layout) {
  if (n == 0) throw InvalidArgument("weights", "at least one client weight is required");
  std::vector<int> seen(n, 0);
  auto mark = [&](size_t i, const std::string& where) {
    if (i >= n)
      throw InvalidArgument(where, "client index " + std::to_string(i) + " is out of range [0, " +
                                       std::to_string(n - 1) + "]");
    if (seen[i]++ != 0)
      throw InvalidArgument(where, "client " + std::to_string(i) + " appears more than once");
  };
  for (const auto& [a, b] : layout.pairs) {
    if (a == b) throw InvalidArgument("pairs", "a pair must join two different clients, got " +
                                                   std::to_string(a) + "-" + std::to_string(b));
    mark(a, "pairs");
    mark(b, "pairs");
  }
  for (size_t i : layout.solo) mark(i, "solo");
  for (size_t i = 0; i < n; ++i)
    if (seen[i] == 0)
      throw InvalidArgument("pairs", "client " + std::to_string(i) +
                                         " is in no pair and not solo; every client must appear exactly once");
}

template <class Real>
AggregateResult<Real> AggregateMse(const Real& E, const Rational& c, const Rational& r, int d,
                                   const std::vector<Rational>& weights, const ClientLayout& layout) {
  ValidateBinaryQuantizerDomain(E, r);
  ValidateSharedBits(d);
  const size_t n = weights.size();
  ValidateClientLayout(n, layout);
  for (size_t i = 0; i < n; ++i) ValidateWeightInRange(c, r, weights[i], "weights[" + std::to_string(i) + "]");

  AggregateResult<Real> out;
  out.alpha = AlphaFromE(E);
  const Real r2a2 = Real(Rational(r * r)) * out.alpha * out.alpha;
  // Independent groups g with errors e_g = Σ_{i∈g} (Q_i − w_i):
  //   E[(Σ_g e_g)²] = Σ_g E[e_g²] − Σ_g (E e_g)² + (Σ_g E e_g)².
  Real sum_sq(0), sum_mean_sq(0), sum_mean(0), closed(0);
  for (const auto& [i, k] : layout.pairs) {
    const CorBinQResult<Real> res =
        EvaluateCorBinQ(E, c, r, weights[i], weights[k], d, Line14::kCorrected);
    const Real bias = (res.mean1 - Real(weights[i])) + (res.mean2 - Real(weights[k]));
    sum_sq += res.mse;
    sum_mean_sq += bias * bias;
    sum_mean += bias;
    closed += res.mse_closed_form;
    out.pair_mse.push_back(res.mse);
  }
  for (size_t i : layout.solo) {
    const LdpqLaw<Real> law = Ldpq(E, c, r, weights[i]);
    const Real bias = law.mean - Real(weights[i]);
    sum_sq += law.mse;
    sum_mean_sq += bias * bias;
    sum_mean += bias;
    const Rational wt = weights[i] - c;
    closed += r2a2 - Real(Rational(wt * wt));
  }
  const Real n_real = Real(Rational(static_cast<long>(n)));
  const Real n2 = n_real * n_real;
  out.mse = (sum_sq - sum_mean_sq + sum_mean * sum_mean) / n2;
  out.mse_closed_form = closed / n2;
  out.bias = sum_mean / n_real;
  // E45: LDP-FL, every client independent.
  Real ldp_sq(0), ldp_mean_sq(0), ldp_mean(0);
  for (size_t i = 0; i < n; ++i) {
    const LdpqLaw<Real> law = Ldpq(E, c, r, weights[i]);
    const Real bias = law.mean - Real(weights[i]);
    ldp_sq += law.mse;
    ldp_mean_sq += bias * bias;
    ldp_mean += bias;
  }
  out.mse_ldp_fl = (ldp_sq - ldp_mean_sq + ldp_mean * ldp_mean) / n2;
  return out;
}

// ---------------------------------------------------------------------------------------------
// R8: Theorem 2 bounds.
// ---------------------------------------------------------------------------------------------

// a + b√2 with rational a, b (exact arithmetic in Q(√2)).
struct QSqrt2 {
  Rational a, b;
  friend QSqrt2 operator+(const QSqrt2& x, const QSqrt2& y) { return {x.a + y.a, x.b + y.b}; }
  friend QSqrt2 operator*(const QSqrt2& x, const QSqrt2& y) {
    return {x.a * y.a + 2 * x.b * y.b, x.a * y.b + x.b * y.a};
  }
  friend bool operator==(const QSqrt2& x, const QSqrt2& y) { return x.a == y.a && x.b == y.b; }
};

// Polynomial in α with coefficients in Q(√2); coefficient k multiplies α^k.
using PolyQSqrt2 = std::vector<QSqrt2>;

inline PolyQSqrt2 MultiplyPoly(const PolyQSqrt2& x, const PolyQSqrt2& y) {
  PolyQSqrt2 out(x.size() + y.size() - 1, QSqrt2{Rational(0), Rational(0)});
  for (size_t i = 0; i < x.size(); ++i)
    for (size_t j = 0; j < y.size(); ++j) out[i + j] = out[i + j] + x[i] * y[j];
  return out;
}

// The printed product ((√2−1)α + 1)((√2+1)α − 1) of Theorem 2, expanded symbolically in α
// over Q(√2), and whether it equals α² + 2α − 1 identically (spec 000 §4.3 [DERIVED]).
struct Thm2ProductIdentity {
  PolyQSqrt2 expanded;  // coefficients of α^0, α^1, α^2
  bool holds;           // expanded == −1 + 2α + α² with zero √2 parts
};
inline Thm2ProductIdentity CheckThm2ProductIdentity() {
  const PolyQSqrt2 left = {{Rational(1), Rational(0)}, {Rational(-1), Rational(1)}};   // 1 + (√2−1)α
  const PolyQSqrt2 right = {{Rational(-1), Rational(0)}, {Rational(1), Rational(1)}};  // −1 + (√2+1)α
  Thm2ProductIdentity out;
  out.expanded = MultiplyPoly(left, right);
  const PolyQSqrt2 target = {{Rational(-1), Rational(0)}, {Rational(2), Rational(0)}, {Rational(1), Rational(0)}};
  out.holds = out.expanded == target;
  return out;
}

template <class Real>
struct Thm2Bounds {
  Real alpha;
  Real as_printed;        // r²(α² + 2α − 1)/(2n)  (= the printed product form / (2n))
  Real corrected_proof;   // r²(2α − 1)/n  (E15: no extra ½ on the covariance sum)
  Real tight;             // d → ∞ worst case: 2r²(α−1)/n (α ≥ 2), r²α²/(2n) (α ≤ 2)
  std::optional<Real> finite_d_slack;  // r²α²/(n 2^d), added to the d → ∞ values at finite d
  Real ldp_fl_reference;  // r²α²/n (§4.3 remark; LDP-FL worst case)
};

inline void ValidateClientCount(const Rational& n, bool even, const std::string& name) {
  if (boost::multiprecision::denominator(n) != 1 || n < 1)
    throw InvalidArgument(name, "number of clients must be an integer >= 1, got " + ToExactString(n));
  if (even && (boost::multiprecision::numerator(n) % 2) != 0)
    throw InvalidArgument(name, "CorBin-FL pairs all clients, so n must be even (E43), got " + ToExactString(n));
}

// R8. n is the number of clients (even: every client is paired, E43); d ≥ 0 optional.
template <class Real>
Thm2Bounds<Real> Theorem2Bounds(const Real& E, const Rational& r, const Rational& n, std::optional<int> d) {
  ValidateBinaryQuantizerDomain(E, r);
  ValidateClientCount(n, /*even=*/true, "n");
  if (d) ValidateSharedBits(*d);
  Thm2Bounds<Real> out;
  out.alpha = AlphaFromE(E);
  const Real& a = out.alpha;
  const Real r2 = Real(Rational(r * r)), nr = Real(n);
  out.as_printed = r2 * (a * a + Real(2) * a - Real(1)) / (Real(2) * nr);
  out.corrected_proof = r2 * (Real(2) * a - Real(1)) / nr;
  // n/2 pairs each at the worst m* (R5), divided by n²: max m* / (2n).
  out.tight = WorstCaseMinPairMse(a, r) / (Real(2) * nr);
  if (d) out.finite_d_slack = r2 * a * a * Real(Pow2(-*d)) / nr;
  out.ldp_fl_reference = r2 * a * a / nr;
  return out;
}

// ---------------------------------------------------------------------------------------------
// R9: Theorem 3 MSE bound.
// ---------------------------------------------------------------------------------------------

inline void ValidateFraction(const Rational& gamma, const std::string& name) {
  if (!(gamma > 0) || gamma > 1)
    throw InvalidArgument(name, "fraction must lie in (0, 1], got " + ToExactString(gamma));
}

template <class Real>
struct Thm3MseBounds {
  Real alpha;
  Real bound;             // γr²α²/n + (1−γ) r²(α² + 2α − 1)/(2n)
  Real ldp_fl_reference;  // r²α²/n
};

template <class Real>
Thm3MseBounds<Real> Theorem3MseBound(const Real& E, const Rational& r, const Rational& n, const Rational& gamma) {
  ValidateBinaryQuantizerDomain(E, r);
  ValidateClientCount(n, /*even=*/false, "n");
  ValidateFraction(gamma, "gamma");
  Thm3MseBounds<Real> out;
  out.alpha = AlphaFromE(E);
  const Real& a = out.alpha;
  const Real r2 = Real(Rational(r * r)), nr = Real(n), g = Real(gamma);
  out.ldp_fl_reference = r2 * a * a / nr;
  out.bound = g * out.ldp_fl_reference +
              (Real(1) - g) * r2 * (a * a + Real(2) * a - Real(1)) / (Real(2) * nr);
  return out;
}

// ---------------------------------------------------------------------------------------------
// R5 / E12: the literal Theorem 1 is false (asymmetric alphabet with MSE 0).
// ---------------------------------------------------------------------------------------------

struct E12Construction {
  Rational alpha;
  Rational S;               // w + w' − 2c
  Rational gamma1, gamma2;  // c + γ̃1, c + γ̃2 with γ̃1 = −rα + min(S,0), γ̃2 = rα + max(S,0)
  Rational a, b;            // P(Q1 = γ1), P(Q2 = γ1); a + b = 1
  bool c4_holds;            // a γ1 + (1−a) γ2 = w and b γ1 + (1−b) γ2 = w'
  Rational c5_max_ratio;    // max over outputs of max_{v,v'∈[c−r,c+r]} P(Q(v)=·)/P(Q(v')=·)
  bool c5_holds;            // c5_max_ratio ≤ E
};

// The pair of E12 for inputs (w, w'): alphabet {γ1, γ2}, both quantizers unbiased on all of
// [c − r, c + r] with P(Q(v) = γ1) = (γ2 − v)/(γ2 − γ1).
inline E12Construction BuildE12(const Rational& E, const Rational& c, const Rational& r,
                                const Rational& w1, const Rational& w2) {
  ValidateBinaryQuantizerDomain(E, r);
  ValidateWeightInRange(c, r, w1, "w1");
  ValidateWeightInRange(c, r, w2, "w2");
  E12Construction out;
  out.alpha = AlphaFromE(E);
  out.S = w1 + w2 - 2 * c;
  const Rational g1t = -r * out.alpha + Min(out.S, Rational(0));
  const Rational g2t = r * out.alpha + Max(out.S, Rational(0));
  out.gamma1 = c + g1t;
  out.gamma2 = c + g2t;
  const Rational span = g2t - g1t;
  auto prob_gamma1 = [&](const Rational& v) { return Rational((out.gamma2 - v) / span); };
  out.a = prob_gamma1(w1);
  out.b = prob_gamma1(w2);
  out.c4_holds = out.a * out.gamma1 + (1 - out.a) * out.gamma2 == w1 &&
                 out.b * out.gamma1 + (1 - out.b) * out.gamma2 == w2;
  // P(γ1 | v) decreases and P(γ2 | v) increases in v (affine), so the extreme ratios are at
  // v = c ± r. Both quantizers share the alphabet and the law, so one check covers both.
  const Rational p1_hi = prob_gamma1(Rational(c - r)), p1_lo = prob_gamma1(Rational(c + r));
  const Rational ratio1 = p1_hi / p1_lo;
  const Rational ratio2 = (1 - p1_lo) / (1 - p1_hi);
  out.c5_max_ratio = Max(ratio1, ratio2);
  out.c5_holds = out.c5_max_ratio <= E;
  return out;
}

// The exact MSE E[(Q1 + Q2 − w − w')²] of the E12 pair realized with d shared bits: the
// CorBinQ countermonotone coupling with P(Q1 = γ2) = 1 − a, P(Q2 = γ2) = 1 − b on {γ1, γ2}.
inline Rational E12PairMse(const E12Construction& k, const Rational& w1, const Rational& w2, int d) {
  const JointPmf<Rational> p = CorBinQJointClosedForm(Rational(1 - k.a), Rational(1 - k.b), d, Line14::kCorrected);
  const Rational target = w1 + w2;
  auto sq = [](const Rational& x) { return Rational(x * x); };
  return p.mm * sq(2 * k.gamma1 - target) + p.pp * sq(2 * k.gamma2 - target) +
         (p.mp + p.pm) * sq(k.gamma1 + k.gamma2 - target);
}

// The smallest d in [0, max_d] with m_d(CorBinQ) > MSE_E12(d) + 64 r²α²/2^d, i.e. where the
// printed Theorem 1 (eq. 4), read over the literal Q, fails; nullopt if none.
inline std::optional<int> E12FirstFailingD(const Rational& E, const Rational& c, const Rational& r,
                                           const Rational& w1, const Rational& w2, int max_d) {
  const E12Construction k = BuildE12(E, c, r, w1, w2);
  ValidateSharedBits(max_d);
  for (int d = 0; d <= max_d; ++d) {
    const CorBinQResult<Rational> res = EvaluateCorBinQ(E, c, r, w1, w2, d, Line14::kCorrected);
    const Rational printed = Thm1BoundAsPrinted(E12PairMse(k, w1, w2, d), k.alpha, r, d);
    if (res.mse > printed) return d;
  }
  return std::nullopt;
}

}  // namespace dpfl::ref
