// dpfl::ref — Theorems 3 and 4 of seed 000 as rigorous MPFI enclosures (see the header).
#include "dpfl/ref/corbin_fl_privacy.hpp"

#include <mpfi.h>
#include <mpfr.h>

#include <string>

namespace dpfl::ref {
namespace {

// RAII owner of one MPFI interval. Every operation below rounds outward (MPFI's contract),
// so each value encloses the exact real it stands for.
class Encl {
 public:
  explicit Encl(mpfr_prec_t prec) { mpfi_init2(v_, prec); }
  Encl(const Encl& o) {
    mpfi_init2(v_, mpfi_get_prec(o.v_));
    mpfi_set(v_, o.v_);
  }
  Encl& operator=(const Encl& o) {
    if (this != &o) {
      mpfi_set_prec(v_, mpfi_get_prec(o.v_));
      mpfi_set(v_, o.v_);
    }
    return *this;
  }
  ~Encl() { mpfi_clear(v_); }
  mpfi_ptr get() { return v_; }
  mpfi_srcptr get() const { return v_; }
  mpfr_prec_t prec() const { return mpfi_get_prec(v_); }

 private:
  mpfi_t v_;
};

Encl FromQ(mpfr_prec_t prec, const Rational& q) {
  Encl out(prec);
  mpfi_set_q(out.get(), q.backend().data());
  return out;
}

Encl operator+(const Encl& a, const Encl& b) {
  Encl out(a.prec());
  mpfi_add(out.get(), a.get(), b.get());
  return out;
}
Encl operator-(const Encl& a, const Encl& b) {
  Encl out(a.prec());
  mpfi_sub(out.get(), a.get(), b.get());
  return out;
}
Encl operator*(const Encl& a, const Encl& b) {
  Encl out(a.prec());
  mpfi_mul(out.get(), a.get(), b.get());
  return out;
}
Encl operator/(const Encl& a, const Encl& b) {
  if (mpfi_has_zero(b.get()) > 0)
    throw Undecidable("an enclosure used as a divisor contains 0; increase the precision");
  Encl out(a.prec());
  mpfi_div(out.get(), a.get(), b.get());
  return out;
}
Encl operator-(const Encl& a, const Rational& b) { return a - FromQ(a.prec(), b); }
Encl operator+(const Rational& a, const Encl& b) { return FromQ(b.prec(), a) + b; }
Encl operator-(const Rational& a, const Encl& b) { return FromQ(b.prec(), a) - b; }
Encl operator*(const Rational& a, const Encl& b) { return FromQ(b.prec(), a) * b; }
Encl operator/(const Encl& a, const Rational& b) { return a / FromQ(a.prec(), b); }
Encl operator/(const Rational& a, const Encl& b) { return FromQ(b.prec(), a) / b; }

// Left endpoint > 0 (certainly positive).
bool CertainlyPositive(const Encl& x) {
  mpfr_t lo;
  mpfr_init2(lo, x.prec());
  mpfi_get_left(lo, x.get());
  const bool pos = mpfr_sgn(lo) > 0;
  mpfr_clear(lo);
  return pos;
}
// Right endpoint ≤ 0 (certainly non-positive).
bool CertainlyNonPositive(const Encl& x) {
  mpfr_t hi;
  mpfr_init2(hi, x.prec());
  mpfi_get_right(hi, x.get());
  const bool np = mpfr_sgn(hi) <= 0;
  mpfr_clear(hi);
  return np;
}

// Left endpoint ≥ 0 (certainly non-negative).
bool CertainlyNonNegative(const Encl& x) {
  mpfr_t lo;
  mpfr_init2(lo, x.prec());
  mpfi_get_left(lo, x.get());
  const bool nn = mpfr_sgn(lo) >= 0;
  mpfr_clear(lo);
  return nn;
}

Encl Sqrt(const Encl& x) {
  if (!CertainlyNonNegative(x))
    throw Undecidable("square root of an enclosure that is not certainly >= 0");
  Encl out(x.prec());
  mpfi_sqrt(out.get(), x.get());
  return out;
}
Encl Log(const Encl& x) {
  if (!CertainlyPositive(x)) throw Undecidable("logarithm of an enclosure that is not certainly > 0");
  Encl out(x.prec());
  mpfi_log(out.get(), x.get());
  return out;
}
Encl LogQ(mpfr_prec_t prec, const Rational& q) { return Log(FromQ(prec, q)); }
Encl SqrtQ(mpfr_prec_t prec, const Rational& q) { return Sqrt(FromQ(prec, q)); }

// Encloses max(a, b): [max(a.lo, b.lo), max(a.hi, b.hi)] (endpoints exact, no rounding).
Encl Max(const Encl& a, const Encl& b) {
  const mpfr_prec_t prec = a.prec() > b.prec() ? a.prec() : b.prec();
  mpfr_t alo, ahi, blo, bhi;
  for (mpfr_ptr f : {alo, ahi, blo, bhi}) mpfr_init2(f, prec);
  mpfi_get_left(alo, a.get());
  mpfi_get_right(ahi, a.get());
  mpfi_get_left(blo, b.get());
  mpfi_get_right(bhi, b.get());
  mpfr_max(alo, alo, blo, MPFR_RNDD);
  mpfr_max(ahi, ahi, bhi, MPFR_RNDU);
  Encl out(prec);
  mpfi_interv_fr(out.get(), alo, ahi);
  for (mpfr_ptr f : {alo, ahi, blo, bhi}) mpfr_clear(f);
  return out;
}

Rational MpfrToRational(mpfr_srcptr f) {
  Rational q;
  mpfr_get_q(q.backend().data(), f);  // exact: an MPFR number is a dyadic rational
  return q;
}

Interval ToInterval(const Encl& x) {
  if (mpfi_nan_p(x.get()) != 0 || mpfi_bounded_p(x.get()) == 0)
    throw Undecidable("an enclosure is NaN or unbounded; check the inputs or increase the precision");
  mpfr_t lo, hi;
  mpfr_init2(lo, x.prec());
  mpfr_init2(hi, x.prec());
  mpfi_get_left(lo, x.get());
  mpfi_get_right(hi, x.get());
  Interval out(MpfrToRational(lo), MpfrToRational(hi));
  mpfr_clear(lo);
  mpfr_clear(hi);
  return out;
}

// Decides lhs ≥ rhs from the enclosures.
Precondition Decide(const Encl& lhs, const Encl& rhs) {
  Precondition out;
  out.lhs = ToInterval(lhs);
  out.rhs = ToInterval(rhs);
  if (out.lhs.lo() >= out.rhs.hi()) out.holds = true;
  else if (out.lhs.hi() < out.rhs.lo()) out.holds = false;
  else throw Undecidable("precondition: the enclosures of both sides overlap; increase the precision");
  return out;
}

// ---- validation ----------------------------------------------------------------------------

void ValidatePrecision(int bits) {
  if (bits < 32 || bits > 100000)
    throw InvalidArgument("precision", "must be in [32, 100000] bits, got " + std::to_string(bits));
}
bool IsInteger(const Rational& x) { return boost::multiprecision::denominator(x) == 1; }
void ValidatePositiveInteger(const Rational& x, const std::string& name) {
  if (!IsInteger(x) || x < 1)
    throw InvalidArgument(name, "must be an integer >= 1, got " + ToExactString(x));
}
void ValidateOpenUnit(const Rational& x, const std::string& name) {
  if (!(x > 0) || !(x < 1)) throw InvalidArgument(name, "must lie in (0, 1), got " + ToExactString(x));
}
void ValidatePositive(const Rational& x, const std::string& name) {
  if (!(x > 0)) throw InvalidArgument(name, "must be > 0, got " + ToExactString(x));
}
void ValidateNonNegative(const Rational& x, const std::string& name) {
  if (x < 0) throw InvalidArgument(name, "must be >= 0, got " + ToExactString(x));
}

// α(ε_p) = (E+1)/(E−1) exactly for rational E, or coth(ε/2) enclosed for rational ε.
Encl AlphaEnclosure(const PrivacyBudget& budget, mpfr_prec_t prec) {
  if (budget.kind == PrivacyBudget::Kind::kE) {
    if (!(budget.value > 1))
      throw InvalidArgument("E", "must satisfy E = e^eps > 1, got " + ToExactString(budget.value));
    return FromQ(prec, Rational((budget.value + 1) / (budget.value - 1)));
  }
  if (!(budget.value > 0)) throw InvalidArgument("eps", "must be > 0, got " + ToExactString(budget.value));
  if (budget.value > 1000000) throw InvalidArgument("eps", "must be <= 1e6");
  Encl out(prec);
  Encl half = FromQ(prec, Rational(budget.value / 2));
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
Encl BinomialTrials(const Rational& n, const Encl& gamma, const std::string& name) {
  Encl nb = n * gamma - Rational(1);
  if (CertainlyNonPositive(nb))
    throw InvalidArgument(name, "n*gamma - 1 must be > 0 (the binomial part needs at least one LDP-FL "
                                "client besides client 1)");
  if (!CertainlyPositive(nb)) throw Undecidable("n*gamma - 1 is too close to 0 to decide its sign");
  return nb;
}

// eq. (5) exactly as printed (spec 000 §4.4), with `delta` the δ handed to the binomial part.
EpsU PrintedEpsU(const Encl& alpha, const Encl& gamma, const Rational& n, const Rational& m,
                 const Rational& delta, const Rational& r, const std::string& n_name) {
  const mpfr_prec_t prec = alpha.prec();
  const Encl nb = BinomialTrials(n, gamma, n_name);
  const Encl alpha2 = alpha * alpha;
  const Encl e_p = Rational(1) + Rational(1) / alpha2;
  const Encl b_p = e_p / Rational(3) + Rational(1) / alpha;
  const Encl l125 = LogQ(prec, Rational(Rational(5, 4) / delta));
  const Encl l10 = LogQ(prec, Rational(10 / delta));
  const Encl l20m = LogQ(prec, Rational(20 * m / delta));
  EpsU out;
  std::array<Encl, 3> t = {
      Sqrt(Rational(8 * m) * l125 / (nb * e_p)),
      Rational(8) * (l125 + l20m * l10) / (Rational(3) * nb),
      Rational(4) * b_p * SqrtQ(prec, Rational(2 * m)) * (Rational(Rational(7, 4)) + Rational(Rational(15, 4)) / alpha2) *
          Sqrt(l10) / (nb * (Rational(1) - FromQ(prec, Rational(delta / 10))) * e_p)};
  const Encl eps = Rational(r) * alpha * (t[0] + t[1] + t[2]);
  out.e_p = ToInterval(e_p);
  out.b_p = ToInterval(b_p);
  for (size_t i = 0; i < 3; ++i) out.terms[i] = ToInterval(t[i]);
  out.eps_u = ToInterval(eps);
  const Encl lhs = nb * (FromQ(prec, Rational(1, 4)) - Rational(1) / (Rational(4) * alpha2));
  const Encl rhs = Max(Rational(23) * LogQ(prec, Rational(m / delta)), Rational(2 * r) * alpha);
  out.precondition = Decide(lhs, rhs);
  return out;
}

// Re-derived ε_u^corr (spec 000 §4.4 [DERIVED]): normalized units, no rα factor.
EpsU CorrectedEpsU(const Encl& alpha, const Encl& gamma, const Rational& n, const Rational& m,
                   const Rational& delta, const std::string& n_name) {
  const mpfr_prec_t prec = alpha.prec();
  const Encl nb = BinomialTrials(n, gamma, n_name);
  const Encl alpha2 = alpha * alpha;
  const Encl k = Rational(1) - Rational(1) / alpha2;  // 1 − α⁻² = 4p(1−p)
  const Encl e_p = Rational(1) + Rational(1) / alpha2;
  const Encl b_p = e_p / Rational(3) + Rational(1) / alpha;
  const Encl c_p = SqrtQ(prec, Rational(2)) * (Rational(Rational(7, 4)) + Rational(Rational(13, 4)) / alpha2);
  const Encl d_p = Rational(2) * e_p / Rational(3);
  const Encl l125 = LogQ(prec, Rational(Rational(5, 4) / delta));
  const Encl l10 = LogQ(prec, Rational(10 / delta));
  const Encl l20m = LogQ(prec, Rational(20 * m / delta));
  const Encl one_minus = Rational(1) - FromQ(prec, Rational(delta / 10));
  std::array<Encl, 3> t = {
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
  const Encl lhs = nb * k / Rational(4);
  const Encl rhs = Max(Rational(23) * LogQ(prec, Rational(10 * m / delta)), FromQ(prec, Rational(2)));
  out.precondition = Decide(lhs, rhs);
  return out;
}

}  // namespace

Thm3Privacy Theorem3Privacy(const Thm3Params& params) {
  ValidatePrecision(params.precision_bits);
  ValidatePositiveInteger(params.n, "n");
  if (!(params.gamma > 0) || params.gamma > 1)
    throw InvalidArgument("gamma", "must lie in (0, 1], got " + ToExactString(params.gamma));
  ValidatePositiveInteger(params.m, "m");
  ValidateOpenUnit(params.delta, "delta");
  ValidatePositive(params.r, "r");
  if (!(params.n * params.gamma - 1 > 0))
    throw InvalidArgument("n", "n*gamma - 1 must be > 0 (the binomial part needs at least one LDP-FL "
                               "client besides client 1), got n*gamma = " + ToExactString(Rational(params.n * params.gamma)));
  const mpfr_prec_t prec = params.precision_bits;
  const Encl alpha = AlphaEnclosure(params.budget, prec);
  const Encl gamma = FromQ(prec, params.gamma);
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
  const Encl c_p = SqrtQ(prec, Rational(2)) * FromQ(prec, c_p_rational);
  const Encl l125 = LogQ(prec, Rational(Rational(5, 4) / params.delta));
  const Encl l10 = LogQ(prec, Rational(10 / params.delta));
  const Encl l20d = LogQ(prec, Rational(20 * params.d_dim / params.delta));
  const Encl one_minus = Rational(1) - FromQ(prec, Rational(params.delta / 10));
  std::array<Encl, 3> t = {
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
  const Encl rhs = Max(Rational(23) * LogQ(prec, Rational(10 * params.d_dim / params.delta)),
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
    throw InvalidArgument("delta1", "must lie in (0, delta), got " + ToExactString(params.delta1));
  ValidatePositive(params.r, "r");
  ValidatePositiveInteger(params.m, "m");
  const mpfr_prec_t prec = params.precision_bits;
  const Encl alpha = AlphaEnclosure(params.budget, prec);
  const Rational& p = params.p;
  const Rational& n = params.n;
  const Rational pq = p * (1 - p);
  const Rational chebyshev = (params.delta - params.delta1) * n;  // (δ − δ1) n
  const Rational var_e = pq * (1 - 2 * pq);
  const Encl alpha2 = alpha * alpha;
  const Encl r2a2 = Rational(params.r * params.r) * alpha2;
  const Encl pair_mse = Rational(params.r * params.r) * (alpha2 + Rational(2) * alpha - Rational(1));

  auto positive_or_throw = [](const Encl& x, const std::string& what) {
    if (CertainlyNonPositive(x))
      throw InvalidArgument("n", what + " <= 0: n is too small for these p, delta, delta1 (E31)");
    if (!CertainlyPositive(x)) throw Undecidable(what + " is too close to 0 to decide its sign");
  };

  Thm4Result out;
  out.alpha = ToInterval(alpha);
  out.moments = Theorem4Moments(p, n);
  {  // As printed.
    const Encl rad = SqrtQ(prec, Rational(var_e / (4 * chebyshev)));  // E26: the extra 4
    const Encl theta_rad = SqrtQ(prec, Rational(pq / chebyshev));
    const Encl gamma = FromQ(prec, pq) - rad;
    const Encl gamma_prime = FromQ(prec, pq) + rad;
    const Encl theta = FromQ(prec, pq) - theta_rad;  // E28: leading p(1−p)
    const Encl theta_prime = FromQ(prec, pq) + theta_rad;
    positive_or_throw(gamma, "gamma (as printed)");
    positive_or_throw(theta, "theta (as printed)");
    const Encl mse = gamma_prime * r2a2 / (n * theta) + Rational(8 * params.delta1) * r2a2 +
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
    const Encl rad = SqrtQ(prec, Rational(var_e / chebyshev));
    const Encl theta_rad = SqrtQ(prec, Rational(pq / chebyshev));
    const Encl gamma = FromQ(prec, pq) - rad;
    const Encl gamma_prime = FromQ(prec, pq) + rad;
    const Encl theta = FromQ(prec, Rational(1 - p)) - theta_rad;
    const Encl theta_prime = FromQ(prec, Rational(1 - p)) + theta_rad;
    positive_or_throw(gamma, "gamma (corrected)");
    positive_or_throw(theta, "theta (corrected)");
    const Encl mse = gamma_prime * r2a2 / (n * theta * theta) +
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
