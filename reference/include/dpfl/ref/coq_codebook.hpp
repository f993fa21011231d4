// dpfl::ref — CoQ-FL (seed 001) part 1 of 4: the codeword law, the ProbabilityList (corrected
// and as printed, E1), CoqCodebook with FindIndex, the cells of Alice and Bob (D1, D2) and the
// closed-form joint law of the pair (case table D3). Overview and cross-checks: coq.hpp.
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
  Require("px", px, Domain::OpenUnit(), EchoValue, "CR coin bias p_x, seed-001 §3.7");
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

}  // namespace dpfl::ref
