// dpfl::ref — CoQ-FL / LDP-FedCR, the correlated pair quantizer of seed 001.
//
// seed-001 §3.4–3.7 (Alg. 2–3, normative pseudo-code §3.6), §4.5–4.9 (Lemma 2, Eq. 6,
// D1–D9), §6 errata E1, E2, E14, §7 items 1–15. The shared CR index I has law
// p(i) = p_x^{|i|}(1 − p_x)^{d − |i|} over {0..2^d − 1}; Alice runs PerturbWeight with UP = +1,
// Bob with UP = −1, both with the same I and private coins.
//
// Several independent computations of the same numbers exist here; tests cross-check them:
//   * CoqJointClosedForm — the case table D3 (cells from CoqCodebook::FindIndex, a binary
//     search or the p_x = 1/2 closed form F(i) = i/2^d);
//   * CoqJointBruteForce — a literal transcription of PerturbWeight (§3.4/§3.6): every bit
//     vector b_1..b_d with its Bernoulli weight, ConvertToInteger, a linear-scan FindIndex
//     over an explicit list, and the private coin entering as its probability;
//   * Lemma2Covariance (Eq. 5), Eq6PairSumVariance, FractionalPairSumVariance ({S}(1−{S}))
//     and D4 with the ideal π++ = max(0, S − 1).
//
// p_x is always an exact Rational in (0, 1). α (hence P_A, P_B, θ, the joint) is Real ∈
// {Rational, Interval}: exact with E = e^ε rational, a rigorous enclosure when ε is given
// (a cell boundary that the enclosure cannot decide throws dpfl::Undecidable).
//
// D10 (privacy-budget equivalence, §4.9) needs logarithms and is not rational: it is not
// computed here. It belongs with the transcendental quantities (MPFR enclosures of
// ε = ln((α+1)/(α−1)) etc.), maintained separately from this header.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dpfl/ref/ldpq.hpp"

namespace dpfl::ref {

inline constexpr int kCoqMaxBits = 62;      // d range (p_x = 1/2 closed forms)
inline constexpr int kCoqMaxListBits = 20;  // explicit lists / enumeration: 2^20 entries

// Which ProbabilityList Alg. 2 uses. seed-001 E1: Alg. 3 l.12–15 builds inclusive prefix
// sums plus a spurious entry for the nonexistent codeword 2^d; kAsPrinted reproduces it.
enum class CoqList { kCorrected, kAsPrinted };

// base^n for any int n (base ≠ 0 when n < 0). The as-printed list needs n = −1 when d = 0.
inline Rational PowRational(const Rational& base, int n) {
  Rational result(1);
  const int m = n < 0 ? -n : n;
  for (int k = 0; k < m; ++k) result *= base;
  if (n < 0) {
    if (result == 0) throw InvalidArgument("px", "negative power of 0");
    result = Rational(1) / result;
  }
  return result;
}

inline void ValidateCoqPx(const Rational& px) {
  if (!(px > 0 && px < 1))
    throw InvalidArgument("px", "CR coin bias p_x must lie in (0, 1), got " + ToExactString(px) +
                                    " (seed-001 §3.7)");
}
// d ∈ [0, 62] with p_x = 1/2 (closed forms); d ∈ [0, 20] otherwise (explicit lists).
inline void ValidateCoqBits(int d, const Rational& px) {
  if (d < 0 || d > kCoqMaxBits)
    throw InvalidArgument("d", "number of CR bits must be in [0, 62], got " + std::to_string(d));
  if (px != Rational(1, 2) && d > kCoqMaxListBits)
    throw InvalidArgument("d", "explicit codebook lists need d <= 20 unless p_x = 1/2, got " +
                                   std::to_string(d));
}
inline void ValidateCoqListBits(int d) {
  if (d < 0 || d > kCoqMaxListBits)
    throw InvalidArgument("d", "explicit ProbabilityList needs d in [0, 20], got " + std::to_string(d));
}

// p_x^{popcount i}(1 − p_x)^{d − popcount i} for any i ≥ 0 — literally Alg. 3 l.15, so it
// is also defined for the spurious i = 2^d of the as-printed list (popcount(2^d) = 1).
inline Rational CodewordProbability(const Rational& px, int d, std::uint64_t i) {
  const int ones = std::popcount(i);
  return PowRational(px, ones) * PowRational(Rational(1 - px), d - ones);
}

// seed-001 §3.6 [DERIVED], E1 fix: exclusive prefix sums F[0] = 0, F[i] = Σ_{j<i} p(j),
// length 2^d + 1, F[2^d] = 1 exactly. d ∈ [0, 20].
inline std::vector<Rational> ProbabilityListCorrected(const Rational& px, int d) {
  ValidateCoqPx(px);
  ValidateCoqListBits(d);
  const std::uint64_t n = std::uint64_t{1} << d;
  std::vector<Rational> F(static_cast<std::size_t>(n + 1));
  F[0] = 0;
  for (std::uint64_t i = 1; i <= n; ++i) F[i] = F[i - 1] + CodewordProbability(px, d, i - 1);
  return F;
}

// seed-001 Alg. 3 l.11–18 as printed (E1): ProbList[0] = (1 − p_x)^d, then for i = 1..2^d
// ProbList[i] = ProbList[i−1] + p_x^{popcount i}(1 − p_x)^{d − popcount i}. Inclusive prefix
// sums plus a spurious last entry > 1. d ∈ [0, 20].
inline std::vector<Rational> ProbabilityListAsPrinted(const Rational& px, int d) {
  ValidateCoqPx(px);
  ValidateCoqListBits(d);
  const std::uint64_t n = std::uint64_t{1} << d;
  std::vector<Rational> list(static_cast<std::size_t>(n + 1));
  list[0] = PowRational(Rational(1 - px), d);
  for (std::uint64_t i = 1; i <= n; ++i) list[i] = list[i - 1] + CodewordProbability(px, d, i);
  return list;
}

// A cell of the corrected codebook: k = κ(v) (FindIndex) and θ = (v − F(k))/p(k) ∈ [0, 1]
// (seed-001 §4.9 notation). For Bob, v = 1 − P_B and θ = θ_B′ = P(U_B = −1 | I = k_B).
template <class Real>
struct CoqCell {
  Int k;
  Real theta;
};

// The CR law of seed-001 §3.7 / §7 item 5: p(i), F(i), FindIndex. For p_x = 1/2 everything
// is closed form (p(i) = 2^−d, F(i) = i/2^d) and d may be up to 62; otherwise the exclusive
// list is built (d ≤ 20).
class CoqCodebook {
 public:
  CoqCodebook(const Rational& px, int d) : px_(px), d_(d) {
    ValidateCoqPx(px);
    ValidateCoqBits(d, px);
    n_ = Int(1) << d;
    uniform_ = (px == Rational(1, 2));
    if (!uniform_) F_ = ProbabilityListCorrected(px, d);
  }
  const Rational& px() const { return px_; }
  int d() const { return d_; }
  bool uniform() const { return uniform_; }
  const Int& size() const { return n_; }  // N = 2^d

