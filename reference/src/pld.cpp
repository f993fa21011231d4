// dpfl::ref::pld — discretization, composition and queries (see pld.hpp for why each bound holds).
#include "dpfl/ref/pld.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "dpfl/validate.hpp"

namespace dpfl::ref::pld {
namespace {

constexpr double kU = 0x1p-53;

double Gamma(double k) { return k * kU / (1.0 - k * kU) * (1 + 0x1p-50); }

// Floor / ceiling of an MPFR endpoint divided by the exact step, as integers.
std::int64_t FloorDiv(const Rational& x, const Rational& step) {
  const Int f = FloorInt(Rational(x / step));
  if (f > Int(std::int64_t{1} << 60) || f < -Int(std::int64_t{1} << 60))
    throw InvalidArgument("step", "the loss range over the grid step exceeds 2^60 points");
  return f.convert_to<std::int64_t>();
}
std::int64_t CeilDiv(const Rational& x, const Rational& step) { return -FloorDiv(Rational(-x), step); }

// Adds `mass` at grid index k of a sparse accumulator.
using Sparse = std::map<std::int64_t, double>;

GridMeasure Densify(const Sparse& s, double infinity) {
  GridMeasure m;
  m.infinity = infinity;
  if (s.empty()) return m;
  m.offset = s.begin()->first;
  const std::int64_t last = s.rbegin()->first;
  m.mass.assign(static_cast<std::size_t>(last - m.offset + 1), 0.0);
  for (const auto& [k, v] : s) m.mass[static_cast<std::size_t>(k - m.offset)] += v;
  return m;
}

double UpD(const Enclosure& e) { return std::max(0.0, e.HiDouble()); }
double DownD(const Enclosure& e) { return std::max(0.0, e.LoDouble()); }

// Sums that round up (non-negative terms; relative error ≤ γ_n) or down.
double SumUp(double a, double b) { return std::nextafter(a + b, HUGE_VAL); }

void ValidateStep(const Rational& step) {
  if (!(step > 0)) throw InvalidArgument("step", "the grid step must be > 0, got " + EchoValue(step));
}

// Folds tails (see pld.hpp): upper = true for the pessimistic measure. A tail is cut when its
// mass is at most `tail` plus twice what the convolution's rounding can put there (E·√length by
// Cauchy–Schwarz, E the ℓ2 error bound), so rounding noise does not keep a tail alive; where the
// mass goes is valid either way.
void Truncate(GridMeasure& m, bool upper, double tail, double per_entry) {
  const std::size_t n = m.mass.size();
  if (n < 2) return;
  // Bottom: largest prefix [0, b) with mass ≤ threshold.
  std::size_t b = 0;
  double acc = 0;
  while (b + 1 < n) {
    const double next = acc + m.mass[b];
    if (next > tail + 2 * per_entry * std::sqrt(static_cast<double>(b + 1))) break;
    acc = next;
    ++b;
  }
  // Top: largest suffix [t, n) with mass ≤ threshold, t > b.
  std::size_t t = n;
  double acc_top = 0;
  while (t > b + 1) {
    const double next = acc_top + m.mass[t - 1];
    if (next > tail + 2 * per_entry * std::sqrt(static_cast<double>(n - t + 1))) break;
    acc_top = next;
    --t;
  }
  if (b == 0 && t == n) return;
  const double g_b = Gamma(static_cast<double>(b + 2)), g_t = Gamma(static_cast<double>(n - t + 2));
  std::vector<double> kept(m.mass.begin() + static_cast<std::ptrdiff_t>(b), m.mass.begin() + static_cast<std::ptrdiff_t>(t));
  if (upper) {
    if (b > 0) kept.front() = SumUp(kept.front(), acc * (1 + g_b) * (1 + 0x1p-50));
    if (t < n) m.infinity = SumUp(m.infinity, acc_top * (1 + g_t) * (1 + 0x1p-50));
  } else {
    if (t < n) kept.back() = kept.back() + std::max(0.0, acc_top * (1 - 2 * g_t));  // rounding of + is ≤ u: below
    if (t < n) kept.back() = std::nextafter(kept.back(), 0.0);
  }
  m.offset += static_cast<std::int64_t>(b);
  m.mass = std::move(kept);
}

}  // namespace

double GridMeasure::Total() const {
  double s = infinity;
  for (double v : mass) s += v;
  return s;
}

Pld FromPmfs(const std::vector<Rational>& p, const std::vector<Rational>& q, const Rational& step, mpfr_prec_t prec) {
  ValidateStep(step);
  if (p.empty()) throw InvalidArgument("p", "the pmf is empty");
  if (p.size() != q.size())
    throw InvalidArgument("q", "p and q must have the same length (" + std::to_string(p.size()) + " vs " +
                                   std::to_string(q.size()) + ")");
  Rational sp = 0, sq = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] < 0) throw InvalidArgument("p", "entry " + std::to_string(i) + " is negative: " + EchoValue(p[i]));
    if (q[i] < 0) throw InvalidArgument("q", "entry " + std::to_string(i) + " is negative: " + EchoValue(q[i]));
    sp += p[i];
    sq += q[i];
  }
  if (sp != 1) throw InvalidArgument("p", "must sum to 1 exactly, sums to " + EchoValue(sp));
  if (sq != 1) throw InvalidArgument("q", "must sum to 1 exactly, sums to " + EchoValue(sq));
  Sparse up, lo;
  Enclosure inf(prec, 0L);
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == 0) continue;
    const Enclosure mass(prec, p[i]);
    if (q[i] == 0) {
      inf = inf + mass;
      continue;
    }
    const Interval loss = ToInterval(LogQ(prec, Rational(p[i] / q[i])));
    up[CeilDiv(loss.hi(), step)] += UpD(mass);
    lo[FloorDiv(loss.lo(), step)] += DownD(mass);
  }
  // Accumulated doubles: += rounds; nudge each entry outward by one ulp per contribution is
  // overkill — instead re-round: each entry is a sum of ≤ |p| terms, relative error ≤ γ_|p|.
  const double g = Gamma(static_cast<double>(p.size() + 2));
  for (auto& [k, v] : up) v = std::nextafter(v * (1 + g), HUGE_VAL);
  for (auto& [k, v] : lo) v = std::nextafter(v * (1 - g), 0.0);
  Pld out;
  out.step = step;
  out.upper = Densify(up, UpD(inf));
  out.lower = Densify(lo, DownD(inf));
  return out;
}

