// dpfl::ref — quantized Gaussian (seed 003): enclosure helpers and the kDirect method (the pmf
// from second differences of G, and divergences summed bin by bin). See quantized_gaussian.hpp.
#include <mpfi.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "quantized_gaussian_internal.hpp"

namespace dpfl::ref::qg_internal {

// [−b, b] where b is the upper endpoint of |e|.
Enclosure PlusMinus(const Enclosure& e) {
  Enclosure out = Enclosure::Uninitialized(e.prec());
  mpfr_t m, nm;
  mpfr_init2(m, e.prec());
  mpfr_init2(nm, e.prec());
  mpfi_mag(m, e.get());        // rounded up
  mpfr_neg(nm, m, MPFR_RNDN);  // exact
  mpfi_interv_fr(out.get(), nm, m);
  mpfr_clear(nm);
  mpfr_clear(m);
  return out;
}

// The point enclosure of a double (exact: a double is a dyadic rational).
Enclosure FromDouble(mpfr_prec_t w, double d) {
  mpfr_t tm;
  mpfr_init2(tm, 64);
  mpfr_set_d(tm, d, MPFR_RNDN);  // exact at 64 bits
  Enclosure out(w, MpfrExactRational(tm));
  mpfr_clear(tm);
  return out;
}

// Upper endpoint of |e| as a double rounded up (used only to choose series lengths; every bound
// that enters a result is an enclosure).
double MagUp(const Enclosure& e) {
  mpfr_t m;
  mpfr_init2(m, e.prec());
  mpfi_mag(m, e.get());
  const double d = mpfr_get_d(m, MPFR_RNDU);
  mpfr_clear(m);
  return d;
}

// G(t) = tΦ(t) + φ(t): G' = Φ, G'' = φ, G(t) − G(−t) = t (spec 003 §4.1).
Enclosure GFunction(mpfr_prec_t w, const Rational& t) {
  const Enclosure te(w, t);
  return te * NormalCdf(te) + NormalPdf(te);
}

// Φ(hi) − Φ(lo) for lo ≤ hi, computed on the tail side (upper tails when lo ≥ 0).
Enclosure PhiDiff(mpfr_prec_t w, const Rational& lo, const Rational& hi) {
  if (lo >= 0) return NormalCdf(Enclosure(w, Rational(-lo))) - NormalCdf(Enclosure(w, Rational(-hi)));
  return NormalCdf(Enclosure(w, hi)) - NormalCdf(Enclosure(w, lo));
}

// ---- kDirect: the pmf from G second differences ----------------------------------------------

// P_x[B(r)] for r in `bins` (all bins when empty), at working precision w (no width check).
std::vector<Enclosure> DirectPmf(const Grid& g, const Rational& x, mpfr_prec_t w, bool ends_only) {
  const long k = g.k;
  std::vector<long> needed;
  if (ends_only) {
    needed = {0, 1, k - 2, k - 1};
  } else {
    for (long j = 0; j < k; ++j) needed.push_back(j);
  }
  std::vector<std::optional<Enclosure>> tail(static_cast<size_t>(k));
  std::vector<Rational> u(static_cast<size_t>(k));
  for (long j : needed) {
    if (tail[static_cast<size_t>(j)]) continue;
    u[static_cast<size_t>(j)] = g.U(x, j);
    // G on the tail side: G(−|u_j|) is small and computed to full relative accuracy.
    tail[static_cast<size_t>(j)] = GFunction(w, Rational(-AbsQ(u[static_cast<size_t>(j)])));
  }
  auto g_pos = [&](long j) {  // G(u_j) = G(−|u_j|) + |u_j| when u_j ≥ 0
    const size_t i = static_cast<size_t>(j);
    return u[i] >= 0 ? Enclosure(*tail[i] + u[i]) : *tail[i];
  };
  auto g_neg = [&](long j) {  // G(−u_j)
    const size_t i = static_cast<size_t>(j);
    return u[i] >= 0 ? *tail[i] : Enclosure(*tail[i] - u[i]);
  };
  std::vector<Enclosure> pmf;
  pmf.reserve(static_cast<size_t>(k));
  for (long r = 0; r < k; ++r) {
    if (ends_only && r != 0 && r != k - 1) {
      pmf.push_back(Enclosure(w, 0L));
      continue;
    }
    if (r == 0) {
      pmf.push_back((g_neg(1) - g_neg(0)) / g.h);
    } else if (r == k - 1) {
      pmf.push_back((g_pos(k - 2) - g_pos(k - 1)) / g.h);
    } else if (u[static_cast<size_t>(r)] >= 0) {
      pmf.push_back((g_neg(r - 1) - Rational(2) * g_neg(r) + g_neg(r + 1)) / g.h);
    } else {
      pmf.push_back((g_pos(r - 1) - Rational(2) * g_pos(r) + g_pos(r + 1)) / g.h);
    }
  }
  return pmf;
}

Enclosure DirectDivergence(const Grid& g, const Rational& x, const Rational& xp, const RenyiOrder& order,
                           mpfr_prec_t w) {
  const std::vector<Enclosure> P = DirectPmf(g, x, w, false);
  const std::vector<Enclosure> Q = DirectPmf(g, xp, w, false);
  if (order.kind == RenyiOrder::Kind::kInfinity) {
    std::optional<Enclosure> best;
    for (size_t r = 0; r < P.size(); ++r) {
      Enclosure v = Log(P[r]) - Log(Q[r]);
      best = best ? Max(*best, v) : v;
    }
    return *best;
  }
  Enclosure sum(w, 0L);
  if (order.kind == RenyiOrder::Kind::kKl) {
    for (size_t r = 0; r < P.size(); ++r) sum += P[r] * (Log(P[r]) - Log(Q[r]));
    return sum;
  }
  const Enclosure ae(w, order.alpha), be(w, Rational(1 - order.alpha));
  for (size_t r = 0; r < P.size(); ++r) sum += Exp(ae * Log(P[r]) + be * Log(Q[r]));
  return Log(sum) / Rational(order.alpha - 1);
}

}  // namespace dpfl::ref::qg_internal
