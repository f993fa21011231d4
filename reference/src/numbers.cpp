// dpfl::ref — exact numbers: parsing, printing, rational-endpoint intervals.
#include "dpfl/ref/numbers.hpp"

#include <mpfr.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>
#include <string>

namespace dpfl::ref {

Int FloorInt(const Rational& x) {
  Int q;
  mpz_fdiv_q(q.backend().data(), mpq_numref(x.backend().data()), mpq_denref(x.backend().data()));
  return q;
}

Rational Pow2(int k) {
  Int one(1);
  if (k >= 0) return Rational(Int(one << k));
  return Rational(Int(1), Int(one << (-k)));
}

namespace {

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char ch) {
    return std::isdigit(static_cast<unsigned char>(ch)) != 0;
  });
}

// GMP reads a leading 0 as an octal prefix; decimal digits must not be.
Int DecimalDigitsToInt(std::string_view digits) {
  size_t first = digits.find_first_not_of('0');
  if (first == std::string_view::npos) return Int(0);
  return Int(std::string(digits.substr(first)));
}

[[noreturn]] void Malformed(std::string_view text, const std::string& argument) {
  throw InvalidArgument(argument, "malformed number '" + std::string(text) +
                                      "' (expected an integer, a decimal such as 0.1 or "
                                      "1e-6, or a fraction p/q)");
}

// Parses [+-]digits[.digits][(e|E)[+-]digits] exactly.
Rational ParseDecimal(std::string_view s, std::string_view whole, const std::string& argument) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  long exponent = 0;
  if (auto e = s.find_first_of("eE"); e != std::string_view::npos) {
    std::string_view exp_text = s.substr(e + 1);
    s = s.substr(0, e);
    bool exp_negative = false;
    if (!exp_text.empty() && (exp_text[0] == '+' || exp_text[0] == '-')) {
      exp_negative = exp_text[0] == '-';
      exp_text.remove_prefix(1);
    }
    if (!AllDigits(exp_text) || exp_text.size() > 6) Malformed(whole, argument);
    exponent = std::stol(std::string(exp_text));
    if (exp_negative) exponent = -exponent;
  }
  std::string digits;
  if (auto dot = s.find('.'); dot != std::string_view::npos) {
    std::string_view int_part = s.substr(0, dot), frac_part = s.substr(dot + 1);
    if (int_part.empty() && frac_part.empty()) Malformed(whole, argument);
    if ((!int_part.empty() && !AllDigits(int_part)) || (!frac_part.empty() && !AllDigits(frac_part)))
      Malformed(whole, argument);
    digits = std::string(int_part) + std::string(frac_part);
    exponent -= static_cast<long>(frac_part.size());
  } else {
    if (!AllDigits(s)) Malformed(whole, argument);
    digits = std::string(s);
  }
  if (digits.size() > 100000 || exponent > 100000 || exponent < -100000)
    throw InvalidArgument(argument, "number '" + std::string(whole) + "' is too large to handle");
  Int mantissa = DecimalDigitsToInt(digits);
  Int ten_pow = boost::multiprecision::pow(Int(10), static_cast<unsigned>(exponent < 0 ? -exponent : exponent));
  Rational value = exponent >= 0 ? Rational(Int(mantissa * ten_pow)) : Rational(mantissa, ten_pow);
  return negative ? Rational(-value) : value;
}

}  // namespace

Rational ParseRational(std::string_view text, const std::string& argument) {
  if (text.empty()) Malformed(text, argument);
  if (auto slash = text.find('/'); slash != std::string_view::npos) {
    std::string_view p = text.substr(0, slash), q = text.substr(slash + 1);
    std::string_view p_digits = (!p.empty() && (p[0] == '-' || p[0] == '+')) ? p.substr(1) : p;
    if (!AllDigits(p_digits) || !AllDigits(q) || p_digits.size() > 100000 || q.size() > 100000)
      Malformed(text, argument);
    Int num = DecimalDigitsToInt(p_digits), den = DecimalDigitsToInt(q);
    if (den == 0)
      throw InvalidArgument(argument, "fraction '" + std::string(text) + "' has a zero denominator");
    Rational value(num, den);
    return (p[0] == '-') ? Rational(-value) : value;
  }
  return ParseDecimal(text, text, argument);
}

