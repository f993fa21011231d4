// dpfl::ref — RDP of the Sampled Gaussian Mechanism (see sampled_gaussian.hpp).
#include "dpfl/ref/sampled_gaussian.hpp"

#include <gmp.h>

namespace dpfl::ref {
namespace {

Rational PowQ(const Rational& x, unsigned long n) {
  Rational out(1);
  Rational base = x;
  while (n > 0) {
    if ((n & 1UL) != 0) out *= base;
    n >>= 1;
    if (n > 0) base *= base;
  }
  return out;
}

void Validate(const Rational& q, const Rational& sigma, const Rational& order, int precision_bits) {
  ValidatePrecision(precision_bits);
  if (!(q > 0) || q > 1) throw InvalidArgument("q", "must lie in (0, 1], got " + ToExactString(q));
  ValidatePositive(sigma, "sigma");
  if (!(order > 1)) throw InvalidArgument("order", "must be > 1, got " + ToExactString(order));
  if (order > 100000) throw InvalidArgument("order", "must be <= 1e5, got " + ToExactString(order));
}

// The fractional-order two-series enclosure of A_α (0 < q < 1).
Enclosure LogAFractional(const Rational& q, const Rational& sigma, const Rational& alpha, const SgmOptions& options,
                         int* terms_used) {
  const mpfr_prec_t prec = options.precision_bits;
  const Rational two_s2 = 2 * sigma * sigma;
  const Enclosure log_q = LogQ(prec, q);
  const Enclosure log_1mq = LogQ(prec, Rational(1 - q));
  const Enclosure z0 = Rational(sigma * sigma) * (log_1mq - log_q) + Rational(1, 2);  // σ² ln(1/q − 1) + 1/2
  // The i-th terms (without the sign of the coefficient, which is applied by the caller).
  auto terms = [&](unsigned long i, const Enclosure& abs_coef) {
    const Rational ri(static_cast<long>(i));
    const Rational j = alpha - ri;
    const Enclosure t0 = abs_coef * Exp(ri * log_q + j * log_1mq + Rational((ri * ri - ri) / two_s2)) *
                         NormalCdf((z0 - ri) / sigma);
    const Enclosure t1 = abs_coef * Exp(j * log_q + ri * log_1mq + Rational((j * j - j) / two_s2)) *
                         NormalCdf((j - z0) / sigma);
    return t0 + t1;
  };
  // |C(α, i)| as an enclosure (exact rational factors |α − j|/(j + 1)); its sign is exact:
  // C(α, i) < 0 iff an odd number of the factors α − j (j < i) are negative, i.e. iff
  // i − ⌊α⌋ − 1 is odd and positive (α is not an integer here).
  const Int floor_alpha = FloorInt(alpha);
  auto negative = [&](unsigned long i) {
    const Int neg = Int(static_cast<long>(i)) - floor_alpha - 1;
    return neg > 0 && (neg % 2) == 1;
  };
  Enclosure sum(prec, 0L);
  Enclosure abs_coef(prec, 1L);
  unsigned long i = 0;
  const unsigned long max_terms = static_cast<unsigned long>(options.max_terms);
  while (true) {
    const Enclosure t = terms(i, abs_coef);
    sum = negative(i) ? sum - t : sum + t;
    abs_coef = abs_coef * Rational(Abs(Rational(alpha - static_cast<long>(i))) / static_cast<long>(i + 1));
    ++i;
    if (Rational(static_cast<long>(i)) > alpha) {  // i = N + 1 > α: the remainder bound applies
      const Enclosure bound = terms(i, abs_coef);
      const bool small = CertainlyLess(bound, options.relative_tolerance * sum);
      if (small || i >= max_terms) {
        if (terms_used != nullptr) *terms_used = static_cast<int>(i);
        const Enclosure other = negative(i) ? sum - bound : sum + bound;
        return Log(Hull(sum, other));
      }
    }
  }
}

}  // namespace

Enclosure SampledGaussianLogAInteger(const Rational& q, const Rational& sigma, unsigned long order, mpfr_prec_t prec) {
  const Rational two_s2 = 2 * sigma * sigma;
  const Rational one_minus_q = 1 - q;
  Enclosure sum(prec, 0L);
  for (unsigned long k = 0; k <= order; ++k) {
    Int binom;
    mpz_bin_uiui(binom.backend().data(), order, k);
    const Rational coef = Rational(binom) * PowQ(one_minus_q, order - k) * PowQ(q, k);
    if (coef == 0) continue;
    const Rational rk(static_cast<long>(k));
    sum = sum + coef * ExpQ(prec, Rational((rk * rk - rk) / two_s2));
  }
  return Log(sum);
}

Enclosure SampledGaussianRdpEnclosure(const Rational& q, const Rational& sigma, const Rational& order,
                                      const SgmOptions& options, int* terms_used) {
  Validate(q, sigma, order, options.precision_bits);
  const mpfr_prec_t prec = options.precision_bits;
  if (terms_used != nullptr) *terms_used = 0;
  if (q == 1) return Enclosure(prec, Rational(order / (2 * sigma * sigma)));  // the Gaussian mechanism
  if (IsInteger(order)) {
    const unsigned long a = static_cast<unsigned long>(boost::multiprecision::numerator(order));
    return SampledGaussianLogAInteger(q, sigma, a, prec) / Rational(order - 1);
  }
  return LogAFractional(q, sigma, order, options, terms_used) / Rational(order - 1);
}

SgmRdp SampledGaussianRdp(const Rational& q, const Rational& sigma, const Rational& order, const SgmOptions& options) {
  SgmRdp out;
  out.value = ToInterval(SampledGaussianRdpEnclosure(q, sigma, order, options, &out.terms));
  out.integer_order = IsInteger(order) || q == 1;
  return out;
}

}  // namespace dpfl::ref
