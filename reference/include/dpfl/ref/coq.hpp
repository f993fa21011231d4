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
//
// The header is split by topic: coq_codebook.hpp (law, list, cells, closed-form joint),
// coq_literal.hpp (literal PerturbWeight, brute force, as printed), coq_moments.hpp (Lemma 2,
// Eq. 6, D4–D6); this file holds EvaluateCoq (§7 items 1–10 for one pair), the estimator
// variance D8, the two-agent Boolean program (§4.7) and the joint-view privacy loss D9.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dpfl/ref/coq_codebook.hpp"
#include "dpfl/ref/coq_literal.hpp"
#include "dpfl/ref/coq_moments.hpp"

namespace dpfl::ref {

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
