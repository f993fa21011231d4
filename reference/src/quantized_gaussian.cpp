// dpfl::ref — the quantized Gaussian mechanism (seed 003); see quantized_gaussian.hpp for the math,
// the rigor argument and the spec sections.
#include "dpfl/ref/quantized_gaussian.hpp"

#include <mpfi.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <utility>

#include "dpfl/validate.hpp"
#include "quantized_gaussian_internal.hpp"

namespace dpfl::ref {
using namespace qg_internal;  // NOLINT: this mechanism's own internals

namespace {

void ValidateInput(const QuantizedGaussianParams& p, const Rational& x, const std::string& name) {
  if (x < -p.clip || x > p.clip)
    throw InvalidArgument(name, "input must lie in [-C, C] = [" + ToExactString(Rational(-p.clip)) + ", " +
                                    ToExactString(p.clip) + "], got " + EchoValue(x) + " (seed 003 §4.1)");
}

}  // namespace

RenyiOrder RenyiOrder::Finite(const Rational& alpha) {
  if (!(alpha > 1))
    throw InvalidArgument("order", "Renyi order must be > 1 (use KL for 1, inf for infinity), got " +
                                       ToExactString(alpha));
  return {Kind::kFinite, alpha};
}

void ValidateQuantizedGaussian(const QuantizedGaussianParams& p) {
  Require("sigma", p.sigma, Domain::Positive(), EchoValue);
  if (p.levels < 2 || p.levels > (1L << 24))
    throw InvalidArgument("levels", "number of levels k must be in [2, 2^24], got " + std::to_string(p.levels));
  Require("clip", p.clip, Domain::Positive(), EchoValue);
}

std::vector<Enclosure> QuantizedGaussianPmf(const QuantizedGaussianParams& p, const Rational& x, int precision_bits,
                                            QgMethod method) {
  ValidateQuantizedGaussian(p);
  ValidatePrecision(precision_bits);
  ValidateInput(p, x, "x");
  const Grid g(p);
  if (method == QgMethod::kSeries && !SeriesApplicable(g, x))
    throw InvalidArgument("method", "series evaluation needs k >= 3 and h (U + h) <= 1");
  const bool series = method == QgMethod::kSeries || (method == QgMethod::kAuto && SeriesApplicable(g, x) && g.k > 64);
  std::function<std::vector<Enclosure>(mpfr_prec_t)> compute = [&](mpfr_prec_t w) {
    if (!series) return DirectPmf(g, x, w, false);
    std::vector<Enclosure> pmf = DirectPmf(g, x, w, true);
    const SeriesData s = SeriesInterior(g, x, w);
    const Enclosure scale = Enclosure(w, g.h) / Sqrt(Rational(2) * Pi(w));
    for (long r = 1; r < g.k - 1; ++r) {
      const Enclosure u(w, g.U(x, r));
      pmf[static_cast<size_t>(r)] = scale * Exp(-Sqr(u) / Rational(2)) * (s.c[static_cast<size_t>(r)] + Rational(1));
    }
    return pmf;
  };
  return Adaptive<std::vector<Enclosure>>(precision_bits, compute, [&](const std::vector<Enclosure>& v) {
    return std::all_of(v.begin(), v.end(), [&](const Enclosure& e) { return NarrowEnough(e, precision_bits); });
  });
}

Enclosure QuantizedGaussianDivergence(const QuantizedGaussianParams& p, const Rational& x, const Rational& x_prime,
                                      const RenyiOrder& order, int precision_bits, QgMethod method) {
  ValidateQuantizedGaussian(p);
  ValidatePrecision(precision_bits);
  ValidateInput(p, x, "x");
  ValidateInput(p, x_prime, "x_prime");
  const Grid g(p);
  const bool applicable = SeriesApplicable(g, x) && SeriesApplicable(g, x_prime);
  if (method == QgMethod::kSeries && !applicable)
    throw InvalidArgument("method", "series evaluation needs k >= 3 and h (U + h) <= 1");
  const bool series = method == QgMethod::kSeries || (method == QgMethod::kAuto && applicable && g.k > 64);
  return AdaptiveScalar(precision_bits, [&](mpfr_prec_t w) {
    return series ? SeriesDivergence(g, x, x_prime, order, w) : DirectDivergence(g, x, x_prime, order, w);
  });
}

Enclosure QuantizedGaussianRdp(const QuantizedGaussianParams& p, const RenyiOrder& order, int precision_bits,
                               QgMethod method) {
  return QuantizedGaussianDivergence(p, Rational(p.clip / 2), Rational(-p.clip / 2), order, precision_bits, method);
}

QgTheorem2 QuantizedGaussianTheorem2(const QuantizedGaussianParams& p, int precision_bits) {
  ValidateQuantizedGaussian(p);
  ValidatePrecision(precision_bits);
  const Grid g(p);
  const Rational mu = -p.clip / 2, a = p.clip - g.delta;
  const Rational abar = (a - mu) / p.sigma, bbar = Rational(3) * p.clip / (Rational(2) * p.sigma);
  std::function<QgTheorem2(mpfr_prec_t)> compute = [&](mpfr_prec_t w) {
    const Enclosure dphi = PhiDiff(w, abar, bbar);
    const Enclosure I =
        (mu - a) * dphi + p.sigma * (NormalPdf(Enclosure(w, abar)) - NormalPdf(Enclosure(w, bbar)));
    return QgTheorem2{I, I / g.delta, Log(g.delta / I)};
  };
  return Adaptive<QgTheorem2>(precision_bits, compute, [&](const QgTheorem2& t) {
    return NarrowEnough(t.integral, precision_bits) && NarrowEnough(t.bound, precision_bits);
  });
}

Enclosure Lemma3Slope(const QuantizedGaussianParams& p, int precision_bits) {
  ValidateQuantizedGaussian(p);
  ValidatePrecision(precision_bits);
  const Grid g(p);
  const Rational mu = -p.clip / 2, a = p.clip - g.delta;
  const Rational abar = (a - mu) / p.sigma, bbar = Rational(3) * p.clip / (Rational(2) * p.sigma);
  return AdaptiveScalar(precision_bits, [&](mpfr_prec_t w) {
    // ∫_a^b f(y)(b − y) dy = (b − μ)ΔΦ − σ[φ(ā) − φ(b̄)], b − μ = 3C/2.
    const Enclosure down = Rational(3) * p.clip / Rational(2) * PhiDiff(w, abar, bbar) -
                           p.sigma * (NormalPdf(Enclosure(w, abar)) - NormalPdf(Enclosure(w, bbar)));
    return down / Rational(g.delta * g.delta);
  });
}

Enclosure ClampedGaussianDivergence(const Rational& sigma, const Rational& clip, const Rational& x,
                                    const Rational& x_prime, const RenyiOrder& order, int precision_bits) {
  Require("sigma", sigma, Domain::Positive(), EchoValue);
  Require("clip", clip, Domain::Positive(), EchoValue);
  ValidatePrecision(precision_bits);
  const QuantizedGaussianParams p{sigma, 2, clip};
  ValidateInput(p, x, "x");
  ValidateInput(p, x_prime, "x_prime");
  return AdaptiveScalar(precision_bits, [&](mpfr_prec_t w) {
    // Atoms at −C and +C.
    const Enclosure am = NormalCdf(Enclosure(w, Rational((-clip - x) / sigma)));
    const Enclosure amp = NormalCdf(Enclosure(w, Rational((-clip - x_prime) / sigma)));
    const Enclosure ap = NormalCdf(Enclosure(w, Rational((x - clip) / sigma)));
    const Enclosure app = NormalCdf(Enclosure(w, Rational((x_prime - clip) / sigma)));
    const Rational dx = x - x_prime;
    if (order.kind == RenyiOrder::Kind::kInfinity) {
      const Rational s2 = 2 * sigma * sigma;
      const Rational at_top = dx * (2 * clip - x - x_prime) / s2, at_bottom = dx * (-2 * clip - x - x_prime) / s2;
      const Enclosure dens(w, at_top > at_bottom ? at_top : at_bottom);
      return Max(Max(Log(am) - Log(amp), Log(ap) - Log(app)), dens);
    }
    if (order.kind == RenyiOrder::Kind::kKl) {
      const Rational a = (-clip - x) / sigma, b = (clip - x) / sigma;
      const Enclosure inner = dx * PhiDiff(w, a, b) +
                              Rational(2) * sigma * (NormalPdf(Enclosure(w, a)) - NormalPdf(Enclosure(w, b)));
      return am * (Log(am) - Log(amp)) + ap * (Log(ap) - Log(app)) + Rational(dx / (2 * sigma * sigma)) * inner;
    }
    const Rational& alpha = order.alpha;
    const Enclosure ae(w, alpha), be(w, Rational(1 - alpha));
    const Rational mu = alpha * x + (1 - alpha) * x_prime;
    const Enclosure middle = ExpQ(w, Rational(alpha * (alpha - 1) * dx * dx / (2 * sigma * sigma))) *
                             PhiDiff(w, Rational((-clip - mu) / sigma), Rational((clip - mu) / sigma));
    const Enclosure total = Exp(ae * Log(am) + be * Log(amp)) + Exp(ae * Log(ap) + be * Log(app)) + middle;
    return Log(total) / Rational(alpha - 1);
  });
}

std::optional<Rational> GaussianRdpExact(const Rational& sigma, const Rational& sensitivity, const RenyiOrder& order) {
  Require("sigma", sigma, Domain::Positive(), EchoValue);
  Require("sensitivity", sensitivity, Domain::NonNegative(), EchoValue);
  const Rational base = sensitivity * sensitivity / (2 * sigma * sigma);
  switch (order.kind) {
    case RenyiOrder::Kind::kKl: return base;
    case RenyiOrder::Kind::kFinite: return Rational(order.alpha * base);
    case RenyiOrder::Kind::kInfinity: return std::nullopt;
  }
  return std::nullopt;
}

Enclosure QuantizedGaussianVectorDivergence(const QuantizedGaussianParams& p, const std::vector<Rational>& xs,
                                            const std::vector<Rational>& xs_prime, const RenyiOrder& order,
                                            int precision_bits) {
  if (xs.empty() || xs.size() != xs_prime.size())
    throw InvalidArgument("x_prime", "input vectors must be non-empty and of equal length");
  std::optional<Enclosure> sum;
  for (size_t j = 0; j < xs.size(); ++j) {
    Enclosure d = QuantizedGaussianDivergence(p, xs[j], xs_prime[j], order, precision_bits);
    sum = sum ? *sum + d : d;
  }
  return *sum;
}

QgVectorRdp QuantizedGaussianVectorRdp(const QuantizedGaussianParams& p, long dimension, long rounds,
                                       const RenyiOrder& order, int precision_bits) {
  if (dimension < 1) throw InvalidArgument("dimension", "must be >= 1, got " + std::to_string(dimension));
  if (rounds < 1) throw InvalidArgument("rounds", "must be >= 1, got " + std::to_string(rounds));
  const Enclosure eps = QuantizedGaussianRdp(p, order, precision_bits);
  const Enclosure composed = eps * Rational(dimension) * Rational(rounds);
  std::optional<Rational> dpi = GaussianRdpExact(p.sigma, p.clip, order);
  if (dpi) *dpi *= rounds;
  const Enclosure bound = dpi ? Min(composed, Enclosure(composed.prec(), *dpi)) : composed;
  return {eps, composed, dpi, bound};
}

}  // namespace dpfl::ref
