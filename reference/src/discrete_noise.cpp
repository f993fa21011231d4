// dpfl::ref — discrete Laplace and discrete Gaussian laws (see discrete_noise.hpp for the
// formulas and the rigor argument of each enclosure).
#include "dpfl/ref/discrete_noise.hpp"

#include "dpfl/validate.hpp"

namespace dpfl::ref {
namespace {

Rational AbsInt(const Int& z) { return z < 0 ? Rational(-z) : Rational(z); }

// ValidatePrecision on an mpfr_prec_t (a long), returned for member initialisers.
mpfr_prec_t CheckedPrecision(mpfr_prec_t prec) {
  ValidatePrecision(prec < 32 ? 0 : prec > 100000 ? 100001 : static_cast<int>(prec));
  return prec;
}

// q = e^{−1/t} and 1 − q = −expm1(−1/t) (no cancellation for large t).
struct LaplaceRatio {
  Enclosure q, one_minus_q;
};
LaplaceRatio LaplaceQ(const Rational& t, mpfr_prec_t prec) {
  ValidatePositive(t, "t");
  const Rational minus_inv_t = Rational(-1) / t;
  return {ExpQ(prec, minus_inv_t), -Expm1(Enclosure(prec, minus_inv_t))};
}

}  // namespace

// ---- discrete Laplace ------------------------------------------------------------------------

Rational DiscreteLaplaceEpsilon(const Rational& t, const Rational& sensitivity) {
  ValidatePositive(t, "t");
  ValidatePositive(sensitivity, "sensitivity");
  return sensitivity / t;
}

Enclosure DiscreteLaplaceNormalizer(const Rational& t, mpfr_prec_t prec) {
  const LaplaceRatio r = LaplaceQ(t, prec);
  return (Rational(1) + r.q) / r.one_minus_q;
}

Enclosure DiscreteLaplacePmf(const Rational& t, const Int& z, mpfr_prec_t prec) {
  const LaplaceRatio r = LaplaceQ(t, prec);
  return r.one_minus_q / (Rational(1) + r.q) * ExpQ(prec, Rational(-AbsInt(z) / t));
}

Enclosure DiscreteLaplaceUpperTail(const Rational& t, const Int& a, mpfr_prec_t prec) {
  const LaplaceRatio r = LaplaceQ(t, prec);
  // Σ_{z≥b} (1 − q)/(1 + q) q^z = q^b/(1 + q) for b ≥ 1.
  if (a >= 1) return ExpQ(prec, Rational(-Rational(a) / t)) / (Rational(1) + r.q);
  const Int b = 1 - a;  // P(Z ≥ a) = 1 − P(Z ≤ a − 1) = 1 − P(Z ≥ 1 − a)
  return Rational(1) - ExpQ(prec, Rational(-Rational(b) / t)) / (Rational(1) + r.q);
}

Enclosure DiscreteLaplaceVariance(const Rational& t, mpfr_prec_t prec) {
  const LaplaceRatio r = LaplaceQ(t, prec);
  return Rational(2) * r.q / Sqr(r.one_minus_q);
}

// ---- discrete Gaussian -----------------------------------------------------------------------

DiscreteGaussianLaw::DiscreteGaussianLaw(const Rational& sigma2, mpfr_prec_t prec, DiscreteGaussianSum method)
    : sigma2_(sigma2), prec_(CheckedPrecision(prec)), method_(method), normalizer_(prec_, 0L) {
  ValidatePositive(sigma2, "sigma2");
  if (method_ == DiscreteGaussianSum::kAuto)
    method_ = sigma2 <= Rational(kDirectSumMaxSigma2) ? DiscreteGaussianSum::kDirect : DiscreteGaussianSum::kEulerMaclaurin;
  normalizer_ = Rational(2) * TailSum(Int(0)) - Rational(1);  // C_G = 2 S(0) − f(0)
}

Enclosure DiscreteGaussianLaw::Weight(const Int& z) const {
  const Rational z2 = Rational(z) * Rational(z);
  return ExpQ(prec_, Rational(-z2 / (2 * sigma2_)));
}

Enclosure DiscreteGaussianLaw::TailSum(const Int& a) const {
  if (a < 0) throw InvalidArgument("a", "the tail sum S(a) needs an integer a >= 0");
  return method_ == DiscreteGaussianSum::kDirect ? TailSumDirect(a) : TailSumEulerMaclaurin(a);
}

Enclosure DiscreteGaussianLaw::TailSumDirect(const Int& a) const {
  const Rational c = Rational(1) / (2 * sigma2_);  // f(x) = e^{−c x²}
  const Rational ra(a);
  Enclosure f = ExpQ(prec_, Rational(-c * ra * ra));              // f(z), z = a
  Enclosure r = ExpQ(prec_, Rational(-c * (2 * ra + 1)));         // r_z = f(z + 1)/f(z)
  const Enclosure step = ExpQ(prec_, Rational(-2 * c));           // r_{z+1}/r_z
  const Rational relative = Pow2(-static_cast<int>(prec_) - 10);  // stop when the remainder is this small
  Enclosure sum(prec_, 0L);
  // The remainder Σ_{z≥b} f(z) ≤ f(b)/(1 − r_b) (header); the cap on the number of terms only
  // bounds the running time — the result is rigorous wherever the loop stops.
  constexpr long kMaxTerms = 1L << 26;
  for (long n = 0;; ++n) {
    if (n % 16 == 0) {
      const Enclosure remainder = f / (Rational(1) - r);
      if (n > 0 && (CertainlyLess(remainder, sum * relative) || n >= kMaxTerms))
        return sum + Hull(Enclosure(prec_, 0L), remainder);
    }
    sum += f;
    f *= r;
    r *= step;
  }
}

Enclosure DiscreteGaussianLaw::TailSumEulerMaclaurin(const Int& a) const {
  const Rational ra(a), s2 = sigma2_;
  const Enclosure sigma = SqrtQ(prec_, s2);
  // ∫_a^∞ e^{−x²/(2σ²)} dx = σ √(π/2) erfc(a/(σ√2)).
  const Enclosure integral = sigma * Sqrt(Pi(prec_) / Rational(2)) * Erfc(Enclosure(prec_, ra) / SqrtQ(prec_, Rational(2 * s2)));
  const Enclosure f = ExpQ(prec_, Rational(-ra * ra / (2 * s2)));
  const Rational d1 = -ra / s2;                                          // f′(a)/f(a)
  const Rational d3 = -(ra * ra * ra / (s2 * s2 * s2) - 3 * ra / (s2 * s2));  // f‴(a)/f(a)
  const Enclosure main = integral + f / Rational(2) - f * Rational(d1 / 12) + f * Rational(d3 / 720);
  // |R| ≤ (1/720) ∫_a^∞ |f⁗|: = −f‴(a)/720 when a² ≥ (3 + √6)σ², i.e. v = a²/σ² ≥ 3 and
  // (v − 3)² ≥ 6 (exact test); else ≤ 12√(2π)/(720 σ³) = √(2π)/(60 σ³).
  const Rational v = ra * ra / s2;
  Enclosure bound(prec_, 0L);
  if (v >= 3 && (v - 3) * (v - 3) >= 6) {
    bound = f * Rational(-d3 / 720);
  } else {
    bound = Sqrt(Rational(2) * Pi(prec_)) / (Rational(60) * sigma * Enclosure(prec_, s2));
  }
  return main + Hull(-bound, bound);
}

Enclosure DiscreteGaussianLaw::FirstMomentTailSum(const Int& a) const {
  if (a < 0) throw InvalidArgument("a", "the first-moment tail sum S1(a) needs an integer a >= 0");
  return method_ == DiscreteGaussianSum::kDirect ? FirstMomentDirect(a) : FirstMomentEulerMaclaurin(a);
}

Enclosure DiscreteGaussianLaw::FirstMomentDirect(const Int& a) const {
  const Rational c = Rational(1) / (2 * sigma2_);  // f(x) = e^{−c x²}
  Int z = a == 0 ? Int(1) : a;                      // the z = 0 term is 0
  const Rational rz(z);
  Enclosure f = ExpQ(prec_, Rational(-c * rz * rz));       // f(z)
  Enclosure r = ExpQ(prec_, Rational(-c * (2 * rz + 1)));  // r_z = f(z + 1)/f(z)
  const Enclosure step = ExpQ(prec_, Rational(-2 * c));
  const Rational relative = Pow2(-static_cast<int>(prec_) - 10);
  Enclosure sum(prec_, 0L);
  constexpr long kMaxTerms = 1L << 26;  // bounds the running time only (the result stays rigorous)
  for (long n = 0;; ++n, ++z) {
    if (n % 16 == 0) {
      // ρ = (1 + 1/z)·r_z bounds every later term ratio; the remainder is then ≤ z f(z)/(1 − ρ).
      const Enclosure rho = r * Rational(Rational(z + 1) / Rational(z));
      if (CertainlyLess(rho, Enclosure(prec_, 1L))) {
        const Enclosure remainder = f * Rational(z) / (Rational(1) - rho);
        if (n > 0 && (CertainlyLess(remainder, sum * relative) || n >= kMaxTerms))
          return sum + Hull(Enclosure(prec_, 0L), remainder);
      }
    }
    sum += f * Rational(z);
    f *= r;
    r *= step;
  }
}

Enclosure DiscreteGaussianLaw::FirstMomentEulerMaclaurin(const Int& a) const {
  const Rational ra(a), s2 = sigma2_;
  const Rational u2 = ra * ra / s2;                                      // u² = a²/σ²
  const Enclosure f = ExpQ(prec_, Rational(-u2 / 2));                    // f(a)
  const Rational he4 = u2 * u2 - 6 * u2 + 3;                             // He₄(u)
  const Enclosure h = f * ra;                                            // h(a)
  const Enclosure h1 = f * Rational(1 - u2);                             // h′(a)
  const Enclosure h3 = -f * Rational(he4 / s2);                          // h‴(a)
  const Enclosure main = f * s2 + h / Rational(2) - h1 / Rational(12) + h3 / Rational(720);
  // He₅'s largest root is √(5 + √10): u² ≥ 5 + √10 ⇔ u² ≥ 5 and (u² − 5)² ≥ 10 (exact test).
  Enclosure bound(prec_, 0L);
  if (u2 >= 5 && (u2 - 5) * (u2 - 5) >= 10) {
    bound = -h3 / Rational(720);
  } else {
    bound = Enclosure(prec_, Rational(Rational(86) / (720 * s2)));
  }
  return main + Hull(-bound, bound);
}

Enclosure DiscreteGaussianLaw::Pmf(const Int& z) const { return Weight(z) / normalizer_; }

Enclosure DiscreteGaussianLaw::UpperTail(const Int& a) const {
  if (a >= 1) return TailSum(a) / normalizer_;
  return Rational(1) - TailSum(Int(1 - a)) / normalizer_;  // P(Z ≥ a) = 1 − P(Z ≥ 1 − a)
}

Enclosure DiscreteGaussianLaw::RangeProbability(const Int& a, const Int& b) const {
  if (b < a) return Enclosure(prec_, 0L);
  if (b - a < 64) {
    Enclosure sum(prec_, 0L);
    for (Int z = a; z <= b; ++z) sum += Weight(z);
    return sum / normalizer_;
  }
  return UpperTail(a) - UpperTail(Int(b + 1));
}

Enclosure DiscreteGaussianDeltaEnclosure(const Rational& eps, const Rational& sigma2, const Rational& sensitivity,
                                         mpfr_prec_t prec, DiscreteGaussianSum method) {
  Require("eps", eps, Domain::Closed(0, 1e6), EchoValue);
  ValidatePositive(sigma2, "sigma2");
  ValidatePositiveInteger(sensitivity, "sensitivity");
  const DiscreteGaussianLaw law(sigma2, prec, method);
  const Rational center = eps * sigma2 / sensitivity, half = sensitivity / 2;
  // P(Z > x) = P(Z ≥ ⌊x⌋ + 1).
  const Enclosure first = law.UpperTail(Int(FloorInt(Rational(center - half)) + 1));
  const Enclosure second = law.UpperTail(Int(FloorInt(Rational(center + half)) + 1));
  return Max(first - ExpQ(prec, eps) * second, Enclosure(prec, 0L));
}

Interval DiscreteGaussianDelta(const Rational& eps, const Rational& sigma2, const Rational& sensitivity,
                               int precision_bits) {
  ValidatePrecision(precision_bits);
  return ToInterval(DiscreteGaussianDeltaEnclosure(eps, sigma2, sensitivity, precision_bits));
}

}  // namespace dpfl::ref