LossLaw::BinBounds LossLaw::BinMasses(std::int64_t k0, std::size_t n, const Rational& step, mpfr_prec_t prec) const {
  BinBounds out;
  out.lo.reserve(n);
  out.hi.reserve(n);
  Enclosure prev = Cdf(Rational(step * k0), prec);
  for (std::size_t i = 1; i <= n; ++i) {
    Enclosure next = Cdf(Rational(step * (k0 + static_cast<std::int64_t>(i))), prec);
    const Enclosure m = next - prev;
    out.lo.push_back(DownD(m));
    out.hi.push_back(UpD(m));
    prev = std::move(next);
  }
  return out;
}

namespace {
// He_j(y) for j = 0..6 (probabilists' Hermite polynomials: φ^{(j)} = (−1)^j He_j φ).
std::array<Enclosure, 7> Hermite(const Enclosure& y) {
  const mpfr_prec_t prec = y.prec();
  std::array<Enclosure, 7> he{Enclosure(prec, 1L), y, Enclosure(prec, 0L), Enclosure(prec, 0L), Enclosure(prec, 0L),
                              Enclosure(prec, 0L), Enclosure(prec, 0L)};
  for (long j = 1; j < 6; ++j) he[j + 1] = y * he[j] - Rational(j) * he[j - 1];  // He_{j+1} = y He_j − j He_{j−1}
  return he;
}
}  // namespace