int ParseInt(std::string_view text, const std::string& argument) {
  std::string_view digits = text;
  bool negative = false;
  if (!digits.empty() && digits[0] == '-') {
    negative = true;
    digits.remove_prefix(1);
  }
  if (!AllDigits(digits) || digits.size() > 9)
    throw InvalidArgument(argument, "expected an integer, got '" + std::string(text) + "'");
  int v = std::stoi(std::string(digits));
  return negative ? -v : v;
}

std::string ToExactString(const Rational& x) {
  if (boost::multiprecision::denominator(x) == 1) return boost::multiprecision::numerator(x).str();
  return boost::multiprecision::numerator(x).str() + "/" + boost::multiprecision::denominator(x).str();
}

namespace {

// Decimal exponent e with 10^e ≤ |x| < 10^(e+1), for x ≠ 0.
long DecimalExponent(const Rational& ax) {
  // Start from the digit counts of numerator and denominator, then correct by ±1.
  long e = static_cast<long>(boost::multiprecision::numerator(ax).str().size()) -
           static_cast<long>(boost::multiprecision::denominator(ax).str().size());
  auto pow10 = [](long k) {
    Int p = boost::multiprecision::pow(Int(10), static_cast<unsigned>(k < 0 ? -k : k));
    return k >= 0 ? Rational(p) : Rational(Int(1), p);
  };
  while (pow10(e) > ax) --e;
  while (pow10(e + 1) <= ax) ++e;
  return e;
}

Rational Pow10(long k) {
  Int p = boost::multiprecision::pow(Int(10), static_cast<unsigned>(k < 0 ? -k : k));
  return k >= 0 ? Rational(p) : Rational(Int(1), p);
}

}  // namespace

std::string ToDecimalString(const Rational& x, int significant_digits) {
  if (significant_digits < 1) throw InvalidArgument("significant_digits", "must be ≥ 1");
  if (x == 0) return "0";
  const bool negative = x < 0;
  const Rational ax = Abs(x);
  long e = DecimalExponent(ax);
  // Scale so that the integer part has `significant_digits` digits, round half to even.
  Rational scaled = ax * Pow10(significant_digits - 1 - e);
  Int n = FloorInt(scaled);
  Rational frac = scaled - Rational(n);
  if (frac > Rational(1, 2) || (frac == Rational(1, 2) && (n % 2) != 0)) n += 1;
  std::string digits = n.str();
  if (static_cast<int>(digits.size()) > significant_digits) {  // rounded up to 10^k
    ++e;
    digits.pop_back();
  }
  // Strip trailing zeros (they carry no information; the error bound says what is exact).
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::string out = negative ? "-" : "";
  if (e >= -6 && e <= 20) {
    if (e >= 0) {
      if (static_cast<long>(digits.size()) <= e + 1) {
        out += digits + std::string(static_cast<size_t>(e + 1 - static_cast<long>(digits.size())), '0');
      } else {
        out += digits.substr(0, static_cast<size_t>(e + 1)) + "." + digits.substr(static_cast<size_t>(e + 1));
      }
    } else {
      out += "0." + std::string(static_cast<size_t>(-e - 1), '0') + digits;
    }
  } else {
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    out += "e" + std::to_string(e);
  }
  return out;
}

Rational DecimalRoundingBound(const Rational& x, int significant_digits) {
  if (x == 0) return Rational(0);
  long e = DecimalExponent(Abs(x));
  // Half a unit in the last place; +1 on the exponent covers a round-up to 10^(e+1).
  return Pow10(e + 1 - significant_digits) / 2;
}

Interval::Interval(const Rational& lo, const Rational& hi) : lo_(lo), hi_(hi) {
  if (lo > hi) throw InvalidArgument("Interval", "lower endpoint exceeds upper endpoint");
}

