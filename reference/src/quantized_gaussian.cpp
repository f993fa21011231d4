// dpfl::ref — the quantized Gaussian mechanism (seed 003); see quantized_gaussian.hpp for the math,
// the rigor argument and the spec sections.
#include "dpfl/ref/quantized_gaussian.hpp"

#include <mpfi.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <utility>

namespace dpfl::ref {
namespace {

constexpr int kFirstGuardBits = 64;
constexpr int kMaxGuardBits = 4096;
// The Gaussian-factor recurrence is restarted from a direct exp every kBlock bins, so the interval
// width grows at most like kBlock² ulps (checked anyway by the final width test).
constexpr long kBlock = 256;

Rational AbsQ(const Rational& q) { return q < 0 ? Rational(-q) : q; }


// Runs compute(w) at w = p + guard bits, doubling the guard until NarrowEnough for every result.
template <class R, class Check>
R Adaptive(int p, const std::function<R(mpfr_prec_t)>& compute, const Check& narrow) {
  for (int guard = kFirstGuardBits;; guard *= 2) {
    R r = compute(static_cast<mpfr_prec_t>(p + guard));
    if (narrow(r) || guard >= kMaxGuardBits) return r;
  }
}

Enclosure AdaptiveScalar(int p, const std::function<Enclosure(mpfr_prec_t)>& compute) {
  return Adaptive<Enclosure>(p, compute, [p](const Enclosure& e) { return NarrowEnough(e, p); });
}

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

struct Grid {
  Rational sigma, clip, delta, h;  // δ_q = 2C/(k−1), h = δ_q/σ
  long k;
  Grid(const QuantizedGaussianParams& p)  // NOLINT
      : sigma(p.sigma), clip(p.clip), delta(Rational(2) * p.clip / Rational(p.levels - 1)),
        h(delta / p.sigma), k(p.levels) {}
  // u_j = (x − B(j))/σ, B(j) = −C + jδ_q.
  Rational U(const Rational& x, long j) const { return (x + clip - Rational(j) * delta) / sigma; }
};

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

// ---- kSeries: interior bins without transcendental calls -------------------------------------

// max_j |u_j| ≤ U = (C + |x|)/σ.
Rational UMax(const Grid& g, const Rational& x) { return (g.clip + AbsQ(x)) / g.sigma; }

bool SeriesApplicable(const Grid& g, const Rational& x) {
  return g.k >= 3 && g.h * (UMax(g, x) + g.h) <= 1;
}

// Interior data for one input x: c_r = S(u_r) − 1 and L_r = log S(u_r), r = 1..k−2
// (index r; entries 0 and k−1 unused), with P_r = (h/√(2π)) e^{−u_r²/2} S(u_r).
struct SeriesData {
  std::vector<Enclosure> c, log_s;
};

SeriesData SeriesInterior(const Grid& g, const Rational& x, mpfr_prec_t w, bool need_log = true) {
  const long k = g.k;
  const Rational& h = g.h;
  const Rational X = UMax(g, x) + h;
  // Truncation after the terms m < M (N = 2M): |R| ≤ 6 A_{2M}(X) h^{2M}/(2M+2)!, where
  // A_n(X) = Σ|coeffs of He_n| X^j (A_{n+1} = X A_n + n A_{n−1}) bounds |He_n| on [−X, X] and
  // 6 ≥ 2e^{Uh} since Uh ≤ 1. Exact rational arithmetic.
  const Rational target = Pow2(-static_cast<int>(w) - 4);
  std::vector<Rational> A = {Rational(1), X};
  long M = 1;
  Rational bound;
  for (;; ++M) {
    while (static_cast<long>(A.size()) <= 2 * M) {
      const long n = static_cast<long>(A.size()) - 1;
      A.push_back(X * A[static_cast<size_t>(n)] + Rational(n) * A[static_cast<size_t>(n - 1)]);
    }
    Rational fact(1);
    for (long i = 2; i <= 2 * M + 2; ++i) fact *= i;
    Rational hp(1);
    for (long i = 0; i < 2 * M; ++i) hp *= h;
    bound = Rational(6) * A[static_cast<size_t>(2 * M)] * hp / fact;
    if (bound <= target) break;
  }
  // a_m = 2h^{2m}/(2m+2)!; b_j = Σ_{m=j}^{M−1} a_m (−1)^{m−j} (2m)!/((2j)!(m−j)! 2^{m−j}), so
  // S_trunc(u) = Σ_j b_j u^{2j} exactly.
  auto factorial = [](long n) {
    Rational f(1);
    for (long i = 2; i <= n; ++i) f *= i;
    return f;
  };
  std::vector<Rational> b(static_cast<size_t>(M), Rational(0));
  Rational h2m(1);
  for (long m = 0; m < M; ++m) {
    const Rational a_m = Rational(2) * h2m / factorial(2 * m + 2);
    for (long j = 0; j <= m; ++j) {
      Rational coef = factorial(2 * m) / (factorial(2 * j) * factorial(m - j) * Pow2(static_cast<int>(m - j)));
      if ((m - j) % 2 == 1) coef = -coef;
      b[static_cast<size_t>(j)] += a_m * coef;
    }
    h2m *= h * h;
  }
  std::vector<Enclosure> be;
  for (long j = 0; j < M; ++j) be.emplace_back(w, j == 0 ? Rational(b[0] - 1) : b[static_cast<size_t>(j)]);
  const Enclosure trunc = PlusMinus(Enclosure(w, bound));

  SeriesData out;
  out.c.reserve(static_cast<size_t>(k));
  const Enclosure u0(w, g.U(x, 0));
  const Enclosure he(w, h);
  Enclosure u = Enclosure::Uninitialized(w), z = Enclosure::Uninitialized(w), acc = Enclosure::Uninitialized(w);
  double cmax = 0;
  for (long r = 0; r < k; ++r) {
    if (r == 0 || r == k - 1) {
      out.c.push_back(Enclosure(w, 0L));
      continue;
    }
    mpfi_mul_si(u.get(), he.get(), r);
    mpfi_sub(u.get(), u0.get(), u.get());
    mpfi_sqr(z.get(), u.get());
    mpfi_set(acc.get(), be[static_cast<size_t>(M - 1)].get());
    for (long j = M - 2; j >= 0; --j) {
      mpfi_mul(acc.get(), acc.get(), z.get());
      mpfi_add(acc.get(), acc.get(), be[static_cast<size_t>(j)].get());
    }
    if (M == 1) mpfi_set(acc.get(), be[0].get());
    mpfi_add(acc.get(), acc.get(), trunc.get());
    out.c.push_back(acc);
    cmax = std::max(cmax, MagUp(acc));
  }
  if (!(cmax <= 0.5)) throw Undecidable("quantized Gaussian series: correction |c| > 1/2");
  if (!need_log) return out;
  // log1p(c) = Σ_{n=1}^{N} (−1)^{n+1} c^n/n ± cmax^{N+1}/((N+1)(1 − cmax)).
  const double bits_per_term = cmax > 0 ? -std::log2(cmax) : 1e9;
  const long N = std::max(1L, static_cast<long>(std::ceil((static_cast<double>(w) + 8) / bits_per_term)));
  const Enclosure cm = FromDouble(w, cmax);
  const Enclosure log_rem = PlusMinus(Pow(cm, N + 1) / (Rational(N + 1) * (Rational(1) - cm)));
  std::vector<Enclosure> inv;
  for (long n = 1; n <= N; ++n) inv.emplace_back(w, Rational(n % 2 == 1 ? 1 : -1, n));
  out.log_s.reserve(static_cast<size_t>(k));
  for (long r = 0; r < k; ++r) {
    if (r == 0 || r == k - 1) {
      out.log_s.push_back(Enclosure(w, 0L));
      continue;
    }
    const Enclosure& c = out.c[static_cast<size_t>(r)];
    mpfi_set(acc.get(), inv[static_cast<size_t>(N - 1)].get());
    for (long n = N - 1; n >= 1; --n) {
      mpfi_mul(acc.get(), acc.get(), c.get());
      mpfi_add(acc.get(), acc.get(), inv[static_cast<size_t>(n - 1)].get());
    }
    mpfi_mul(acc.get(), acc.get(), c.get());
    mpfi_add(acc.get(), acc.get(), log_rem.get());
    out.log_s.push_back(acc);
  }
  return out;
}

// e^{−v_r²/2} for r = 1, 2, … with v_r = v0 − r h, by the recurrence E_{r+1} = E_r R_r,
// R_r = e^{v_r h − h²/2}, R_{r+1} = R_r e^{−h²}, restarted from direct exps every kBlock steps.
class GaussFactor {
 public:
  GaussFactor(mpfr_prec_t w, Rational v0, Rational h)
      : w_(w), v0_(std::move(v0)), h_(std::move(h)), q_(ExpQ(w, Rational(-h_ * h_))), e_(w, 0L), ratio_(w, 0L) {}
  // Must be called with r = 1, 2, 3, … in order.
  const Enclosure& At(long r) {
    if ((r - 1) % kBlock == 0) {
      const Rational v = v0_ - Rational(r) * h_;
      e_ = ExpQ(w_, Rational(-v * v / 2));
      ratio_ = ExpQ(w_, Rational(v * h_ - h_ * h_ / 2));
    } else {
      mpfi_mul(e_.get(), e_.get(), ratio_.get());
      mpfi_mul(ratio_.get(), ratio_.get(), q_.get());
    }
    return e_;
  }