Enclosure NormalMassFrom(const Enclosure& a, const Enclosure& w, const Enclosure& phi_a) {
  const mpfr_prec_t prec = a.prec();
  // Sub-intervals of width ≤ 1/32 keep the order-6 remainder (≤ sup|He_6 φ|·w^7/7!) tiny.
  const double wd = w.HiDouble();
  const long pieces = std::max(1L, static_cast<long>(std::ceil(wd * 32)));
  const Enclosure dw = w / Rational(pieces);
  const Enclosure inv_sqrt_2pi = Enclosure(prec, 1L) / Sqrt(Rational(2) * Pi(prec));
  Enclosure total(prec, 0L), start = a, phi = phi_a;
  for (long p = 0; p < pieces; ++p) {
    const auto he = Hermite(start);
    // Σ_{j<6} φ^{(j)}(start) dw^{j+1}/(j+1)!
    Enclosure sum(prec, 0L), pw = dw;
    Rational fact = 1;
    for (long j = 0; j < 6; ++j) {
      fact *= (j + 1);
      const Enclosure term = he[j] * pw / fact;
      sum = (j % 2 == 0) ? sum + term : sum - term;
      pw = pw * dw;
    }
    // Remainder: |He_6(Y)| φ(Y) over Y = start + [0, dw]; φ(Y) ≤ e^{−min Y²/2}/√(2π).
    const Enclosure Y = Hull(start, start + dw);
    const Enclosure he6 = Hermite(Y)[6];
    // The upper end of Exp(−Y²/2) is the sup of e^{−y²/2} over Y (MPFI encloses the range).
    const Enclosure rem_mag = Abs(he6) * Exp(-Sqr(Y) / Rational(2)) * inv_sqrt_2pi * pw / (fact * 7);  // pw = dw^7
    const Enclosure rem = Hull(-rem_mag, rem_mag);  // [−sup, sup]
    total = total + phi * sum + rem;
    if (p + 1 < pieces) {  // φ(start + dw) = φ(start)·e^{−start·dw − dw²/2}
      phi = phi * Exp(-(start * dw) - Sqr(dw) / Rational(2));
      start = start + dw;
    }
  }
  return total;
}

Pld FromLossLaw(const LossLaw& law, const Rational& step, double tail, mpfr_prec_t prec) {
  ValidateStep(step);
  const auto [t_lo, t_hi] = law.Range(tail);
  const double h = step.convert_to<double>();
  if (!(std::isfinite(t_lo) && std::isfinite(t_hi) && t_lo <= t_hi))
    throw InvalidArgument("mechanism", "the loss range is not finite");
  const double bin_count = (t_hi - t_lo) / h;
  if (!(bin_count < 5e7))
    throw InvalidArgument("step", "the loss of this mechanism spans [" + ShortestDouble(t_lo) + ", " +
                                      ShortestDouble(t_hi) + "]: more than 5e7 grid points at step " +
                                      ShortestDouble(h) + "; give a coarser --step");
  if (!(std::abs(t_lo / h) < 0x1p60 && std::abs(t_hi / h) < 0x1p60))
    throw InvalidArgument("step", "the loss range over the grid step exceeds 2^60 points");
  const std::int64_t k_min = static_cast<std::int64_t>(std::floor(t_lo / h));
  const std::int64_t k_max = std::max(k_min + 1, static_cast<std::int64_t>(std::ceil(t_hi / h)));
  const std::size_t n = static_cast<std::size_t>(k_max - k_min + 1);
  const Enclosure F_first = law.Cdf(Rational(step * k_min), prec);
  const Enclosure F_last = law.Cdf(Rational(step * k_max), prec);
  const LossLaw::BinBounds bins = law.BinMasses(k_min, n - 1, step, prec);  // bin i−1: F(k h) − F((k−1) h)
  const Enclosure inf = law.InfiniteMass(prec);
  Pld out;
  out.step = step;
  // Upper: index i ↔ k_min + i. Bin 0 holds F(k_min h); bin i holds F(k h) − F((k−1) h).
  out.upper.offset = k_min;
  out.upper.mass.resize(n);
  out.upper.mass[0] = UpD(F_first);
  for (std::size_t i = 1; i < n; ++i) out.upper.mass[i] = bins.hi[i - 1];
  out.upper.infinity = UpD(Enclosure(prec, 1L) - F_last);
  // Lower: bin ((k−1)h, kh] at (k−1)h, i.e. index i−1 ↔ k_min + i − 1; finite top mass at k_max.
  out.lower.offset = k_min;
  out.lower.mass.assign(n, 0.0);
  for (std::size_t i = 1; i < n; ++i) out.lower.mass[i - 1] = bins.lo[i - 1];
  out.lower.mass[n - 1] = DownD(Enclosure(prec, 1L) - F_last - inf);
  out.lower.infinity = DownD(inf);
  return out;
}