Interval operator+(const Interval& a, const Interval& b) {
  return Interval(Rational(a.lo_ + b.lo_), Rational(a.hi_ + b.hi_));
}
Interval operator-(const Interval& a, const Interval& b) {
  return Interval(Rational(a.lo_ - b.hi_), Rational(a.hi_ - b.lo_));
}
Interval operator*(const Interval& a, const Interval& b) {
  if (a.IsPoint() && b.IsPoint()) return Interval(Rational(a.lo_ * b.lo_));
  std::array<Rational, 4> p = {a.lo_ * b.lo_, a.lo_ * b.hi_, a.hi_ * b.lo_, a.hi_ * b.hi_};
  return Interval(*std::min_element(p.begin(), p.end()), *std::max_element(p.begin(), p.end()));
}
Interval operator/(const Interval& a, const Interval& b) {
  if (b.IsPoint() && b.lo_ == 0) throw InvalidArgument("Interval", "division by zero");
  if (b.lo_ <= 0 && b.hi_ >= 0)
    throw Undecidable("divisor enclosure contains 0; increase the precision");
  Interval inv(Rational(1 / b.hi_), Rational(1 / b.lo_));
  return a * inv;
}
bool operator<(const Interval& a, const Interval& b) {
  if (a.hi_ < b.lo_) return true;
  if (a.lo_ >= b.hi_) return false;
  throw Undecidable("comparison of overlapping enclosures; increase the precision");
}
bool operator<=(const Interval& a, const Interval& b) {
  if (a.hi_ <= b.lo_) return true;
  if (a.lo_ > b.hi_) return false;
  throw Undecidable("comparison of overlapping enclosures; increase the precision");
}

Int FloorInt(const Interval& x) {
  Int lo = FloorInt(x.lo()), hi = FloorInt(x.hi());
  if (lo != hi)
    throw Undecidable("the enclosure " + ToDecimalString(x.Mid(), 12) +
                      " ± " + ToDecimalString(x.Radius(), 3) +
                      " straddles an integer, so a cell index is undecidable at this precision; "
                      "increase --precision or give E exactly");
  return lo;
}
Interval Abs(const Interval& x) {
  if (x.lo() >= 0) return x;
  if (x.hi() <= 0) return -x;
  return Interval(Rational(0), Max(Rational(-x.lo()), x.hi()));
}
Interval Min(const Interval& a, const Interval& b) {
  return Interval(Min(a.lo(), b.lo()), Min(a.hi(), b.hi()));
}
Interval Max(const Interval& a, const Interval& b) {
  return Interval(Max(a.lo(), b.lo()), Max(a.hi(), b.hi()));
}

namespace {
Rational MpfrToRational(mpfr_srcptr f) {
  Rational q;
  mpfr_get_q(q.backend().data(), f);
  return q;
}
}  // namespace

Interval ExpEnclosure(const Rational& x, int precision_bits, const std::string& argument) {
  if (precision_bits < 32 || precision_bits > 100000)
    throw InvalidArgument("--precision", "must be in [32, 100000] bits, got " + std::to_string(precision_bits));
  if (Abs(x) > 1000000) throw InvalidArgument(argument, "|value| must be ≤ 1e6");
  mpfr_t lo, hi;
  mpfr_init2(lo, precision_bits);
  mpfr_init2(hi, precision_bits);
  mpfr_set_q(lo, x.backend().data(), MPFR_RNDD);
  mpfr_set_q(hi, x.backend().data(), MPFR_RNDU);
  mpfr_exp(lo, lo, MPFR_RNDD);  // exp is increasing: RD(exp(RD x)) ≤ e^x
  mpfr_exp(hi, hi, MPFR_RNDU);
  Interval result(MpfrToRational(lo), MpfrToRational(hi));
  mpfr_clear(lo);
  mpfr_clear(hi);
  return result;
}

}  // namespace dpfl::ref
