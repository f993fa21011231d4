// dpfl::ref — CorBinQ, the correlated binary quantizer of CorBin-FL (seed 000).
//
// seed-000 §3.2 Alg. 2, §4.2 (Theorem 1, exact finite-d pmf), spec 000 §7 R3–R6.
// Two independent computations of the joint pmf exist here and are cross-checked in tests:
//   * CorBinQJointClosedForm — the case table of spec 000 §4.2 (corrected line 14), and an
//     exact segment decomposition for the as-printed line 14 (erratum E3);
//   * CorBinQJointBruteForce — a literal transcription of Alg. 2: Z and T as MSB-first bit
//     vectors B_d(·), lexicographic comparison, summed over all 2^d values of Z.
// Exact for Real = Rational; an enclosure for Real = Interval (floors must be decidable).
#pragma once

#include <cstdint>
#include <vector>

#include "dpfl/ref/ldpq.hpp"

namespace dpfl::ref {

// Which "else if" Alg. 2 line 14 uses. seed-000 E3: the paper prints "T1 ≺ Z"; the prose and
// the proof of Thm 1 use "T2 ≺ Z". kAsPrinted exists only to reproduce the erratum.
enum class Line14 { kCorrected, kAsPrinted };

inline constexpr int kMaxSharedBits = 62;     // d range accepted by the reference
inline constexpr int kMaxBruteForceBits = 20;  // 2^20 terms

// P(Q1 = c + s1·rα, Q2 = c + s2·rα); the first sign is Q1 (spec 000 §7.1 convention).
template <class Real>
struct JointPmf {
  Real mm, mp, pm, pp;  // P(−,−), P(−,+), P(+,−), P(+,+)
  Real Total() const { return mm + mp + pm + pp; }
  Real Q1Plus() const { return pm + pp; }
  Real Q2Plus() const { return mp + pp; }
};

// Cell data of Alg. 2 line 3: N = 2^d, x1 = N q1, t1 = ⌊x1⌋, f1 = x1 − t1,
// x2 = N(1 − q2), t2 = ⌊x2⌋, f2 = x2 − t2 (spec 000 §4.2).
template <class Real>
struct CorBinQCells {
  Int N;
  Int t1, t2;
  Real f1, f2;
};

inline void ValidateSharedBits(int d) {
  if (d < 0 || d > kMaxSharedBits)
    throw InvalidArgument("d", "number of shared bits must be in [0, 62], got " + std::to_string(d));
}

template <class Real>
CorBinQCells<Real> ComputeCorBinQCells(const Real& q1, const Real& q2, int d) {
  ValidateSharedBits(d);
  CorBinQCells<Real> cells;
  cells.N = Int(1) << d;
  const Real x1 = Real(Rational(cells.N)) * q1;
  const Real x2 = Real(Rational(cells.N)) * (Real(1) - q2);
  cells.t1 = FloorInt(x1);
  cells.t2 = FloorInt(x2);
  cells.f1 = x1 - Real(Rational(cells.t1));
  cells.f2 = x2 - Real(Rational(cells.t2));
  return cells;
}

// Joint pmf from the marginals q1 = P(Q1=+), q2 = P(Q2=+) ∈ [0, 1) and d shared bits.
// Corrected: the case table of spec 000 §4.2 [DERIVED]. As printed (E3): the shared index
// z ∈ {0..N−1} is split at t1, t1+1, t2, t2+1 into segments on which both conditional laws
// are constant; each segment contributes (length/N)·P(Q1|z)·P(Q2|z) (coins are private,
// hence conditionally independent given z).
template <class Real>
JointPmf<Real> CorBinQJointClosedForm(const Real& q1, const Real& q2, int d, Line14 line14) {
  const CorBinQCells<Real> k = ComputeCorBinQCells(q1, q2, d);
  const Real N = Real(Rational(k.N));
  JointPmf<Real> p;
  if (line14 == Line14::kCorrected) {
    if (k.t1 < k.t2) {
      p.mm = Real(1) - q1 - q2;
      p.pp = Real(0);
      p.pm = q1;
      p.mp = q2;
    } else if (k.t1 > k.t2) {
      p.mm = Real(0);
      p.pp = q1 + q2 - Real(1);
      p.pm = Real(1) - q2;
      p.mp = Real(1) - q1;
    } else {
      const Real t = Real(Rational(k.t1));
      p.mm = (Real(1) - k.f1) * k.f2 / N;
      p.pp = k.f1 * (Real(1) - k.f2) / N;
      p.pm = (t + k.f1 * k.f2) / N;
      p.mp = (N - Real(1) - t + (Real(1) - k.f1) * (Real(1) - k.f2)) / N;
    }
    return p;
  }
  // As printed: P(Q1=+|z) = [z<t1] + f1[z=t1];  P(Q2=+|z) = 0 if z<t2, else 1 if z>t1,
  // else 1 − f2 (line 17: U' = +1 w.p. f2 gives Q2 = c − rα).
  auto q1_plus_given = [&](const Int& z) -> Real {
    if (z < k.t1) return Real(1);
    if (z > k.t1) return Real(0);
    return k.f1;
  };
  auto q2_plus_given = [&](const Int& z) -> Real {
    if (z < k.t2) return Real(0);
    if (z > k.t1) return Real(1);
    return Real(1) - k.f2;
  };
  std::vector<Int> cuts = {Int(0), k.N};
  for (const Int& b : {k.t1, Int(k.t1 + 1), k.t2, Int(k.t2 + 1)})
    if (b > 0 && b < k.N) cuts.push_back(b);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  p = {Real(0), Real(0), Real(0), Real(0)};
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    const Real weight = Real(Rational(Int(cuts[i + 1] - cuts[i]))) / N;
    const Real a = q1_plus_given(cuts[i]), b = q2_plus_given(cuts[i]);
    p.pp += weight * a * b;
    p.pm += weight * a * (Real(1) - b);
    p.mp += weight * (Real(1) - a) * b;
    p.mm += weight * (Real(1) - a) * (Real(1) - b);
  }
  return p;
}