Pld Compose(const Pld& a, const Pld& b, const ComposeOptions& options) {
  if (a.step != b.step)
    throw InvalidArgument("step", "composed PLDs must share the grid step (" + EchoValue(a.step) + " vs " +
                                      EchoValue(b.step) + ")");
  const bool same = &a == &b;
  ConvolutionBounds c = same ? ConvolveBounds(a.upper.mass, a.upper.mass, a.lower.mass, a.lower.mass)
                             : ConvolveBounds(a.upper.mass, b.upper.mass, a.lower.mass, b.lower.mass);
  Pld out;
  out.step = a.step;
  out.upper.offset = a.upper.offset + b.upper.offset;
  out.upper.mass = std::move(c.upper);
  out.lower.offset = a.lower.offset + b.lower.offset;
  out.lower.mass = std::move(c.lower);
  // +∞ absorbs: (a_fin + a_inf)(b_fin + b_inf) has infinite part a_inf·B + A_fin·b_inf.
  auto total_fin = [](const std::vector<double>& v, bool up) {
    double s = 0;
    for (double x : v) s += x;
    const double g = Gamma(static_cast<double>(v.size() + 2));
    return up ? std::nextafter(s * (1 + g), HUGE_VAL) : std::max(0.0, s * (1 - 2 * g));
  };
  const double a_up = total_fin(a.upper.mass, true), b_up = total_fin(b.upper.mass, true);
  out.upper.infinity = std::nextafter(
      (a.upper.infinity * (b_up + b.upper.infinity) + a_up * b.upper.infinity) * (1 + 4 * kU) * (1 + 0x1p-50),
      HUGE_VAL);
  out.upper.infinity = std::nextafter(out.upper.infinity + c.upper_extra, HUGE_VAL);
  const double a_lo = total_fin(a.lower.mass, false), b_lo = total_fin(b.lower.mass, false);
  out.lower.infinity = std::max(
      0.0, (a.lower.infinity * (b_lo + b.lower.infinity) + a_lo * b.lower.infinity) * (1 - 8 * kU));
  // Deficits subtract a·(mass of everything composed with it): (A − d_a)(B − d_b) ≥ AB − d_a B − d_b A.
  const double a_all = total_fin(a.lower.mass, true) + a.lower.infinity;
  const double b_all = total_fin(b.lower.mass, true) + b.lower.infinity;
  out.lower.deficit = std::nextafter(
      (a.lower.deficit * b_all + b.lower.deficit * a_all + c.lower_deficit) * (1 + 8 * kU), HUGE_VAL);
  Truncate(out.upper, true, options.tail, c.fft_error);
  Truncate(out.lower, false, options.tail, c.fft_error);
  return out;
}

Pld SelfCompose(const Pld& a, std::uint64_t times, const ComposeOptions& options) {
  if (times < 1) throw InvalidArgument("compositions", "must be >= 1");
  std::optional<Pld> result;
  Pld power = a;
  while (true) {
    if (times & 1) result = result ? Compose(*result, power, options) : power;
    times >>= 1;
    if (times == 0) break;
    power = Compose(power, power, options);
  }
  return *result;
}

PldPair Compose(const PldPair& a, const PldPair& b, const ComposeOptions& options) {
  PldPair out;
  out.forward = Compose(a.forward, b.forward, options);
  if (a.backward || b.backward)
    out.backward = Compose(a.backward ? *a.backward : a.forward, b.backward ? *b.backward : b.forward, options);
  return out;
}

PldPair SelfCompose(const PldPair& a, std::uint64_t times, const ComposeOptions& options) {
  PldPair out;
  out.forward = SelfCompose(a.forward, times, options);
  if (a.backward) out.backward = SelfCompose(*a.backward, times, options);
  return out;
}

