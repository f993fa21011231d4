// dpfl::ref — number types of the exact reference.
//
//  * Rational: GMP rationals (exact). Every quantity of specs 000 §7 R1–R9 and 001 §7 is
//    rational when E = e^ε, c, r, w are rational.
//  * Interval: a closed interval with *exact rational endpoints*. Used when ε (not E) is
//    given: e^ε is enclosed by MPFR with directed rounding, and every later operation is a
//    field operation on rational endpoints, so the enclosure is rigorous with no rounding
//    error at all. A floor or a branch that the enclosure cannot decide throws
//    dpfl::Undecidable instead of guessing (e.g. 2^d q within the radius of an integer).
//
// The algorithm headers (ldpq.hpp, corbinq.hpp, coq.hpp) are templates on Real ∈
// {Rational, Interval}; the helper overloads below (FloorInt, Abs, Min, Max, IsZero)
// are what they use beyond + − × ÷ and comparisons.
#pragma once

#include <boost/multiprecision/gmp.hpp>

#include <string>
#include <string_view>

#include "dpfl/error.hpp"

namespace dpfl::ref {

using Int = boost::multiprecision::number<boost::multiprecision::gmp_int,
                                          boost::multiprecision::et_off>;
using Rational = boost::multiprecision::number<boost::multiprecision::gmp_rational,
                                               boost::multiprecision::et_off>;

// ⌊x⌋, exact (GMP floor division, correct for negative x).
Int FloorInt(const Rational& x);
// 2^k as an exact rational, k may be negative.
Rational Pow2(int k);
inline Rational Abs(const Rational& x) { return x < 0 ? Rational(-x) : x; }
inline Rational Min(const Rational& a, const Rational& b) { return a < b ? a : b; }
inline Rational Max(const Rational& a, const Rational& b) { return a < b ? b : a; }

// Parses an exact rational: an integer ("-3"), a decimal ("0.1" is exactly 1/10),
// a decimal with exponent ("1e-6", "2.5E3") or a fraction "p/q" with integer p, q
// (q ≠ 0). Anything else — empty text, spaces, "nan", "inf", hex, trailing junk —
// throws InvalidArgument naming `argument`.
Rational ParseRational(std::string_view text, const std::string& argument);
// Parses a decimal integer that fits in an int (for d, n, precision; callers check the sign).
int ParseInt(std::string_view text, const std::string& argument);

// "p/q" in lowest terms, or "p" for integers (the CLI's exact format).
std::string ToExactString(const Rational& x);
// A value echoed in an error message: the exact form when it has at most 40 characters, else
// "≈" and 17 significant digits (so `--w 1e99999` does not print a 100,000-digit line).
std::string EchoValue(const Rational& x);
// x correctly rounded (half to even) to `significant_digits` significant decimal digits.
// Plain notation for exponents in [-6, 20], else "d.ddd…e±X". Zero prints as "0".
std::string ToDecimalString(const Rational& x, int significant_digits);
// x printed with `significant_digits` digits, rounded toward −∞ (Down) or +∞ (Up): the outward
// printing of an enclosure's ends (the printed lower end is ≤ x, the printed upper end ≥ x).
std::string ToDecimalStringDown(const Rational& x, int significant_digits);
std::string ToDecimalStringUp(const Rational& x, int significant_digits);
// An upper bound on |x − ToDecimalString(x, significant_digits)|: half a unit in the last
// printed place (exactly representable, so the caller can add it to an error bound).
Rational DecimalRoundingBound(const Rational& x, int significant_digits);

// Closed interval [lo, hi] with exact rational endpoints. Arithmetic is exact on the
// endpoints (the result encloses every value of the operation over the operands).
class Interval {
 public:
  Interval() : lo_(0), hi_(0) {}
  Interval(int v) : lo_(v), hi_(v) {}  // NOLINT: implicit, like a number
  Interval(const Rational& v) : lo_(v), hi_(v) {}  // NOLINT
  Interval(const Rational& lo, const Rational& hi);  // throws InvalidArgument if lo > hi

  const Rational& lo() const { return lo_; }
  const Rational& hi() const { return hi_; }
  Rational Mid() const { return (lo_ + hi_) / 2; }
  Rational Radius() const { return (hi_ - lo_) / 2; }
  bool IsPoint() const { return lo_ == hi_; }
  bool Contains(const Rational& x) const { return lo_ <= x && x <= hi_; }

  friend Interval operator+(const Interval& a, const Interval& b);
  friend Interval operator-(const Interval& a, const Interval& b);
  friend Interval operator*(const Interval& a, const Interval& b);
  // Throws Undecidable if b contains 0 (and InvalidArgument if b is exactly 0).
  friend Interval operator/(const Interval& a, const Interval& b);
  Interval operator-() const { return Interval(Rational(-hi_), Rational(-lo_)); }
  Interval& operator+=(const Interval& b) { return *this = *this + b; }
  Interval& operator-=(const Interval& b) { return *this = *this - b; }
  Interval& operator*=(const Interval& b) { return *this = *this * b; }
  Interval& operator/=(const Interval& b) { return *this = *this / b; }

  // Certain comparisons: true/false when every pair of members agrees, else Undecidable.
  friend bool operator<(const Interval& a, const Interval& b);
  friend bool operator>(const Interval& a, const Interval& b) { return b < a; }
  friend bool operator<=(const Interval& a, const Interval& b);
  friend bool operator>=(const Interval& a, const Interval& b) { return b <= a; }

 private:
  Rational lo_, hi_;
};

// ⌊x⌋ if it is the same for every member of x, else Undecidable.
Int FloorInt(const Interval& x);
Interval Abs(const Interval& x);
Interval Min(const Interval& a, const Interval& b);
Interval Max(const Interval& a, const Interval& b);

// Uniform access for templates: the midpoint and the radius of an enclosure
// (for a Rational: itself and 0).
inline Rational MidOf(const Rational& x) { return x; }
inline Rational RadiusOf(const Rational&) { return Rational(0); }
inline Rational MidOf(const Interval& x) { return x.Mid(); }
inline Rational RadiusOf(const Interval& x) { return x.Radius(); }

// Encloses e^x for rational x using MPFR at `precision_bits` with directed rounding:
// returns [RD(e^RD(x)), RU(e^RU(x))] converted exactly to rationals. precision_bits in
// [32, 100000]; |x| ≤ 1e6 (else InvalidArgument naming `argument`).
Interval ExpEnclosure(const Rational& x, int precision_bits, const std::string& argument);

}  // namespace dpfl::ref
