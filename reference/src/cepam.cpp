// dpfl::ref — CEPAM / LRSUQ quantities of seed 002 (see cepam.hpp for the formulas and errata).
#include "dpfl/ref/cepam.hpp"

#include <mpfi.h>
#include <mpfr.h>

#include <cmath>
#include <functional>
#include <string>

#include "dpfl/validate.hpp"

namespace dpfl::ref {
namespace {

constexpr int kFirstGuardBits = 64;
constexpr int kMaxGuardBits = 4096;


Enclosure Adaptive(int p, const std::function<Enclosure(mpfr_prec_t)>& compute) {
  ValidatePrecision(p);
  for (int guard = kFirstGuardBits;; guard *= 2) {
    Enclosure r = compute(static_cast<mpfr_prec_t>(p + guard));
    if (NarrowEnough(r, p) || guard >= kMaxGuardBits) return r;
  }
}

void RequirePositive(long v, const std::string& name) {
  if (v < 1) throw InvalidArgument(name, "must be an integer >= 1, got " + std::to_string(v));
}

// Regularized lower incomplete gamma P(a, x) for a ∈ ½ℤ, a > 0, x ≥ 0 rational, by the
// recurrences from P(1/2, x) = erf(√x) and P(1, x) = 1 − e^{−x}:
// P(a + 1, x) = P(a, x) − x^a e^{−x}/Γ(a + 1).
Enclosure RegularizedGammaP(long twice_a, const Rational& x, mpfr_prec_t w) {
  const Enclosure xe(w, x);
  Enclosure p = Enclosure::Uninitialized(w);
  Enclosure term = Enclosure::Uninitialized(w);  // x^a e^{−x}/Γ(a+1) at the current a
  const Enclosure ex = Exp(-xe);
  long a2;  // current 2a
  if (twice_a % 2 == 1) {
    p = Rational(1) - Erfc(Sqrt(xe));  // P(1/2, x) = erf(√x)
    // x^{1/2} e^{−x}/Γ(3/2), Γ(3/2) = √π/2
    term = Sqrt(xe) * ex / (Sqrt(Pi(w)) / Rational(2));
    a2 = 1;
  } else {
    p = Rational(1) - ex;  // P(1, x)
    term = xe * ex;        // x e^{−x}/Γ(2)
    a2 = 2;
  }
  while (a2 < twice_a) {
    p = p - term;
    a2 += 2;
    // x^a e^{−x}/Γ(a+1) at the advanced a = a2/2: the previous term times x/a
    term = term * xe / Rational(a2, 2);
  }
  return p;
}

}  // namespace

// ---- RSUQ rates ---------------------------------------------------------------------------------
Enclosure UnitBallVolume(long n, int precision_bits) {
  RequirePositive(n, "n");
  return Adaptive(precision_bits, [&](mpfr_prec_t w) {
    // V_n = π^{n/2}/Γ(n/2 + 1); recurrence V_n = (2π/n) V_{n−2}, V_0 = 1, V_1 = 2.
    Enclosure v(w, n % 2 == 0 ? 1L : 2L);
    const Enclosure two_pi = Rational(2) * Pi(w);
    for (long m = n % 2 == 0 ? 2 : 3; m <= n; m += 2) v = v * two_pi / Rational(m);
    return v;
  });
}

Enclosure GaussianAcceptance(long n, const Rational& c, int precision_bits) {
  if (!(c >= 1)) throw InvalidArgument("c", "scaling slack c must be >= 1, got " + EchoValue(c));
  RequirePositive(n, "n");
  Rational denom(1);
  for (long i = 0; i < n; ++i) denom *= 2 * c;
  return UnitBallVolume(n, precision_bits) / denom;
}

Rational LaplaceAcceptance(const Rational& c) {
  if (!(c >= 1)) throw InvalidArgument("c", "scaling slack c must be >= 1, got " + EchoValue(c));
  return Rational(1) / c;
}

Enclosure ExpectedTrials(const Enclosure& p_acc) { return Enclosure(p_acc.prec(), 1L) / p_acc; }
Enclosure TrialsVariance(const Enclosure& p_acc) { return (Rational(1) - p_acc) / Sqr(p_acc); }

Enclosure GeometricEntropyBits(const Enclosure& p_acc) {
  const mpfr_prec_t w = p_acc.prec();
  if (Contains(p_acc, Rational(1)) && p_acc.WidthDouble() == 0) return Enclosure(w, 0L);
  const Enclosure q = Rational(1) - p_acc;
  const Enclosure ln2 = Log(Enclosure(w, 2L));
  return -(p_acc * Log(p_acc) + q * Log(q)) / (p_acc * ln2);
}

long GolombParameter(const Enclosure& p_acc) {
  // p = 1 (n = 1 Gaussian, Laplace with c = 1): h ≡ 1 and nothing is sent; m_G = 1 by convention.
  if (Contains(p_acc, Rational(1)) && p_acc.WidthDouble() == 0) return 1;
  const Enclosure ratio = Log(Rational(2) - p_acc) / -Log(Rational(1) - p_acc);
  const Interval iv = ToInterval(ratio);
  const Int lo = FloorInt(iv.lo()), hi = FloorInt(iv.hi());
  // ⌈r⌉ is decided when lo and hi have the same ceiling.
  const Int clo = Rational(lo) == iv.lo() ? lo : Int(lo + 1);
  const Int chi = Rational(hi) == iv.hi() ? hi : Int(hi + 1);
  if (clo != chi) throw Undecidable("Golomb parameter: ceil(ln(2-p)/-ln(1-p)) straddles an integer");
  return clo.convert_to<long>();
}

// ---- error laws ---------------------------------------------------------------------------------
Enclosure GaussianErrorNormCdfLayered(long n, const Rational& s, int precision_bits) {
  RequirePositive(n, "n");
  if (s < 0) throw InvalidArgument("s", "s = rho^2/sigma^2 must be >= 0, got " + EchoValue(s));
  return Adaptive(precision_bits, [&](mpfr_prec_t w) {
    // P(‖Z‖ ≤ ρ) = P(Ũ ≤ s) + E[(s/Ũ)^{n/2}; Ũ > s], Ũ ~ χ²_{n+2}:
    // = P(n/2 + 1, s/2) + s^{n/2} e^{−s/2} / (2^{n/2} Γ(n/2 + 1)).
    const Enclosure se(w, s);
    Enclosure gamma = Enclosure(w, 1L);  // Γ(n/2 + 1)
    if (n % 2 == 0) {
      for (long m = 2; m <= n / 2; ++m) gamma = gamma * Rational(m);
    } else {
      gamma = Sqrt(Pi(w)) / Rational(2);  // Γ(3/2)
      for (long m = 3; m <= n; m += 2) gamma = gamma * Rational(m, 2);  // Γ(m/2+1) = (m/2)Γ(m/2)
    }
    const Enclosure tail = Pow(Sqrt(se), n) * Exp(-se / Rational(2)) / (Pow(Sqrt(Enclosure(w, 2L)), n) * gamma);
    return RegularizedGammaP(n + 2, Rational(s / 2), w) + tail;
  });
}

Enclosure GaussianErrorNormCdfTarget(long n, const Rational& s, int precision_bits) {
  RequirePositive(n, "n");
  if (s < 0) throw InvalidArgument("s", "s = rho^2/sigma^2 must be >= 0, got " + EchoValue(s));
  // ‖Z‖²/σ² ~ χ²_n: P(n/2, s/2).
  return Adaptive(precision_bits, [&](mpfr_prec_t w) { return RegularizedGammaP(n, Rational(s / 2), w); });
}

Enclosure LaplaceErrorAbsCdfLayered(const Rational& s, int precision_bits) {
  if (s < 0) throw InvalidArgument("s", "s = rho/b must be >= 0, got " + EchoValue(s));
  return Adaptive(precision_bits, [&](mpfr_prec_t w) {
    // P(|Z| ≤ ρ) = P(Ũ ≤ s) + s E[1/Ũ; Ũ > s], Ũ ~ Gamma(2,1): (1 − e^{−s}(1 + s)) + s e^{−s}.
    const Enclosure es = Exp(Enclosure(w, Rational(-s)));
    return (Rational(1) - es * Rational(1 + s)) + s * es;
  });
}

Enclosure LaplaceErrorAbsCdfTarget(const Rational& s, int precision_bits) {
  if (s < 0) throw InvalidArgument("s", "s = rho/b must be >= 0, got " + EchoValue(s));
  return Adaptive(precision_bits, [&](mpfr_prec_t w) { return -Expm1(Enclosure(w, Rational(-s))); });
}

Enclosure ExpectedIndexBitsN1(LrsuqTarget target, const Rational& scale, const Rational& gamma, const Rational& c,
                              int precision_bits) {
  Require(target == LrsuqTarget::kGaussian ? "sigma" : "b", scale, Domain::Positive(), EchoValue);
  Require("gamma", gamma, Domain::Positive(), EchoValue);
  if (!(c >= 1)) throw InvalidArgument("c", "scaling slack c must be >= 1, got " + EchoValue(c));
  return Adaptive(precision_bits, [&](mpfr_prec_t w) {
    const bool gauss = target == LrsuqTarget::kGaussian;
    // P(s ≥ t) = P(r ≤ ρ), ρ = γ/(2ct − 1) when 2ct > 1, else 1.
    auto cdf_arg = [&](const Rational& rho) {  // the argument x of P(a, x)
      return gauss ? Rational(rho * rho / (2 * scale * scale)) : Rational(rho / scale);
    };
    const long twice_a = gauss ? 3 : 4;  // χ²_3 = Gamma(3/2, 2); Gamma(2, 1)
    // Tail (j ≥ 3, c ≥ 1): 2ct_j − 1 ≥ 2^{j−2}, so ρ ≤ γ/2^{j−2} and P(a, x) ≤ x^a/Γ(a + 1);
    // consecutive bounds shrink by ≥ 4, so Σ_{j>J} ≤ (4/3)·bound(J + 1).
    auto tail_bound = [&](long j) {
      const Rational x = cdf_arg(Rational(gamma / Pow2(static_cast<int>(j - 2))));
      const Enclosure xe(w, x);
      if (gauss) return Pow(Sqrt(xe), 3) / (Rational(3, 4) * Sqrt(Pi(w)));  // Γ(5/2) = 3√π/4
      return Sqr(xe) / Rational(2);                                          // Γ(3) = 2
    };
    Enclosure sum(w, 0L);
    const Rational half(1, 2);
    for (long j = 1;; ++j) {
      const Rational t = j <= 2 ? half : Rational(Pow2(static_cast<int>(j - 2)) - half);
      if (2 * c * t <= 1) {
        sum += Enclosure(w, 1L);
      } else {
        sum += RegularizedGammaP(twice_a, cdf_arg(Rational(gamma / (2 * c * t - 1))), w);
      }
      if (j >= 3) {
        const Enclosure b = tail_bound(j + 1) * Rational(4, 3);
        if (b.HiDouble() < std::ldexp(1.0, -static_cast<int>(w) - 8) || j > 100000) {
          mpfr_t hi, nhi;
          mpfr_init2(hi, w);
          mpfr_init2(nhi, w);
          mpfi_get_right(hi, b.get());
          mpfr_set_ui(nhi, 0, MPFR_RNDN);
          Enclosure tail = Enclosure::Uninitialized(w);
          mpfi_interv_fr(tail.get(), nhi, hi);  // [0, bound]
          mpfr_clear(hi);
          mpfr_clear(nhi);
          return sum + tail;
        }
      }
    }
  });
}

// ---- privacy ------------------------------------------------------------------------------------
Rational SubsamplingProbability(long n, long tau) {
  RequirePositive(n, "n_k");
  RequirePositive(tau, "tau");
  const Rational q = Rational(1) - Rational(1, n);
  Rational pw(1);
  for (long i = 0; i < tau; ++i) pw *= q;
  return Rational(1) - pw;
}

namespace {
void ValidatePs(const Rational& p_s) {
  Require("p_s", p_s, Domain::OpenClosed(0, 1), EchoValue);
}
}  // namespace

Enclosure AmplifiedEpsilon(const Rational& eps_tilde, const Rational& p_s, int precision_bits) {
  Require("eps_tilde", eps_tilde, Domain::NonNegative(), EchoValue);
  ValidatePs(p_s);
  return Adaptive(precision_bits, [&](mpfr_prec_t w) {
    const Enclosure e(w, eps_tilde);
    if (eps_tilde > 40) return e + Log(p_s + (Rational(1) - p_s) * Exp(-e));  // no overflow of e^ε̃
    return Log1p(p_s * Expm1(e));
  });
}

Enclosure BaseEpsilon(const Rational& eps, const Rational& p_s, int precision_bits) {
  Require("eps", eps, Domain::NonNegative(), EchoValue);
  ValidatePs(p_s);
  return Adaptive(precision_bits, [&](mpfr_prec_t w) { return Log1p(Expm1(Enclosure(w, eps)) / p_s); });
}

namespace {
Enclosure AnalyticDeltaAt(const Enclosure& eps, const Rational& sens, const Rational& sigma, mpfr_prec_t w) {
  const Enclosure a = Enclosure(w, Rational(sens / (2 * sigma))) - eps * Rational(sigma / sens);
  const Enclosure b = Enclosure(w, Rational(-sens / (2 * sigma))) - eps * Rational(sigma / sens);
  return NormalCdf(a) - Exp(eps) * NormalCdf(b);
}
void ValidateGaussian(const Rational& sens, const Rational& sigma) {
  Require("sensitivity", sens, Domain::Positive(), EchoValue);
  Require("sigma", sigma, Domain::Positive(), EchoValue);
}

// Σ_κ w_κ (e^ε̃−1)/(e^{ε̃/κ}−1) δ_G(ε̃/κ; Δ, σ̃) with σ̃ given through σ̃² (exact) to allow √K.
Enclosure SubsampledSum(const Rational& eps_tilde, long tau, long n, const Rational& sens, const Enclosure& sigma,
                        bool capped, mpfr_prec_t w) {
  const Rational q = Rational(1, n), one_q = Rational(1) - q;
  const Enclosure et(w, eps_tilde);
  const Enclosure num = Expm1(et);
  Enclosure sum(w, 0L);
  Int binom(1);
  for (long kappa = 1; kappa <= tau; ++kappa) {
    binom = binom * (tau - kappa + 1) / kappa;
    Rational wk(binom);
    for (long i = 0; i < kappa; ++i) wk *= q;
    for (long i = kappa; i < tau; ++i) wk *= one_q;
    const Enclosure ek = et / Rational(kappa);
    const Enclosure a = sens / (Rational(2) * sigma) - ek * sigma / sens;
    const Enclosure b = -sens / (Rational(2) * sigma) - ek * sigma / sens;
    Enclosure term = num / Expm1(ek) * (NormalCdf(a) - Exp(ek) * NormalCdf(b));
    if (capped) term = Min(term, Enclosure(w, 1L));
    sum += wk * term;
  }
  return sum;
}
}  // namespace

Enclosure CepamAnalyticGaussianDelta(const Rational& eps, const Rational& sensitivity, const Rational& sigma,
                                int precision_bits) {
  Require("eps", eps, Domain::NonNegative(), EchoValue);
  ValidateGaussian(sensitivity, sigma);
  return Adaptive(precision_bits,
                  [&](mpfr_prec_t w) { return AnalyticDeltaAt(Enclosure(w, eps), sensitivity, sigma, w); });
}

Enclosure CepamLaplaceProfile(const Rational& eps, const Rational& sensitivity, const Rational& b, int precision_bits) {
  Require("eps", eps, Domain::Positive(), EchoValue);
  Require("sensitivity", sensitivity, Domain::Positive(), EchoValue);
  Require("b", b, Domain::Positive(), EchoValue);
  const Rational arg = (eps - sensitivity / b) / 2;
  if (arg >= 0) return Enclosure(precision_bits, 0L);  // exact zero for ε ≥ Δ1/b
  return Adaptive(precision_bits, [&](mpfr_prec_t w) { return -Expm1(Enclosure(w, arg)); });
}

Enclosure SubsampledGaussianDelta(const Rational& eps_tilde, long tau, long n, const Rational& sensitivity,
                                  const Rational& sigma, bool capped, int precision_bits) {
  Require("eps_tilde", eps_tilde, Domain::Positive(), EchoValue);
  RequirePositive(tau, "tau");
  RequirePositive(n, "n");
  ValidateGaussian(sensitivity, sigma);
  return Adaptive(precision_bits, [&](mpfr_prec_t w) {
    return SubsampledSum(eps_tilde, tau, n, sensitivity, Enclosure(w, sigma), capped, w);
  });
}

namespace {
void ValidateThm12(const Thm12Params& p, Thm12Variant v) {
  Require("sigma", p.sigma, Domain::Positive(), EchoValue);
  Require("eps_tilde", p.eps_tilde, Domain::Positive(), EchoValue);
  RequirePositive(p.tau, "tau");
  RequirePositive(p.clients, "clients");
  if (v == Thm12Variant::kOwnNoiseSubtracted && p.clients < 2)
    throw InvalidArgument("clients", "own-noise subtraction (E-P6) needs K >= 2");
  Require("gamma", p.gamma, Domain::Positive(), EchoValue);
  RequirePositive(p.n_k, "n_k");
}
Rational Sensitivity(const Thm12Params& p, Thm12Variant v) {
  return v == Thm12Variant::kAsPrinted ? Rational(2 * p.tau * p.gamma / p.clients) : Rational(2 * p.gamma / p.clients);
}
Rational SigmaTildeSquared(const Thm12Params& p, Thm12Variant v) {
  const Rational s2 = p.sigma * p.sigma;
  return v == Thm12Variant::kOwnNoiseSubtracted ? Rational(s2 * (p.clients - 1) / (Rational(p.clients) * p.clients))
                                                : Rational(s2 / p.clients);
}
}  // namespace

Thm12Result Theorem12(const Thm12Params& p, Thm12Variant variant, int precision_bits) {
  ValidateThm12(p, variant);
  const Rational p_s = SubsamplingProbability(p.n_k, p.tau);
  const Rational sens = Sensitivity(p, variant), st2 = SigmaTildeSquared(p, variant);
  auto delta = [&](bool capped) {
    return Adaptive(precision_bits, [&](mpfr_prec_t w) {
      return SubsampledSum(p.eps_tilde, p.tau, p.n_k, sens, Sqrt(Enclosure(w, st2)), capped, w);
    });
  };
  return {p_s, AmplifiedEpsilon(p.eps_tilde, p_s, precision_bits), delta(false), delta(true), sens, st2};
}

Enclosure Theorem12Floor(const Rational& eps_tilde, long tau, long n_k, int precision_bits) {
  Require("eps_tilde", eps_tilde, Domain::Positive(), EchoValue);
  RequirePositive(tau, "tau");
  RequirePositive(n_k, "n_k");
  return Adaptive(precision_bits, [&](mpfr_prec_t w) {
    const Rational q = Rational(1, n_k), one_q = Rational(1) - q;
    const Enclosure et(w, eps_tilde);
    Enclosure sum(w, 0L);
    Int binom(1);
    for (long kappa = 1; kappa <= tau; ++kappa) {
      binom = binom * (tau - kappa + 1) / kappa;
      Rational wk(binom);
      for (long i = 0; i < kappa; ++i) wk *= q;
      for (long i = kappa; i < tau; ++i) wk *= one_q;
      sum += wk * (Expm1(et) / Expm1(et / Rational(kappa)));
    }
    return sum;
  });
}

std::optional<Interval> CalibrateTheorem12Sigma(const Rational& eps, const Rational& delta, long tau, long clients,
                                                const Rational& gamma, long n_k, Thm12Variant variant, bool capped,
                                                int tolerance_bits, int precision_bits) {
  ValidateOpenUnit(delta, "delta");
  Require("eps", eps, Domain::Positive(), EchoValue);
  if (tolerance_bits < 1 || tolerance_bits > 200)
    throw InvalidArgument("tolerance_bits", "must be in [1, 200], got " + std::to_string(tolerance_bits));
  const Rational p_s = SubsamplingProbability(n_k, tau);
  // ε̃ is enclosed; we certify at the exact rational lower endpoint ε̃_lo: ε(ε̃_lo) ≤ ε, and an
  // (ε(ε̃_lo), δ)-DP mechanism is (ε, δ)-DP, so the calibration is conservative.
  const Rational eps_tilde = ToInterval(BaseEpsilon(eps, p_s, precision_bits)).lo();
  const Rational floor_limit = capped ? p_s : ToInterval(Theorem12Floor(eps_tilde, tau, n_k, precision_bits)).hi();
  if (floor_limit <= delta) return std::nullopt;
  // δ(σ) ≤ δ certified?
  auto certified_ok = [&](const Rational& sigma) {
    const Thm12Result r = Theorem12({sigma, eps_tilde, tau, clients, gamma, n_k}, variant, precision_bits);
    return ToInterval(capped ? r.delta_capped : r.delta).hi() <= delta;
  };
  auto certified_bad = [&](const Rational& sigma) {
    if (sigma == 0) return true;  // δ(0+) is the floor > δ
    const Thm12Result r = Theorem12({sigma, eps_tilde, tau, clients, gamma, n_k}, variant, precision_bits);
    return ToInterval(capped ? r.delta_capped : r.delta).lo() > delta;
  };
  Rational lo(0), hi(1);
  while (!certified_ok(hi)) {
    lo = hi;
    hi *= 2;
    if (hi > Rational(1) * Pow2(60)) throw Undecidable("calibration: no sigma up to 2^60 meets delta");
  }
  const Rational tol = Pow2(-tolerance_bits);
  while (hi - lo > tol * hi) {
    const Rational mid = (lo + hi) / 2;
    if (certified_ok(mid)) {
      hi = mid;
    } else if (certified_bad(mid)) {
      lo = mid;
    } else {
      break;  // δ(mid) straddles the target at this precision: [lo, hi] is still valid
    }
  }
  return Interval(lo, hi);
}

Thm13Result Theorem13(const Rational& eps_tilde, long tau, const Rational& gamma, const Rational& b, long m, long n_k,
                      int precision_bits) {
  Require("eps_tilde", eps_tilde, Domain::Positive(), EchoValue);
  RequirePositive(tau, "tau");
  Require("gamma", gamma, Domain::Positive(), EchoValue);
  Require("b", b, Domain::Positive(), EchoValue);
  RequirePositive(m, "m");
  const Rational p_s = SubsamplingProbability(n_k, tau);
  const Rational printed = 2 * tau * gamma / b;
  const Enclosure corrected = Adaptive(precision_bits, [&](mpfr_prec_t w) {
    return Rational(2 * tau * gamma / b) * Sqrt(Enclosure(w, m));
  });
  return {p_s,
          AmplifiedEpsilon(eps_tilde, p_s, precision_bits),
          printed,
          corrected,
          eps_tilde >= printed,
          DecideGreaterEqual(Enclosure(corrected.prec(), eps_tilde), corrected)};
}

}  // namespace dpfl::ref
