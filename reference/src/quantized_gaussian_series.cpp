// dpfl::ref — quantized Gaussian (seed 003): the kSeries method — interior bins as Gaussian
// factors times power series, with rigorous truncation bounds and no transcendental call per bin.
// See quantized_gaussian.hpp for the derivation and the rigor argument.
#include <mpfi.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "quantized_gaussian_internal.hpp"

namespace dpfl::ref::qg_internal {

// ---- kSeries: interior bins without transcendental calls -------------------------------------

// max_j |u_j| ≤ U = (C + |x|)/σ.
Rational UMax(const Grid& g, const Rational& x) { return (g.clip + AbsQ(x)) / g.sigma; }

bool SeriesApplicable(const Grid& g, const Rational& x) {
  return g.k >= 3 && g.h * (UMax(g, x) + g.h) <= 1;
}

SeriesData SeriesInterior(const Grid& g, const Rational& x, mpfr_prec_t w, bool need_log) {
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

}  // namespace dpfl::ref::qg_internal
