// Internals of the quantized Gaussian reference (seed 003), shared by its three source files:
// quantized_gaussian.cpp (public API), quantized_gaussian_direct.cpp (the pmf from G second
// differences, kDirect, and the enclosure helpers) and quantized_gaussian_series.cpp (interior
// bins without transcendental calls, kSeries). Not installed; see quantized_gaussian.hpp for
// the math and the rigor argument.
#pragma once

#include <functional>
#include <vector>

#include "dpfl/ref/quantized_gaussian.hpp"

namespace dpfl::ref::qg_internal {

inline constexpr int kFirstGuardBits = 64;
inline constexpr int kMaxGuardBits = 4096;
// The Gaussian-factor recurrence is restarted from a direct exp every kBlock bins, so the interval
// width grows at most like kBlock² ulps (checked anyway by the final width test).
inline constexpr long kBlock = 256;

inline Rational AbsQ(const Rational& q) { return q < 0 ? Rational(-q) : q; }

// Runs compute(w) at w = p + guard bits, doubling the guard until NarrowEnough for every result.
template <class R, class Check>
R Adaptive(int p, const std::function<R(mpfr_prec_t)>& compute, const Check& narrow) {
  for (int guard = kFirstGuardBits;; guard *= 2) {
    R r = compute(static_cast<mpfr_prec_t>(p + guard));
    if (narrow(r) || guard >= kMaxGuardBits) return r;
  }
}

inline Enclosure AdaptiveScalar(int p, const std::function<Enclosure(mpfr_prec_t)>& compute) {
  return Adaptive<Enclosure>(p, compute, [p](const Enclosure& e) { return NarrowEnough(e, p); });
}

// [−b, b] where b is the upper endpoint of |e|.
Enclosure PlusMinus(const Enclosure& e);
// The point enclosure of a double (exact: a double is a dyadic rational).
Enclosure FromDouble(mpfr_prec_t w, double d);
// Upper endpoint of |e| as a double rounded up (used only to choose series lengths; every bound
// that enters a result is an enclosure).
double MagUp(const Enclosure& e);
// G(t) = tΦ(t) + φ(t): G' = Φ, G'' = φ, G(t) − G(−t) = t (spec 003 §4.1).
Enclosure GFunction(mpfr_prec_t w, const Rational& t);
// Φ(hi) − Φ(lo) for lo ≤ hi, computed on the tail side (upper tails when lo ≥ 0).
Enclosure PhiDiff(mpfr_prec_t w, const Rational& lo, const Rational& hi);

struct Grid {
  Rational sigma, clip, delta, h;  // δ_q = 2C/(k−1), h = δ_q/σ
  long k;
  Grid(const QuantizedGaussianParams& p)  // NOLINT
      : sigma(p.sigma), clip(p.clip), delta(Rational(2) * p.clip / Rational(p.levels - 1)),
        h(delta / p.sigma), k(p.levels) {}
  // u_j = (x − B(j))/σ, B(j) = −C + jδ_q.
  Rational U(const Rational& x, long j) const { return (x + clip - Rational(j) * delta) / sigma; }
};

// kDirect (quantized_gaussian_direct.cpp): P_x[B(r)] for every bin (only the two end bins when
// ends_only), at working precision w (no width check); the divergence of the given order.
std::vector<Enclosure> DirectPmf(const Grid& g, const Rational& x, mpfr_prec_t w, bool ends_only);
Enclosure DirectDivergence(const Grid& g, const Rational& x, const Rational& xp, const RenyiOrder& order, mpfr_prec_t w);

// kSeries (quantized_gaussian_series.cpp): usable iff k ≥ 3 and h(U + h) ≤ 1; the divergence.
bool SeriesApplicable(const Grid& g, const Rational& x);
// Interior data for one input x: c_r = S(u_r) − 1 and L_r = log S(u_r), r = 1..k−2
// (index r; entries 0 and k−1 unused), with P_r = (h/√(2π)) e^{−u_r²/2} S(u_r).
struct SeriesData {
  std::vector<Enclosure> c, log_s;
};
SeriesData SeriesInterior(const Grid& g, const Rational& x, mpfr_prec_t w, bool need_log = true);
Enclosure SeriesDivergence(const Grid& g, const Rational& x, const Rational& xp, const RenyiOrder& order, mpfr_prec_t w);

}  // namespace dpfl::ref::qg_internal