  // p(i), 0 ≤ i < 2^d.
  Rational p(const Int& i) const {
    CheckIndex(i, n_ - 1, "i");
    if (uniform_) return Pow2(-d_);
    return CodewordProbability(px_, d_, i.convert_to<std::uint64_t>());
  }
  // F(i) = Σ_{j<i} p(j), 0 ≤ i ≤ 2^d.
  Rational F(const Int& i) const {
    CheckIndex(i, n_, "i");
    if (uniform_) return Rational(i) * Pow2(-d_);
    return F_[i.convert_to<std::size_t>()];
  }

  // §3.6 FindIndex: the unique k ∈ {0..2^d−1} with F(k) ≤ v < F(k+1); E2: v = 1 gives 2^d − 1.
  template <class Real>
  Int FindIndex(const Real& v) const {
    if (v < Real(0) || v > Real(1))
      throw InvalidArgument("v", "FindIndex needs v in [0, 1] (clip the weight, seed-001 E12)");
    if (uniform_) {
      Int k = FloorInt(Real(Rational(n_)) * v);
      if (k >= n_) k = n_ - 1;  // v = 1 (E2)
      return k;
    }
    std::size_t lo = 0, hi = F_.size() - 2;  // largest k ≤ 2^d − 1 with F(k) ≤ v
    while (lo < hi) {
      const std::size_t mid = (lo + hi + 1) / 2;
      if (Real(F_[mid]) <= v) lo = mid;
      else hi = mid - 1;
    }
    return Int(lo);
  }
  template <class Real>
  CoqCell<Real> Cell(const Real& v) const {
    CoqCell<Real> cell;
    cell.k = FindIndex(v);
    cell.theta = (v - Real(F(cell.k))) / Real(p(cell.k));
    return cell;
  }