// B_d(t): the MSB-first d-bit representation of 0 ≤ t < 2^d (spec 000 §3.0).
inline std::vector<bool> BinaryVector(const Int& t, int d) {
  std::vector<bool> bits(static_cast<size_t>(d));
  for (int k = 0; k < d; ++k) bits[static_cast<size_t>(k)] = boost::multiprecision::bit_test(t, static_cast<unsigned>(d - 1 - k));
  return bits;
}
// a ≺ b in lexicographic order (first differing bit decides; Z_1 is most significant).
inline bool LexLess(const std::vector<bool>& a, const std::vector<bool>& b) {
  for (size_t k = 0; k < a.size(); ++k)
    if (a[k] != b[k]) return !a[k] && b[k];
  return false;
}

// Literal Alg. 2, lines 1–20, summed over all Z ∈ {0,1}^d with probability 2^−d each; the
// BinRand coins enter as their exact probabilities. d ≤ kMaxBruteForceBits.
template <class Real>
JointPmf<Real> CorBinQJointBruteForce(const Real& q1, const Real& q2, int d, Line14 line14) {
  ValidateSharedBits(d);
  if (d > kMaxBruteForceBits)
    throw InvalidArgument("d", "brute force enumerates 2^d values; d must be ≤ 20");
  const Int N = Int(1) << d;
  const Real x1 = Real(Rational(N)) * q1, x2 = Real(Rational(N)) * (Real(1) - q2);
  const std::vector<bool> T1 = BinaryVector(FloorInt(x1), d);  // line 3
  const std::vector<bool> T2 = BinaryVector(FloorInt(x2), d);
  const Real u_prob = x1 - Real(Rational(FloorInt(x1)));        // line 9: P(U = +1)
  const Real u2_prob = x2 - Real(Rational(FloorInt(x2)));       // line 17: P(U' = +1)
  const Real weight = Real(Rational(Int(1), N));
  JointPmf<Real> p{Real(0), Real(0), Real(0), Real(0)};
  const std::uint64_t count = std::uint64_t{1} << d;
  for (std::uint64_t z = 0; z < count; ++z) {
    const std::vector<bool> Z = BinaryVector(Int(z), d);
    Real q1_plus;                                  // P(Q1 = c + rα | Z)
    if (LexLess(Z, T1)) q1_plus = Real(1);         // lines 4–5
    else if (LexLess(T1, Z)) q1_plus = Real(0);    // lines 6–7
    else q1_plus = u_prob;                         // lines 9–10: Q1 = c + U rα
    const std::vector<bool>& line14_threshold = (line14 == Line14::kCorrected) ? T2 : T1;
    Real q2_plus;                                  // P(Q2 = c + rα | Z)
    if (LexLess(Z, T2)) q2_plus = Real(0);         // lines 12–13
    else if (LexLess(line14_threshold, Z)) q2_plus = Real(1);  // lines 14–15
    else q2_plus = Real(1) - u2_prob;              // lines 17–18: Q2 = c − U' rα
    p.pp += weight * q1_plus * q2_plus;
    p.pm += weight * q1_plus * (Real(1) - q2_plus);
    p.mp += weight * (Real(1) - q1_plus) * q2_plus;
    p.mm += weight * (Real(1) - q1_plus) * (Real(1) - q2_plus);
  }
  return p;
}

