// dpfl::ref::pld — ε(δ) and δ(ε) of a PLD's two measures (see pld.hpp "Queries" for why each end
// is valid).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "dpfl/ref/pld.hpp"
#include "dpfl/validate.hpp"

namespace dpfl::ref::pld {
namespace {

constexpr double kU = 0x1p-53;

double Gamma(double k) { return k * kU / (1.0 - k * kU) * (1 + 0x1p-50); }

}  // namespace

// ---- queries -------------------------------------------------------------------------------
namespace {

// Suffix sums T_j = Σ_{k≥j} m_k and U_j = Σ_{k≥j} m_k r^{k−j} (backward Horner) over a measure,
// with r enclosing e^{−h}. Bounds: `hi` versions round up (r_hi), `lo` versions down (r_lo).
struct Suffixes {
  std::vector<double> T, U;  // size n + 1, T[n] = U[n] = 0
};

// `upper_curve`: T rounded up and U down (the upper curve subtracts e^{…}·U); else the reverse.
Suffixes BuildSuffixes(const std::vector<double>& m, double r, bool upper_curve) {
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
  auto up = [](double v, double g) { return std::nextafter(v * (1 + g), HUGE_VAL); };
  auto down = [](double v, double g) { return std::max(0.0, std::nextafter(v * (1 - g), 0.0)); };
  for (std::size_t j = 0; j <= n; ++j) {
    const double g = Gamma(2.0 * static_cast<double>(n - j) + 4);
    s.T[j] = upper_curve ? up(s.T[j], g) : down(s.T[j], g);
    s.U[j] = upper_curve ? std::max(0.0, down(s.U[j], g) - 0x1p-1000) : up(s.U[j], g) + 0x1p-1000;
  }
  return s;
}

// Exact: a double is a dyadic rational. A non-finite value (a composition whose masses overflowed,
// e.g. far more compositions than the accountant's cap) is an error, never handed to GMP.
Rational D(double x) {
  if (!std::isfinite(x)) throw std::overflow_error("pld: a non-finite mass in the composed distribution (too many compositions?)");
  return Rational(x);
}

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
  CurveBound c{&m, step, upper, D(m.infinity) - D(m.deficit), {}};
  // Upper curve subtracts e^{…}U: needs U from below (r_lo) and T from above.
  c.sfx = BuildSuffixes(m.mass, upper ? r.LoDouble() : r.HiDouble(), upper);
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
