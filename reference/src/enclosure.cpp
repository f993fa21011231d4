// dpfl::ref — Enclosure (see enclosure.hpp for the rigor argument of every function).
#include "dpfl/ref/enclosure.hpp"

#include <gmp.h>

#include <cmath>
#include <utility>

#include "dpfl/validate.hpp"

namespace dpfl::ref {
namespace {

// RAII scratch MPFR number.
class Scratch {
 public:
  explicit Scratch(mpfr_prec_t prec) { mpfr_init2(f_, prec); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() { mpfr_clear(f_); }
  mpfr_ptr get() { return f_; }

 private:
  mpfr_t f_;
};

mpfr_prec_t MaxPrec(const Enclosure& a, const Enclosure& b) { return a.prec() > b.prec() ? a.prec() : b.prec(); }

}  // namespace

Enclosure::Enclosure(mpfr_prec_t prec, const Rational& q) {
  mpfi_init2(v_, prec);
  mpfi_set_q(v_, q.backend().data());
}
Enclosure::Enclosure(mpfr_prec_t prec, long v) {
  mpfi_init2(v_, prec);
  mpfi_set_si(v_, v);
}
Enclosure::Enclosure(const Enclosure& o) {
  mpfi_init2(v_, mpfi_get_prec(o.v_));
  mpfi_set(v_, o.v_);
}
Enclosure::Enclosure(Enclosure&& o) noexcept {
  mpfi_init2(v_, mpfi_get_prec(o.v_));
  mpfi_swap(v_, o.v_);
}
Enclosure& Enclosure::operator=(const Enclosure& o) {
  if (this != &o) {
    mpfi_set_prec(v_, mpfi_get_prec(o.v_));
    mpfi_set(v_, o.v_);
  }
  return *this;
}
Enclosure& Enclosure::operator=(Enclosure&& o) noexcept {
  if (this != &o) mpfi_swap(v_, o.v_);
  return *this;
}
Enclosure::~Enclosure() { mpfi_clear(v_); }

double Enclosure::LoDouble() const {
  Scratch lo(prec());
  mpfi_get_left(lo.get(), v_);
  return mpfr_get_d(lo.get(), MPFR_RNDD);
}
double Enclosure::HiDouble() const {
  Scratch hi(prec());
  mpfi_get_right(hi.get(), v_);
  return mpfr_get_d(hi.get(), MPFR_RNDU);
}
double Enclosure::MidDouble() const { return mpfi_get_d(v_); }
double Enclosure::WidthDouble() const {
  Scratch w(prec());
  mpfi_diam_abs(w.get(), v_);  // rounded up by MPFI
  return mpfr_get_d(w.get(), MPFR_RNDU);
}

Enclosure Enclosure::operator-() const {
  Enclosure out(prec());
  mpfi_neg(out.v_, v_);
  return out;
}
Enclosure& Enclosure::operator+=(const Enclosure& b) {
  mpfi_add(v_, v_, b.v_);
  return *this;
}
Enclosure& Enclosure::operator*=(const Enclosure& b) {
  mpfi_mul(v_, v_, b.v_);
  return *this;
}

Enclosure operator+(const Enclosure& a, const Enclosure& b) {
  Enclosure out = Enclosure::Uninitialized(a.prec());
  mpfi_add(out.get(), a.get(), b.get());
  return out;
}
Enclosure operator-(const Enclosure& a, const Enclosure& b) {
  Enclosure out = Enclosure::Uninitialized(a.prec());
  mpfi_sub(out.get(), a.get(), b.get());
  return out;
}
Enclosure operator*(const Enclosure& a, const Enclosure& b) {
  Enclosure out = Enclosure::Uninitialized(a.prec());
  mpfi_mul(out.get(), a.get(), b.get());
  return out;
}
Enclosure operator/(const Enclosure& a, const Enclosure& b) {
  if (mpfi_has_zero(b.get()) > 0)
    throw Undecidable("an enclosure used as a divisor contains 0; increase the precision");
  Enclosure out = Enclosure::Uninitialized(a.prec());
  mpfi_div(out.get(), a.get(), b.get());
  return out;
}
Enclosure operator+(const Enclosure& a, const Rational& b) { return a + Enclosure(a.prec(), b); }
Enclosure operator+(const Rational& a, const Enclosure& b) { return Enclosure(b.prec(), a) + b; }
Enclosure operator-(const Enclosure& a, const Rational& b) { return a - Enclosure(a.prec(), b); }
Enclosure operator-(const Rational& a, const Enclosure& b) { return Enclosure(b.prec(), a) - b; }
Enclosure operator*(const Enclosure& a, const Rational& b) { return a * Enclosure(a.prec(), b); }
Enclosure operator*(const Rational& a, const Enclosure& b) { return Enclosure(b.prec(), a) * b; }
Enclosure operator/(const Enclosure& a, const Rational& b) { return a / Enclosure(a.prec(), b); }
Enclosure operator/(const Rational& a, const Enclosure& b) { return Enclosure(b.prec(), a) / b; }

// ---- sign tests ----------------------------------------------------------------------------

bool CertainlyPositive(const Enclosure& x) {
  Scratch lo(x.prec());
  mpfi_get_left(lo.get(), x.get());
  return mpfr_sgn(lo.get()) > 0 && mpfi_nan_p(x.get()) == 0;
}
bool CertainlyNonNegative(const Enclosure& x) {
  Scratch lo(x.prec());
  mpfi_get_left(lo.get(), x.get());
  return mpfr_sgn(lo.get()) >= 0 && mpfi_nan_p(x.get()) == 0;
}
bool CertainlyNegative(const Enclosure& x) {
  Scratch hi(x.prec());
  mpfi_get_right(hi.get(), x.get());
  return mpfr_sgn(hi.get()) < 0 && mpfi_nan_p(x.get()) == 0;
}
bool CertainlyNonPositive(const Enclosure& x) {
  Scratch hi(x.prec());
  mpfi_get_right(hi.get(), x.get());
  return mpfr_sgn(hi.get()) <= 0 && mpfi_nan_p(x.get()) == 0;
}
bool CertainlyLess(const Enclosure& a, const Enclosure& b) {
  if (mpfi_nan_p(a.get()) != 0 || mpfi_nan_p(b.get()) != 0) return false;
  Scratch ahi(a.prec());
  Scratch blo(b.prec());
  mpfi_get_right(ahi.get(), a.get());
  mpfi_get_left(blo.get(), b.get());
  return mpfr_less_p(ahi.get(), blo.get()) != 0;
}
bool Contains(const Enclosure& x, const Rational& q) { return ToInterval(x).Contains(q); }

// ---- elementary functions ------------------------------------------------------------------

Enclosure Sqr(const Enclosure& x) {
  Enclosure out = Enclosure::Uninitialized(x.prec());
  mpfi_sqr(out.get(), x.get());
  return out;
}
Enclosure Sqrt(const Enclosure& x) {
  if (!CertainlyNonNegative(x)) throw Undecidable("square root of an enclosure that is not certainly >= 0");
  Enclosure out = Enclosure::Uninitialized(x.prec());
  mpfi_sqrt(out.get(), x.get());
  return out;
}
Enclosure Log(const Enclosure& x) {
  if (!CertainlyPositive(x)) throw Undecidable("logarithm of an enclosure that is not certainly > 0");
  Enclosure out = Enclosure::Uninitialized(x.prec());
  mpfi_log(out.get(), x.get());
  return out;
}
Enclosure Exp(const Enclosure& x) {
  Enclosure out = Enclosure::Uninitialized(x.prec());
  mpfi_exp(out.get(), x.get());
  return out;
}
Enclosure Expm1(const Enclosure& x) {
  Enclosure out = Enclosure::Uninitialized(x.prec());
  mpfi_expm1(out.get(), x.get());
  return out;
}
Enclosure Log1p(const Enclosure& x) {
  if (!CertainlyPositive(x + Rational(1)))
    throw Undecidable("log1p of an enclosure that is not certainly > -1");
  Enclosure out = Enclosure::Uninitialized(x.prec());
  mpfi_log1p(out.get(), x.get());
  return out;
}
Enclosure Abs(const Enclosure& x) {
  Enclosure out = Enclosure::Uninitialized(x.prec());
  mpfi_abs(out.get(), x.get());
  return out;
}
Enclosure Pow(const Enclosure& x, long n) {
  const bool negative = n < 0;
  unsigned long e = negative ? static_cast<unsigned long>(-(n + 1)) + 1UL : static_cast<unsigned long>(n);
  Enclosure result(x.prec(), 1L);
  Enclosure base = x;
  bool first = true;
  while (e > 0) {
    if ((e & 1UL) != 0) {
      if (first) {
        result = base;
        first = false;
      } else {
        result *= base;
      }
    }
    e >>= 1;
    if (e > 0) base = Sqr(base);
  }
  if (negative) return Rational(1) / result;
  return result;
}
Enclosure Pow(const Enclosure& x, const Enclosure& y) {
  if (!CertainlyPositive(x)) throw Undecidable("real power of a base that is not certainly > 0");
  return Exp(y * Log(x));
}

namespace {
// out = [f_lo(a.lo, b.lo), f_hi(a.hi, b.hi)] with exact endpoint copies.
template <class F>
Enclosure EndpointwiseMonotone(const Enclosure& a, const Enclosure& b, F&& f) {
  const mpfr_prec_t prec = MaxPrec(a, b);
  Scratch alo(prec), ahi(prec), blo(prec), bhi(prec);
  mpfi_get_left(alo.get(), a.get());
  mpfi_get_right(ahi.get(), a.get());
  mpfi_get_left(blo.get(), b.get());
  mpfi_get_right(bhi.get(), b.get());
  f(alo.get(), blo.get(), ahi.get(), bhi.get());  // writes the new lo into alo, hi into ahi
  Enclosure out = Enclosure::Uninitialized(prec);
  mpfi_interv_fr(out.get(), alo.get(), ahi.get());
  return out;
}
}  // namespace

Enclosure Max(const Enclosure& a, const Enclosure& b) {
  return EndpointwiseMonotone(a, b, [](mpfr_ptr alo, mpfr_ptr blo, mpfr_ptr ahi, mpfr_ptr bhi) {
    mpfr_max(alo, alo, blo, MPFR_RNDD);  // exact: operands already have ≤ prec bits
    mpfr_max(ahi, ahi, bhi, MPFR_RNDU);
  });
}
Enclosure Min(const Enclosure& a, const Enclosure& b) {
  return EndpointwiseMonotone(a, b, [](mpfr_ptr alo, mpfr_ptr blo, mpfr_ptr ahi, mpfr_ptr bhi) {
    mpfr_min(alo, alo, blo, MPFR_RNDD);
    mpfr_min(ahi, ahi, bhi, MPFR_RNDU);
  });
}
Enclosure Hull(const Enclosure& a, const Enclosure& b) {
  return EndpointwiseMonotone(a, b, [](mpfr_ptr alo, mpfr_ptr blo, mpfr_ptr ahi, mpfr_ptr bhi) {
    mpfr_min(alo, alo, blo, MPFR_RNDD);
    mpfr_max(ahi, ahi, bhi, MPFR_RNDU);
  });
}

namespace {

// erfc at one exact point v (as a point enclosure). For v ≥ 6, MPFR's erfc is slow (milliseconds
// at 256 bits around v ≈ 30), so we use the Laplace continued fraction of the Mills ratio
//   R(y) = Φ̄(y)/φ(y) = 1/(y + 1/(y + 2/(y + 3/(y + …)))),  y = √2 v > 0,
// whose partial numerators are positive: consecutive convergents lie on opposite sides of R(y)
// (S-fraction), so the hull of two consecutive convergents, each evaluated backwards in interval
// arithmetic, encloses R(y). Then erfc(v) = 2 φ(y) R(y) = 2 e^{−v²} R(√2 v)/√(2π).
Enclosure ErfcPoint(mpfr_srcptr v, mpfr_prec_t prec) {
  Enclosure out = Enclosure::Uninitialized(prec);
  if (mpfr_cmp_si(v, 6) < 0 || mpfr_inf_p(v) != 0) {
    Scratch lo(prec), hi(prec);
    mpfr_erfc(lo.get(), v, MPFR_RNDD);
    mpfr_erfc(hi.get(), v, MPFR_RNDU);
    mpfi_interv_fr(out.get(), lo.get(), hi.get());
    return out;
  }
  Enclosure x = Enclosure::Uninitialized(prec);
  mpfi_set_fr(x.get(), v);
  const Enclosure y = x * Sqrt2(prec);
  auto convergent = [&](long n) {
    Enclosure t = y;
    for (long k = n; k >= 1; --k) t = y + Enclosure(prec, k) / t;
    return Enclosure(prec, 1L) / t;
  };
  const Enclosure scale = Rational(2) * Exp(-Sqr(x)) / Sqrt(Rational(2) * Pi(prec));
  for (long n = 16;; n *= 2) {
    const Enclosure r = Hull(convergent(n), convergent(n + 1));
    // Stop when the relative width is at the working precision (or after 2^17 terms).
    if (r.WidthDouble() <= std::ldexp(r.MidDouble(), 8 - static_cast<int>(prec)) || n >= (1L << 17))
      return scale * r;
  }
}

}  // namespace

Enclosure Erfc(const Enclosure& x) {
  if (mpfi_nan_p(x.get()) != 0) throw Undecidable("erfc of a NaN enclosure");
  const mpfr_prec_t prec = x.prec();
  Scratch lo(prec), hi(prec);
  mpfi_get_left(lo.get(), x.get());
  mpfi_get_right(hi.get(), x.get());
  // erfc is decreasing: the image of [lo, hi] is [erfc(hi), erfc(lo)].
  const Enclosure at_hi = ErfcPoint(hi.get(), prec);
  const Enclosure at_lo = ErfcPoint(lo.get(), prec);
  Scratch out_lo(prec), out_hi(prec);
  mpfi_get_left(out_lo.get(), at_hi.get());
  mpfi_get_right(out_hi.get(), at_lo.get());
  Enclosure out = Enclosure::Uninitialized(prec);
  mpfi_interv_fr(out.get(), out_lo.get(), out_hi.get());
  return out;
}
Enclosure Pi(mpfr_prec_t prec) {
  Enclosure out = Enclosure::Uninitialized(prec);
  mpfi_const_pi(out.get());
  return out;
}
Enclosure Sqrt2(mpfr_prec_t prec) { return Sqrt(Enclosure(prec, 2L)); }
Enclosure NormalCdf(const Enclosure& x) {
  return Erfc(-x / Sqrt2(x.prec())) / Rational(2);
}
Enclosure NormalPdf(const Enclosure& x) {
  const mpfr_prec_t prec = x.prec();
  return Exp(-Sqr(x) / Rational(2)) / Sqrt(Rational(2) * Pi(prec));
}

Enclosure LogBinomial(mpfr_prec_t prec, unsigned long n, unsigned long k) {
  if (k > n) throw InvalidArgument("k", "must satisfy 0 <= k <= n, got k = " + std::to_string(k) +
                                            ", n = " + std::to_string(n));
  Int c;
  mpz_bin_uiui(c.backend().data(), n, k);
  return Log(Enclosure(prec, Rational(c)));
}
Enclosure BinomialCoefficient(const Enclosure& a, unsigned long k) {
  Enclosure out(a.prec(), 1L);
  for (unsigned long j = 0; j < k; ++j)
    out = out * (a - Rational(static_cast<long>(j))) / Rational(static_cast<long>(j + 1));
  return out;
}

// ---- conversions and decisions -------------------------------------------------------------

Rational MpfrExactRational(mpfr_srcptr f) {
  Rational q;
  mpfr_get_q(q.backend().data(), f);  // exact: an MPFR number is a dyadic rational
  return q;
}

Interval ToInterval(const Enclosure& x) {
  if (mpfi_nan_p(x.get()) != 0 || mpfi_bounded_p(x.get()) == 0)
    throw Undecidable("an enclosure is NaN or unbounded; check the inputs or increase the precision");
  Scratch lo(x.prec()), hi(x.prec());
  mpfi_get_left(lo.get(), x.get());
  mpfi_get_right(hi.get(), x.get());
  return Interval(MpfrExactRational(lo.get()), MpfrExactRational(hi.get()));
}

bool DecideGreaterEqual(const Enclosure& lhs, const Enclosure& rhs) {
  const Interval l = ToInterval(lhs);
  const Interval r = ToInterval(rhs);
  if (l.lo() >= r.hi()) return true;
  if (l.hi() < r.lo()) return false;
  throw Undecidable("comparison: the enclosures of both sides overlap; increase the precision");
}

// ---- validation ----------------------------------------------------------------------------

void ValidatePrecision(int bits) {
  if (bits < 32 || bits > 100000)
    throw InvalidArgument("precision", "must be in [32, 100000] bits, got " + std::to_string(bits));
}
bool IsInteger(const Rational& x) { return boost::multiprecision::denominator(x) == 1; }
void ValidatePositiveInteger(const Rational& x, const std::string& name) {
  if (!IsInteger(x) || x < 1) throw InvalidArgument(name, "must be an integer >= 1, got " + EchoValue(x));
}
void ValidateOpenUnit(const Rational& x, const std::string& name) { Require(name, x, Domain::OpenUnit(), EchoValue); }
void ValidatePositive(const Rational& x, const std::string& name) { Require(name, x, Domain::Positive(), EchoValue); }
void ValidateNonNegative(const Rational& x, const std::string& name) {
  Require(name, x, Domain::NonNegative(), EchoValue);
}


bool NarrowEnough(const Enclosure& e, int p) {
  mpfr_t d;
  mpfr_init2(d, 64);
  mpfi_diam(d, e.get());  // rounded up: a rigorous upper bound on the width
  const bool ok = mpfr_number_p(d) != 0 && mpfr_cmp_si_2exp(d, 1, -p) <= 0;
  mpfr_clear(d);
  return ok;
}

}  // namespace dpfl::ref