// ---- queries -------------------------------------------------------------------------------
namespace {

// Suffix sums T_j = Σ_{k≥j} m_k and U_j = Σ_{k≥j} m_k r^{k−j} (backward Horner) over a measure,
// with r enclosing e^{−h}. Bounds: `hi` versions round up (r_hi), `lo` versions down (r_lo).
struct Suffixes {
  std::vector<double> T, U;  // size n + 1, T[n] = U[n] = 0
};

Suffixes BuildSuffixes(const std::vector<double>& m, double r, bool upper) {
  const std::size_t n = m.size();
  Suffixes s;
  s.T.assign(n + 1, 0.0);
  s.U.assign(n + 1, 0.0);
  for (std::size_t j = n; j-- > 0;) {
    s.T[j] = s.T[j + 1] + m[j];
    s.U[j] = m[j] + r * s.U[j + 1];
  }
  // |fl − exact| ≤ γ_{2(n−j)}·exact for non-negative terms (Higham 2002, §3.1 and §5.1), plus an
  // absolute 2^−1000 for underflow in the products.
  for (std::size_t j = 0; j <= n; ++j) {
    const double g = Gamma(2.0 * static_cast<double>(n - j) + 4);
    if (upper) {
      s.T[j] = std::nextafter(s.T[j] * (1 + g), HUGE_VAL);
      s.U[j] = std::nextafter(s.U[j] * (1 + g), HUGE_VAL) + 0x1p-1000;
    } else {
      s.T[j] = std::max(0.0, std::nextafter(s.T[j] * (1 - g), 0.0));
      s.U[j] = std::max(0.0, std::nextafter(s.U[j] * (1 - g), 0.0) - 0x1p-1000);
    }
  }
  return s;
}

Rational D(double x) { return Rational(x); }  // exact: a double is a dyadic rational

// The pieces of a measure needed to evaluate δ at any ε: for ε ∈ [s_{j−1}, s_j] (s_k grid points
// of the measure), δ(ε) = inf + T_j − e^{ε − s_j}·U_j.
struct CurveBound {
  const GridMeasure* m;
  Rational step;
  bool upper;
  Rational inf;  // the atom at +∞, minus the deficit for a lower measure (exact)
  Suffixes sfx;  // upper curve: T_hi and U_lo; lower curve: T_lo and U_hi
  Rational S(std::int64_t j) const { return step * (m->offset + j); }
};

CurveBound MakeCurve(const GridMeasure& m, const Rational& step, bool upper, mpfr_prec_t prec) {
  const Enclosure r = Exp(Enclosure(prec, Rational(-step)));
  CurveBound c{&m, step, upper, Rational(D(m.infinity)) - Rational(D(m.deficit)), {}};
  // Upper curve subtracts e^{…}U: needs U from below (r_lo) and T from above.
  Suffixes t = BuildSuffixes(m.mass, upper ? r.LoDouble() : r.HiDouble(), upper);
  Suffixes u = BuildSuffixes(m.mass, upper ? r.LoDouble() : r.HiDouble(), !upper);
  c.sfx.T = std::move(t.T);
  c.sfx.U = std::move(u.U);
  return c;
}

// δ-bound at ε for the segment index j (0 ≤ j ≤ n): valid for ε ∈ [s_{j−1}, s_j] (j = 0: ε ≤ s_0;
// j = n: ε ≥ s_{n−1}). Upper curve returns an upper end, lower curve a lower end.
Enclosure Evaluate(const CurveBound& c, std::size_t j, const Rational& eps, mpfr_prec_t prec) {
  const std::size_t n = c.m->mass.size();
  const Enclosure base = Enclosure(prec, c.inf) + Enclosure(prec, D(c.sfx.T[j]));
  if (j == n) return base;
  const Enclosure e = Exp(Enclosure(prec, Rational(eps - c.S(static_cast<std::int64_t>(j)))));
  return base - e * Enclosure(prec, D(c.sfx.U[j]));
}

// Segment containing ε: the smallest j with s_j ≥ ε (n if none).
std::size_t SegmentOf(const CurveBound& c, const Rational& eps) {
  const std::size_t n = c.m->mass.size();
  if (n == 0) return 0;
  const Rational rel = eps / c.step - c.m->offset;  // ε = (offset + rel)·h
  const Int ceil = -FloorInt(Rational(-rel));
  if (ceil <= 0) return 0;
  if (ceil >= Int(static_cast<std::int64_t>(n))) return n;
  return static_cast<std::size_t>(ceil.convert_to<std::int64_t>());
}

Rational Clamp01(const Rational& x) { return x < 0 ? Rational(0) : (x > 1 ? Rational(1) : x); }

}  // namespace