 private:
  static void CheckIndex(const Int& i, const Int& max, const std::string& name) {
    if (i < 0 || i > max) throw InvalidArgument(name, "codebook index out of range");
  }
  Rational px_;
  int d_;
  Int n_;
  bool uniform_ = false;
  std::vector<Rational> F_;
};

// P(U_A = a, U_B = b); the first sign is Alice (UP = +1, the CR generator).
template <class Real>
struct CoqJoint {
  Real pp, pm, mp, mm;  // (+,+), (+,−), (−,+), (−,−)
  Real Total() const { return pp + pm + mp + mm; }
  Real APlus() const { return pp + pm; }
  Real BPlus() const { return pp + mp; }
};

// Alice's and Bob's cells: k_A = κ(P_A), k_B = κ(1 − P_B) (§4.9).
template <class Real>
CoqCell<Real> AliceCell(const CoqCodebook& book, const Real& P_A) {
  return book.Cell(P_A);
}
template <class Real>
CoqCell<Real> BobCell(const CoqCodebook& book, const Real& P_B) {
  return book.Cell(Real(Real(1) - P_B));
}

// D1: P(U_A = +1 | I = i) = 1[i < k_A] + θ_A 1[i = k_A].
template <class Real>
Real AliceConditionalPlus(const CoqCell<Real>& a, const Int& i) {
  if (i < a.k) return Real(1);
  if (i > a.k) return Real(0);
  return a.theta;
}
// D1: P(U_B = +1 | I = i) = 1[i > k_B] + (1 − θ_B) 1[i = k_B].
template <class Real>
Real BobConditionalPlus(const CoqCell<Real>& b, const Int& i) {
  if (i > b.k) return Real(1);
  if (i < b.k) return Real(0);
  return Real(1) - b.theta;
}
// D2: P(U_A = +1) = F(k_A) + p(k_A) θ_A; P(U_B = +1) = 1 − F(k_B + 1) + p(k_B)(1 − θ_B).
// Both equal P_A, P_B exactly (tests assert it for every d and p_x).
template <class Real>
Real AliceMarginalPlus(const CoqCodebook& book, const CoqCell<Real>& a) {
  return Real(book.F(a.k)) + Real(book.p(a.k)) * a.theta;
}
template <class Real>
Real BobMarginalPlus(const CoqCodebook& book, const CoqCell<Real>& b) {
  return Real(Rational(1 - book.F(Int(b.k + 1)))) + Real(book.p(b.k)) * (Real(1) - b.theta);
}

// D3 [DERIVED]: π++ = 0 if k_A < k_B; P_A + P_B − 1 if k_A > k_B;
// (P_A − F(k))(F(k+1) − (1 − P_B))/p(k) if k_A = k_B = k. Other cells by the marginals.
template <class Real>
CoqJoint<Real> CoqJointClosedForm(const CoqCodebook& book, const Real& P_A, const Real& P_B) {
  const CoqCell<Real> a = AliceCell(book, P_A), b = BobCell(book, P_B);
  CoqJoint<Real> j;
  if (a.k < b.k) {
    j.pp = Real(0);
  } else if (a.k > b.k) {
    j.pp = P_A + P_B - Real(1);
  } else {
    const Int& k = a.k;
    j.pp = (P_A - Real(book.F(k))) * (Real(book.F(Int(k + 1))) - (Real(1) - P_B)) / Real(book.p(k));
  }
  j.pm = P_A - j.pp;
  j.mp = P_B - j.pp;
  j.mm = Real(1) - P_A - P_B + j.pp;
  return j;
}

// ---- Literal PerturbWeight (§3.4 Alg. 2 / §3.6), for brute force and the E1 regression ----

// FindIndex(ProbList, value) by linear scan: the i with list[i] ≤ v < list[i+1]. Corrected
// list: E2's v = 1 rule. As-printed list: none exists for v < (1 − p_x)^d — E1 — and that
// throws InvalidArgument naming `argument`.
template <class Real>
std::size_t FindIndexLiteral(const std::vector<Rational>& list, const Real& v, CoqList variant,
                             const std::string& argument) {
  for (std::size_t i = 0; i + 1 < list.size(); ++i)
    if (Real(list[i]) <= v && v < Real(list[i + 1])) return i;
  if (variant == CoqList::kCorrected && v <= Real(1) && v >= Real(1)) return list.size() - 2;  // E2
  throw InvalidArgument(argument,
                        "FindIndex is undefined: no i with ProbList[i] <= v < ProbList[i+1] for v = " +
                            ToExactString(MidOf(v)) +
                            (variant == CoqList::kAsPrinted
                                 ? " (seed-001 E1: the as-printed ProbabilityList starts at (1-p_x)^d)"
                                 : ""));
}

// One client's PerturbWeight rule for one coordinate: idx = FindIndex(list, v) with
// v = P_marg (UP = +1) or 1 − P_marg (UP = −1); ProbGrid = (v − list[idx])/(list[idx+1] − list[idx]).
template <class Real>
struct PerturbWeightRule {
  Int idx;
  Real prob_grid;
  int up;
  // Alg. 2 l.11–18: I < idx → U = UP; I ≥ idx + 1 → U = −UP; else U = UP w.p. ProbGrid.
  // Returns P(U = +1 | I).
  Real PlusGiven(const Int& I) const {
    Real up_prob;  // P(U = UP | I)
    if (I < idx) up_prob = Real(1);
    else if (I >= idx + 1) up_prob = Real(0);
    else up_prob = prob_grid;
    return up == 1 ? up_prob : Real(Real(1) - up_prob);
  }
};

template <class Real>
PerturbWeightRule<Real> MakePerturbWeightRule(const std::vector<Rational>& list, const Real& prob_marginal,
                                              int up, CoqList variant, const std::string& argument) {
  if (up != 1 && up != -1) throw InvalidArgument("UP", "must be +1 or -1");
  const Real v = up == 1 ? prob_marginal : Real(Real(1) - prob_marginal);  // l.4–8
  const std::size_t idx = FindIndexLiteral(list, v, variant, argument);    // l.9
  PerturbWeightRule<Real> rule;
  rule.idx = Int(idx);
  rule.prob_grid = (v - Real(list[idx])) / Real(Rational(list[idx + 1] - list[idx]));  // l.16
  rule.up = up;
  return rule;
}

// ConvertToInteger (§3.6): MSB-first binary, b_1 most significant (Hamming-weight preserving).
inline Int ConvertToInteger(const std::vector<bool>& bits) {
  Int value(0);
  for (bool b : bits) value = value * 2 + (b ? 1 : 0);
  return value;
}

// Brute force (§7 item 17): enumerate every CR bit vector b ∈ {0,1}^d with weight
// Π p_x^{b_k}(1 − p_x)^{1 − b_k}, I = ConvertToInteger(b), and sum the products of the two
// clients' literal conditional laws (private coins ⇒ conditionally independent given I).
// variant selects the list both clients use (kAsPrinted = Alg. 3 as printed, E1). d ≤ 20.
template <class Real>
CoqJoint<Real> CoqJointBruteForce(const Rational& px, int d, const Real& P_A, const Real& P_B,
                                  CoqList variant) {
  ValidateCoqPx(px);
  ValidateCoqListBits(d);
  const std::vector<Rational> list =
      variant == CoqList::kCorrected ? ProbabilityListCorrected(px, d) : ProbabilityListAsPrinted(px, d);
  const PerturbWeightRule<Real> alice = MakePerturbWeightRule(list, P_A, +1, variant, "wA");
  const PerturbWeightRule<Real> bob = MakePerturbWeightRule(list, P_B, -1, variant, "wB");
  CoqJoint<Real> j{Real(0), Real(0), Real(0), Real(0)};
  const std::uint64_t count = std::uint64_t{1} << d;
  std::vector<bool> bits(static_cast<std::size_t>(d));
  for (std::uint64_t z = 0; z < count; ++z) {
    Rational weight(1);
    for (int k = 0; k < d; ++k) {
      bits[static_cast<std::size_t>(k)] = ((z >> k) & 1U) != 0;  // any enumeration order
      weight *= bits[static_cast<std::size_t>(k)] ? px : Rational(1 - px);
    }
    const Int I = ConvertToInteger(bits);
    const Real a = alice.PlusGiven(I), b = bob.PlusGiven(I), w = Real(weight);
    j.pp += w * a * b;
    j.pm += w * a * (Real(1) - b);
    j.mp += w * (Real(1) - a) * b;
    j.mm += w * (Real(1) - a) * (Real(1) - b);
  }
  return j;
}

// As-printed joint without enumeration: both literal conditional laws are constant on the
// segments of {0..2^d−1} cut at idx_A, idx_A+1, idx_B, idx_B+1; a segment [s, t) has mass
// F(t) − F(s) under the true CR law (the corrected F). d ≤ 20.
template <class Real>
CoqJoint<Real> CoqJointAsPrinted(const Rational& px, int d, const Real& P_A, const Real& P_B) {
  const std::vector<Rational> list = ProbabilityListAsPrinted(px, d);
  const std::vector<Rational> F = ProbabilityListCorrected(px, d);
  const PerturbWeightRule<Real> alice = MakePerturbWeightRule(list, P_A, +1, CoqList::kAsPrinted, "wA");
  const PerturbWeightRule<Real> bob = MakePerturbWeightRule(list, P_B, -1, CoqList::kAsPrinted, "wB");
  const std::size_t n = F.size() - 1;
  std::vector<std::size_t> cuts = {0, n};
  for (const Int& c : {alice.idx, Int(alice.idx + 1), bob.idx, Int(bob.idx + 1)}) {
    const std::size_t cut = c.convert_to<std::size_t>();
    if (cut > 0 && cut < n) cuts.push_back(cut);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  CoqJoint<Real> j{Real(0), Real(0), Real(0), Real(0)};
  for (std::size_t s = 0; s + 1 < cuts.size(); ++s) {
    const Real w = Real(Rational(F[cuts[s + 1]] - F[cuts[s]]));
    const Real a = alice.PlusGiven(Int(cuts[s])), b = bob.PlusGiven(Int(cuts[s]));
    j.pp += w * a * b;
    j.pm += w * a * (Real(1) - b);
    j.mp += w * (Real(1) - a) * b;
    j.mm += w * (Real(1) - a) * (Real(1) - b);
  }
  return j;
}

// §7 item 14 (E1 regression): Alice's realised P(U = +1) with the as-printed list,
// F_incl(idx−1) + p(idx)(P − F_incl(idx))/(ProbList[idx+1] − ProbList[idx]), with
// F_incl(i) = ProbList[i] = Σ_{j≤i} p(j). Equals P − 2^−d for p_x = 1/2. Throws
// InvalidArgument (E1) when P < (1 − p_x)^d.
template <class Real>
Real AsPrintedAliceMarginal(const Rational& px, int d, const Real& P) {
  const std::vector<Rational> list = ProbabilityListAsPrinted(px, d);
  const std::size_t idx = FindIndexLiteral(list, P, CoqList::kAsPrinted, "wA");
  const Rational p_idx = CodewordProbability(px, d, idx);
  const Rational f_before = list[idx] - p_idx;  // F_incl(idx − 1)
  return Real(f_before) + Real(p_idx) * (P - Real(list[idx])) / Real(Rational(list[idx + 1] - list[idx]));
}

// ---- D4 and the ideal coupling (Lemma 2, Eq. 6, §4.6) ----

template <class Real>
Real FourR2Alpha2(const Real& alpha, const Rational& r) {
  return Real(Rational(4 * r * r)) * alpha * alpha;
}
// D4: Cov(w*_A, w*_B) = 4r²α²(π++ − P_A P_B).
template <class Real>
Real CoqCovariance(const Real& alpha, const Rational& r, const Real& pi_pp, const Real& P_A, const Real& P_B) {
  return FourR2Alpha2(alpha, r) * (pi_pp - P_A * P_B);
}
// D4: Var(w*_A + w*_B) = 4r²α²(S − S² + 2π++), S = P_A + P_B.
template <class Real>
Real CoqPairSumVariance(const Real& alpha, const Rational& r, const Real& pi_pp, const Real& P_A,
                        const Real& P_B) {
  const Real S = P_A + P_B;
  return FourR2Alpha2(alpha, r) * (S - S * S + Real(2) * pi_pp);
}
// §4.5 / §7 item 9: the ideal (d → ∞, countermonotone) π++ = max(0, S − 1).
template <class Real>
Real IdealPiPlusPlus(const Real& P_A, const Real& P_B) {
  return Max(Real(0), Real(P_A + P_B - Real(1)));
}
// Lemma 2, Eq. (5): −(w_A − w_lo)(w_B − w_lo) if (w_A + w_B)/2 ≤ c, else −(w_A − w_hi)(w_B − w_hi).
template <class Real>
Real Lemma2Covariance(const Real& alpha, const Rational& c, const Rational& r, const Rational& wA,
                      const Rational& wB) {
  const Real level = (wA + wB) / 2 <= c ? Real(Real(c) - Real(r) * alpha) : Real(Real(c) + Real(r) * alpha);
  return -((Real(wA) - level) * (Real(wB) - level));
}
// Eq. (6): with E[w] = (w_A + w_B)/2, −4(E[w] − c)(E[w] − w_lo) if E[w] ≤ c, else with w_hi.
template <class Real>
Real Eq6PairSumVariance(const Real& alpha, const Rational& c, const Rational& r, const Rational& wA,
                        const Rational& wB) {
  const Rational mean = (wA + wB) / 2;
  const Real level = mean <= c ? Real(Real(c) - Real(r) * alpha) : Real(Real(c) + Real(r) * alpha);
  return Real(Rational(-4 * (mean - c))) * (Real(mean) - level);
}
// §4.6 [DERIVED]: 4r²α²{S}(1 − {S}), {S} = S − ⌊S⌋.
template <class Real>
Real FractionalPairSumVariance(const Real& alpha, const Rational& r, const Real& S) {
  const Real frac = S - Real(Rational(FloorInt(S)));
  return FourR2Alpha2(alpha, r) * frac * (Real(1) - frac);
}
// §7 item 10: independent (LDP-FL, d = 0) pair: 2r²α² − (w_A − c)² − (w_B − c)².
template <class Real>
Real IndependentPairSumVariance(const Real& alpha, const Rational& c, const Rational& r, const Rational& wA,
                                const Rational& wB) {
  const Rational a = wA - c, b = wB - c;
  return Real(Rational(2 * r * r)) * alpha * alpha - Real(Rational(a * a + b * b));
}
// §4.6(d) / §7 item 12: sup over admissible weights of the ideal pair variance:
// r²α² for α ≤ 2, 4r²(α − 1) for α ≥ 2.
template <class Real>
Real IdealPairSumVarianceSup(const Real& alpha, const Rational& r) {
  const Real r2 = Real(Rational(r * r));
  return alpha <= Real(2) ? Real(r2 * alpha * alpha) : Real(Real(4) * r2 * (alpha - Real(1)));
}
// §4.6(d): independent pair: sup 2r²α² (w_A = w_B = c), inf 2r²(α² − 1) (w = c ± r).
template <class Real>
Real IndependentPairSumVarianceSup(const Real& alpha, const Rational& r) {
  return Real(Rational(2 * r * r)) * alpha * alpha;
}
template <class Real>
Real IndependentPairSumVarianceInf(const Real& alpha, const Rational& r) {
  return Real(Rational(2 * r * r)) * (alpha * alpha - Real(1));
}

// ---- D5 gap, E14 independence, D6 roles ----

// D5: δ = π++ − max(0, S − 1) ≥ 0; δ = 0 unless k_A = k_B.
template <class Real>
Real CoqGapDelta(const Real& pi_pp, const Real& P_A, const Real& P_B) {
  return pi_pp - IdealPiPlusPlus(P_A, P_B);
}
// D5 bound: δ ≤ p(k)/4 with k = k_A (returned whatever the cells; δ = 0 when k_A ≠ k_B).
template <class Real>
Rational CoqGapDeltaBound(const CoqCodebook& book, const Real& P_A) {
  return book.p(AliceCell(book, P_A).k) / 4;
}
// D5 / §7 item 12: at S = 1 the finite-d pair variance is 8r²α² x y / p with
// x = P_A − F(k), y = F(k+1) − (1 − P_B), p = p(k) (0 when k_A ≠ k_B).
template <class Real>
Real CoqPairSumVarianceAtSOne(const CoqCodebook& book, const Real& alpha, const Rational& r, const Real& P_A,
                              const Real& P_B) {
  const CoqCell<Real> a = AliceCell(book, P_A), b = BobCell(book, P_B);
  if (a.k != b.k) return Real(0);
  const Real x = P_A - Real(book.F(a.k));
  const Real y = Real(book.F(Int(a.k + 1))) - (Real(1) - P_B);
  return Real(Rational(8 * r * r)) * alpha * alpha * x * y / Real(book.p(a.k));
}
// E14 / §4.8 item 1: π++ − P(U_A=+1)P(U_B=+1), zero iff the two bits are independent
// (binary variables). d = 0 gives 0 (LDP-FL); d = 1, p_x = 1/2 does not.
template <class Real>
Real CoqIndependenceGap(const CoqJoint<Real>& j) {
  return j.pp - j.APlus() * j.BPlus();
}

// ---- Everything of §7 items 1–10 for one pair ----

template <class Real>
struct CoqResult {
  CoqList variant;
  Real alpha, P_A, P_B;
  CoqCell<Real> cell_A, cell_B;  // corrected: (k, θ); as printed: (idx, ProbGrid)
  CoqJoint<Real> joint;
  Real marginal_A_plus, marginal_B_plus;  // realised P(U = +1) (= P_A, P_B when corrected: D2)
  Real mean_A, mean_B;                    // E w* = c + rα(2·marginal − 1)
  Real cov;                               // r²α² (E[U_A U_B] − E U_A E U_B), from the joint
  Real var_A, var_B;                      // 4r²α² m(1 − m)
  Real var_sum;                           // var_A + var_B + 2 cov
  Real ideal_pi_pp, ideal_cov, ideal_var_sum;  // d → ∞ (§4.5), D4 with max(0, S − 1)
  Real var_sum_independent;               // d = 0 (§7 item 10)
};

template <class Real>
CoqResult<Real> EvaluateCoq(const Real& E, const Rational& c, const Rational& r, const Rational& wA,
                            const Rational& wB, int d, const Rational& px, CoqList variant) {
  ValidateBinaryQuantizerDomain(E, r);
  ValidateWeightInRange(c, r, wA, "wA");
  ValidateWeightInRange(c, r, wB, "wB");
  ValidateCoqPx(px);
  ValidateCoqBits(d, px);
  if (variant == CoqList::kAsPrinted) ValidateCoqListBits(d);
  CoqResult<Real> out;
  out.variant = variant;
  out.alpha = AlphaFromE(E);
  out.P_A = LdpqProbPlus(out.alpha, c, r, wA);
  out.P_B = LdpqProbPlus(out.alpha, c, r, wB);
  if (variant == CoqList::kCorrected) {
    const CoqCodebook book(px, d);
    out.cell_A = AliceCell(book, out.P_A);
    out.cell_B = BobCell(book, out.P_B);
    out.joint = CoqJointClosedForm(book, out.P_A, out.P_B);
    out.marginal_A_plus = AliceMarginalPlus(book, out.cell_A);
    out.marginal_B_plus = BobMarginalPlus(book, out.cell_B);
  } else {
    const std::vector<Rational> list = ProbabilityListAsPrinted(px, d);
    const PerturbWeightRule<Real> a = MakePerturbWeightRule(list, out.P_A, +1, CoqList::kAsPrinted, "wA");
    const PerturbWeightRule<Real> b = MakePerturbWeightRule(list, out.P_B, -1, CoqList::kAsPrinted, "wB");
    out.cell_A = {a.idx, a.prob_grid};
    out.cell_B = {b.idx, b.prob_grid};
    out.joint = CoqJointAsPrinted(px, d, out.P_A, out.P_B);
    out.marginal_A_plus = out.joint.APlus();
    out.marginal_B_plus = out.joint.BPlus();
  }
  const Real ra = Real(r) * out.alpha;
  const Real uA = Real(2) * out.marginal_A_plus - Real(1), uB = Real(2) * out.marginal_B_plus - Real(1);
  out.mean_A = Real(c) + ra * uA;
  out.mean_B = Real(c) + ra * uB;
  const Real e_uv = out.joint.pp + out.joint.mm - out.joint.pm - out.joint.mp;
  out.cov = ra * ra * (e_uv - uA * uB);
  out.var_A = FourR2Alpha2(out.alpha, r) * out.marginal_A_plus * (Real(1) - out.marginal_A_plus);
  out.var_B = FourR2Alpha2(out.alpha, r) * out.marginal_B_plus * (Real(1) - out.marginal_B_plus);
  out.var_sum = out.var_A + out.var_B + Real(2) * out.cov;
  out.ideal_pi_pp = IdealPiPlusPlus(out.P_A, out.P_B);
  out.ideal_cov = CoqCovariance(out.alpha, r, out.ideal_pi_pp, out.P_A, out.P_B);
  out.ideal_var_sum = CoqPairSumVariance(out.alpha, r, out.ideal_pi_pp, out.P_A, out.P_B);
  out.var_sum_independent = IndependentPairSumVariance(out.alpha, c, r, wA, wB);
  return out;
}

// ---- D8: estimator variance ----

using CoqMatching = std::vector<std::pair<std::size_t, std::size_t>>;  // (Alice, Bob) indices

// D8, one fixed matching (clients not in it are unpaired, i.e. d = 0, §3.6 choice 1):
// Var(ŵ) = (1/n²)[Σ_i (r²α² − (w_i − c)²) + 8r²α² Σ_pairs (π++ − P_A P_B)].
template <class Real>
Real CoqEstimatorVariance(const Real& E, const Rational& c, const Rational& r, const std::vector<Rational>& w,
                          const CoqMatching& matching, int d, const Rational& px) {
  ValidateBinaryQuantizerDomain(E, r);
  ValidateCoqPx(px);
  ValidateCoqBits(d, px);
  if (w.empty()) throw InvalidArgument("w", "need at least one client");
  for (const Rational& wi : w) ValidateWeightInRange(c, r, wi, "w");
  std::vector<bool> used(w.size(), false);
  for (const auto& [a, b] : matching) {
    if (a >= w.size() || b >= w.size() || a == b || used[a] || used[b])
      throw InvalidArgument("matching", "pairs must be disjoint pairs of distinct client indices");
    used[a] = used[b] = true;
  }
  const Real alpha = AlphaFromE(E);
  const CoqCodebook book(px, d);
  Real sum(0);
  for (const Rational& wi : w) sum += Real(Rational(r * r)) * alpha * alpha - Real(Rational((wi - c) * (wi - c)));
  for (const auto& [a, b] : matching) {
    const Real PA = LdpqProbPlus(alpha, c, r, w[a]), PB = LdpqProbPlus(alpha, c, r, w[b]);
    const CoqJoint<Real> j = CoqJointClosedForm(book, PA, PB);
    sum += Real(Rational(8 * r * r)) * alpha * alpha * (j.pp - PA * PB);
  }
  const Rational n(static_cast<long>(w.size()));
  return sum / Real(Rational(n * n));
}

// D8, uniformly random perfect matching (n even ≥ 2) with uniformly random roles:
// (1/n²)[Σ_i Var_i + (2/(n−1)) Σ_{i<j} Cov_ij], Cov_ij averaged over the two role assignments.
template <class Real>
Real CoqEstimatorVarianceRandomMatching(const Real& E, const Rational& c, const Rational& r,
                                        const std::vector<Rational>& w, int d, const Rational& px) {
  ValidateBinaryQuantizerDomain(E, r);
  ValidateCoqPx(px);
  ValidateCoqBits(d, px);
  if (w.size() < 2 || w.size() % 2 != 0) throw InvalidArgument("w", "need an even number n >= 2 of clients");
  for (const Rational& wi : w) ValidateWeightInRange(c, r, wi, "w");
  const Real alpha = AlphaFromE(E);
  const CoqCodebook book(px, d);
  Real var(0), cov(0);
  for (const Rational& wi : w) var += Real(Rational(r * r)) * alpha * alpha - Real(Rational((wi - c) * (wi - c)));
  for (std::size_t i = 0; i < w.size(); ++i)
    for (std::size_t j = i + 1; j < w.size(); ++j) {
      const Real Pi = LdpqProbPlus(alpha, c, r, w[i]), Pj = LdpqProbPlus(alpha, c, r, w[j]);
      const Real c_ij = CoqCovariance(alpha, r, CoqJointClosedForm(book, Pi, Pj).pp, Pi, Pj);
      const Real c_ji = CoqCovariance(alpha, r, CoqJointClosedForm(book, Pj, Pi).pp, Pj, Pi);
      cov += (c_ij + c_ji) / Real(2);
    }
  const Rational n(static_cast<long>(w.size()));
  return (var + Real(Rational(2, static_cast<long>(w.size() - 1))) * cov) / Real(Rational(n * n));
}

// ---- §4.7 / §7 item 13: the two-agent Boolean program ----

// min Y·Z over Y, Z ∈ {−1,1}^{2^d} with n_A (n_B) entries +1: 2|n_A + n_B − 2^d| − 2^d.
inline Int BooleanProgramOptimum(int d, const Int& nA, const Int& nB) {
  if (d < 0 || d > kCoqMaxBits) throw InvalidArgument("d", "must be in [0, 62]");
  const Int N = Int(1) << d;
  if (nA < 0 || nA > N) throw InvalidArgument("nA", "must be in [0, 2^d]");
  if (nB < 0 || nB > N) throw InvalidArgument("nB", "must be in [0, 2^d]");
  const Int s = nA + nB - N;
  return 2 * (s < 0 ? Int(-s) : s) - N;
}
// The draft's construction: Alice +1 on the first n_A codewords, Bob +1 on the last n_B.
inline Int BooleanProgramConstructionValue(int d, int nA, int nB) {
  if (d < 0 || d > kCoqMaxListBits) throw InvalidArgument("d", "must be in [0, 20]");
  const int N = 1 << d;
  if (nA < 0 || nA > N) throw InvalidArgument("nA", "must be in [0, 2^d]");
  if (nB < 0 || nB > N) throw InvalidArgument("nB", "must be in [0, 2^d]");
  Int value(0);
  for (int i = 0; i < N; ++i) value += (i < nA ? 1 : -1) * (i >= N - nB ? 1 : -1);
  return value;
}
// Exhaustive minimum over all feasible Y, Z (d ≤ 2: at most 2^8 candidate pairs).
inline Int BooleanProgramBruteForce(int d, int nA, int nB) {
  if (d < 0 || d > 2) throw InvalidArgument("d", "brute force needs d in [0, 2]");
  const int N = 1 << d;
  if (nA < 0 || nA > N) throw InvalidArgument("nA", "must be in [0, 2^d]");
  if (nB < 0 || nB > N) throw InvalidArgument("nB", "must be in [0, 2^d]");
  int best = N + 1;
  for (unsigned y = 0; y < (1U << N); ++y) {
    if (std::popcount(y) != nA) continue;  // (1/2^d) Σ Y_i = 2P_U − 1 ⇔ n_A entries are +1
    for (unsigned z = 0; z < (1U << N); ++z) {
      if (std::popcount(z) != nB) continue;
      int dot = 0;
      for (int i = 0; i < N; ++i) dot += (((y >> i) & 1U) ? 1 : -1) * (((z >> i) & 1U) ? 1 : -1);
      if (dot < best) best = dot;
    }
  }
  return Int(best);
}

// ---- D9 / §7 item 15: privacy loss of the joint view ----

template <class Real>
struct JointViewPrivacyLoss {
  bool infinite = false;  // some π_uv vanishes for one w_A of the grid and not for another
  Real ratio;             // when !infinite: sup_{uv, w_A, w_A'} π_uv(w_A)/π_uv(w_A') over the grid
};

// w_B fixed, w_A over a finite grid. Cells that vanish for every grid point are skipped
// (they are never observed).
template <class Real>
JointViewPrivacyLoss<Real> CoqJointViewPrivacyLoss(const Real& E, const Rational& c, const Rational& r,
                                                   const std::vector<Rational>& wA_grid, const Rational& wB,
                                                   int d, const Rational& px) {
  ValidateBinaryQuantizerDomain(E, r);
  ValidateWeightInRange(c, r, wB, "wB");
  if (wA_grid.empty()) throw InvalidArgument("wA", "grid must not be empty");
  for (const Rational& w : wA_grid) ValidateWeightInRange(c, r, w, "wA");
  const Real alpha = AlphaFromE(E);
  const CoqCodebook book(px, d);
  const Real PB = LdpqProbPlus(alpha, c, r, wB);
  std::vector<CoqJoint<Real>> joints;
  for (const Rational& w : wA_grid) joints.push_back(CoqJointClosedForm(book, LdpqProbPlus(alpha, c, r, w), PB));
  JointViewPrivacyLoss<Real> loss;
  loss.ratio = Real(1);
  for (Real CoqJoint<Real>::*cell : {&CoqJoint<Real>::pp, &CoqJoint<Real>::pm, &CoqJoint<Real>::mp,
                                     &CoqJoint<Real>::mm}) {
    int zeros = 0;
    for (const CoqJoint<Real>& j : joints)
      if (!(j.*cell > Real(0))) ++zeros;
    if (zeros == static_cast<int>(joints.size())) continue;
    if (zeros > 0) {
      loss.infinite = true;
      continue;
    }
    Real hi = joints[0].*cell, lo = joints[0].*cell;
    for (const CoqJoint<Real>& j : joints) {
      hi = Max(hi, j.*cell);
      lo = Min(lo, j.*cell);
    }
    loss.ratio = Max(loss.ratio, Real(hi / lo));
  }
  return loss;
}

}  // namespace dpfl::ref
