// dpfl::ref — Gaussian mechanism (see gaussian.hpp).
#include "dpfl/ref/gaussian.hpp"

#include "dpfl/validate.hpp"

namespace dpfl::ref {
namespace {

void ValidateOrder(const Rational& order) {
  if (!(order > 1)) throw InvalidArgument("order", "must be > 1, got " + EchoValue(order));
}

}  // namespace

Rational DefaultCalibrationTolerance() { return ParseRational("1e-45", "tolerance"); }

Rational GaussianRdp(const Rational& sigma, const Rational& order, const Rational& sensitivity) {
  ValidatePositive(sigma, "sigma");
  ValidateOrder(order);
  ValidatePositive(sensitivity, "sensitivity");
  return order * sensitivity * sensitivity / (2 * sigma * sigma);
}

Interval GaussianClassicSigma(const Rational& eps, const Rational& delta, const Rational& sensitivity,
                              int precision_bits) {
  ValidatePrecision(precision_bits);
  ValidatePositive(eps, "eps");
  ValidateOpenUnit(delta, "delta");
  ValidatePositive(sensitivity, "sensitivity");
  const mpfr_prec_t prec = precision_bits;
  const Enclosure sigma = sensitivity * Sqrt(Rational(2) * LogQ(prec, Rational(Rational(5, 4) / delta))) / eps;
  return ToInterval(sigma);
}

Enclosure AnalyticGaussianDeltaEnclosure(const Rational& eps, const Rational& sigma, const Rational& sensitivity,
                                         mpfr_prec_t prec) {
  Require("eps", eps, Domain::Closed(0, 1e6), EchoValue);
  ValidatePositive(sigma, "sigma");
  ValidatePositive(sensitivity, "sensitivity");
  const Rational a = sensitivity / (2 * sigma);  // Δ/(2σ)
  const Rational b = eps * sigma / sensitivity;   // εσ/Δ
  const Enclosure first = NormalCdf(Enclosure(prec, Rational(a - b)));
  const Enclosure second = ExpQ(prec, eps) * NormalCdf(Enclosure(prec, Rational(-a - b)));
  return first - second;
}

Interval AnalyticGaussianDelta(const Rational& eps, const Rational& sigma, const Rational& sensitivity,
                               int precision_bits) {
  ValidatePrecision(precision_bits);
  return ToInterval(AnalyticGaussianDeltaEnclosure(eps, sigma, sensitivity, precision_bits));
}

AnalyticSigma AnalyticGaussianSigma(const Rational& eps, const Rational& delta, const Rational& sensitivity,
                                    int precision_bits, const Rational& rel_tol) {
  ValidatePrecision(precision_bits);
  ValidatePositive(eps, "eps");
  ValidateOpenUnit(delta, "delta");
  ValidatePositive(sensitivity, "sensitivity");
  ValidateOpenUnit(rel_tol, "tolerance");
  const mpfr_prec_t prec = precision_bits;
  const Enclosure target(prec, delta);
  // +1: δ(σ) certainly above the target (σ too small); −1: certainly below; 0: undecidable.
  auto compare = [&](const Rational& sigma) {
    const Enclosure d = AnalyticGaussianDeltaEnclosure(eps, sigma, sensitivity, prec);
    if (CertainlyLess(target, d)) return 1;
    if (CertainlyLess(d, target)) return -1;
    return 0;
  };
  Rational lo = sensitivity, hi = sensitivity;
  int guard = 0;
  while (compare(hi) >= 0) {  // δ → 0 as σ → ∞
    hi *= 2;
    if (++guard > 4000) throw Undecidable("analytic Gaussian: no upper bracket for sigma found; increase the precision");
  }
  guard = 0;
  while (compare(lo) <= 0) {  // δ → 1 − 0 > δ as σ → 0 (for ε > 0, δ < 1)
    lo /= 2;
    if (++guard > 4000) throw Undecidable("analytic Gaussian: no lower bracket for sigma found; increase the precision");
  }
  AnalyticSigma out;
  while (hi - lo > rel_tol * lo) {
    const Rational mid = (lo + hi) / 2;
    const int c = compare(mid);
    ++out.iterations;
    if (c > 0) lo = mid;
    else if (c < 0) hi = mid;
    else break;  // the precision cannot separate δ(mid) from δ: [lo, hi] is still rigorous
  }
  out.reached_tolerance = hi - lo <= rel_tol * lo;
  out.sigma = Interval(lo, hi);
  return out;
}

AnalyticEpsilon AnalyticGaussianEpsilon(const Rational& sigma, const Rational& delta, const Rational& sensitivity,
                                        int precision_bits, const Rational& rel_tol) {
  ValidatePrecision(precision_bits);
  ValidatePositive(sigma, "sigma");
  ValidateOpenUnit(delta, "delta");
  ValidatePositive(sensitivity, "sensitivity");
  ValidateOpenUnit(rel_tol, "tolerance");
  const mpfr_prec_t prec = precision_bits;
  // 1: δ(ε) certainly ≤ δ; −1: certainly > δ; 0: undecided at this precision.
  auto side = [&](const Rational& eps) {
    const Enclosure d = AnalyticGaussianDeltaEnclosure(eps, sigma, sensitivity, prec);
    const Interval di = ToInterval(d);
    if (di.hi() <= delta) return 1;
    if (di.lo() > delta) return -1;
    return 0;
  };
  AnalyticEpsilon out;
  if (side(0) == 1) {  // already (0, δ)-DP
    out.epsilon = Interval(0);
    out.reached_tolerance = true;
    return out;
  }
  Rational lo = 0, hi = 1;
  for (int s = side(hi); s != 1; s = side(hi)) {
    if (s == -1) lo = hi;  // certainly δ(hi) > δ; an undecided hi proves nothing
    hi *= 2;
    if (hi > 1000000) throw InvalidArgument("sigma", "epsilon exceeds 1e6 for this delta: sigma too small");
  }
  while (out.iterations < 400) {
    if (hi - lo <= rel_tol * hi) {
      out.reached_tolerance = true;
      break;
    }
    const Rational mid = (lo + hi) / 2;
    const int s = side(mid);
    if (s == 0) break;
    (s == 1 ? hi : lo) = mid;
    ++out.iterations;
  }
  out.epsilon = Interval(lo, hi);
  return out;
}

}  // namespace dpfl::ref