// m(Q1,Q2,w,w') = E[(Q1 + Q2 − w − w')²] for a joint law on {c ± rα}² (spec 000 §2.5).
template <class Real>
Real PairMse(const JointPmf<Real>& p, const Real& alpha, const Rational& r, const Rational& S) {
  const Real ra = Real(r) * alpha, s = Real(S);
  const Real two_ra = Real(2) * ra;
  return p.mm * (-two_ra - s) * (-two_ra - s) + p.pp * (two_ra - s) * (two_ra - s) +
         (p.mp + p.pm) * s * s;
}

// R5: the countermonotone (Fréchet lower bound) joint, optimal over Q_α.
template <class Real>
JointPmf<Real> OptimalJoint(const Real& q1, const Real& q2) {
  JointPmf<Real> p;
  p.mm = Max(Real(0), Real(1) - q1 - q2);
  p.pp = Max(Real(0), q1 + q2 - Real(1));
  p.mp = Real(1) - q1 - p.mm;
  p.pm = q1 - p.pp;
  return p;
}

// R5 [DERIVED]: m*(w,w') = |S|(2rα − |S|), S = w + w' − 2c.
template <class Real>
Real MinPairMseClosedForm(const Real& alpha, const Rational& r, const Rational& S) {
  const Real abs_s = Real(Abs(S));
  return abs_s * (Real(2) * Real(r) * alpha - abs_s);
}
// R5: max over inputs of m*: 4r²(α−1) for α ≥ 2, r²α² for α ≤ 2.
template <class Real>
Real WorstCaseMinPairMse(const Real& alpha, const Rational& r) {
  const Real r2 = Real(Rational(r * r));
  return alpha >= Real(2) ? Real(4) * r2 * (alpha - Real(1)) : r2 * alpha * alpha;
}
// R4: m_d = m* + [t1 = t2]·8r²α²·min{f1(1−f2), f2(1−f1)}/2^d.
template <class Real>
Real PairMseClosedForm(const Real& alpha, const Rational& r, const Rational& S,
                       const CorBinQCells<Real>& k) {
  Real m = MinPairMseClosedForm(alpha, r, S);
  if (k.t1 == k.t2) {
    const Real excess = Min(k.f1 * (Real(1) - k.f2), k.f2 * (Real(1) - k.f1));
    m += Real(8) * Real(Rational(r * r)) * alpha * alpha * excess / Real(Rational(k.N));
  }
  return m;
}
// R4: independent LDPQ pair, 2r²α² − w̃² − w̃'².
template <class Real>
Real IndependentPairMse(const Real& alpha, const Rational& r, const Rational& wt1, const Rational& wt2) {
  return Real(2) * Real(Rational(r * r)) * alpha * alpha - Real(Rational(wt1 * wt1 + wt2 * wt2));
}
// R6: Theorem 1 as printed, m* + r²α²/2^(d−6) (valid only over Q_α; E12, E14).
template <class Real>
Real Thm1BoundAsPrinted(const Real& m_star, const Real& alpha, const Rational& r, int d) {
  return m_star + Real(Rational(r * r) * Pow2(6 - d)) * alpha * alpha;
}
// R6: sharp form m* + 2r²α²/2^d = m* + r²α²/2^(d−1) (spec 000 §4.2, E14).
template <class Real>
Real Thm1BoundSharp(const Real& m_star, const Real& alpha, const Rational& r, int d) {
  return m_star + Real(Rational(r * r) * Pow2(1 - d)) * alpha * alpha;
}

