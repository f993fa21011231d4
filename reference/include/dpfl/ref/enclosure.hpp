// dpfl::ref — Enclosure: a rigorous real enclosure (an MPFI interval) at a runtime precision.
//
// An Enclosure stands for one exact real x and holds an interval [lo, hi] of MPFR numbers with
// lo ≤ x ≤ hi. Every function below keeps that invariant; the rigor argument of each:
//
//  * Construction from a Rational: mpfi_set_q rounds lo down and hi up (MPFI contract).
//  * + − × ÷ (Enclosure or Rational operands), unary −, Sqr, Sqrt, Log, Exp, Expm1, Log1p, Abs:
//    the MPFI primitives of the same name. MPFI computes each endpoint with MPFR in the
//    outward direction (lo with MPFR_RNDD, hi with MPFR_RNDU), choosing the endpoint from the
//    monotonicity of the operation (exp, log, log1p, expm1, sqrt increasing; the arithmetic
//    operations by the usual endpoint case analysis), so the result contains the exact image.
//    Division by an enclosure that contains 0, Log/Log1p of one not certainly > 0 (resp. > −1)
//    and Sqrt of one not certainly ≥ 0 throw dpfl::Undecidable (the exact value may be
//    undefined or the precision too low) — never a silently infinite interval.
//  * Pow(x, n) for an integer n: binary exponentiation with mpfi_sqr/mpfi_mul (each step
//    encloses; mpfi_sqr is exact-tight for a mixed-sign x), n < 0 divides 1 by x^|n|.
//  * Pow(x, y) for a real y: Exp(y · Log(x)), so x must be certainly > 0.
//  * Max, Min: [max(a.lo, b.lo), max(a.hi, b.hi)] (resp. min); max and min are increasing in
//    each argument and the endpoints are copied exactly (no rounding) at the larger precision.
//  * Erfc: erfc is decreasing on ℝ, so erfc(x) ∈ [erfc(hi), erfc(lo)]: the new lo is the lower
//    end of an enclosure of erfc(hi), the new hi the upper end of one of erfc(lo). At a point
//    v < 2: mpfr_erfc(v, MPFR_RNDD) and mpfr_erfc(v, MPFR_RNDU) (MPFR: correctly rounded in the
//    requested direction). At v ≥ 6 (where mpfr_erfc takes milliseconds at 256 bits):
//    erfc(v) = 2 e^{−v²} R(√2 v)/√(2π) with R the Mills ratio, enclosed by the hull of two
//    consecutive convergents of its Laplace continued fraction R(y) = 1/(y+1/(y+2/(y+…)))
//    (positive partial numerators: consecutive convergents bracket the value), each convergent
//    evaluated in interval arithmetic; depth doubles until the relative width is ~2^(8−prec).
//  * NormalCdf Φ(x) = erfc(−x/√2)/2: composition of enclosing operations (x/√2 with √2 enclosed
//    by mpfi_sqrt of the point 2; the division by 2 is exact). Φ(0) = 1/2 exactly: −0/√2 is the
//    point 0 and erfc(0) = 1 is representable, so the enclosure is the point 1/2.
//  * NormalPdf φ(x) = exp(−x²/2)/√(2π): mpfi_sqr, mpfi_exp, mpfi_const_pi (π enclosed by MPFI).
//  * LogBinomial(n, k) for integers 0 ≤ k ≤ n: C(n, k) computed exactly with GMP, then Log.
//  * BinomialCoefficient(a, k) for a real enclosure a and an integer k ≥ 0: the product
//    Π_{j<k} (a − j)/(j + 1) in interval arithmetic (each factor encloses; valid for any real a).
//  * Pi, Sqrt2: MPFI constants (mpfi_const_pi; mpfi_sqrt of the point 2).
//  * CertainlyPositive/…: read the relevant exact endpoint; "certainly" means for every member.
//  * ToInterval: mpfr_get_q is exact (an MPFR number is a dyadic rational), so the Interval has
//    exactly the enclosure's endpoints; NaN or unbounded enclosures throw Undecidable.
//  * DecideGreaterEqual(lhs, rhs): true iff lhs.lo ≥ rhs.hi, false iff lhs.hi < rhs.lo, else
//    Undecidable (never guesses).
//  * Hull(a, b): [min lo, max hi], exact endpoints; encloses any value enclosed by a or b.
//
// Precision: every result has the precision of its first Enclosure operand (or the explicit
// `prec`). Precision in [32, 100000] bits is what the validators accept (ValidatePrecision).
// Thread-safety: an Enclosure is a value; distinct objects may be used from distinct threads
// (MPFR's caches are thread-local when MPFR is built thread-safe, as on Debian).
#pragma once

#include <mpfi.h>
#include <mpfr.h>

#include <string>

#include "dpfl/error.hpp"
#include "dpfl/ref/numbers.hpp"

namespace dpfl::ref {

class Enclosure {
 public:
  // The point enclosure of q at `prec` bits (outward rounded).
  Enclosure(mpfr_prec_t prec, const Rational& q);
  // The point enclosure of an integer.
  Enclosure(mpfr_prec_t prec, long v);
  Enclosure(const Enclosure& o);
  Enclosure(Enclosure&& o) noexcept;
  Enclosure& operator=(const Enclosure& o);
  Enclosure& operator=(Enclosure&& o) noexcept;
  ~Enclosure();

  // An uninitialised (NaN) enclosure at `prec`, to be filled through get() by an mpfi_* call.
  static Enclosure Uninitialized(mpfr_prec_t prec) { return Enclosure(prec); }

