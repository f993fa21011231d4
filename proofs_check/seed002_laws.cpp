// dpfl-proofs — seed 002 (CEPAM / LRSUQ): the error laws as distributional identities, with no
// production mechanism: Lemma 11 (the literal encoder's error given the layer is uniform on it for
// every input; coordinates of a sub-vector have the Gaussian's mixed moments), eq. (15) (the
// average of the K clients' layered errors is N(0, σ²/K·I): exact convolution of moment sequences,
// the characteristic function of the average from the layered moments with a rigorous tail, the
// exact cdf by integration over the layer), eq. (17) (the Laplace layered error per coordinate),
// and the errata E-Q3 (one layer shared by all sub-vectors), E-Q6 (zero padding), E-X8 (the
// per-coordinate law equals FL+Gaussian's, FL+Gaussian+SDQ differs) and E-C2 (the bit budget).
// Exact rationals for every moment; MPFI enclosures where e^x, Φ or π enter (a violation needs
// disjoint enclosures).
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "claims.hpp"
#include "dpfl/ref/cepam.hpp"
#include "dpfl/ref/enclosure.hpp"
#include "instances.hpp"
#include "seed002_shared.hpp"
#include "printed_values.hpp"

namespace dpfl::proofs {
namespace {

using ref::Enclosure;
using ref::Interval;

// Prec, Binom, GammaHalfPlusOne, SeriesGammaP: seed002_shared.hpp.
using seed002::Binom;
using seed002::GammaHalfPlusOne;
using seed002::Prec;
using seed002::SeriesGammaP;

// ---- exact moment building blocks ------------------------------------------------------------------
// E[(χ²_k)^p] = Π_{i<p} (k + 2i) (from the χ²_k density, Γ(k/2 + p)/Γ(k/2)·2^p).
Rational ChiSquareMoment(long k, long p) {
  Rational m(1);
  for (long i = 0; i < p; ++i) m *= k + 2 * i;
  return m;
}
// E[Gamma(s, 1)^p] = Π_{i<p} (s + i).
Rational GammaMoment(long s, long p) {
  Rational m(1);
  for (long i = 0; i < p; ++i) m *= s + i;
  return m;
}
// Pochhammer (a)_p.
Rational Poch(const Rational& a, long p) {
  Rational m(1);
  for (long i = 0; i < p; ++i) m *= a + i;
  return m;
}
// W uniform in the unit ball Bⁿ: W = RΘ with R ⊥ Θ, R of density n r^{n−1} on [0, 1], so
// E[R^{2p}] = ∫_0^1 n r^{2p+n−1} dr = n/(n + 2p); Θ uniform on the sphere, (Θ_i²) ~ Dirichlet(½, …, ½),
// E[Π Θ_i^{2a_i}] = Π (½)_{a_i} / (n/2)_{Σ a_i}. `radial_uniform` (a flip) takes R ~ U(0, 1) instead.
Rational BallMixedMoment(long n, const std::vector<long>& a, bool radial_uniform = false) {
  long p = 0;
  Rational dir(1);
  for (long ai : a) {
    p += ai;
    dir *= Poch(Q(1, 2), ai);
  }
  dir /= Poch(Rational(n, 2), p);
  const Rational radial = radial_uniform ? Rational(1, 2 * p + 1) : Rational(n, n + 2 * p);
  return radial * dir;
}
// E[Π Z_i^{2a_i}] for the layered Gaussian error: Z = σ√Ũ·W, Ũ ~ χ²_{n+2j} (j = 1 is Lemma 14's
// layer), W uniform in Bⁿ independent of Ũ. Moments with an odd exponent vanish: flipping the sign
// of one coordinate leaves the ball and the layer unchanged.
Rational LayeredGaussMixedMoment(long n, const std::vector<long>& a, const Rational& sigma2, long j = 1,
                                 bool radial_uniform = false) {
  long p = 0;
  for (long ai : a) p += ai;
  Rational s(1);
  for (long i = 0; i < p; ++i) s *= sigma2;
  return s * ChiSquareMoment(n + 2 * j, p) * BallMixedMoment(n, a, radial_uniform);
}
// E[G^{2a}] = (2a − 1)!! for G ~ N(0, 1) (from ∫ z^{2a} φ(z) dz by parts).
Rational GaussEvenMoment(long a) {
  Rational m(1);
  for (long i = 1; i <= a; ++i) m *= 2 * i - 1;
  return m;
}
Rational Factorial(long k) {
  Rational r(1);
  for (long i = 2; i <= k; ++i) r *= i;
  return r;
}

// Every multi-index α ∈ ℕⁿ with |α| = q.
void MultiIndices(long n, long q, std::vector<long>& cur, std::vector<std::vector<long>>& out) {
  if (static_cast<long>(cur.size()) == n - 1) {
    cur.push_back(q);
    out.push_back(cur);
    cur.pop_back();
    return;
  }
  for (long i = 0; i <= q; ++i) {
    cur.push_back(i);
    MultiIndices(n, q - i, cur, out);
    cur.pop_back();
  }
}
// E[⟨t, Z⟩^q] from the mixed moments: Σ_{|α| = q} q!/α! t^α E[Z^α] (multinomial expansion).
template <class MixedMoment>
Rational ProjectedMoment(long n, const std::vector<long>& t, long q, MixedMoment&& mixed) {
  std::vector<std::vector<long>> idx;
  std::vector<long> cur;
  MultiIndices(n, q, cur, idx);
  Rational sum(0);
  for (const auto& al : idx) {
    bool odd = false;
    std::vector<long> half;
    Rational coef = Factorial(q);
    for (long i = 0; i < n; ++i) {
      if (al[i] % 2) odd = true;
      half.push_back(al[i] / 2);
      coef /= Factorial(al[i]);
      coef *= PowQ(Rational(t[i]), al[i]);
    }
    if (!odd) sum += coef * mixed(half);
  }
  return sum;
}
// Moments of the sum of two independent variables from theirs: E(X + Y)^q = Σ C(q, i) E X^i E Y^{q−i}.
std::vector<Rational> ConvolveMoments(const std::vector<Rational>& x, const std::vector<Rational>& y) {
  std::vector<Rational> r(x.size(), Rational(0));
  for (std::size_t q = 0; q < x.size(); ++q)
    for (std::size_t i = 0; i <= q; ++i) r[q] += Binom(static_cast<long>(q), static_cast<long>(i)) * x[i] * y[q - i];
  return r;
}

// A characteristic function E cos(sX) = Σ_k (−1)^k s^{2k} m_{2k}/(2k)! of a symmetric X with even
// moments m_{2k}, enclosed from the exact partial sum and a tail bound: |m_{2k}| ≤ bound(k) where
// bound(k+1)/bound(k) ≤ ratio(k), ratio decreasing in k; once ratio(k) ≤ 1/2 the tail after term k is
// ≤ 2·s^{2k+2}·bound(k+1)/(2k+2)!.
template <class Moment, class Bound, class Ratio>
Interval CharacteristicFunction(const Rational& s, Moment&& m, Bound&& bound, Ratio&& ratio) {
  Rational sum(0), s2k(1), fact(1);
  for (long k = 0;; ++k) {
    if (k > 0) {
      s2k *= s * s;
      fact *= Rational((2 * k - 1) * (2 * k));
    }
    sum += (k % 2 ? -1 : 1) * s2k * m(k) / fact;
    const Rational next = s2k * s * s * bound(k + 1) / (fact * (2 * k + 1) * (2 * k + 2));
    if (ratio(k + 1) * s * s / ((2 * k + 3) * (2 * k + 4)) <= Q(1, 2) && next < ref::Pow2(-200)) {
      return Interval(Rational(sum - 2 * next), Rational(sum + 2 * next));
    }
    if (k > 400) throw Undecidable("characteristic-function series did not reach its tail bound");
  }
}

// x^K over an interval of rationals (exact ends).
Interval IntervalPow(const Interval& x, long K) {
  const Rational a = PowQ(x.lo(), K), b = PowQ(x.hi(), K);
  if (K % 2 == 1 || x.lo() >= 0) return Interval(ref::Min(a, b), ref::Max(a, b));
  if (x.hi() <= 0) return Interval(b, a);
  return Interval(Rational(0), ref::Max(a, b));
}

// ---- Lemma 11: the literal encoder's error given the layer, for every input -----------------------
// One coordinate of Alg. 2 step 2.2 with the cubic cell P = α(−1/2, 1/2], β = 2c·r/α (spec §3.5):
// dither V = αw, w ~ U(−1/2, 1/2]; M = Q_P(x/β − V) = α⌊(x/β − V)/α + off⌋ (off = 1/2: round half up);
// error E = β(M + V) − x. On each piece of w where the floor is m, E = βα(m + w) − x is a translation
// of βα·w; the images of the pieces are returned.
std::vector<std::pair<Rational, Rational>> EncoderErrorPieces(const Rational& x, const Rational& beta, const Rational& alpha,
                                                              const Rational& off) {
  const Rational xi = x / (beta * alpha);
  std::vector<Rational> cuts = {Q(-1, 2), Q(1, 2)};
  const Int m0 = ref::FloorInt(Rational(xi + off));
  for (long d = -3; d <= 3; ++d) {
    const Rational w = xi + off - Rational(m0 + d);  // the floor's argument is an integer here
    if (w > Q(-1, 2) && w < Q(1, 2)) cuts.push_back(w);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<std::pair<Rational, Rational>> images;
  for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
    const Rational mid = (cuts[c] + cuts[c + 1]) / 2;
    const Rational m(ref::FloorInt(Rational(xi - mid + off)));
    images.emplace_back(Rational(beta * alpha * (m + cuts[c]) - x), Rational(beta * alpha * (m + cuts[c + 1]) - x));
  }
  std::sort(images.begin(), images.end());
  return images;
}

Verdict CheckLemma11(const CheckOptions& o) {
  // (a) For inputs x ∈ ℚ² (the origin, lattice and tie points of the scaled lattice, ‖x‖ = γ at
  // (3/5, 4/5), seeded random rationals), layer radii r and slack c ∈ {1, 5/4}, with α = 10⁻⁵: the
  // pieces' images tile (−cr, cr] in each coordinate, so E ~ U((−cr, cr]²) whatever x (α cancels,
  // E-Q1); P(E ∈ B) = |B|/(2cr)² for boxes B inside the disc rB², so acceptance (E ∈ rB²) has the
  // same probability for every x and the accepted error is U(rB²) independent of x (with Lemma 14's
  // χ²_{n+2} layer: pdf f). (b) The coordinates of one sub-vector: every mixed moment
  // E[Z_1^{2a}Z_2^{2b}(Z_3^{2c})] of the layered error equals the N(0, σ²I) one (n = 2, 3, a, b, c ≤ 4).
  // Flip: the encoder's rounding offset dropped (M = α⌊·/α⌋).
  Search s;
  const Rational off = o.flip ? Q(0) : Q(1, 2);
  const Rational alpha(Q(1, 100000));
  std::vector<std::pair<Rational, Rational>> xs = {{Q(0), Q(0)}, {Q(3, 5), Q(4, 5)}, {Q(-1, 7), Q(2, 9)}};
  std::mt19937_64 rng(o.seed);
  for (int i = 0; i < (o.quick ? 4 : 24); ++i) {
    std::uniform_int_distribution<long> u(-1000, 1000);
    xs.emplace_back(Q(u(rng), 997), Q(u(rng), 1009));
  }
  for (const Rational& r : {Q(1, 1000), Q(1, 3), Q(2)})
    for (const Rational& c : {Q(1), Q(5, 4)}) {
      const Rational beta = 2 * c * r / alpha;
      std::vector<std::pair<Rational, Rational>> inputs = xs;
      inputs.emplace_back(c * r, -c * r);                     // a tie point of the scaled lattice (x/(βα) = 1/2)
      inputs.emplace_back(2 * c * r * 7, -2 * c * r * 3);     // a point of the scaled lattice
      for (const auto& [x1, x2] : inputs) {
        s.Count();
        const std::string where = "x=(" + S(x1) + ", " + S(x2) + ") r=" + S(r) + " c=" + S(c) + " α=1/100000";
        const auto p1 = EncoderErrorPieces(x1, beta, alpha, off), p2 = EncoderErrorPieces(x2, beta, alpha, off);
        for (const auto* pieces : {&p1, &p2}) {
          Rational covered = -c * r;
          for (const auto& [lo, hi] : *pieces) {
            if (lo != covered) s.Violation(where + ": the error pieces do not tile (−cr, cr] (gap/overlap at " + S(lo) + ")");
            covered = hi;
          }
          if (covered != c * r) s.Violation(where + ": the error pieces end at " + S(covered));
        }
        auto measure = [&](const std::vector<std::pair<Rational, Rational>>& pieces, const Rational& a, const Rational& b) {
          Rational m(0);
          for (const auto& [lo, hi] : pieces) m += ref::Max(Rational(0), Rational(ref::Min(hi, b) - ref::Max(lo, a)));
          return Rational(m / (beta * alpha));  // w has density 1 on a unit interval; E = βα·w + const
        };
        struct Box { Rational a1, b1, a2, b2; };
        for (const Box& B : {Box{-r / 2, r / 3, -r / 4, r / 2}, Box{Q(0), 3 * r / 5, Q(0), 4 * r / 5}}) {
          const Rational pb = measure(p1, B.a1, B.b1) * measure(p2, B.a2, B.b2);
          const Rational area = (B.b1 - B.a1) * (B.b2 - B.a2);
          if (pb != area / (4 * c * c * r * r))
            s.Violation(where + ": P(E ∈ [" + S(B.a1) + ", " + S(B.b1) + "]×[" + S(B.a2) + ", " + S(B.b2) + "]) = " + S(pb) +
                        " ≠ |B|/(2cr)² = " + S(Rational(area / (4 * c * c * r * r))));
        }
      }
    }
  // (b) mixed moments within a sub-vector.
  const Rational sigma2(Q(1, 1000000));
  for (long n : {2L, 3L})
    for (long a = 0; a <= 4; ++a)
      for (long b = 0; b <= 4; ++b)
        for (long c3 = 0; c3 <= (n == 3 ? 4 : 0); ++c3) {
          s.Count();
          std::vector<long> al = {a, b};
          if (n == 3) al.push_back(c3);
          const Rational layered = LayeredGaussMixedMoment(n, al, sigma2);
          Rational gauss(1);
          for (long ai : al) gauss *= GaussEvenMoment(ai) * PowQ(sigma2, ai);
          if (layered != gauss)
            s.Violation("n=" + std::to_string(n) + " E[Z1^" + std::to_string(2 * a) + " Z2^" + std::to_string(2 * b) +
                        (n == 3 ? " Z3^" + std::to_string(2 * c3) : std::string()) + "] = " + S(layered) + " ≠ Gaussian " + S(gauss));
        }
  return s.AsVerdict("Lemma 11: the literal encoder step (β = 2cr/α, α = 1e-5) gives, for every input checked (origin, "
                     "‖x‖ = γ, lattice and tie points, random rationals), an error uniform on the scaled cell (exact "
                     "tiling), so acceptance and the accepted law U(rB²) do not depend on x; the coordinates of a "
                     "sub-vector have the N(0, σ²I) mixed moments (n = 2, 3, orders ≤ 8 per coordinate)");
}

// ---- eq. (15): the average of the K clients' errors is N(0, σ²/K·I) -------------------------------
Verdict CheckEq15(const CheckOptions& o) {
  // Exact convolution: for directions t ∈ ℤⁿ (Cramér–Wold), the moments of ⟨t, Z⟩ for one client from
  // the layered mixed moments, convolved over K independent clients (binomial convolution of moment
  // sequences), scaled by K^{−q}: equal to the N(0, ‖t‖²σ²/K) moments for q ≤ 2P. Characteristic function
  // of the average in direction e1 at rational frequencies: [φ_Z(t/K)]^K with φ_Z from the layered
  // moments and a rigorous tail, vs e^{−σ²t²/(2K)}. Exact cdf for one client (n = 1), by integrating the
  // uniform layer's cdf over Ũ ~ χ²_3: P(Z ≤ z) = P(Ũ ≤ s) + ½P(Ũ > s) + (z/2σ)E[Ũ^{−1/2}; Ũ > s],
  // s = z²/σ², vs Φ(z/σ).
  // Flip: the layer Ũ ~ χ²_{n+4} (degrees of freedom off by two) throughout.
  Search s;
  const int prec = Prec(o);
  const mpfr_prec_t w = prec + 64;
  const long jl = o.flip ? 2 : 1;
  const Rational sigma(Q(1, 1000)), sigma2 = sigma * sigma;
  const long P = o.quick ? 4 : 6;  // moments up to order 2P
  const std::vector<long> Ks = o.quick ? std::vector<long>{1, 2, 30} : std::vector<long>{1, 2, 3, 30};
  const std::vector<std::vector<std::vector<long>>> dirs = {
      {{1}}, {{1, 0}, {1, 1}, {3, 4}, {1, -2}}, {{1, 0, 0}, {1, 1, 1}, {1, 2, 2}, {2, -1, 3}}};
  for (long n = 1; n <= 3; ++n)
    for (const auto& t : dirs[n - 1]) {
      std::vector<Rational> one(2 * P + 1);
      Rational t2(0);
      for (long ti : t) t2 += ti * ti;
      for (long q = 0; q <= 2 * P; ++q)
        one[q] = ProjectedMoment(n, t, q, [&](const std::vector<long>& a) { return LayeredGaussMixedMoment(n, a, sigma2, jl); });
      std::vector<Rational> sum = one;
      for (long K = 1; K <= Ks.back(); ++K) {
        if (K > 1) sum = ConvolveMoments(sum, one);
        if (std::find(Ks.begin(), Ks.end(), K) == Ks.end()) continue;
        s.Count();
        for (long q = 1; q <= 2 * P; ++q) {
          const Rational avg = sum[q] / PowQ(Rational(K), q);
          const Rational target = q % 2 ? Rational(0) : GaussEvenMoment(q / 2) * PowQ(Rational(t2 * sigma2 / K), q / 2);
          if (avg != target) {
            std::string ts;
            for (long ti : t) ts += (ts.empty() ? "" : ",") + std::to_string(ti);
            s.Violation("n=" + std::to_string(n) + " K=" + std::to_string(K) + " t=(" + ts + ") σ=1/1000: E⟨t, avg⟩^" +
                        std::to_string(q) + " = " + S(avg) + " ≠ N(0, ‖t‖²σ²/K) moment " + S(target));
            break;
          }
        }
      }
    }
  // Characteristic function of the average in direction e1 (t·σ rational).
  for (long n = 1; n <= 3; ++n)
    for (long K : {1L, 30L})
      for (const Rational& ts : {Q(1, 2), Q(1), Q(2)}) {
        s.Count();
        const Rational sK = ts / K;  // (t/K)·σ: the moments below are in units of σ
        std::vector<long> e1(n, 0);
        auto m = [&](long k) {
          e1[0] = k;
          return LayeredGaussMixedMoment(n, e1, Rational(1), jl);
        };
        auto bound = [&](long k) { return ChiSquareMoment(n + 2 * jl, k); };  // |Z_1|^{2k} ≤ Ũ^k (σ = 1)
        auto ratio = [&](long k) { return Rational(n + 2 * jl + 2 * k); };   // bound(k+1)/bound(k)
        const Interval phi = CharacteristicFunction(sK, m, bound, ratio);
        const Interval avg = IntervalPow(phi, K);
        const Enclosure target = ref::Exp(Enclosure(w, Rational(-ts * ts / (2 * K))));
        if (Disjoint(target, avg))
          s.Violation("n=" + std::to_string(n) + " K=" + std::to_string(K) + " tσ=" + S(ts) + ": cf of the average " +
                      Dec(avg, 16) + " vs e^{−σ²t²/(2K)} = " + Dec(target, 16));
      }
  // Exact cdf for one client, n = 1 (Ũ ~ χ²_{1+2j}: E[Ũ^{−1/2}; Ũ > s] = Γ(j)Q(j, s/2)/(√2 Γ(j + 1/2))).
  for (const Rational& zs : {Q(1, 3), Q(1, 2), Q(1), Q(5, 2)}) {
    s.Count();
    const Rational sv = zs * zs;
    const Enclosure pu = SeriesGammaP(1 + 2 * jl, Rational(sv / 2), w);
    const Enclosure upper_q = jl == 1 ? ref::Exp(Enclosure(w, Rational(-sv / 2))) : Rational(1) - SeriesGammaP(2 * jl, Rational(sv / 2), w);
    const Enclosure tail = upper_q / (ref::Sqrt(Enclosure(w, 2L)) * GammaHalfPlusOne(2 * jl - 1, w));  // Γ(j) = 1, j ≤ 2
    const Enclosure cdf = pu + (Rational(1) - pu) / Rational(2) + zs / 2 * tail;
    const Enclosure phi = ref::NormalCdf(Enclosure(w, zs));
    if (Disjoint(cdf, phi) || Disjoint(Rational(1) - cdf, ref::NormalCdf(Enclosure(w, Rational(-zs)))))
      s.Violation("n=1 K=1 z=" + S(zs) + "σ: layered P(Z ≤ z) = " + Dec(cdf) + " vs Φ(z/σ) = " + Dec(phi));
  }
  return s.AsVerdict("eq. (15) as a distributional identity: exact convolution of the K clients' layered moment sequences "
                     "(n = 1, 2, 3; directions t; K ∈ {1, 2, 3, 30}) = N(0, σ²/K) moments; cf of the average at tσ ∈ "
                     "{1/2, 1, 2} (layered series, rigorous tail) = e^{−σ²t²/(2K)}; exact cdf of one client's error = Φ");
}

// ---- eq. (17): CEPAM-Laplace's error per coordinate is Lap(0, b) ---------------------------------------
Verdict CheckEq17(const CheckOptions& o) {
  // Per coordinate (n = 1, one layer per coordinate): Z | Ũ ~ U(−bŨ, bŨ), Ũ ~ Gamma(2, 1).
  // Moments E Z^{2k} = b^{2k}E[Ũ^{2k}]/(2k + 1) vs the Laplace density's ∫ z^{2k}e^{−|z|/b}/(2b) dz = (2k)!b^{2k};
  // the exact cdf by integrating over the layer, P(Z ≤ z) = P(Ũ ≤ s) + ½P(Ũ > s) + (s/2)E[1/Ũ; Ũ > s]
  // (s = z/b ≥ 0), vs 1 − e^{−s}/2; the cf at tb ∈ {1/10, 1/4} from the layered moments with a rigorous
  // tail vs 1/(1 + t²b²) (exact rational). Flip: the layer Gamma(3, 1) for Gamma(2, 1) throughout.
  Search s;
  const int prec = Prec(o);
  const mpfr_prec_t w = prec + 64;
  const long shape = o.flip ? 3 : 2;
  const Rational b(Q(1, 1000));
  for (long k = 1; k <= (o.quick ? 8 : 16); ++k) {
    s.Count();
    const Rational layered = PowQ(b, 2 * k) * GammaMoment(shape, 2 * k) / (2 * k + 1);
    const Rational target = Factorial(2 * k) * PowQ(b, 2 * k);
    if (layered != target) s.Violation("E Z^" + std::to_string(2 * k) + " = " + S(layered) + " ≠ Laplace " + S(target));
  }
  for (const Rational& sv : {Q(1, 10), Q(1, 2), Q(1), Q(3), Q(10)}) {
    s.Count();
    // Gamma(2,1): P(Ũ ≤ s) = P(2, s), E[1/Ũ; Ũ > s] = e^{−s}; Gamma(3,1): P(3, s), (1 + s)e^{−s}/2.
    const Enclosure pu = SeriesGammaP(2 * shape, sv, w);
    const Enclosure es = ref::Exp(Enclosure(w, Rational(-sv)));
    const Enclosure inv = shape == 2 ? es : (1 + sv) * es / Rational(2);
    const Enclosure cdf = pu + (Rational(1) - pu) / Rational(2) + sv / 2 * inv;
    const Enclosure target = Rational(1) - es / Rational(2);
    if (Disjoint(cdf, target)) s.Violation("z=" + S(sv) + "b: layered P(Z ≤ z) = " + Dec(cdf) + " vs 1 − e^{−z/b}/2 = " + Dec(target));
  }
  for (const Rational& tb : {Q(1, 10), Q(1, 4)}) {
    s.Count();
    auto m = [&](long k) { return GammaMoment(shape, 2 * k) / (2 * k + 1); };  // b = 1 units
    auto bound = [&](long k) { return GammaMoment(shape, 2 * k); };
    auto ratio = [&](long k) { return Rational((shape + 2 * k) * (shape + 2 * k + 1)); };
    const Interval phi = CharacteristicFunction(tb, m, bound, ratio);
    const Rational target = 1 / (1 + tb * tb);
    if (!phi.Contains(target))
      s.Violation("tb=" + S(tb) + ": cf of the layered error " + Dec(phi, 16) + " vs 1/(1 + t²b²) = " + S(target));
  }
  return s.AsVerdict("eq. (17) per coordinate: layered Gamma(2,1)/uniform error = Lap(0, b) in all even moments (exact), the "
                     "cdf (exact integration over the layer) and the cf at tb ∈ {1/10, 1/4} (rigorous tail); the "
                     "coordinates are i.i.d. because each has its own layer (002/Alg3/shared-U shows why that is needed)");
}

// ---- E-Q3: one layer shared by all sub-vectors (Alg. 3 step 3 as printed) ------------------------------
Verdict CheckSharedLayer(const CheckOptions& o) {
  // Two sub-vectors Z_1, Z_2 of one client. As printed (Ũ drawn once): given Ũ they are independent and
  // uniform on the same ball, so E‖Z_1‖^{2a}‖Z_2‖^{2b} = E[Ũ^{a+b}]·E R^{2a}·E R^{2b}·σ^{2(a+b)}; corrected
  // (Ũ_j per sub-vector): E[Ũ^a]E[Ũ^b]·…; target (i.i.d. N(0, σ²Iₙ)): E[(χ²_n)^a]E[(χ²_n)^b]σ^{2(a+b)}.
  // The marginals are right in both (a or b = 0). Same for the Laplace layer (n = 1): E Z_1^{2a}Z_2^{2b}.
  // Flip: the as-printed half evaluated with a fresh layer per sub-vector (the erratum's fix).
  Search printed, corrected;
  const Rational sigma2(Q(1, 1000000));
  for (long n = 1; n <= 4; ++n)
    for (long a = 0; a <= 3; ++a)
      for (long b = 0; b <= 3; ++b) {
        // E‖W‖^{2a} for W uniform in Bⁿ is E R^{2a} = n/(n + 2a) (‖Θ‖ = 1).
        const Rational Ra(n, n + 2 * a), Rb(n, n + 2 * b);
        const long dof = n + 2;
        const Rational shared = PowQ(sigma2, a + b) * Ra * Rb * ChiSquareMoment(dof, a + b);
        const Rational fresh = PowQ(sigma2, a + b) * Ra * Rb * ChiSquareMoment(dof, a) * ChiSquareMoment(dof, b);
        const Rational target = PowQ(sigma2, a + b) * ChiSquareMoment(n, a) * ChiSquareMoment(n, b);
        const std::string where = "Gaussian n=" + std::to_string(n) + " E‖Z1‖^" + std::to_string(2 * a) + "‖Z2‖^" + std::to_string(2 * b);
        printed.Count();
        if ((o.flip ? fresh : shared) != target)
          printed.Violation(where + " with one shared Ũ ~ χ²_" + std::to_string(dof) + ": " + S(Rational(shared / PowQ(sigma2, a + b))) +
                            "σ^" + std::to_string(2 * (a + b)) + " ≠ i.i.d. N(0, σ²Iₙ): " + S(Rational(target / PowQ(sigma2, a + b))) + "σ^" +
                            std::to_string(2 * (a + b)));
        corrected.Count();
        if (fresh != target) corrected.Violation(where + " with fresh layers: " + S(fresh) + " ≠ " + S(target));
      }
  const Rational b(Q(1, 1000));
  for (long a = 0; a <= 3; ++a)
    for (long c = 0; c <= 3; ++c) {
      // E[V^{2a}] for V ~ U(−bu, bu) is (bu)^{2a}/(2a + 1).
      const Rational shared = PowQ(b, 2 * (a + c)) * GammaMoment(2, 2 * (a + c)) / ((2 * a + 1) * (2 * c + 1));
      const Rational fresh = PowQ(b, 2 * (a + c)) * GammaMoment(2, 2 * a) * GammaMoment(2, 2 * c) / ((2 * a + 1) * (2 * c + 1));
      const Rational target = PowQ(b, 2 * (a + c)) * Factorial(2 * a) * Factorial(2 * c);
      const std::string where = "Laplace n=1 E Z1^" + std::to_string(2 * a) + " Z2^" + std::to_string(2 * c);
      printed.Count();
      if ((o.flip ? fresh : shared) != target)
        printed.Violation(where + " with one shared Ũ ~ Gamma(2,1): " + S(Rational(shared / PowQ(b, 2 * (a + c)))) + "b^" +
                          std::to_string(2 * (a + c)) + " ≠ i.i.d. Lap(0, b): " + S(Rational(target / PowQ(b, 2 * (a + c)))));
      corrected.Count();
      if (fresh != target) corrected.Violation(where + " with fresh layers: " + S(fresh) + " ≠ " + S(target));
    }
  return CompareVariants(printed, corrected,
                         "joint moments of two sub-vectors' errors with Ũ drawn once (Alg. 3 step 3 as printed) vs once per "
                         "sub-vector (E-Q3), against i.i.d. N(0, σ²Iₙ) (n ≤ 4) and Lap(0, b); marginals agree in both");
}

// ---- E-Q6: zero padding when n ∤ m ----------------------------------------------------------------------
Verdict CheckZeroPadding(const CheckOptions& o) {
  // N = ⌈m/n⌉ sub-vectors, the last one zero-padded; its r = m − n(N − 1) kept coordinates' error: the
  // first r coordinates of the layered error in ℝⁿ. ‖P_r W‖² = R²·Σ_{i≤r}Θ_i², Σ_{i≤r}Θ_i² ~ Beta(r/2, (n−r)/2):
  // E‖P_r Z‖^{2j} = σ^{2j}E[Ũ^j]·n/(n + 2j)·Π_{i<j}(r + 2i)/(n + 2i) vs χ²_r: σ^{2j}Π_{i<j}(r + 2i); the
  // padded inputs do not matter (the error law is independent of the input, Lemma 11). The spec's counts:
  // CNN m = 6422 → N = 6422/3211/2141 (n = 3 keeps r = 2 of the last), MLP m = 25818 → N = 25818/12909/8606; the §5.6
  // CNN n = 1 total ≈ 63.8 k bits = N·E⌈log2|M|⌉ (no bits for h at p_acc = 1).
  // Flip: N = ⌊m/n⌋ (no padding: the trailing coordinates are dropped).
  Search s;
  const int prec = Prec(o);
  const Rational sigma2(Q(1, 1000000));
  struct Model { long m; std::vector<long> N; };
  for (const Model& md : {Model{6422, {6422, 3211, 2141}}, Model{25818, {25818, 12909, 8606}}})
    for (long n = 1; n <= 3; ++n) {
      s.Count();
      const long N = o.flip ? md.m / n : (md.m + n - 1) / n;
      const long r = md.m - n * (N - 1);
      if (N != md.N[n - 1] || r < 1 || r > n)
        s.Violation("m=" + std::to_string(md.m) + " n=" + std::to_string(n) + ": N = " + std::to_string(N) + " (spec " +
                    std::to_string(md.N[n - 1]) + "), last sub-vector keeps " + std::to_string(r));
    }
  for (long n = 1; n <= 4; ++n)
    for (long r = 1; r <= n; ++r)
      for (long j = 1; j <= 6; ++j) {
        s.Count();
        Rational beta_moment(1), target = PowQ(sigma2, j);
        for (long i = 0; i < j; ++i) {
          beta_moment *= Rational(r + 2 * i, n + 2 * i);
          target *= r + 2 * i;
        }
        const Rational kept = PowQ(sigma2, j) * ChiSquareMoment(n + 2, j) * Rational(n, n + 2 * j) * beta_moment;
        if (kept != target)
          s.Violation("n=" + std::to_string(n) + " r=" + std::to_string(r) + ": E‖P_r Z‖^" + std::to_string(2 * j) + " = " + S(kept) +
                      " ≠ χ²_r moment " + S(target));
      }
  s.Count();
  const Enclosure total = Rational(6422) * ref::ExpectedIndexBitsN1(ref::LrsuqTarget::kGaussian, Q(1, 1000), Q(1), Q(1), prec);
  if (Disjoint(total, Printed("63.8e3"))) s.Violation("CNN n=1: N·E⌈log2|M|⌉ = " + Dec(total, 6) + " vs §5.6 ≈ 63.8 k bits");
  return s.AsVerdict("zero padding (E-Q6): N = ⌈m/n⌉ matches §5.6 (CNN 6422/3211/2141, MLP 25818/12909/8606); the kept "
                     "coordinates of the padded sub-vector have the χ²_r norm moments of N(0, σ²I_r) (n ≤ 4, j ≤ 6); CNN n = 1 "
                     "total " + Dec(total, 6) + " bits per client per round");
}

// ---- E-X8: CEPAM-Gaussian's per-coordinate law is FL+Gaussian's; FL+Gaussian+SDQ differs -------------
Verdict CheckSameLawAsFlGaussian(const CheckOptions& o) {
  // Per coordinate of the layered error for n = 1, 2, 3: E Z_1^{2k} = σ^{2k}(2k − 1)!! (the N(0, σ²) law,
  // FL+Gaussian), k ≤ 8, so "Var(f)/n = σ²" (Var(f) = E‖Z‖² = nσ² computed) and the three n give the
  // same law. FL+Gaussian+SDQ: the SDQ error of step Δ is U(−Δ/2, Δ/2] independent of the noise (crypto
  // lemma), so its moments are the binomial convolution: variance σ² + Δ²/12 and fourth moment
  // 3σ⁴ + σ²Δ²/2 + Δ⁴/80 ≠ 3(σ² + Δ²/12)² (not Gaussian), for every Δ > 0.
  // Flip: the ball's radial law taken as R ~ U(0, 1) (E R^{2p} = 1/(2p + 1) for n/(n + 2p)).
  Search s;
  const Rational sigma(Q(1, 1000)), sigma2 = sigma * sigma;
  for (long n = 1; n <= 3; ++n) {
    s.Count();
    Rational var_f(0);
    for (long i = 0; i < n; ++i) {
      std::vector<long> a(n, 0);
      a[i] = 1;
      var_f += LayeredGaussMixedMoment(n, a, sigma2, 1, o.flip);
    }
    if (var_f / n != sigma2) s.Violation("n=" + std::to_string(n) + ": Var(f)/n = " + S(Rational(var_f / n)) + " ≠ σ²");
    for (long k = 2; k <= 8; ++k) {
      std::vector<long> a(n, 0);
      a[0] = k;
      const Rational layered = LayeredGaussMixedMoment(n, a, sigma2, 1, o.flip);
      const Rational gauss = GaussEvenMoment(k) * PowQ(sigma2, k);
      if (layered != gauss)
        s.Violation("n=" + std::to_string(n) + ": E Z_1^" + std::to_string(2 * k) + " = " + S(layered) + " ≠ N(0, σ²): " + S(gauss));
    }
  }
  for (const Rational& step : {sigma / 2, sigma, 2 * sigma}) {
    s.Count();
    std::vector<Rational> g(5), u(5);
    for (long q = 0; q <= 4; ++q) {
      g[q] = q % 2 ? Rational(0) : GaussEvenMoment(q / 2) * PowQ(sigma2, q / 2);
      u[q] = q % 2 ? Rational(0) : PowQ(step / 2, q) / (q + 1);  // ∫_{−Δ/2}^{Δ/2} x^q dx/Δ
    }
    const std::vector<Rational> sdq = ConvolveMoments(g, u);
    if (sdq[2] != sigma2 + step * step / 12 || sdq[4] == 3 * sdq[2] * sdq[2] || sdq[2] == sigma2)
      s.Violation("Δ=" + S(step) + ": FL+Gaussian+SDQ variance " + S(sdq[2]) + ", fourth moment " + S(sdq[4]));
  }
  return s.AsVerdict("every even moment (≤ 16) of one coordinate of CEPAM-Gaussian's error for n = 1, 2, 3 equals N(0, σ²)'s "
                     "(the FL+Gaussian law; Var(f)/n = σ²); noise-then-SDQ has variance σ² + Δ²/12 and a non-Gaussian "
                     "fourth moment (Δ ∈ {σ/2, σ, 2σ}), so CEPAM can beat only that baseline, by its extra error (E-X8)");
}

// ---- E-C2: the per-sub-vector bit budget of §V-B ---------------------------------------------------------
Verdict CheckBitBudget(const CheckOptions& o) {
  // §V-B: at most N(H(Geom(p(U)) | U) + H(⌈log|M(U)|⌉ | U)) bits. The spec's code (§3.10): h in unary
  // (the Golomb code with m_G = 1, optimal for θ ≤ 0.618 [EXTERNAL, Gallager–Van Voorhis]), 0 bits at p = 1,
  // M in ⌈log2|M(U)|⌉ bits. Read literally, H(⌈log|M|⌉ | U) = 0 (a function of U given U); read as E-C2's
  // intended E_U⌈log2|M(U)|⌉, the bound without the "+1" still fails because the unary length 1/p exceeds
  // H(Geom(p)) (p = π/4, π/6 are not dyadic). Corrected (E-C2, §4.8): E len(h) ≤ H(Geom(p)) + 1.
  // Here E len(h) = Σ_i i(1 − p)^{i−1}p and H = −Σ_i P(h = i) log2 P(h = i) are summed from the definitions
  // (partial sums plus geometric tail bounds) and compared with the reference's 1/p and H(Geom(p)).
  // Flip: the corrected budget without its +1.
  Search printed, corrected;
  const int prec = Prec(o);
  const mpfr_prec_t w = prec + 32;
  for (long n : {2L, 3L}) {
    const Enclosure p = ref::GaussianAcceptance(n, Q(1), prec);
    const Enclosure th = Rational(1) - p;
    // Partial sums to I terms, θ = 1 − p; the tails by the geometric identities Σ_{i>I} θ^{i−1}p = θ^I and
    // Σ_{i>I} iθ^{i−1}p = θ^I(I + 1/p).
    const long I = 200;
    Enclosure len(w, 0L), H(w, 0L), thp(w, 1L);
    for (long i = 1; i <= I; ++i) {
      const Enclosure pi = thp * p;
      len += Rational(i) * pi;
      H = H - pi * ref::Log(pi);
      thp = thp * th;
    }
    const Enclosure len_tail = thp * (Rational(I) + Rational(1) / p);
    // −log P(h = i) = −log p − (i − 1)log θ ≤ a + b·i with a, b > 0: tail ≤ Σ_{i>I} (a + bi)θ^{i−1}p.
    const Enclosure a = -ref::Log(p), bl = -ref::Log(th);
    const Enclosure H_tail = thp * (a + bl * (Rational(I) + Rational(1) / p));
    len = len + ref::Hull(Enclosure(w, 0L), len_tail);
    H = (H + ref::Hull(Enclosure(w, 0L), H_tail)) / ref::Log(Enclosure(w, 2L));
    const std::string where = "n=" + std::to_string(n) + " (p_acc = " + Dec(p, 8) + ")";
    if (Disjoint(len, ref::ExpectedTrials(p)) || Disjoint(H, ref::GeometricEntropyBits(p)))
      corrected.Violation(where + ": E len(h) " + Dec(len) + " / H " + Dec(H) + " disagree with the reference");
    printed.Count();
    if (ref::CertainlyLess(H, len))
      printed.Violation(where + ": unary (optimal Golomb m_G = 1) code for h: E len = " + Dec(len, 10) + " bits > H(Geom(p)) = " +
                        Dec(H, 10) + ", so per sub-vector E bits = E len(h) + E⌈log2|M|⌉ exceeds the printed budget");
    corrected.Count();
    if (ref::CertainlyLess(H + Rational(o.flip ? 0 : 1), len))
      corrected.Violation(where + ": E len(h) = " + Dec(len, 10) + " > H + " + (o.flip ? "0" : "1"));
  }
  // n = 1 (p = 1: h ≡ 1, 0 bits), literal reading: H(⌈log|M|⌉ | U) = 0 and H(Geom(1)) = 0, yet M needs
  // E⌈log2|M|⌉ ≈ 9.94 bits (σ = 0.001, γ = 1).
  printed.Count();
  const Enclosure bits = ref::ExpectedIndexBitsN1(ref::LrsuqTarget::kGaussian, Q(1, 1000), Q(1), Q(1), prec);
  if (ref::CertainlyPositive(bits))
    printed.Violation("n=1 literal reading: budget N·(H(Geom(1)) + H(⌈log|M|⌉ | U)) = 0 bits per sub-vector, but M takes " +
                      Dec(bits, 8) + " bits");
  return CompareVariants(printed, corrected,
                         "§V-B budget with the spec's codes: E len(h) (unary) and H(Geom(p)) from their definitions; as printed "
                         "(no +1; literal H(⌈log|M|⌉|U) = 0) vs E-C2's E_U[H(Geom)] + 1 + E⌈log2|M|⌉");
}

}  // namespace

void AddSeed002LawsClaims(Catalog& c) {
  const std::string seed = "002";
  c.push_back({"002/Lemma11/iid-errors", seed,
               "the CEPAM errors are i.i.d. over k and j with pdf f and independent of the inputs X̃ (Lemma 11)",
               "spec 002 §3.8, §4.4", {"E-Q1"}, Status::kPass, CheckLemma11,
               "the encoder's rounding offset dropped (M = α⌊·/α⌋): the error pieces no longer tile the scaled cell"});
  c.push_back({"002/eq15/aggregate-gaussian", seed, "(1/K)Σ X̂^k = (1/K)Σ X̃^k + N(0, σ²/K·I_m) (eq. 15)",
               "spec 002 §4.7, §4.9, §7.1 item 6", {}, Status::kPass, CheckEq15,
               "the layer Ũ ~ χ²_{n+4} (degrees of freedom off by two) in the moments, the cf and the cdf"});
  c.push_back({"002/eq17/laplace-coordinates", seed, "X̂^k = X̃^k + Lap(0, b·I_m), i.i.d. per coordinate (eq. 17)",
               "spec 002 §3.6, §4.8", {}, Status::kPass, CheckEq17, "the layer Gamma(3, 1) for Gamma(2, 1)"});
  c.push_back({"002/Alg3/shared-U", seed,
               "errors are i.i.d. over j with pdf f when U is drawn once for all j (Alg. 3 step 3 as printed)",
               "spec 002 §3.9, §4.4, §6", {"E-Q3"}, Status::kPassCorrected, CheckSharedLayer,
               "the as-printed half evaluated with a fresh layer per sub-vector (the erratum's fix)"});
  c.push_back({"002/Alg2/zero-padding", seed,
               "with zero padding, N = ⌈m/n⌉ and the kept coordinates' error is N(0, σ²I_r) (§5.6 counts)",
               "spec 002 §3.8, §5.6, §6", {"E-Q6"}, Status::kPass, CheckZeroPadding,
               "N = ⌊m/n⌋ (no padding: the trailing coordinates dropped)"});
  c.push_back({"002/VI/same-law-as-fl-gaussian", seed,
               "CEPAM-Gaussian's per-coordinate error has FL+Gaussian's law N(0, σ²) for n = 1, 2, 3 (Var(f)/n = σ²); "
               "FL+Gaussian+SDQ adds Δ²/12",
               "spec 002 §4.9, §6", {"E-X8"}, Status::kPass, CheckSameLawAsFlGaussian,
               "the ball's radial law taken as U(0, 1) (E R^{2p} = 1/(2p + 1) for n/(n + 2p))"});
  c.push_back({"002/VB/bit-budget", seed,
               "§V-B: at most N(H(Geom(p(U)) | U) + H(⌈log|M(U)|⌉ | U)) bits per client and round",
               "spec 002 §3.10, §4.8, §5.6", {"E-C2"}, Status::kPassCorrected, CheckBitBudget,
               "the corrected budget without its +1 (the printed one in the corrected slot)"});
}

}  // namespace dpfl::proofs
