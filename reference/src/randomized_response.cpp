// dpfl::ref — randomized response and DPFL-BNN accounting (see randomized_response.hpp).
#include "dpfl/ref/randomized_response.hpp"

#include <gmp.h>

#include <cmath>
#include <vector>

#include "dpfl/validate.hpp"

namespace dpfl::ref {
namespace {

Rational PowR(const Rational& x, unsigned long n) {
  Rational out(1), base = x;
  while (n > 0) {
    if ((n & 1UL) != 0) out *= base;
    n >>= 1;
    if (n > 0) base *= base;
  }
  return out;
}

void ValidateP(const Rational& p) { ValidateOpenUnit(p, "p"); }

Rational KeepFromGamma(const Rational& gamma) {
  Require("gamma", gamma, Domain::ClosedOpen(0, 0.5), EchoValue);
  return Rational(1, 2) + gamma;
}

void ValidateSetting(const BnnSetting& s) {
  ValidatePrecision(s.precision_bits);
  KeepFromGamma(s.gamma);
  ValidatePositiveInteger(s.rounds, "rounds");
  ValidatePositiveInteger(s.hamming, "hamming");
  ValidateOpenUnit(s.delta, "delta");
}

// Bisection driver on exact rationals: `sign(x)` is +1 when the root is certainly above x, −1 when
// certainly below, 0 when undecidable. Returns [lo, hi] containing the root.
template <class Sign>
Interval Bisect(Rational lo, Rational hi, const Rational& rel_tol, Sign&& sign) {
  for (int it = 0; it < 4000 && hi - lo > rel_tol * Abs(hi); ++it) {
    const Rational mid = (lo + hi) / 2;
    const int s = sign(mid);
    if (s > 0) lo = mid;
    else if (s < 0) hi = mid;
    else break;
  }
  return Interval(lo, hi);
}

const Rational& BisectionTolerance() {
  static const Rational tol = ParseRational("1e-42", "tolerance");
  return tol;
}

}  // namespace

Rational RrSInteger(const Rational& p, unsigned long order) {
  ValidateP(p);
  if (order < 2) throw InvalidArgument("order", "must be an integer >= 2");
  const Rational q = 1 - p;
  return (PowR(p, 2 * order - 1) + PowR(q, 2 * order - 1)) / PowR(Rational(p * q), order - 1);
}

Enclosure RrLogS(const Rational& p, const Enclosure& order) {
  ValidateP(p);
  const mpfr_prec_t prec = order.prec();
  const Rational q = 1 - p;
  if (p == q) return Enclosure(prec, 0L);  // S ≡ 1
  const Rational m = p > q ? p : q;
  const Rational n = p > q ? q : p;
  const Enclosure ratio_pow = Exp((Rational(2) * order - Rational(1)) * LogQ(prec, Rational(n / m)));
  return order * LogQ(prec, m) + (Rational(1) - order) * LogQ(prec, n) + Log1p(ratio_pow);
}

Enclosure RrRdpEnclosure(const Rational& p, const Enclosure& order) {
  return RrLogS(p, order) / (order - Rational(1));
}

Interval RrRdp(const Rational& p, const Rational& order, int precision_bits) {
  ValidatePrecision(precision_bits);
  ValidateP(p);
  if (!(order > 1)) throw InvalidArgument("order", "must be > 1, got " + EchoValue(order));
  if (order > 1000000) throw InvalidArgument("order", "must be <= 1e6, got " + EchoValue(order));
  return ToInterval(RrRdpEnclosure(p, Enclosure(precision_bits, order)));
}

Interval RrKl(const Rational& p, int precision_bits) {
  ValidatePrecision(precision_bits);
  ValidateP(p);
  const Rational q = 1 - p;
  return ToInterval(Rational(p - q) * LogQ(precision_bits, Rational(p / q)));
}

Interval RrInfinity(const Rational& p, int precision_bits) {
  ValidatePrecision(precision_bits);
  ValidateP(p);
  const Rational q = 1 - p;
  return ToInterval(LogQ(precision_bits, Rational(p > q ? p / q : q / p)));
}

Interval BnnAlphaStar(const Rational& eps, const Rational& delta, int precision_bits) {
  ValidatePrecision(precision_bits);
  ValidatePositive(eps, "eps");
  ValidateOpenUnit(delta, "delta");
  return ToInterval(Rational(1) + Rational(2) * LogQ(precision_bits, Rational(1 / delta)) / eps);
}

Interval BnnGammaMax(const Rational& eps, const Rational& delta, const Rational& rounds, const Rational& hamming,
                     bool as_printed, int precision_bits) {
  ValidatePrecision(precision_bits);
  ValidatePositive(eps, "eps");
  ValidateOpenUnit(delta, "delta");
  ValidatePositiveInteger(rounds, "rounds");
  ValidatePositiveInteger(hamming, "hamming");
  const mpfr_prec_t prec = precision_bits;
  const Enclosure lambda = LogQ(prec, Rational(1 / delta));
  const Enclosure alpha_star = Rational(1) + Rational(2) * lambda / eps;
  // spec 004 §4.5: printed eq. (7) has (1/δ)/T [E3]; corrected Λ/(T h) [E3, E6].
  const Enclosure target = as_printed ? Enclosure(prec, Rational(1 / (delta * rounds)))
                                      : lambda / Rational(rounds * hamming);
  // Bisect on q = 1/2 − γ ∈ (0, 1/2]; g decreases in q. sign(q) = +1 iff the root q* > q,
  // i.e. g(1/2 − q) > target certainly.
  auto sign = [&](const Rational& q) {
    const Enclosure g = RrLogS(Rational(1 - q), alpha_star);
    if (CertainlyLess(target, g)) return 1;
    if (CertainlyLess(g, target)) return -1;
    return 0;
  };
  Rational q_lo(1, 4);
  int guard = 0;
  while (sign(q_lo) <= 0) {
    q_lo /= 2;
    if (++guard > 20000) throw Undecidable("gamma_max: no bracket found; increase the precision");
  }
  const Interval qi = Bisect(q_lo, Rational(1, 2), BisectionTolerance(), sign);
  return Interval(Rational(Rational(1, 2) - qi.hi()), Rational(Rational(1, 2) - qi.lo()));
}

Interval BnnEpsilonThm1(const BnnSetting& s) {
  ValidateSetting(s);
  const mpfr_prec_t prec = s.precision_bits;
  const Rational p = KeepFromGamma(s.gamma);
  if (s.gamma == 0) return Interval(Rational(0));
  const Enclosure lambda = LogQ(prec, Rational(1 / s.delta));
  const Rational th = s.rounds * s.hamming;
  // F(ε) = T h ρ(1 + 2Λ/ε) − ε/2, strictly decreasing; sign = +1 iff F(x) > 0 certainly (root above x).
  auto sign = [&](const Rational& eps) {
    const Enclosure alpha = Rational(1) + Rational(2) * lambda / eps;
    const Enclosure f = th * RrRdpEnclosure(p, alpha) - Enclosure(prec, Rational(eps / 2));
    if (CertainlyPositive(f)) return 1;
    if (CertainlyNegative(f)) return -1;
    return 0;
  };
  Rational lo(1), hi(1);
  int guard = 0;
  while (sign(hi) >= 0) {
    hi *= 2;
    if (++guard > 4000) throw Undecidable("eps_thm1: no bracket found");
  }
  guard = 0;
  while (sign(lo) <= 0) {
    lo /= 2;
    if (++guard > 4000) throw Undecidable("eps_thm1: no bracket found");
  }
  return Bisect(lo, hi, BisectionTolerance(), sign);
}

RdpOptimum BnnEpsilonRdpOpt(const BnnSetting& s) {
  ValidateSetting(s);
  const mpfr_prec_t prec = s.precision_bits;
  const Rational p = KeepFromGamma(s.gamma);
  const Rational k = s.rounds * s.hamming;
  const Enclosure lambda = LogQ(prec, Rational(1 / s.delta));
  RdpOptimum out;
  if (s.gamma == 0) {
    out.epsilon = Interval(Rational(0));  // ρ ≡ 0: the bound Λ/(α − 1) → 0 as α → ∞
    return out;
  }
  // α = ∞ iff Λ ≥ k ln(1/p) (spec 004 §4.7).
  if (DecideGreaterEqual(lambda, k * LogQ(prec, Rational(1 / p)))) {
    out.epsilon = ToInterval(k * LogQ(prec, Rational(p / (1 - p))));
    return out;
  }
  auto bound = [&](const Rational& alpha) {
    const Enclosure a(prec, alpha);
    return (k * RrLogS(p, a) + lambda) / Rational(alpha - 1);
  };
  auto alpha_of = [](double u) { return Rational(1) + Rational(std::exp(u)); };
  // Golden-section search on u = ln(α − 1) ∈ [ln 1e-6, ln 1e8] (unimodal, §4.7).
  double a = std::log(1e-6), b = std::log(1e8);
  const double r = (std::sqrt(5.0) - 1) / 2;
  double c = b - r * (b - a), d = a + r * (b - a);
  double fc = bound(alpha_of(c)).MidDouble(), fd = bound(alpha_of(d)).MidDouble();
  for (int it = 0; it < 200 && b - a > 1e-13; ++it) {
    if (fc <= fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - r * (b - a);
      fc = bound(alpha_of(c)).MidDouble();
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + r * (b - a);
      fd = bound(alpha_of(d)).MidDouble();
    }
  }
  const Rational alpha = alpha_of((a + b) / 2);
  out.order = alpha;
  out.epsilon = ToInterval(bound(alpha));
  return out;
}

namespace {
// a_j = C(k,j) p^j q^{k−j}, b_j = C(k,j) q^j p^{k−j} as enclosures, exact before conversion.
struct BinomialPair {
  std::vector<Enclosure> a, b;
};
BinomialPair MakePair(const Rational& p, unsigned long k, mpfr_prec_t prec) {
  const Rational q = 1 - p;
  BinomialPair out;
  out.a.reserve(k + 1);
  out.b.reserve(k + 1);
  std::vector<Rational> pp(k + 1), qp(k + 1);
  pp[0] = 1;
  qp[0] = 1;
  for (unsigned long j = 1; j <= k; ++j) {
    pp[j] = pp[j - 1] * p;
    qp[j] = qp[j - 1] * q;
  }
  for (unsigned long j = 0; j <= k; ++j) {
    Int c;
    mpz_bin_uiui(c.backend().data(), k, j);
    out.a.emplace_back(prec, Rational(Rational(c) * pp[j] * qp[k - j]));
    out.b.emplace_back(prec, Rational(Rational(c) * qp[j] * pp[k - j]));
  }
  return out;
}
Enclosure DeltaFromPair(const BinomialPair& pair, const Enclosure& e_eps) {
  const mpfr_prec_t prec = e_eps.prec();
  const Enclosure zero(prec, 0L);
  Enclosure sum(prec, 0L);
  for (size_t j = 0; j < pair.a.size(); ++j) {
    const Enclosure t = pair.a[j] - e_eps * pair.b[j];
    if (CertainlyNonPositive(t)) continue;
    sum = sum + Max(zero, t);  // [x]_+ is increasing: encloses exactly
  }
  return sum;
}
unsigned long ValidateK(const Rational& k) {
  ValidatePositiveInteger(k, "k");
  if (k > kBnnExactMaxBits)
    throw InvalidArgument("k", "exact profile supports k = T*h <= 2^40, got " + EchoValue(k));
  return static_cast<unsigned long>(boost::multiprecision::numerator(k));
}

// ε_exact(δ) = min{ε ≥ 0 : δ(ε) ≤ δ} by bisection on an enclosing `delta_at(ε)` (either method).
template <class DeltaAt>
Interval EpsilonExactBisection(const BnnSetting& s, unsigned long kk, DeltaAt&& delta_at) {
  const mpfr_prec_t prec = s.precision_bits;
  const Rational p = KeepFromGamma(s.gamma);
  const Enclosure target(prec, s.delta);
  // δ(0) = TV ≤ δ: ε_exact = 0 (Undecidable if the enclosures overlap).
  if (!CertainlyLess(target, delta_at(Rational(0))) && DecideGreaterEqual(target, delta_at(Rational(0))))
    return Interval(Rational(0));
  // δ(ε) = 0 for ε ≥ kℓ: bracket with a rational above kℓ.
  const Interval kl = ToInterval(Rational(kk) * LogQ(prec, Rational(p / (1 - p))));
  Rational hi = kl.hi() + 1;
  auto sign = [&](const Rational& eps) {
    const Enclosure d = delta_at(eps);
    if (CertainlyLess(target, d)) return 1;   // δ(ε) > δ: ε_exact > eps
    if (CertainlyLess(d, target)) return -1;  // δ(ε) < δ: ε_exact < eps (continuity)
    return 0;
  };
  return Bisect(Rational(0), hi, BisectionTolerance(), sign);
}
}  // namespace

Interval BnnExactDelta(const Rational& eps, const Rational& gamma, const Rational& k, int precision_bits) {
  ValidatePrecision(precision_bits);
  Require("eps", eps, Domain::Closed(0, 1e6), EchoValue);
  const Rational p = KeepFromGamma(gamma);
  const unsigned long kk = ValidateK(k);
  if (kk > kBnnExactRationalMaxBits) return BnnExactDeltaTail(eps, gamma, k, precision_bits);
  const BinomialPair pair = MakePair(p, kk, precision_bits);
  return ToInterval(DeltaFromPair(pair, ExpQ(precision_bits, eps)));
}

Interval BnnEpsilonExact(const BnnSetting& s) {
  ValidateSetting(s);
  const unsigned long kk = ValidateK(Rational(s.rounds * s.hamming));
  if (kk > kBnnExactRationalMaxBits) return BnnEpsilonExactTail(s);
  const BinomialPair pair = MakePair(KeepFromGamma(s.gamma), kk, s.precision_bits);
  return EpsilonExactBisection(s, kk, [&](const Rational& eps) { return DeltaFromPair(pair, ExpQ(s.precision_bits, eps)); });
}

Interval BnnEpsilonExactTail(const BnnSetting& s) {
  ValidateSetting(s);
  const Rational k = s.rounds * s.hamming;
  const unsigned long kk = ValidateK(k);
  BnnTailProfile profile(s.gamma, k, s.precision_bits);
  return EpsilonExactBisection(s, kk, [&](const Rational& eps) { return profile.Delta(eps); });
}

Interval BnnEpsilonPure(const BnnSetting& s) {
  return Interval(Rational(s.rounds * s.hamming)) * RrInfinity(Rational(Rational(1, 2) + s.gamma), s.precision_bits);
}

}  // namespace dpfl::ref
