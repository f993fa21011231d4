// dpfl::ref — CoQ-FL (seed 001) part 2 of 4: a literal transcription of PerturbWeight (§3.4
// Alg. 2, normative pseudo-code §3.6) for the brute-force joint and the as-printed list (E1);
// independent of the closed form of coq_codebook.hpp, which the tests compare it with.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dpfl/ref/coq_codebook.hpp"

namespace dpfl::ref {

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

}  // namespace dpfl::ref
