// dpfl::ref — the implemented law of production's quantized Gaussian on its noise grid (see
// quantized_gaussian_grid.hpp for the rule, the kernel and the sums).
#include "dpfl/ref/quantized_gaussian_grid.hpp"

#include <algorithm>
#include <string>

#include "dpfl/ref/discrete_noise.hpp"
#include "dpfl/validate.hpp"

namespace dpfl::ref {
namespace {

Int CeilInt(const Rational& x) { return -FloorInt(Rational(-x)); }

// T₀ = Σ_{z=a}^{b} f(z) and T₁ = Σ_{z=a}^{b} z f(z) (unnormalised, f(z) = e^{−z²/(2s²)}), a ≤ b.
struct RangeSums {
  Enclosure t0, t1;
};
RangeSums Range(const DiscreteGaussianLaw& law, const Int& a, const Int& b) {
  if (b < 0) {  // mirror: z → −z keeps f and negates z
    RangeSums m = Range(law, Int(-b), Int(-a));
    return {m.t0, -m.t1};
  }
  if (a >= 0) {
    const Int next = b + 1;
    return {law.TailSum(a) - law.TailSum(next), law.FirstMomentTailSum(a) - law.FirstMomentTailSum(next)};
  }
  // a < 0 ≤ b: split at 0; Σ_{z=a}^{−1} z f(z) = −Σ_{z=1}^{−a} z f(z).
  const RangeSums upper = Range(law, Int(0), b);
  const RangeSums lower = Range(law, Int(1), Int(-a));
  return {upper.t0 + lower.t0, upper.t1 - lower.t1};
}

// The sum cell by cell from range sums (any s²; used for s² > 2^20, where the Euler–Maclaurin
// tails make each range O(1)).
std::vector<Enclosure> PmfByCells(const QgGrid& g, const DiscreteGaussianLaw& law, const Int& p) {
  const mpfr_prec_t prec = law.prec();
  const Int m = Int(1) << g.step_bits;
  const long k = g.levels;
  std::vector<Enclosure> pmf(static_cast<size_t>(k), Enclosure(prec, 0L));
  // Saturation: n < 0 ⇔ z ≤ −p − 1 → index 0; n ≥ L ⇔ z ≥ L − p → index k − 1.
  // P(Z ≤ −p − 1) = S₀(p + 1) by symmetry (p ≥ 0); P(Z ≥ L − p) = S₀(L − p) (L − p ≥ 0).
  pmf[0] += law.TailSum(Int(p + 1));
  pmf[static_cast<size_t>(k - 1)] += law.TailSum(Int(g.span - p));
  for (long j = 0; j + 1 < k; ++j) {
    const Int a = Int(j) * m - p, b = Int(j + 1) * m - 1 - p;
    const RangeSums s = Range(law, a, b);
    const Enclosure upper = (s.t1 - s.t0 * Rational(a)) / Rational(m);
    pmf[static_cast<size_t>(j + 1)] += upper;
    pmf[static_cast<size_t>(j)] += s.t0 - upper;
  }
  for (Enclosure& e : pmf) e = e / law.Normalizer();
  return pmf;
}

// The sum term by term for s² ≤ 2^20 (|z| ≤ 40s suffices at any precision below ~1100 bits;
// the remainder beyond is enclosed, not dropped).
std::vector<Enclosure> PmfByTerms(const QgGrid& g, const DiscreteGaussianLaw& law, const Int& p) {
  const mpfr_prec_t prec = law.prec();
  const long k = g.levels;
  const long mbits = g.step_bits;
  const long m = 1L << mbits;
  const long span = g.span.convert_to<long>();
  const long pos = p.convert_to<long>();
  // Z: the smallest multiple of 16 with Z² ≥ 2s²·(prec + 40)·ln 2, so f(Z) ≤ 2^−(prec+40).
  const Rational need = Rational(2) * Rational(g.sigma2) * Rational(static_cast<long>(prec) + 40) * Rational(7, 10);
  long zmax = 16;
  while (Rational(zmax) * Rational(zmax) < need) zmax *= 2;
  std::vector<Enclosure> pmf(static_cast<size_t>(k), Enclosure(prec, 0L));
  const Rational c = Rational(1) / (2 * Rational(g.sigma2));
  // Walk z = −zmax … zmax with f(z + 1) = f(z)·r_z, r_z = e^{−(2z+1)c}, r_{z+1} = r_z·e^{−2c}.
  Enclosure f = ExpQ(prec, Rational(-c * zmax * zmax));
  Enclosure r = ExpQ(prec, Rational(-c * (2 * Rational(-zmax) + 1)));
  const Enclosure step = ExpQ(prec, Rational(-2 * c));
  for (long z = -zmax; z <= zmax; ++z) {
    long n = pos + z;
    if (n <= 0) {
      pmf[0] += f;
    } else if (n >= span) {
      pmf[static_cast<size_t>(k - 1)] += f;
    } else {
      const long j = std::min(n >> mbits, k - 2);
      const long frac = n - (j << mbits);  // in (0, M]
      const Enclosure up = f * Rational(frac, m);
      pmf[static_cast<size_t>(j + 1)] += up;
      pmf[static_cast<size_t>(j)] += f - up;
    }
    f *= r;
    r *= step;
  }
  // Remainder: Σ_{|z| > Z} f(z) ≤ 2 f(Z + 1)/(1 − r_{Z+1}) (r decreasing beyond Z), assigned to
  // every index as [0, remainder] (each index receives at most all of it).
  const Rational z1(zmax + 1);
  const Enclosure f1 = ExpQ(prec, Rational(-c * z1 * z1));
  const Enclosure r1 = ExpQ(prec, Rational(-c * (2 * z1 + 1)));
  const Enclosure remainder = Rational(2) * f1 / (Rational(1) - r1);
  for (Enclosure& e : pmf) e = (e + Hull(Enclosure(prec, 0L), remainder)) / law.Normalizer();
  return pmf;
}

}  // namespace

QgGrid QuantizedGaussianGridFor(const Rational& sigma, long levels, const Rational& clip) {
  Require("sigma", sigma, Domain::Positive(), EchoValue);
  Require("clip", clip, Domain::Positive(), EchoValue);
  if (levels < 2 || levels > kQgGridMaxLevels)
    throw InvalidArgument("levels", "number of levels k must be in [2, 65536], got " + std::to_string(levels));
  const Int limit = Int(1) << 62;
  for (int m = kQgGridStepBits; m >= kQgGridMinStepBits; --m) {
    QgGrid g;
    g.levels = levels;
    g.step_bits = m;
    g.span = Int(levels - 1) << m;
    g.clip = clip;
    g.unit = Rational(2) * clip / Rational(g.span);
    const Rational ratio = sigma / g.unit;
    g.sigma2 = CeilInt(Rational(ratio * ratio));
    if (g.sigma2 < 1) g.sigma2 = 1;
    g.radius = g.span / 4;
    if (g.sigma2 < limit) return g;
  }
  throw InvalidArgument("sigma", "sigma = " + EchoValue(sigma) +
                                     " is too large for the quantizer step 2C/(k-1): (sigma/g)^2 >= 2^62 even "
                                     "with 4 grid points per step (the output would be noise)");
}

Int QuantizedGaussianGridPosition(const QgGrid& grid, const Rational& x) {
  const Rational half = grid.clip / 2;
  const Rational clipped = x > half ? half : x < -half ? Rational(-half) : x;
  const Rational t = clipped / grid.unit;
  // Nearest, ties away from zero: ⌊|t| + 1/2⌋ with the sign of t.
  const Rational at = t < 0 ? Rational(-t) : t;
  const Int mag = FloorInt(Rational(at + Rational(1, 2)));
  return t < 0 ? Int(-mag) : mag;
}

std::vector<Enclosure> QuantizedGaussianGridPmf(const QgGrid& grid, const Int& q, int precision_bits,
                                                DiscreteGaussianSum method) {
  ValidatePrecision(precision_bits);
  if (q > grid.radius || q < -grid.radius)
    throw InvalidArgument("q", "grid position must lie in [-L/4, L/4] = [-" + grid.radius.str() + ", " +
                                   grid.radius.str() + "], got " + q.str());
  if (method == DiscreteGaussianSum::kDirect && grid.sigma2 > (Int(1) << 24))
    throw InvalidArgument("method", "the term-by-term sum needs s^2 <= 2^24, got " + grid.sigma2.str());
  // Guard bits for the cancellation in T₁ − a·T₀ (|a| up to L ≤ 2^32 grid units).
  const mpfr_prec_t prec = precision_bits + 96;
  const DiscreteGaussianLaw law(Rational(grid.sigma2), prec, method);
  const Int p = grid.span / 2 + q;
  return law.method() == DiscreteGaussianSum::kDirect ? PmfByTerms(grid, law, p) : PmfByCells(grid, law, p);
}

}  // namespace dpfl::ref
