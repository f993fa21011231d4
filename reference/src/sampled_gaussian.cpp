// dpfl::ref — RDP of the Sampled Gaussian Mechanism (see sampled_gaussian.hpp).
#include "dpfl/ref/sampled_gaussian.hpp"

#include <gmp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "dpfl/validate.hpp"

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
  Require("q", q, Domain::OpenClosed(0, 1), EchoValue);
  ValidatePositive(sigma, "sigma");
  if (!(order > 1)) throw InvalidArgument("order", "must be > 1, got " + EchoValue(order));
  if (order > 100000) throw InvalidArgument("order", "must be <= 1e5, got " + EchoValue(order));
}

// At most this many Euler steps (difference-table rows) per check.
constexpr unsigned long kMaxEuler = 128;

// The fractional-order two-series enclosure of A_α (0 < q < 1), with the tail of the combined
// alternating series enclosed by Euler's transformation (rigor argument in the header).
Enclosure LogAFractional(const Rational& q, const Rational& sigma, const Rational& alpha, const SgmOptions& options,
                         int* terms_used) {
  // Working precision: the result is only as tight as relative_tolerance, so the terms are
  // enclosed at min(precision, log2(1/tolerance) + 40) bits (MPFI encloses at any precision;
  // this only controls rounding widths, ≤ 2^−(log2(1/tol)+30) relative, far below the tolerance).
  const Rational& tol = options.relative_tolerance;
  long tol_bits = 0;
  if (tol > 0 && tol < 1) {
    const Int num = boost::multiprecision::numerator(tol), den = boost::multiprecision::denominator(tol);
    tol_bits = static_cast<long>(boost::multiprecision::msb(den)) - static_cast<long>(boost::multiprecision::msb(num)) + 1;
  }
  const mpfr_prec_t prec = tol > 0 ? std::min<mpfr_prec_t>(options.precision_bits, std::max(64L, tol_bits + 40))
                                   : options.precision_bits;
  const Rational two_s2 = 2 * sigma * sigma;
  const Enclosure log_q = LogQ(prec, q);
  const Enclosure log_1mq = LogQ(prec, Rational(1 - q));
  const Enclosure z0 = Rational(sigma * sigma) * (log_1mq - log_q) + Rational(1, 2);  // σ² ln(1/q − 1) + 1/2
  // a_i = |C(α, i)| (m_i + m'_i): the i-th terms of both series without the coefficient's sign.
  auto term = [&](unsigned long i, const Enclosure& abs_coef) {
    const Rational ri(static_cast<long>(i));
    const Rational j = alpha - ri;
    const Enclosure t0 = Exp(ri * log_q + j * log_1mq + Rational((ri * ri - ri) / two_s2)) *
                         NormalCdf((z0 - ri) / sigma);
    const Enclosure t1 = Exp(j * log_q + ri * log_1mq + Rational((j * j - j) / two_s2)) *
                         NormalCdf((j - z0) / sigma);
    return abs_coef * (t0 + t1);
  };
  // Sign of C(α, i) = Π_{k<i} (α − k)/(k + 1): the factor α − k is negative iff k ≥ i0 = ⌊α⌋ + 1
  // (α is not an integer), so C(α, i) < 0 iff i − i0 is odd and positive.
  const unsigned long i0 = static_cast<unsigned long>(FloorInt(alpha)) + 1;
  auto negative = [&](unsigned long i) { return i > i0 && ((i - i0) % 2) == 1; };
  const unsigned long max_terms = std::max(static_cast<unsigned long>(options.max_terms), i0 + 2);
  std::vector<Enclosure> a;
  a.reserve(max_terms);
  Enclosure abs_coef(prec, 1L);
  std::vector<std::vector<Enclosure>> rows;
  while (true) {
    const unsigned long i = a.size();
    a.push_back(term(i, abs_coef));
    abs_coef = abs_coef * Rational(Abs(Rational(alpha - static_cast<long>(i))) / static_cast<long>(i + 1));
    const unsigned long m = a.size();  // terms a_0 … a_{m−1}
    const bool last = m >= max_terms;
    if (m < i0 + 2 || (!last && (m - i0) % (m - i0 > 256 ? 32 : 4) != 2)) continue;
    // Difference table over a_{lo} … a_{m−1} (lo = max(i0, m − 1 − kMaxEuler)):
    // rows[k][n − lo] = D_k(n) = Σ_l C(k,l)(−1)^l a_{n+l}. Every split n ∈ [lo, m−1] with
    // K = m−1−n Euler steps gives a rigorous enclosure; we keep the one with the smallest
    // remainder bound D_K(n)/2^K (the choice uses doubles, the enclosure does not). K = 0 is the
    // plain alternating-series bound a_n.
    const unsigned long lo = std::max(i0, m - 1 > kMaxEuler ? m - 1 - kMaxEuler : 0UL);
    rows.assign(1, std::vector<Enclosure>(a.begin() + static_cast<long>(lo), a.end()));
    for (unsigned long k = 1; k < m - lo; ++k) {
      const std::vector<Enclosure>& prev = rows.back();
      std::vector<Enclosure> next;
      next.reserve(prev.size() - 1);
      for (size_t l = 0; l + 1 < prev.size(); ++l) next.push_back(prev[l] - prev[l + 1]);
      rows.push_back(std::move(next));
    }
    unsigned long n = m - 1;
    double best = std::numeric_limits<double>::infinity();
    for (unsigned long cand = lo; cand < m; ++cand) {
      const unsigned long k = m - 1 - cand;
      const double b = std::ldexp(rows[k][cand - lo].HiDouble(), -static_cast<int>(k));
      if (b < best) best = b, n = cand;
    }
    const unsigned long K = m - 1 - n;
    Enclosure head(prec, 0L);
    for (unsigned long k = 0; k < n; ++k) head = negative(k) ? head - a[k] : head + a[k];
    Enclosure euler(prec, 0L);
    Rational scale(1, 2);  // 2^{−(k+1)}
    for (unsigned long k = 0; k < K; ++k) {
      euler = euler + rows[k][n - lo] * scale;
      scale /= 2;
    }
    // 0 ≤ remainder ≤ D_K(n)/2^K (scale = 2^{−(K+1)} now).
    const Enclosure bound = Hull(Enclosure(prec, 0L), rows[K][n - lo] * Rational(2 * scale));
    const Enclosure tail = euler + bound;
    const Enclosure sum = negative(n) ? head - tail : head + tail;
    if (last || CertainlyLess(bound, options.relative_tolerance * sum)) {
      if (terms_used != nullptr) *terms_used = static_cast<int>(m);
      return Log(sum);
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
