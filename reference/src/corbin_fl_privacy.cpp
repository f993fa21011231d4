// dpfl::ref — Theorems 3 and 4 of seed 000 as rigorous MPFI enclosures (see the header).
#include "dpfl/ref/corbin_fl_privacy.hpp"

#include "dpfl/ref/enclosure.hpp"
#include "dpfl/validate.hpp"

#include <string>

namespace dpfl::ref {
namespace {

// Decides lhs ≥ rhs from the enclosures (Undecidable if they overlap), keeping both sides.
Precondition Decide(const Enclosure& lhs, const Enclosure& rhs) {
  Precondition out;
  out.lhs = ToInterval(lhs);
  out.rhs = ToInterval(rhs);
  out.holds = DecideGreaterEqual(lhs, rhs);
  return out;
}

// α(ε_p) = (E+1)/(E−1) exactly for rational E, or coth(ε/2) enclosed for rational ε.
Enclosure AlphaEnclosure(const PrivacyBudget& budget, mpfr_prec_t prec) {
  if (budget.kind == PrivacyBudget::Kind::kE) {
    Require("E", budget.value, Domain::Open(1, Domain::kInf), EchoValue, "E = e^eps");
    return FromQ(prec, Rational((budget.value + 1) / (budget.value - 1)));
  }
  Require("eps", budget.value, Domain::Budget(1e6), EchoValue);
  Enclosure out = Enclosure::Uninitialized(prec);
  Enclosure half = FromQ(prec, Rational(budget.value / 2));
  mpfi_coth(out.get(), half.get());  // (e^ε + 1)/(e^ε − 1) = coth(ε/2)
  return out;
}

// ---- Theorem 3 cores (shared with Theorem 4, whose γ is irrational) ------------------------

struct EpsU {
  Interval e_p, b_p, c_p, d_p;
  std::array<Interval, 3> terms;
  Interval eps_u;
  Precondition precondition;
};

// N_b = nγ − 1, certainly > 0 (else InvalidArgument naming `name`).
Enclosure BinomialTrials(const Rational& n, const Enclosure& gamma, const std::string& name) {
  Enclosure nb = n * gamma - Rational(1);
  if (CertainlyNonPositive(nb))
    throw InvalidArgument(name, "n*gamma - 1 must be > 0 (the binomial part needs at least one LDP-FL "
                                "client besides client 1)");
  if (!CertainlyPositive(nb)) throw Undecidable("n*gamma - 1 is too close to 0 to decide its sign");
  return nb;
}

// eq. (5) exactly as printed (spec 000 §4.4), with `delta` the δ handed to the binomial part.
EpsU PrintedEpsU(const Enclosure& alpha, const Enclosure& gamma, const Rational& n, const Rational& m,
                 const Rational& delta, const Rational& r, const std::string& n_name) {
  const mpfr_prec_t prec = alpha.prec();
  const Enclosure nb = BinomialTrials(n, gamma, n_name);
  const Enclosure alpha2 = alpha * alpha;
  const Enclosure e_p = Rational(1) + Rational(1) / alpha2;
  const Enclosure b_p = e_p / Rational(3) + Rational(1) / alpha;
  const Enclosure l125 = LogQ(prec, Rational(Rational(5, 4) / delta));
  const Enclosure l10 = LogQ(prec, Rational(10 / delta));
  const Enclosure l20m = LogQ(prec, Rational(20 * m / delta));
  EpsU out;
  std::array<Enclosure, 3> t = {
      Sqrt(Rational(8 * m) * l125 / (nb * e_p)),
      Rational(8) * (l125 + l20m * l10) / (Rational(3) * nb),
      Rational(4) * b_p * SqrtQ(prec, Rational(2 * m)) * (Rational(Rational(7, 4)) + Rational(Rational(15, 4)) / alpha2) *
          Sqrt(l10) / (nb * (Rational(1) - FromQ(prec, Rational(delta / 10))) * e_p)};
  const Enclosure eps = Rational(r) * alpha * (t[0] + t[1] + t[2]);
  out.e_p = ToInterval(e_p);
  out.b_p = ToInterval(b_p);
  for (size_t i = 0; i < 3; ++i) out.terms[i] = ToInterval(t[i]);
  out.eps_u = ToInterval(eps);
  const Enclosure lhs = nb * (FromQ(prec, Rational(1, 4)) - Rational(1) / (Rational(4) * alpha2));
  const Enclosure rhs = Max(Rational(23) * LogQ(prec, Rational(m / delta)), Rational(2 * r) * alpha);
  out.precondition = Decide(lhs, rhs);
  return out;
}

// Re-derived ε_u^corr (spec 000 §4.4 [DERIVED]): normalized units, no rα factor.
EpsU CorrectedEpsU(const Enclosure& alpha, const Enclosure& gamma, const Rational& n, const Rational& m,
                   const Rational& delta, const std::string& n_name) {
  const mpfr_prec_t prec = alpha.prec();
  const Enclosure nb = BinomialTrials(n, gamma, n_name);
  const Enclosure alpha2 = alpha * alpha;
  const Enclosure k = Rational(1) - Rational(1) / alpha2;  // 1 − α⁻² = 4p(1−p)
  const Enclosure e_p = Rational(1) + Rational(1) / alpha2;
  const Enclosure b_p = e_p / Rational(3) + Rational(1) / alpha;
  const Enclosure c_p = SqrtQ(prec, Rational(2)) * (Rational(Rational(7, 4)) + Rational(Rational(13, 4)) / alpha2);
  const Enclosure d_p = Rational(2) * e_p / Rational(3);
  const Enclosure l125 = LogQ(prec, Rational(Rational(5, 4) / delta));
  const Enclosure l10 = LogQ(prec, Rational(10 / delta));
  const Enclosure l20m = LogQ(prec, Rational(20 * m / delta));
  const Enclosure one_minus = Rational(1) - FromQ(prec, Rational(delta / 10));
  std::array<Enclosure, 3> t = {
      Sqrt(Rational(8 * m) * l125 / (nb * k)),
      Rational(4) * (SqrtQ(prec, m) * c_p * Sqrt(l10) + m * b_p) / (nb * k * one_minus),
      Rational(8) * (l125 + e_p * l20m * l10) / (Rational(3) * nb * k)};
  EpsU out;
  out.e_p = ToInterval(e_p);
  out.b_p = ToInterval(b_p);
  out.c_p = ToInterval(c_p);
  out.d_p = ToInterval(d_p);
  for (size_t i = 0; i < 3; ++i) out.terms[i] = ToInterval(t[i]);
  out.eps_u = ToInterval(t[0] + t[1] + t[2]);
  const Enclosure lhs = nb * k / Rational(4);
  const Enclosure rhs = Max(Rational(23) * LogQ(prec, Rational(10 * m / delta)), FromQ(prec, Rational(2)));
  out.precondition = Decide(lhs, rhs);
  return out;
}

}  // namespace

Thm3Privacy Theorem3Privacy(const Thm3Params& params) {
  ValidatePrecision(params.precision_bits);
  ValidatePositiveInteger(params.n, "n");
  Require("gamma", params.gamma, Domain::OpenClosed(0, 1), EchoValue);
  ValidatePositiveInteger(params.m, "m");
  ValidateOpenUnit(params.delta, "delta");
  ValidatePositive(params.r, "r");
  if (!(params.n * params.gamma - 1 > 0))
    throw InvalidArgument("n", "n*gamma - 1 must be > 0 (the binomial part needs at least one LDP-FL "
                               "client besides client 1), got n*gamma = " + EchoValue(Rational(params.n * params.gamma)));
  const mpfr_prec_t prec = params.precision_bits;
  const Enclosure alpha = AlphaEnclosure(params.budget, prec);
  const Enclosure gamma = FromQ(prec, params.gamma);
  const EpsU printed = PrintedEpsU(alpha, gamma, params.n, params.m, params.delta, params.r, "n");
  const EpsU corrected = CorrectedEpsU(alpha, gamma, params.n, params.m, params.delta, "n");
  Thm3Privacy out;
  out.alpha = ToInterval(alpha);
  out.e_p = printed.e_p;
  out.b_p = printed.b_p;
  out.terms_as_printed = printed.terms;
  out.eps_u_as_printed = printed.eps_u;
  out.precondition_as_printed = printed.precondition;
  out.c_p = corrected.c_p;
  out.d_p = corrected.d_p;
  out.terms_corrected = corrected.terms;
  out.eps_u_corrected = corrected.eps_u;
  out.precondition_corrected = corrected.precondition;
  return out;
}

CpSgdEpsilon CpSgdTheorem1(const CpSgdParams& params) {
  ValidatePrecision(params.precision_bits);
  ValidatePositive(params.N, "N");
  ValidateOpenUnit(params.p, "p");
  ValidatePositive(params.s, "s");
  ValidateNonNegative(params.sens1, "Delta1");
  ValidateNonNegative(params.sens2, "Delta2");
  ValidateNonNegative(params.sens_inf, "Delta_inf");
  ValidatePositiveInteger(params.d_dim, "d_dim");
  ValidateOpenUnit(params.delta, "delta");
  const mpfr_prec_t prec = params.precision_bits;
  const Rational& p = params.p;
  const Rational q = 1 - p;
  const Rational npq = params.N * p * q;  // N p(1−p), exact
  const Rational sq = p * p + q * q;
  const Rational b_p = Rational(2, 3) * sq + 1 - 2 * p;
  const Rational c_p_rational = 3 * p * p * p + 3 * q * q * q + 2 * sq;  // c_p / √2
  const Rational d_p = Rational(4, 3) * sq;
  const Enclosure c_p = SqrtQ(prec, Rational(2)) * FromQ(prec, c_p_rational);
  const Enclosure l125 = LogQ(prec, Rational(Rational(5, 4) / params.delta));
  const Enclosure l10 = LogQ(prec, Rational(10 / params.delta));
  const Enclosure l20d = LogQ(prec, Rational(20 * params.d_dim / params.delta));
  const Enclosure one_minus = Rational(1) - FromQ(prec, Rational(params.delta / 10));
  std::array<Enclosure, 3> t = {
      params.sens2 * Sqrt(Rational(2) * l125) / (params.s * SqrtQ(prec, npq)),
      (params.sens2 * c_p * Sqrt(l10) + FromQ(prec, Rational(params.sens1 * b_p))) /
          (Rational(params.s * npq) * one_minus),
      (Rational(Rational(2, 3) * params.sens_inf) * l125 + Rational(params.sens_inf * d_p) * l20d * l10) /
          FromQ(prec, Rational(params.s * npq))};
  CpSgdEpsilon out;
  out.b_p = Interval(b_p);
  out.c_p = ToInterval(c_p);
  out.d_p = Interval(d_p);
  for (size_t i = 0; i < 3; ++i) out.terms[i] = ToInterval(t[i]);
  out.epsilon = ToInterval(t[0] + t[1] + t[2]);
  const Enclosure rhs = Max(Rational(23) * LogQ(prec, Rational(10 * params.d_dim / params.delta)),
                       FromQ(prec, Rational(2 * params.sens_inf / params.s)));
  out.precondition = Decide(FromQ(prec, npq), rhs);
  return out;
}

Thm4Moments Theorem4Moments(const Rational& p, const Rational& n) {
  ValidateOpenUnit(p, "p");
  ValidatePositiveInteger(n, "n");
  const Rational pq = p * (1 - p);
  Thm4Moments out;
  out.expected_solo = n * pq;                 // n/2 pairs, each P(E_i = 1) = 2p(1−p)
  out.var_solo = n * pq * (1 - 2 * pq);       // (n/2)·2pq(1 − 2pq)
  out.expected_survivors = n * (1 - p);       // P(F_i = 1) = 1 − p (E27)
  out.var_survivors = n * pq;
  out.expected_survivors_as_printed = n * p;  // the proof's P(F_i = 1) = p
  return out;
}

Thm4Result Theorem4(const Thm4Params& params) {
  ValidatePrecision(params.precision_bits);
  ValidateOpenUnit(params.p, "p");
  ValidatePositiveInteger(params.n, "n");
  ValidateOpenUnit(params.delta, "delta");
  if (!(params.delta1 > 0) || !(params.delta1 < params.delta))
    throw InvalidArgument("delta1", "must lie in (0, delta), got " + EchoValue(params.delta1));
  ValidatePositive(params.r, "r");
  ValidatePositiveInteger(params.m, "m");
  const mpfr_prec_t prec = params.precision_bits;
  const Enclosure alpha = AlphaEnclosure(params.budget, prec);
  const Rational& p = params.p;
  const Rational& n = params.n;
  const Rational pq = p * (1 - p);
  const Rational chebyshev = (params.delta - params.delta1) * n;  // (δ − δ1) n
  const Rational var_e = pq * (1 - 2 * pq);
  const Enclosure alpha2 = alpha * alpha;
  const Enclosure r2a2 = Rational(params.r * params.r) * alpha2;
  const Enclosure pair_mse = Rational(params.r * params.r) * (alpha2 + Rational(2) * alpha - Rational(1));

  auto positive_or_throw = [](const Enclosure& x, const std::string& what) {
    if (CertainlyNonPositive(x))
      throw InvalidArgument("n", what + " <= 0: n is too small for these p, delta, delta1 (E31)");
    if (!CertainlyPositive(x)) throw Undecidable(what + " is too close to 0 to decide its sign");
  };

  Thm4Result out;
  out.alpha = ToInterval(alpha);
  out.moments = Theorem4Moments(p, n);
  {  // As printed.
    const Enclosure rad = SqrtQ(prec, Rational(var_e / (4 * chebyshev)));  // E26: the extra 4
    const Enclosure theta_rad = SqrtQ(prec, Rational(pq / chebyshev));
    const Enclosure gamma = FromQ(prec, pq) - rad;
    const Enclosure gamma_prime = FromQ(prec, pq) + rad;
    const Enclosure theta = FromQ(prec, pq) - theta_rad;  // E28: leading p(1−p)
    const Enclosure theta_prime = FromQ(prec, pq) + theta_rad;
    positive_or_throw(gamma, "gamma (as printed)");
    positive_or_throw(theta, "theta (as printed)");
    const Enclosure mse = gamma_prime * r2a2 / (n * theta) + Rational(8 * params.delta1) * r2a2 +
                     (Rational(1) - gamma) * pair_mse / (Rational(2 * n) * theta);  // E29, E30
    const EpsU eps = PrintedEpsU(alpha, gamma, n, params.m, params.delta1, params.r, "n");
    Thm4Variant& v = out.as_printed;
    v.gamma = ToInterval(gamma);
    v.gamma_prime = ToInterval(gamma_prime);
    v.theta = ToInterval(theta);
    v.theta_prime = ToInterval(theta_prime);
    v.mse_bound = ToInterval(mse);
    v.eps_u = eps.eps_u;
    v.precondition = eps.precondition;
  }
  {  // Corrected (Chebyshev-consistent, P(F_i = 1) = 1 − p).
    const Enclosure rad = SqrtQ(prec, Rational(var_e / chebyshev));
    const Enclosure theta_rad = SqrtQ(prec, Rational(pq / chebyshev));
    const Enclosure gamma = FromQ(prec, pq) - rad;
    const Enclosure gamma_prime = FromQ(prec, pq) + rad;
    const Enclosure theta = FromQ(prec, Rational(1 - p)) - theta_rad;
    const Enclosure theta_prime = FromQ(prec, Rational(1 - p)) + theta_rad;
    positive_or_throw(gamma, "gamma (corrected)");
    positive_or_throw(theta, "theta (corrected)");
    const Enclosure mse = gamma_prime * r2a2 / (n * theta * theta) +
                     (Rational(1) - gamma) * pair_mse / (Rational(2 * n) * theta) +
                     Rational(8 * (params.delta - params.delta1)) * r2a2;
    const EpsU eps = CorrectedEpsU(alpha, gamma, n, params.m, params.delta1, "n");
    Thm4Variant& v = out.corrected;
    v.gamma = ToInterval(gamma);
    v.gamma_prime = ToInterval(gamma_prime);
    v.theta = ToInterval(theta);
    v.theta_prime = ToInterval(theta_prime);
    v.mse_bound = ToInterval(mse);
    v.eps_u = eps.eps_u;
    v.precondition = eps.precondition;
  }
  return out;
}

}  // namespace dpfl::ref