DeltaBounds DeltaForEpsilon(const Pld& pld, const Rational& epsilon, mpfr_prec_t prec) {
  if (epsilon < 0) throw InvalidArgument("epsilon", "must be >= 0, got " + EchoValue(epsilon));
  const CurveBound up = MakeCurve(pld.upper, pld.step, true, prec);
  const CurveBound lo = MakeCurve(pld.lower, pld.step, false, prec);
  DeltaBounds out;
  out.hi = Clamp01(ToInterval(Evaluate(up, SegmentOf(up, epsilon), epsilon, prec)).hi());
  out.lo = Clamp01(ToInterval(Evaluate(lo, SegmentOf(lo, epsilon), epsilon, prec)).lo());
  if (out.lo > out.hi) out.lo = out.hi;  // cannot happen for valid bounds; keeps lo ≤ hi on ties
  return out;
}

EpsilonBounds EpsilonForDelta(const Pld& pld, const Rational& delta, mpfr_prec_t prec) {
  Require("delta", delta, Domain::OpenUnit(), EchoValue);
  EpsilonBounds out;
  // ---- upper end: any ε with δ_upper(ε) ≤ δ.
  {
    const CurveBound c = MakeCurve(pld.upper, pld.step, true, prec);
    const std::size_t n = pld.upper.mass.size();
    if (c.inf < delta) {
      // Smallest j with bound(s_j) ≤ δ, by bisection on j ∈ [0, n] (bound(s_n) = inf < δ).
      auto ok_at = [&](std::size_t j) {
        const Rational s = j < n ? c.S(static_cast<std::int64_t>(j)) : c.S(static_cast<std::int64_t>(n) - 1);
        const std::size_t seg = std::min(j, n);
        return ToInterval(Evaluate(c, seg, s, prec)).hi() <= delta;
      };
      std::size_t lo = 0, hi = n;
      if (ok_at(0)) {
        hi = 0;
      } else {
        while (hi - lo > 1) {
          const std::size_t mid = (lo + hi) / 2;
          (ok_at(mid) ? hi : lo) = mid;
        }
      }
      const std::size_t j = hi;
      Rational eps_hi;
      if (j == 0 || n == 0) {
        eps_hi = n == 0 ? Rational(0) : Rational(std::max(Rational(0), c.S(0)));
        if (n > 0 && c.S(0) > 0) {
          // δ bound at any ε ≤ s_0 uses segment 0: solve inf + T_0 − e^{ε−s_0} U_0 = δ.
          const Enclosure num = Enclosure(prec, c.inf) + Enclosure(prec, D(c.sfx.T[0])) - Enclosure(prec, delta);
          if (CertainlyPositive(num) && c.sfx.U[0] > 0) {
            const Enclosure x = Enclosure(prec, c.S(0)) + Log(num / Enclosure(prec, D(c.sfx.U[0])));
            eps_hi = std::max(Rational(0), std::min(c.S(0), ToInterval(x).hi()));
          } else if (CertainlyNonPositive(num)) {
            eps_hi = 0;
          }
        }
      } else if (j == n) {
        // bound(s_{n−1}) > δ only just failed; at ε ≥ s_{n−1} the bound is inf + T_n = inf < δ.
        eps_hi = std::max(Rational(0), c.S(static_cast<std::int64_t>(n) - 1));
      } else {
        // Segment j covers [s_{j−1}, s_j]: ε* = s_j + log((inf + T_j − δ)/U_j).
        const Rational s_prev = c.S(static_cast<std::int64_t>(j) - 1), s_j = c.S(static_cast<std::int64_t>(j));
        const Enclosure num = Enclosure(prec, c.inf) + Enclosure(prec, D(c.sfx.T[j])) - Enclosure(prec, delta);
        eps_hi = s_j;
        if (CertainlyPositive(num) && c.sfx.U[j] > 0) {
          const Enclosure x = Enclosure(prec, s_j) + Log(num / Enclosure(prec, D(c.sfx.U[j])));
          eps_hi = std::min(s_j, std::max(s_prev, ToInterval(x).hi()));
        } else if (CertainlyNonPositive(num)) {
          eps_hi = s_prev;  // inf + T_j ≤ δ: the bound is ≤ δ on the whole segment
        }
        eps_hi = std::max(Rational(0), eps_hi);
      }
      out.hi = eps_hi;
    }
  }
  // ---- lower end: any ε' such that δ_lower(ε) > δ for every ε < ε'.
  {
    const CurveBound c = MakeCurve(pld.lower, pld.step, false, prec);
    const std::size_t n = pld.lower.mass.size();
    if (c.inf > delta) {
      out.lo.reset();  // the optimistic atom at +∞ already exceeds δ: ε(δ) = +∞ (then so is hi)
      out.hi.reset();
      return out;
    }
    // Largest j with bound(s_{j−1}) > δ (segment j = [s_{j−1}, s_j]); j = 0: none.
    auto above_at = [&](std::size_t j) {  // bound at s_{j−1}, j ≥ 1, evaluated in segment j
      const Rational s = c.S(static_cast<std::int64_t>(j) - 1);
      return ToInterval(Evaluate(c, j, s, prec)).lo() > delta;
    };
    Rational eps_lo = 0;
    if (n > 0 && above_at(1)) {
      std::size_t lo = 1, hi = n + 1;  // above_at(lo) holds; find the last j ≤ n with above_at(j)
      while (hi - lo > 1) {
        const std::size_t mid = (lo + hi) / 2;
        (above_at(mid) ? lo : hi) = mid;
      }
      const std::size_t j = lo;
      const Rational s_prev = c.S(static_cast<std::int64_t>(j) - 1);
      if (j == n) {
        eps_lo = s_prev;  // beyond s_{n−1} the lower curve is the constant inf ≤ δ
      } else {
        const Rational s_j = c.S(static_cast<std::int64_t>(j));
        const Enclosure num = Enclosure(prec, c.inf) + Enclosure(prec, D(c.sfx.T[j])) - Enclosure(prec, delta);
        eps_lo = s_prev;
        if (CertainlyPositive(num) && c.sfx.U[j] > 0) {
          const Enclosure x = Enclosure(prec, s_j) + Log(num / Enclosure(prec, D(c.sfx.U[j])));
          eps_lo = std::max(s_prev, std::min(s_j, ToInterval(x).lo()));
        }
      }
    }
    out.lo = std::max(Rational(0), eps_lo);
    if (out.hi && *out.lo > *out.hi) out.lo = out.hi;
  }
  return out;
}

EpsilonBounds EpsilonForDelta(const PldPair& pair, const Rational& delta, mpfr_prec_t prec) {
  EpsilonBounds f = EpsilonForDelta(pair.forward, delta, prec);
  if (!pair.backward) return f;
  const EpsilonBounds b = EpsilonForDelta(*pair.backward, delta, prec);
  EpsilonBounds out;
  if (f.lo && b.lo) out.lo = std::max(*f.lo, *b.lo);
  if (f.hi && b.hi) out.hi = std::max(*f.hi, *b.hi);
  return out;
}

DeltaBounds DeltaForEpsilon(const PldPair& pair, const Rational& epsilon, mpfr_prec_t prec) {
  DeltaBounds f = DeltaForEpsilon(pair.forward, epsilon, prec);
  if (!pair.backward) return f;
  const DeltaBounds b = DeltaForEpsilon(*pair.backward, epsilon, prec);
  return {std::max(f.lo, b.lo), std::max(f.hi, b.hi)};
}

}  // namespace dpfl::ref::pld