  mpfi_ptr get() { return v_; }
  mpfi_srcptr get() const { return v_; }
  mpfr_prec_t prec() const { return mpfi_get_prec(v_); }

  // Endpoints and midpoint rounded to double (lo down, hi up, mid to nearest) — for display
  // and for test oracles only, never for a privacy decision.
  double LoDouble() const;
  double HiDouble() const;
  double MidDouble() const;
  // hi − lo rounded up to double.
  double WidthDouble() const;

  Enclosure operator-() const;
  Enclosure& operator+=(const Enclosure& b);
  Enclosure& operator*=(const Enclosure& b);

 private:
  explicit Enclosure(mpfr_prec_t prec) { mpfi_init2(v_, prec); }
  mpfi_t v_;
};

Enclosure operator+(const Enclosure& a, const Enclosure& b);
Enclosure operator-(const Enclosure& a, const Enclosure& b);
Enclosure operator*(const Enclosure& a, const Enclosure& b);
// Throws Undecidable if b contains 0.
Enclosure operator/(const Enclosure& a, const Enclosure& b);
Enclosure operator+(const Enclosure& a, const Rational& b);
Enclosure operator+(const Rational& a, const Enclosure& b);
Enclosure operator-(const Enclosure& a, const Rational& b);
Enclosure operator-(const Rational& a, const Enclosure& b);
Enclosure operator*(const Enclosure& a, const Rational& b);
Enclosure operator*(const Rational& a, const Enclosure& b);
Enclosure operator/(const Enclosure& a, const Rational& b);
Enclosure operator/(const Rational& a, const Enclosure& b);

// ---- sign tests (on exact endpoints) -------------------------------------------------------
bool CertainlyPositive(const Enclosure& x);     // lo > 0
bool CertainlyNonNegative(const Enclosure& x);  // lo ≥ 0
bool CertainlyNegative(const Enclosure& x);     // hi < 0
bool CertainlyNonPositive(const Enclosure& x);  // hi ≤ 0
bool CertainlyLess(const Enclosure& a, const Enclosure& b);  // a.hi < b.lo
bool Contains(const Enclosure& x, const Rational& q);

// ---- elementary functions ------------------------------------------------------------------
Enclosure Sqr(const Enclosure& x);
Enclosure Sqrt(const Enclosure& x);   // Undecidable unless x certainly ≥ 0
Enclosure Log(const Enclosure& x);    // Undecidable unless x certainly > 0
Enclosure Exp(const Enclosure& x);
Enclosure Expm1(const Enclosure& x);
Enclosure Log1p(const Enclosure& x);  // Undecidable unless x certainly > −1
Enclosure Abs(const Enclosure& x);
Enclosure Pow(const Enclosure& x, long n);            // any x (n < 0: x must exclude 0)
Enclosure Pow(const Enclosure& x, const Enclosure& y);  // x certainly > 0
Enclosure Max(const Enclosure& a, const Enclosure& b);
Enclosure Min(const Enclosure& a, const Enclosure& b);
Enclosure Hull(const Enclosure& a, const Enclosure& b);
Enclosure Erfc(const Enclosure& x);
Enclosure NormalCdf(const Enclosure& x);  // Φ(x) = erfc(−x/√2)/2
Enclosure NormalPdf(const Enclosure& x);  // φ(x) = exp(−x²/2)/√(2π)
Enclosure Pi(mpfr_prec_t prec);
Enclosure Sqrt2(mpfr_prec_t prec);
// log C(n, k) for integers 0 ≤ k ≤ n (InvalidArgument "k" otherwise); C(n, k) exact via GMP.
Enclosure LogBinomial(mpfr_prec_t prec, unsigned long n, unsigned long k);
// C(a, k) = a(a−1)…(a−k+1)/k! for a real a and an integer k ≥ 0 (generalised binomial).
Enclosure BinomialCoefficient(const Enclosure& a, unsigned long k);

// Shorthands on exact inputs.
inline Enclosure FromQ(mpfr_prec_t prec, const Rational& q) { return Enclosure(prec, q); }
inline Enclosure LogQ(mpfr_prec_t prec, const Rational& q) { return Log(Enclosure(prec, q)); }
inline Enclosure SqrtQ(mpfr_prec_t prec, const Rational& q) { return Sqrt(Enclosure(prec, q)); }
inline Enclosure ExpQ(mpfr_prec_t prec, const Rational& q) { return Exp(Enclosure(prec, q)); }

// ---- conversions and decisions -------------------------------------------------------------
// An MPFR number as the exact dyadic rational it is.
Rational MpfrExactRational(mpfr_srcptr f);
// The enclosure with exact rational endpoints; Undecidable if NaN or unbounded.
Interval ToInterval(const Enclosure& x);
// The enclosure's width (MPFI diameter: relative, or absolute where it contains 0) is at most 2^−p.
bool NarrowEnough(const Enclosure& e, int p);
// lhs ≥ rhs decided from the enclosures; Undecidable if they overlap.
bool DecideGreaterEqual(const Enclosure& lhs, const Enclosure& rhs);

// ---- validation helpers (throw InvalidArgument naming `name`) ------------------------------
// The Rational domain checks are dpfl::Require (dpfl/validate.hpp) with EchoValue.
void ValidatePrecision(int bits);  // [32, 100000]; names "precision"
bool IsInteger(const Rational& x);
void ValidatePositiveInteger(const Rational& x, const std::string& name);  // integer ≥ 1
void ValidateOpenUnit(const Rational& x, const std::string& name);         // (0, 1)
void ValidatePositive(const Rational& x, const std::string& name);         // > 0
void ValidateNonNegative(const Rational& x, const std::string& name);      // ≥ 0

}  // namespace dpfl::ref
