// dpfl — argument validation: the one helper family behind every domain check of the public APIs.
//
// A check names the argument, its value, the accepted domain and, optionally, the spec reference
// (cf. Boost.Math's raise_domain_error: function/argument, value, domain), and returns the value:
//
//   const double eps = Require("eps", eps_in, Domain::Budget(1e6), "seed-000 §3.1");
//   // eps_in = 1e308 throws InvalidArgument("eps", "must be in (0, 1e6], got 1e+308 (seed-000 §3.1)")
//
// A Domain is an interval of the extended real line with open or closed ends. NaN lies in no
// domain; ±inf lies in one only through a closed infinite end, so an open end at ±inf reads
// "finite": Domain::Positive() = (0, inf) rejects inf. Doubles are echoed in shortest round-trip
// form (dpfl::ShortestDouble: "1e+308", "1e-320", "0.1"); exact types pass their own formatter.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "dpfl/error.hpp"
#include "dpfl/format.hpp"

namespace dpfl {

class Domain {
 public:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  // Intervals with the ends as named.
  static constexpr Domain Open(double lo, double hi) { return {lo, false, hi, false}; }        // (lo, hi)
  static constexpr Domain Closed(double lo, double hi) { return {lo, true, hi, true}; }        // [lo, hi]
  static constexpr Domain OpenClosed(double lo, double hi) { return {lo, false, hi, true}; }   // (lo, hi]
  static constexpr Domain ClosedOpen(double lo, double hi) { return {lo, true, hi, false}; }   // [lo, hi)

  // The common domains.
  static constexpr Domain Finite() { return Open(-kInf, kInf); }            // (-inf, inf): a finite real (a center c)
  static constexpr Domain Positive() { return Open(0, kInf); }              // (0, inf): a finite scale σ, r, b, Δ
  static constexpr Domain NonNegative() { return ClosedOpen(0, kInf); }     // [0, inf): finite and >= 0
  static constexpr Domain Budget(double max) { return OpenClosed(0, max); } // (0, max]: a privacy budget ε
  static constexpr Domain Probability() { return Closed(0, 1); }            // [0, 1]
  static constexpr Domain OpenUnit() { return Open(0, 1); }                 // (0, 1): δ, a non-degenerate probability

  constexpr double lo() const { return lo_; }
  constexpr double hi() const { return hi_; }
  constexpr bool lo_closed() const { return lo_closed_; }
  constexpr bool hi_closed() const { return hi_closed_; }

  // Whether x lies in the domain (never for NaN). T is a floating type, or an exact type
  // comparable with double (e.g. dpfl::ref::Rational), for which an infinite end bounds nothing.
  template <class T>
  bool Contains(const T& x) const {
    if constexpr (std::is_floating_point_v<T>) {
      return (lo_closed_ ? x >= lo_ : x > lo_) && (hi_closed_ ? x <= hi_ : x < hi_);  // false for NaN
    } else {
      return (std::isinf(lo_) || (lo_closed_ ? x >= lo_ : x > lo_)) &&
             (std::isinf(hi_) || (hi_closed_ ? x <= hi_ : x < hi_));
    }
  }

  // What membership requires, as messages state it: "must be in (0, 1e6]", "must be finite and
  // > 0", "must be finite". For values that cannot be infinite, "finite" is left out ("must be > 0").
  std::string Requirement(bool value_may_be_infinite = true) const {
    const bool lo_inf = std::isinf(lo_), hi_inf = std::isinf(hi_);
    const std::string finite = value_may_be_infinite ? "finite and " : "";
    if (lo_inf && hi_inf && !lo_closed_ && !hi_closed_) return "must be finite";
    if (!lo_inf && hi_inf && lo_ < hi_)
      return "must be " + (hi_closed_ ? std::string() : finite) + (lo_closed_ ? ">= " : "> ") + Bound(lo_);
    if (lo_inf && !hi_inf && lo_ < hi_)
      return "must be " + (lo_closed_ ? std::string() : finite) + (hi_closed_ ? "<= " : "< ") + Bound(hi_);
    return "must be in " + std::string(lo_closed_ ? "[" : "(") + Bound(lo_) + ", " + Bound(hi_) +
           (hi_closed_ ? "]" : ")");
  }

 private:
  constexpr Domain(double lo, bool lo_closed, double hi, bool hi_closed)
      : lo_(lo), lo_closed_(lo_closed), hi_(hi), hi_closed_(hi_closed) {}

  // A bound as people write it: ShortestDouble without exponent padding ("1e6", not "1e+06").
  static std::string Bound(double x) {
    std::string s = ShortestDouble(x);
    const auto e = s.find('e');
    if (e == std::string::npos) return s;
    return s.substr(0, e + 1) + std::to_string(std::stoi(s.substr(e + 1)));  // "+06" -> "6"
  }

  double lo_;
  bool lo_closed_;
  double hi_;
  bool hi_closed_;
};

// Throws InvalidArgument(name, "<requirement>, got <value>[ (<note>)]"): the error every Require
// raises, for callers whose domain is not an interval but should read the same.
[[noreturn]] inline void ThrowDomainError(std::string_view name, const std::string& requirement,
                                          const std::string& value, std::string_view note = {}) {
  std::string message = requirement + ", got " + value;
  if (!note.empty()) message += " (" + std::string(note) + ")";
  throw InvalidArgument(std::string(name), message);
}

// Returns x if it lies in `domain`, else throws InvalidArgument(name, "<requirement>, got <x in
// shortest round-trip form>[ (<note>)]"). `note` is the spec reference (or a one-phrase reason).
inline double Require(std::string_view name, double x, const Domain& domain, std::string_view note = {}) {
  if (!domain.Contains(x)) ThrowDomainError(name, domain.Requirement(), ShortestDouble(x), note);
  return x;
}

// The same for an exact value type T comparable with double (e.g. dpfl::ref::Rational, echoed by
// dpfl::ref::EchoValue); infinite ends of `domain` bound nothing unless T has infinities.
// Returns a reference to x.
template <class T, class Echo>
  requires std::is_invocable_r_v<std::string, Echo&, const T&>
const T& Require(std::string_view name, const T& x, const Domain& domain, Echo&& echo, std::string_view note = {}) {
  if (!domain.Contains(x))
    ThrowDomainError(name, domain.Requirement(std::numeric_limits<T>::has_infinity), echo(x), note);
  return x;
}

}  // namespace dpfl