 private:
  mpfr_prec_t w_;
  Rational v0_, h_;
  Enclosure q_, e_, ratio_;
};

// Σ over interior bins needed by each order, given the series data of P (x) and Q (x').
Enclosure SeriesDivergence(const Grid& g, const Rational& x, const Rational& xp, const RenyiOrder& order,
                           mpfr_prec_t w) {
  const long k = g.k;
  const std::vector<Enclosure> pe = DirectPmf(g, x, w, true);
  const std::vector<Enclosure> qe = DirectPmf(g, xp, w, true);
  // Integer orders need only c_r (the term is (1 + c_r)^α/(1 + c'_r)^{α−1}), not log S.
  const bool integer_order = order.kind == RenyiOrder::Kind::kFinite && IsInteger(order.alpha) && order.alpha <= 4096;
  const SeriesData sp = SeriesInterior(g, x, w, !integer_order);
  const bool mirror = xp == -x;
  const SeriesData sq = mirror ? SeriesData{} : SeriesInterior(g, xp, w, !integer_order);
  auto q_log = [&](long r) -> const Enclosure& {
    return mirror ? sp.log_s[static_cast<size_t>(k - 1 - r)] : sq.log_s[static_cast<size_t>(r)];
  };
  const Rational du = (xp - x) / g.sigma;
  const Rational u0 = g.U(x, 0);
  const Enclosure he(w, g.h);
  const Enclosure u0e(w, u0);
  const Enclosure scale = Enclosure(w, g.h) / Sqrt(Rational(2) * Pi(w));  // h/√(2π)
  const long ends[2] = {0, k - 1};
  Enclosure u = Enclosure::Uninitialized(w), t = Enclosure::Uninitialized(w);

  if (order.kind == RenyiOrder::Kind::kInfinity) {
    std::optional<Enclosure> best;
    for (long r : ends) {
      Enclosure v = Log(pe[static_cast<size_t>(r)]) - Log(qe[static_cast<size_t>(r)]);
      best = best ? Max(*best, v) : v;
    }
    const Enclosure due(w, du), du2(w, Rational(du * du / 2));
    for (long r = 1; r < k - 1; ++r) {
      // (u'_r² − u_r²)/2 + L_r − L'_r = Δu·u_r + Δu²/2 + L_r − L'_r
      mpfi_mul_si(u.get(), he.get(), r);
      mpfi_sub(u.get(), u0e.get(), u.get());
      mpfi_mul(t.get(), u.get(), due.get());
      mpfi_add(t.get(), t.get(), du2.get());
      mpfi_add(t.get(), t.get(), sp.log_s[static_cast<size_t>(r)].get());
      mpfi_sub(t.get(), t.get(), q_log(r).get());
      best = Max(*best, t);
    }
    return *best;
  }
  if (order.kind == RenyiOrder::Kind::kKl) {
    Enclosure sum(w, 0L);
    for (long r : ends) {
      const Enclosure& p = pe[static_cast<size_t>(r)];
      sum += p * (Log(p) - Log(qe[static_cast<size_t>(r)]));
    }
    GaussFactor gauss(w, u0, g.h);
    const Enclosure due(w, du), du2(w, Rational(du * du / 2));
    Enclosure inner(w, 0L), pr = Enclosure::Uninitialized(w);
    for (long r = 1; r < k - 1; ++r) {
      mpfi_mul_si(u.get(), he.get(), r);
      mpfi_sub(u.get(), u0e.get(), u.get());
      mpfi_mul(t.get(), u.get(), due.get());
      mpfi_add(t.get(), t.get(), du2.get());
      mpfi_add(t.get(), t.get(), sp.log_s[static_cast<size_t>(r)].get());
      mpfi_sub(t.get(), t.get(), q_log(r).get());
      mpfi_add_si(pr.get(), sp.c[static_cast<size_t>(r)].get(), 1);
      mpfi_mul(pr.get(), pr.get(), gauss.At(r).get());
      mpfi_mul(t.get(), t.get(), pr.get());
      mpfi_add(inner.get(), inner.get(), t.get());
    }
    return sum + scale * inner;
  }
  // Finite α: Σ P^α Q^{1−α}; interior term (h/√(2π)) e^{α(α−1)Δu²/2} e^{−v_r²/2} e^{t_r},
  // v_r = u_r + (1−α)Δu, t_r = α L_r + (1−α) L'_r.
  const Rational& alpha = order.alpha;
  const Enclosure ae(w, alpha), be(w, Rational(1 - alpha));
  Enclosure sum(w, 0L);
  for (long r : ends)
    sum += Exp(ae * Log(pe[static_cast<size_t>(r)]) + be * Log(qe[static_cast<size_t>(r)]));
  const Rational v0 = u0 + (1 - alpha) * du;
  const Enclosure prefactor = scale * ExpQ(w, Rational(alpha * (alpha - 1) * du * du / 2));
  if (integer_order) {
    // Integer α: e^{t_r} = (1 + c_r)^α / (1 + c'_r)^{α−1} exactly (no series needed).
    const long a = alpha.convert_to<long>();
    auto q_c = [&](long r) -> const Enclosure& {
      return mirror ? sp.c[static_cast<size_t>(k - 1 - r)] : sq.c[static_cast<size_t>(r)];
    };
    GaussFactor gauss(w, v0, g.h);
    Enclosure inner(w, 0L), num = Enclosure::Uninitialized(w), den = Enclosure::Uninitialized(w);
    for (long r = 1; r < k - 1; ++r) {
      mpfi_add_si(num.get(), sp.c[static_cast<size_t>(r)].get(), 1);
      mpfi_add_si(den.get(), q_c(r).get(), 1);
      const Enclosure term = Pow(num, a) / Pow(den, a - 1);
      mpfi_mul(t.get(), term.get(), gauss.At(r).get());
      mpfi_add(inner.get(), inner.get(), t.get());
    }
    return Log(sum + prefactor * inner) / Rational(alpha - 1);
  }
  std::vector<Enclosure> ts;
  ts.reserve(static_cast<size_t>(k));
  double tmax = 0;
  for (long r = 0; r < k; ++r) {
    if (r == 0 || r == k - 1) {
      ts.push_back(Enclosure(w, 0L));
      continue;
    }
    mpfi_mul(t.get(), ae.get(), sp.log_s[static_cast<size_t>(r)].get());
    mpfi_mul(u.get(), be.get(), q_log(r).get());
    mpfi_add(t.get(), t.get(), u.get());
    ts.push_back(t);
    tmax = std::max(tmax, MagUp(t));
  }
  const bool series_exp = tmax <= 0.5;
  long N = 1;
  std::vector<Enclosure> inv_fact;
  std::optional<Enclosure> exp_rem;
  if (series_exp) {
    // e^t = Σ_{n=0}^{N} t^n/n! ± 2 tmax^{N+1}/(N+1)!  (|t| ≤ 1/2).
    double lg = 0;
    while (true) {
      lg += std::log2(static_cast<double>(N + 1)) - (tmax > 0 ? std::log2(tmax) : 1e9);
      if (lg >= static_cast<double>(w) + 8) break;
      ++N;
    }
    Rational fact(1);
    for (long n = 0; n <= N; ++n) {
      if (n > 0) fact *= n;
      inv_fact.emplace_back(w, Rational(1) / fact);
    }
    fact *= N + 1;
    const Enclosure tme = FromDouble(w, tmax);
    exp_rem = PlusMinus(Rational(2) * Pow(tme, N + 1) / fact);
  }
  GaussFactor gauss(w, v0, g.h);
  Enclosure inner(w, 0L), acc = Enclosure::Uninitialized(w);
  for (long r = 1; r < k - 1; ++r) {
    const Enclosure& tr = ts[static_cast<size_t>(r)];
    if (series_exp) {
      mpfi_set(acc.get(), inv_fact[static_cast<size_t>(N)].get());
      for (long n = N - 1; n >= 0; --n) {
        mpfi_mul(acc.get(), acc.get(), tr.get());
        mpfi_add(acc.get(), acc.get(), inv_fact[static_cast<size_t>(n)].get());
      }
      mpfi_add(acc.get(), acc.get(), exp_rem->get());
    } else {
      mpfi_exp(acc.get(), tr.get());
    }
    mpfi_mul(acc.get(), acc.get(), gauss.At(r).get());
    mpfi_add(inner.get(), inner.get(), acc.get());
  }
  return Log(sum + prefactor * inner) / Rational(alpha - 1);
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

void ValidateInput(const QuantizedGaussianParams& p, const Rational& x, const std::string& name) {
  if (x < -p.clip || x > p.clip)
    throw InvalidArgument(name, "input must lie in [-C, C] = [" + ToExactString(Rational(-p.clip)) + ", " +
                                    ToExactString(p.clip) + "], got " + EchoValue(x) + " (seed 003 §4.1)");
}

}  // namespace

RenyiOrder RenyiOrder::Finite(const Rational& alpha) {
  if (!(alpha > 1))
    throw InvalidArgument("order", "Renyi order must be > 1 (use KL for 1, inf for infinity), got " +
                                       ToExactString(alpha));
  return {Kind::kFinite, alpha};
}

void ValidateQuantizedGaussian(const QuantizedGaussianParams& p) {
  if (!(p.sigma > 0)) throw InvalidArgument("sigma", "noise std must be > 0, got " + EchoValue(p.sigma));
  if (p.levels < 2 || p.levels > (1L << 24))
    throw InvalidArgument("levels", "number of levels k must be in [2, 2^24], got " + std::to_string(p.levels));
  if (!(p.clip > 0)) throw InvalidArgument("clip", "clipping threshold C_q must be > 0, got " + EchoValue(p.clip));
}

std::vector<Enclosure> QuantizedGaussianPmf(const QuantizedGaussianParams& p, const Rational& x, int precision_bits,
                                            QgMethod method) {
  ValidateQuantizedGaussian(p);
  ValidatePrecision(precision_bits);
  ValidateInput(p, x, "x");
  const Grid g(p);
  if (method == QgMethod::kSeries && !SeriesApplicable(g, x))
    throw InvalidArgument("method", "series evaluation needs k >= 3 and h (U + h) <= 1");
  const bool series = method == QgMethod::kSeries || (method == QgMethod::kAuto && SeriesApplicable(g, x) && g.k > 64);
  std::function<std::vector<Enclosure>(mpfr_prec_t)> compute = [&](mpfr_prec_t w) {
    if (!series) return DirectPmf(g, x, w, false);
    std::vector<Enclosure> pmf = DirectPmf(g, x, w, true);
    const SeriesData s = SeriesInterior(g, x, w);
    const Enclosure scale = Enclosure(w, g.h) / Sqrt(Rational(2) * Pi(w));
    for (long r = 1; r < g.k - 1; ++r) {
      const Enclosure u(w, g.U(x, r));
      pmf[static_cast<size_t>(r)] = scale * Exp(-Sqr(u) / Rational(2)) * (s.c[static_cast<size_t>(r)] + Rational(1));
    }
    return pmf;
  };
  return Adaptive<std::vector<Enclosure>>(precision_bits, compute, [&](const std::vector<Enclosure>& v) {
    return std::all_of(v.begin(), v.end(), [&](const Enclosure& e) { return NarrowEnough(e, precision_bits); });
  });
}

Enclosure QuantizedGaussianDivergence(const QuantizedGaussianParams& p, const Rational& x, const Rational& x_prime,
                                      const RenyiOrder& order, int precision_bits, QgMethod method) {
  ValidateQuantizedGaussian(p);
  ValidatePrecision(precision_bits);
  ValidateInput(p, x, "x");
  ValidateInput(p, x_prime, "x_prime");
  const Grid g(p);
  const bool applicable = SeriesApplicable(g, x) && SeriesApplicable(g, x_prime);
  if (method == QgMethod::kSeries && !applicable)
    throw InvalidArgument("method", "series evaluation needs k >= 3 and h (U + h) <= 1");
  const bool series = method == QgMethod::kSeries || (method == QgMethod::kAuto && applicable && g.k > 64);
  return AdaptiveScalar(precision_bits, [&](mpfr_prec_t w) {
    return series ? SeriesDivergence(g, x, x_prime, order, w) : DirectDivergence(g, x, x_prime, order, w);
  });
}

Enclosure QuantizedGaussianRdp(const QuantizedGaussianParams& p, const RenyiOrder& order, int precision_bits,
                               QgMethod method) {
  return QuantizedGaussianDivergence(p, Rational(p.clip / 2), Rational(-p.clip / 2), order, precision_bits, method);
}

QgTheorem2 QuantizedGaussianTheorem2(const QuantizedGaussianParams& p, int precision_bits) {
  ValidateQuantizedGaussian(p);
  ValidatePrecision(precision_bits);
  const Grid g(p);
  const Rational mu = -p.clip / 2, a = p.clip - g.delta;
  const Rational abar = (a - mu) / p.sigma, bbar = Rational(3) * p.clip / (Rational(2) * p.sigma);
  std::function<QgTheorem2(mpfr_prec_t)> compute = [&](mpfr_prec_t w) {
    const Enclosure dphi = PhiDiff(w, abar, bbar);
    const Enclosure I =
        (mu - a) * dphi + p.sigma * (NormalPdf(Enclosure(w, abar)) - NormalPdf(Enclosure(w, bbar)));
    return QgTheorem2{I, I / g.delta, Log(g.delta / I)};
  };
  return Adaptive<QgTheorem2>(precision_bits, compute, [&](const QgTheorem2& t) {
    return NarrowEnough(t.integral, precision_bits) && NarrowEnough(t.bound, precision_bits);
  });
}

Enclosure Lemma3Slope(const QuantizedGaussianParams& p, int precision_bits) {
  ValidateQuantizedGaussian(p);
  ValidatePrecision(precision_bits);
  const Grid g(p);
  const Rational mu = -p.clip / 2, a = p.clip - g.delta;
  const Rational abar = (a - mu) / p.sigma, bbar = Rational(3) * p.clip / (Rational(2) * p.sigma);
  return AdaptiveScalar(precision_bits, [&](mpfr_prec_t w) {
    // ∫_a^b f(y)(b − y) dy = (b − μ)ΔΦ − σ[φ(ā) − φ(b̄)], b − μ = 3C/2.
    const Enclosure down = Rational(3) * p.clip / Rational(2) * PhiDiff(w, abar, bbar) -
                           p.sigma * (NormalPdf(Enclosure(w, abar)) - NormalPdf(Enclosure(w, bbar)));
    return down / Rational(g.delta * g.delta);
  });
}

Enclosure ClampedGaussianDivergence(const Rational& sigma, const Rational& clip, const Rational& x,
                                    const Rational& x_prime, const RenyiOrder& order, int precision_bits) {
  if (!(sigma > 0)) throw InvalidArgument("sigma", "noise std must be > 0, got " + EchoValue(sigma));
  if (!(clip > 0)) throw InvalidArgument("clip", "clipping threshold must be > 0, got " + EchoValue(clip));
  ValidatePrecision(precision_bits);
  const QuantizedGaussianParams p{sigma, 2, clip};
  ValidateInput(p, x, "x");
  ValidateInput(p, x_prime, "x_prime");
  return AdaptiveScalar(precision_bits, [&](mpfr_prec_t w) {
    // Atoms at −C and +C.
    const Enclosure am = NormalCdf(Enclosure(w, Rational((-clip - x) / sigma)));
    const Enclosure amp = NormalCdf(Enclosure(w, Rational((-clip - x_prime) / sigma)));
    const Enclosure ap = NormalCdf(Enclosure(w, Rational((x - clip) / sigma)));
    const Enclosure app = NormalCdf(Enclosure(w, Rational((x_prime - clip) / sigma)));
    const Rational dx = x - x_prime;
    if (order.kind == RenyiOrder::Kind::kInfinity) {
      const Rational s2 = 2 * sigma * sigma;
      const Rational at_top = dx * (2 * clip - x - x_prime) / s2, at_bottom = dx * (-2 * clip - x - x_prime) / s2;
      const Enclosure dens(w, at_top > at_bottom ? at_top : at_bottom);
      return Max(Max(Log(am) - Log(amp), Log(ap) - Log(app)), dens);
    }
    if (order.kind == RenyiOrder::Kind::kKl) {
      const Rational a = (-clip - x) / sigma, b = (clip - x) / sigma;
      const Enclosure inner = dx * PhiDiff(w, a, b) +
                              Rational(2) * sigma * (NormalPdf(Enclosure(w, a)) - NormalPdf(Enclosure(w, b)));
      return am * (Log(am) - Log(amp)) + ap * (Log(ap) - Log(app)) + Rational(dx / (2 * sigma * sigma)) * inner;
    }
    const Rational& alpha = order.alpha;
    const Enclosure ae(w, alpha), be(w, Rational(1 - alpha));
    const Rational mu = alpha * x + (1 - alpha) * x_prime;
    const Enclosure middle = ExpQ(w, Rational(alpha * (alpha - 1) * dx * dx / (2 * sigma * sigma))) *
                             PhiDiff(w, Rational((-clip - mu) / sigma), Rational((clip - mu) / sigma));
    const Enclosure total = Exp(ae * Log(am) + be * Log(amp)) + Exp(ae * Log(ap) + be * Log(app)) + middle;
    return Log(total) / Rational(alpha - 1);
  });
}

std::optional<Rational> GaussianRdpExact(const Rational& sigma, const Rational& sensitivity, const RenyiOrder& order) {
  if (!(sigma > 0)) throw InvalidArgument("sigma", "noise std must be > 0, got " + EchoValue(sigma));
  if (sensitivity < 0) throw InvalidArgument("sensitivity", "must be >= 0, got " + EchoValue(sensitivity));
  const Rational base = sensitivity * sensitivity / (2 * sigma * sigma);
  switch (order.kind) {
    case RenyiOrder::Kind::kKl: return base;
    case RenyiOrder::Kind::kFinite: return Rational(order.alpha * base);
    case RenyiOrder::Kind::kInfinity: return std::nullopt;
  }
  return std::nullopt;
}

Enclosure QuantizedGaussianVectorDivergence(const QuantizedGaussianParams& p, const std::vector<Rational>& xs,
                                            const std::vector<Rational>& xs_prime, const RenyiOrder& order,
                                            int precision_bits) {
  if (xs.empty() || xs.size() != xs_prime.size())
    throw InvalidArgument("x_prime", "input vectors must be non-empty and of equal length");
  std::optional<Enclosure> sum;
  for (size_t j = 0; j < xs.size(); ++j) {
    Enclosure d = QuantizedGaussianDivergence(p, xs[j], xs_prime[j], order, precision_bits);
    sum = sum ? *sum + d : d;
  }
  return *sum;
}

QgVectorRdp QuantizedGaussianVectorRdp(const QuantizedGaussianParams& p, long dimension, long rounds,
                                       const RenyiOrder& order, int precision_bits) {
  if (dimension < 1) throw InvalidArgument("dimension", "must be >= 1, got " + std::to_string(dimension));
  if (rounds < 1) throw InvalidArgument("rounds", "must be >= 1, got " + std::to_string(rounds));
  const Enclosure eps = QuantizedGaussianRdp(p, order, precision_bits);
  const Enclosure composed = eps * Rational(dimension) * Rational(rounds);
  std::optional<Rational> dpi = GaussianRdpExact(p.sigma, p.clip, order);
  if (dpi) *dpi *= rounds;
  const Enclosure bound = dpi ? Min(composed, Enclosure(composed.prec(), *dpi)) : composed;
  return {eps, composed, dpi, bound};
}

}  // namespace dpfl::ref
