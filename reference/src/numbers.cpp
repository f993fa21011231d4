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

std::string_view StripLeadingZeros(std::string_view digits) {
  const size_t first = digits.find_first_not_of('0');
  return first == std::string_view::npos ? std::string_view() : digits.substr(first);
}

// GMP reads a leading 0 as an octal prefix; decimal digits must not be.
Int DecimalDigitsToInt(std::string_view digits) {
  const std::string_view significant = StripLeadingZeros(digits);
  if (significant.empty()) return Int(0);
  return Int(std::string(significant));
}

// The text as quoted in a message: at most 64 characters of it, so that a 100000-digit
// argument gives a one-line error, and control characters as \xNN (a NUL or a newline from a
// file must not cut or break the message; fuzz/fuzz_pld_files.cc checks it).
std::string Quoted(std::string_view text) {
  auto escaped = [](std::string_view t) {
    std::string out;
    for (const char ch : t) {
      const auto c = static_cast<unsigned char>(ch);
      if (c < 0x20 || c == 0x7f) {
        static const char kHex[] = "0123456789abcdef";
        out += "\\x";
        out += kHex[c >> 4];
        out += kHex[c & 15];
      } else {
        out += ch;
      }
    }
    return out;
  };
  if (text.size() <= 64) return "'" + escaped(text) + "'";
  return "'" + escaped(text.substr(0, 48)) + "...' (" + std::to_string(text.size()) + " characters)";
}

[[noreturn]] void Malformed(std::string_view text, const std::string& argument) {
  throw InvalidArgument(argument, "malformed number " + Quoted(text) +
                                      " (expected an integer, a decimal such as 0.1 or "
                                      "1e-6, or a fraction p/q)");
}

// Size limits of ParseRational (numbers.hpp, docs/reference.md "Numbers on the command line"):
// at most kMaxDigits significant digits as written (mantissa, p, q; leading zeros are not
// counted) and, in lowest terms p/q, at most kMaxDigits decimal digits in |p| and in q. Every
// value ParseRational returns thus prints back (ToExactString) as text it accepts, and no
// input makes it compute with numbers of more than 2·kMaxDigits digits.
constexpr std::size_t kMaxDigits = 100000;

[[noreturn]] void TooLarge(std::string_view text, const std::string& argument) {
  throw InvalidArgument(argument, "number " + Quoted(text) + " is too large to handle (at most " +
                                      std::to_string(kMaxDigits) + " significant digits as written, and at most " +
                                      std::to_string(kMaxDigits) + " digits in the numerator and in the denominator "
                                      "in lowest terms)");
}

// |x| < 10^kMaxDigits, i.e. |x| has at most kMaxDigits decimal digits.
bool FitsDigits(const Int& x) {
  const std::size_t estimate = mpz_sizeinbase(x.backend().data(), 10);  // exact or one too many
  if (estimate <= kMaxDigits) return true;
  if (estimate > kMaxDigits + 1) return false;
  static const Int limit = boost::multiprecision::pow(Int(10), static_cast<unsigned>(kMaxDigits));
  return boost::multiprecision::abs(x) < limit;
}

Rational CheckedValue(const Rational& value, std::string_view whole, const std::string& argument) {
  if (!FitsDigits(boost::multiprecision::numerator(value)) || !FitsDigits(boost::multiprecision::denominator(value)))
    TooLarge(whole, argument);
  return value;
}

