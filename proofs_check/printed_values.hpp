// dpfl-proofs — comparing enclosures with numbers printed in the papers and specs.
#pragma once

#include <string>

#include "dpfl/ref/enclosure.hpp"
#include "dpfl/ref/numbers.hpp"

namespace dpfl::proofs {

// A value printed with finitely many digits ("0.1269", "1.4e-19") as the interval of reals that
// round to it: value ± half a unit in the last printed place, widened to ± min_relative·|value|
// when a spec states a relative tolerance (e.g. spec 003 §7.4: ≥ 11 significant digits).
inline ref::Interval Printed(const std::string& text, const ref::Rational& min_relative = ref::Rational(0)) {
  const std::size_t e = text.find_first_of("eE");
  const std::string mant = text.substr(0, e);
  const long exponent = e == std::string::npos ? 0 : std::stol(text.substr(e + 1));
  const std::size_t dot = mant.find('.');
  const long frac = dot == std::string::npos ? 0 : static_cast<long>(mant.size() - dot - 1);
  const ref::Rational v = ref::ParseRational(text, "printed");
  const ref::Rational half_ulp = ref::Max(ref::ParseRational("5e" + std::to_string(exponent - frac - 1), "ulp"),
                                          ref::Rational(ref::Abs(v) * min_relative));
  return ref::Interval(ref::Rational(v - half_ulp), ref::Rational(v + half_ulp));
}

inline std::string Dec(const ref::Interval& x, int digits = 16) { return ref::ToDecimalString(x.Mid(), digits); }
inline std::string Dec(const ref::Enclosure& x, int digits = 16) { return Dec(ref::ToInterval(x), digits); }

// Certainly different: the enclosures do not overlap.
inline bool Disjoint(const ref::Interval& a, const ref::Interval& b) { return a.hi() < b.lo() || b.hi() < a.lo(); }
inline bool Disjoint(const ref::Enclosure& a, const ref::Enclosure& b) {
  return ref::CertainlyLess(a, b) || ref::CertainlyLess(b, a);
}
inline bool Disjoint(const ref::Enclosure& a, const ref::Interval& b) { return Disjoint(ref::ToInterval(a), b); }

}  // namespace dpfl::proofs