template <class Real>
struct CorBinQResult {
  Real alpha, q1, q2;
  CorBinQCells<Real> cells;
  JointPmf<Real> joint;
  Real mean1, mean2;
  Real cov;              // Cov(Q1, Q2) = E[(Q1−c)(Q2−c)] − w̃ w̃'   (R3)
  Real mse;              // m_d from the joint (R3)
  Real mse_closed_form;  // R4 (corrected variant only; equals mse)
  Real mse_min;          // m* (R5)
  Real mse_independent;  // R4
  Real thm1_bound_as_printed, thm1_bound_sharp;  // R6
};

// Everything of spec 000 §7 R3–R6 for one pair of inputs.
template <class Real>
CorBinQResult<Real> EvaluateCorBinQ(const Real& E, const Rational& c, const Rational& r,
                                    const Rational& w1, const Rational& w2, int d, Line14 line14) {
  ValidateBinaryQuantizerDomain(E, r);
  ValidateWeightInRange(c, r, w1, "w1");
  ValidateWeightInRange(c, r, w2, "w2");
  ValidateSharedBits(d);
  CorBinQResult<Real> out;
  out.alpha = AlphaFromE(E);
  out.q1 = LdpqProbPlus(out.alpha, c, r, w1);
  out.q2 = LdpqProbPlus(out.alpha, c, r, w2);
  out.cells = ComputeCorBinQCells(out.q1, out.q2, d);
  out.joint = CorBinQJointClosedForm(out.q1, out.q2, d, line14);
  const Real ra = Real(r) * out.alpha;
  out.mean1 = Real(c) + ra * (out.joint.Q1Plus() * Real(2) - Real(1));
  out.mean2 = Real(c) + ra * (out.joint.Q2Plus() * Real(2) - Real(1));
  const Rational wt1 = w1 - c, wt2 = w2 - c, S = wt1 + wt2;
  out.cov = ra * ra * (out.joint.mm + out.joint.pp - out.joint.mp - out.joint.pm) -
            (out.mean1 - Real(c)) * (out.mean2 - Real(c));
  // m_d is measured against w + w' (the pair sum the quantizers must reproduce).
  out.mse = PairMse(out.joint, out.alpha, r, S);
  out.mse_closed_form = PairMseClosedForm(out.alpha, r, S, out.cells);
  out.mse_min = MinPairMseClosedForm(out.alpha, r, S);
  out.mse_independent = IndependentPairMse(out.alpha, r, wt1, wt2);
  out.thm1_bound_as_printed = Thm1BoundAsPrinted(out.mse_min, out.alpha, r, d);
  out.thm1_bound_sharp = Thm1BoundSharp(out.mse_min, out.alpha, r, d);
  return out;
}

}  // namespace dpfl::ref