// Parses [+-]digits[.digits][(e|E)[+-]digits] exactly.
Rational ParseDecimal(std::string_view s, std::string_view whole, const std::string& argument) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  // The written exponent, saturated at ±10^15 (far beyond every limit below); any number of
  // digits is read, so "1e0000005" is 1e5 and "1e999999999" is "too large", not "malformed".
  constexpr long long kSaturated = 1000000000000000LL;
  long long exponent = 0;
  if (auto e = s.find_first_of("eE"); e != std::string_view::npos) {
    std::string_view exp_text = s.substr(e + 1);
    s = s.substr(0, e);
    bool exp_negative = false;
    if (!exp_text.empty() && (exp_text[0] == '+' || exp_text[0] == '-')) {
      exp_negative = exp_text[0] == '-';
      exp_text.remove_prefix(1);
    }
    if (!AllDigits(exp_text)) Malformed(whole, argument);
    const std::string_view significant = StripLeadingZeros(exp_text);
    exponent = significant.size() > 15 ? kSaturated : std::stoll(std::string(significant.empty() ? "0" : significant));
    if (exp_negative) exponent = -exponent;
  }
  std::string digits;
  if (auto dot = s.find('.'); dot != std::string_view::npos) {
    std::string_view int_part = s.substr(0, dot), frac_part = s.substr(dot + 1);
    if (int_part.empty() && frac_part.empty()) Malformed(whole, argument);
    if ((!int_part.empty() && !AllDigits(int_part)) || (!frac_part.empty() && !AllDigits(frac_part)))
      Malformed(whole, argument);
    digits = std::string(int_part) + std::string(frac_part);
    exponent -= static_cast<long long>(std::min<std::size_t>(frac_part.size(), kSaturated));
  } else {
    if (!AllDigits(s)) Malformed(whole, argument);
    digits = std::string(s);
  }
  // value = ±mantissa · 10^exponent with the mantissa's trailing zeros moved to the exponent.
  std::string_view mantissa = StripLeadingZeros(digits);
  if (mantissa.empty()) return Rational(0);  // zero, whatever the exponent
  if (mantissa.size() > kMaxDigits) TooLarge(whole, argument);
  const std::size_t last = mantissa.find_last_not_of('0');
  exponent += static_cast<long long>(mantissa.size() - 1 - last);
  mantissa = mantissa.substr(0, last + 1);
  // Decided without big numbers where the result is certainly too large: an integer m·10^x
  // (x ≥ 0) has digits(m) + x digits; for x = −k < 0 the reduced denominator is
  // 10^k / gcd(m, 10^k) > 10^k / m > 10^(k − digits(m)), so it has more than kMaxDigits digits
  // once k ≥ kMaxDigits + digits(m). Past these tests, 10^|x| has fewer than 2·kMaxDigits digits.
  const auto mantissa_digits = static_cast<long long>(mantissa.size());
  constexpr auto kMax = static_cast<long long>(kMaxDigits);
  if (exponent >= 0 && mantissa_digits + exponent > kMax) TooLarge(whole, argument);
  if (exponent < 0 && -exponent >= kMax + mantissa_digits) TooLarge(whole, argument);
  const Int m(std::string{mantissa});
  const Int ten_pow = boost::multiprecision::pow(Int(10), static_cast<unsigned>(exponent < 0 ? -exponent : exponent));
  const Rational value = exponent >= 0 ? Rational(Int(m * ten_pow)) : Rational(m, ten_pow);
  return CheckedValue(negative ? Rational(-value) : value, whole, argument);
}

}  // namespace

Rational ParseRational(std::string_view text, const std::string& argument) {
  if (text.empty()) Malformed(text, argument);
  if (auto slash = text.find('/'); slash != std::string_view::npos) {
    std::string_view p = text.substr(0, slash), q = text.substr(slash + 1);
    const bool negative = !p.empty() && p[0] == '-';
    std::string_view p_digits = (!p.empty() && (p[0] == '-' || p[0] == '+')) ? p.substr(1) : p;
    if (!AllDigits(p_digits) || !AllDigits(q)) Malformed(text, argument);
    if (StripLeadingZeros(p_digits).size() > kMaxDigits || StripLeadingZeros(q).size() > kMaxDigits)
      TooLarge(text, argument);
    Int num = DecimalDigitsToInt(p_digits), den = DecimalDigitsToInt(q);
    if (den == 0) throw InvalidArgument(argument, "fraction " + Quoted(text) + " has a zero denominator");
    Rational value(num, den);
    return negative ? Rational(-value) : value;  // lowest terms are no larger than p/q as written
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
  // At most 9 significant digits: |v| < 10^9 fits in an int (leading zeros are allowed).
  if (!AllDigits(digits) || StripLeadingZeros(digits).size() > 9)
    throw InvalidArgument(argument, "expected an integer, got " + Quoted(text));
  const std::string_view significant = StripLeadingZeros(digits);
  const int v = significant.empty() ? 0 : std::stoi(std::string(significant));
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
    // Appended piece by piece: GCC 12 at -O3 reports a false -Wrestrict on the equivalent
    // `"." + digits.substr(1)` temporaries (that would fail the Release build under DPFL_WERROR=ON).
    out.push_back(digits.front());
    if (digits.size() > 1) {
      out.push_back('.');
      out.append(digits, 1, std::string::npos);
    }
    out.push_back('e');
    out.append(std::to_string(e));
  }
  return out;
}

std::string EchoValue(const Rational& x) {
  std::string exact = ToExactString(x);
  return exact.size() <= 40 ? exact : "≈" + ToDecimalString(x, 17);
}

namespace {
// Nearest-rounded candidates of x ∓ k·b (b half a unit in the last place), k = 0, 1, …: the first
// that lies on the requested side of x. k = 1 always suffices for a fixed number of digits (the
// nearest rounding of x − b is within b of it); the loop guards decade changes.
std::string DirectedDecimal(const Rational& x, int digits, int direction) {
  const Rational b = DecimalRoundingBound(x, digits);
  for (int k = 0; k < 4; ++k) {
    const std::string s = ToDecimalString(Rational(x + direction * k * b), digits);
    const Rational v = ParseRational(s, "decimal");
    if (direction < 0 ? v <= x : v >= x) return s;
  }
  throw Undecidable("no outward decimal found for " + EchoValue(x));
}
}  // namespace

std::string ToDecimalStringDown(const Rational& x, int significant_digits) {
  return DirectedDecimal(x, significant_digits, -1);
}
std::string ToDecimalStringUp(const Rational& x, int significant_digits) {
  return DirectedDecimal(x, significant_digits, +1);
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
