// dpfl-proofs — seed 002 (CEPAM / RSUQ / LRSUQ): the error laws (Props 3, 5; Lemmas 14, 15), the
// acceptance rates, the privacy building blocks (Thm 7, 8, 10, Lemma 9), Theorem 12 as printed vs
// capped / sensitivity-corrected, Theorem 13 as printed vs corrected (E-P5), and the paper's
// reported δ and σ values (E-X1). Exact rationals where the math is rational; MPFI enclosures
// otherwise (a violation needs disjoint enclosures).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "claims.hpp"
#include "printed_values.hpp"
#include "dpfl/ref/cepam.hpp"
#include "dpfl/ref/enclosure.hpp"
#include "dpfl/ref/gaussian.hpp"
#include "instances.hpp"
#include "seed002_shared.hpp"

namespace dpfl::proofs {
namespace {

using ref::Enclosure;
using ref::Interval;

// Prec, Binom, GammaHalfPlusOne, SeriesGammaP: seed002_shared.hpp.
using seed002::Binom;
using seed002::GammaHalfPlusOne;
using seed002::Prec;
using seed002::SeriesGammaP;

bool Above(const Enclosure& a, const Rational& b) { return ref::ToInterval(a).lo() > b; }

// ---- Proposition 3 (RSUQ): the error is uniform on A, exactly, n = 1 --------------------------------
Verdict CheckProp3(const CheckOptions& o) {
  Search s;
  // Cell P = (−1/2, 1/2] of ℤ, Q_P(x) = ⌊x + 1/2⌋; dither v ~ U(P); Z = Q_P(x − v) + v − x.
  // On each piece of P where ⌊x − v + 1/2⌋ = m is constant, Z = m + v − x is a translation of v, so
  // the law of Z is the union of the translated pieces (density 1): Z ~ U(P) iff they tile P.
  // Flip: the quantizer's offset 1/2 dropped (Q(y) = ⌊y⌋, whose cell is (−1, 0], not P).
  const Rational off = o.flip ? Q(0) : Q(1, 2);
  const int den = o.quick ? 12 : 48;
  for (int i = -2 * den; i <= 2 * den; ++i) {
    const Rational x = Q(i, den) + Q(1, 3 * den);
    s.Count();
    // Breakpoints of v in (−1/2, 1/2]: x − v + 1/2 ∈ ℤ ⇔ v = x + 1/2 − m.
    std::vector<Rational> cuts = {Q(-1, 2), Q(1, 2)};
    for (long m = -10; m <= 10; ++m) {
      const Rational v = x + off - m;
      if (v > Q(-1, 2) && v < Q(1, 2)) cuts.push_back(v);
    }
    std::sort(cuts.begin(), cuts.end());
    std::vector<std::pair<Rational, Rational>> images;  // Z-intervals (as closed hulls)
    for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
      const Rational mid = (cuts[c] + cuts[c + 1]) / 2;
      const Int m = ref::FloorInt(Rational(x - mid + off));
      images.emplace_back(Rational(Rational(m) + cuts[c] - x), Rational(Rational(m) + cuts[c + 1] - x));
    }
    std::sort(images.begin(), images.end());
    Rational covered(Q(-1, 2));
    for (const auto& [lo, hi] : images) {
      if (lo != covered) s.Violation("x=" + S(x) + ": the error pieces do not tile P (gap/overlap at " + S(lo) + ")");
      covered = hi;
    }
    if (covered != Q(1, 2)) s.Violation("x=" + S(x) + ": the error pieces end at " + S(covered));
    // Acceptance set A = [−a, a] ⊂ P and a sub-interval B ⊂ A: P(accept) = |A|, P(B | accept) = |B|/|A|.
    for (const Rational& a : {Q(1, 8), Q(1, 3), Q(1, 2)}) {
      Rational pa(0), pb(0);
      const Rational b_lo = -a / 3, b_hi = a / 2;
      for (const auto& [lo, hi] : images) {
        pa += ref::Max(Rational(0), Rational(ref::Min(hi, a) - ref::Max(lo, Rational(-a))));
        pb += ref::Max(Rational(0), Rational(ref::Min(hi, b_hi) - ref::Max(lo, b_lo)));
      }
      if (pa != 2 * a || pb / pa != (b_hi - b_lo) / (2 * a))
        s.Violation("x=" + S(x) + " a=" + S(a) + ": P(accept) = " + S(pa) + ", P(B|accept) = " + S(Rational(pb / pa)));
    }
  }
  return s.AsVerdict("n = 1, cell (−1/2, 1/2], rational inputs x: the error Q(x − V) + V − x is exactly U(P) (the "
                     "translated dither pieces tile P), so each trial accepts w.p. μ(A)/μ(P) and Z | accept ~ U(A) "
                     "(exact rationals; products give n > 1)");
}

// ---- Proposition 5 / Lemma 14 (Gaussian target) ----------------------------------------------------
Verdict CheckLemma14(const CheckOptions& o) {
  Search s;
  const int prec = Prec(o);
  const mpfr_prec_t w = prec + 64;
  const std::vector<Rational> ss = {Q(1, 100), Q(1, 10), Q(1, 2), Q(1), Q(2), Q(5), Q(10), Q(30)};
  // The layer Ũ ~ χ²_{n+2j}: j = 1 is Lemma 14's; the flip takes j = 2 (degrees of freedom off by two).
  const long jl = o.flip ? 2 : 1;
  for (long n = 1; n <= 8; ++n) {
    for (const Rational& sv : ss) {
      s.Count();
      const Enclosure layered = ref::GaussianErrorNormCdfLayered(n, sv, prec);
      const Enclosure target = ref::GaussianErrorNormCdfTarget(n, sv, prec);
      // Independently: χ²_n cdf by the power series, and the layered mixture with Ũ ~ χ²_{n+2j}
      // P(Ũ ≤ s) + E[(s/Ũ)^{n/2}; Ũ > s] = P(n/2 + j, s/2) + (s/2)^{n/2} Γ(j) Q(j, s/2)/Γ(n/2 + j)
      // (j = 1: Q(1, s/2) = e^{−s/2}, Γ(n/2 + 1)).
      const Enclosure target_mine = SeriesGammaP(n, Rational(sv / 2), w);
      const Enclosure se(w, sv);
      const Enclosure upper_q = jl == 1 ? ref::Exp(-se / Rational(2)) : Rational(1) - SeriesGammaP(2 * jl, Rational(sv / 2), w);
      const Enclosure layered_mine = SeriesGammaP(n + 2 * jl, Rational(sv / 2), w) +
                                     ref::Pow(ref::Sqrt(se / Rational(2)), n) * upper_q /
                                         GammaHalfPlusOne(n + 2 * jl - 2, w);  // Γ(j) = 1 for j ∈ {1, 2}
      const std::string where = "n=" + std::to_string(n) + " s=" + S(sv);
      if (Disjoint(layered, target) || Disjoint(layered_mine, target_mine) || Disjoint(layered, target_mine))
        s.Violation(where + ": P(‖Z‖² ≤ sσ²) layered " + Dec(layered) + " vs χ²_n " + Dec(target) + " (series " +
                    Dec(target_mine) + ")");
      // Density: ∫_s^∞ χ²_{n+2}(u)/(V_n σ^n u^{n/2}) du = e^{−s/2}/(2^{n/2}Γ(n/2+1)V_n σ^n) vs the N(0, σ²I) density
      // (2πσ²)^{−n/2}e^{−s/2} (σ = 1), with V_n from the reference.
      const Enclosure mixture = ref::Exp(-se / Rational(2)) /
                                (ref::Pow(ref::Sqrt(Enclosure(w, 2L)), n) * GammaHalfPlusOne(n, w) * ref::UnitBallVolume(n, prec));
      const Enclosure gauss = ref::Exp(-se / Rational(2)) / ref::Pow(ref::Sqrt(Rational(2) * ref::Pi(w)), n);
      if (Disjoint(mixture, gauss)) s.Violation(where + ": mixture density " + Dec(mixture) + " vs Gaussian " + Dec(gauss));
    }
    // Moments, exact: E‖Z‖^{2j}/σ^{2j} = E[Ũ^j]·n/(n+2j) (Ũ ~ χ²_{n+2}, uniform in the ball) vs E[(χ²_n)^j].
    for (long j = 1; j <= 10; ++j) {
      s.Count();
      Rational mix(1), tgt(1);
      for (long i = 0; i < j; ++i) {
        mix *= n + 2 * jl + 2 * i;
        tgt *= n + 2 * i;
      }
      mix = mix * n / (n + 2 * j);
      if (mix != tgt) s.Violation("n=" + std::to_string(n) + ": moment j=" + std::to_string(j) + " " + S(mix) + " ≠ " + S(tgt));
    }
  }
  return s.AsVerdict("Ũ ~ χ²_{n+2}, Z | Ũ ~ U(σ√Ũ Bⁿ): P(‖Z‖²/σ² ≤ s) (layered, reference) = χ²_n cdf (reference) = "
                     "both again by an independent power series, n = 1..8; mixture density = N(0, σ²I) density; "
                     "moments E‖Z‖^{2j} equal for j ≤ 10 (exact)");
}

// ---- Lemma 15 (Laplace target) ----------------------------------------------------------------------
Verdict CheckLemma15(const CheckOptions& o) {
  Search s;
  const int prec = Prec(o);
  const mpfr_prec_t w = prec + 64;
  for (const Rational& sv : {Q(1, 100), Q(1, 10), Q(1, 2), Q(1), Q(2), Q(5), Q(10), Q(40)}) {
    s.Count();
    const Enclosure layered = ref::LaplaceErrorAbsCdfLayered(sv, prec);
    const Enclosure target = ref::LaplaceErrorAbsCdfTarget(sv, prec);
    // Independently: P(Ũ ≤ s) for Gamma(2, 1) by the series, plus s·E[1/Ũ; Ũ > s] = s e^{−s}.
    // Flip: the layer Gamma(3, 1) instead (P(Ũ ≤ s) + s·(1 + s)e^{−s}/2, its own layered cdf).
    const Enclosure mine = o.flip ? SeriesGammaP(6, sv, w) + sv * (1 + sv) * ref::Exp(Enclosure(w, Rational(-sv))) / Rational(2)
                                  : SeriesGammaP(4, sv, w) + sv * ref::Exp(Enclosure(w, Rational(-sv)));
    if (Disjoint(layered, target) || Disjoint(mine, target))
      s.Violation("s=" + S(sv) + ": P(|Z| ≤ sb) layered " + Dec(layered) + " vs Exp(1) cdf " + Dec(target));
  }
  return s.AsVerdict("Ũ ~ Gamma(2,1), Z | Ũ ~ U(−bŨ, bŨ): P(|Z| ≤ sb) layered = 1 − e^{−s} (reference both ways and an "
                     "independent series)");
}

// ---- §3.5 / §4.9 acceptance probability and trials ------------------------------------------------
Verdict CheckAcceptance(const CheckOptions& o) {
  Search s;
  const int prec = Prec(o);
  const mpfr_prec_t w = prec;
  const std::vector<std::pair<long, std::string>> p_spec = {{1, "1"}, {2, "0.785398"}, {3, "0.523599"}, {4, "0.308425"}, {8, "0.015854"}};
  const std::vector<std::pair<long, std::string>> trials_spec = {{2, "1.27323954474"}, {3, "1.9098593171"}, {4, "3.24227787655"},
                                                                 {8, "63.0741949728"}};
  Enclosure prev(w, 2L);
  for (long n = 1; n <= 12; ++n) {
    s.Count();
    const Enclosure p = ref::GaussianAcceptance(n, Q(1), prec);
    // Independently: V_n = π^{n/2}/Γ(n/2 + 1). Flip: Γ(n/2 + 3/2) in the denominator (an exponent off by
    // a half), i.e. V_n replaced by π^{n/2}/Γ((n+1)/2 + 1).
    const Enclosure vn = ref::Pow(ref::Sqrt(ref::Pi(w)), n) / GammaHalfPlusOne(o.flip ? n + 1 : n, w);
    Rational cube(1);
    for (long i = 0; i < n; ++i) cube *= 2;
    if (Disjoint(p, vn / cube)) s.Violation("n=" + std::to_string(n) + ": p_acc " + Dec(p) + " vs π^{n/2}/(Γ(n/2+1)2^n)");
    if (Above(p, Q(1)) || (n > 1 && !ref::CertainlyLess(p, prev))) s.Violation("n=" + std::to_string(n) + ": p_acc not in (0,1] decreasing");
    prev = p;
    const Enclosure et = ref::ExpectedTrials(p), vt = ref::TrialsVariance(p);
    if (Disjoint(et * p, Enclosure(w, 1L)) || Disjoint(vt, (Rational(1) - p) / (p * p))) s.Violation("n=" + std::to_string(n) + ": E[h], Var[h]");
    for (const auto& [m, v] : p_spec)
      if (m == n && Disjoint(p, Printed(v))) s.Violation("spec §3.5 p_acc(n=" + std::to_string(n) + ") " + Dec(p) + " vs " + v);
    for (const auto& [m, v] : trials_spec)
      if (m == n && Disjoint(et, Printed(v))) s.Violation("spec 2^n/V_n (n=" + std::to_string(n) + ") " + Dec(et) + " vs " + v);
    // c > 1 slack: p_acc(c) = p_acc(1)/c^n.
    const Enclosure pc = ref::GaussianAcceptance(n, Q(5, 4), prec);
    Rational cn(1);
    for (long i = 0; i < n; ++i) cn *= Q(5, 4);
    if (Disjoint(pc * cn, p)) s.Violation("n=" + std::to_string(n) + ": p_acc(c) ≠ p_acc(1)/c^n");
  }
  // Geometric law: Σ_{i≤N} i(1−p)^{i−1}p = 1/p − (1−p)^N (N + 1/p) exactly, so E[h] = 1/p.
  for (const Rational& p : {Q(1, 3), Q(3, 4), Q(1), Q(1, 50)}) {
    s.Count();
    Rational partial(0), pw(1);
    for (long i = 1; i <= 60; ++i) {
      partial += i * pw * p;
      pw *= 1 - p;
    }
    if (partial != 1 / p - pw * (60 + 1 / p)) s.Violation("p=" + S(p) + ": geometric partial mean");
  }
  // Entropy (spec §7.2: 0.955168251905, 1.90678926174 bits; §5.6 prints 1.906789261740, wrong in the 13th digit:
  // the value is 1.9067892617416…) and the Golomb parameter m_G = 1 for n = 2, 3.
  s.Count();
  const Enclosure h2 = ref::GeometricEntropyBits(ref::GaussianAcceptance(2, Q(1), prec));
  const Enclosure h3 = ref::GeometricEntropyBits(ref::GaussianAcceptance(3, Q(1), prec));
  if (Disjoint(h2, Printed("0.955168251905")) || Disjoint(h3, Printed("1.90678926174")))
    s.Violation("H(Geom): " + Dec(h2, 12) + ", " + Dec(h3, 12));
  if (ref::GolombParameter(ref::GaussianAcceptance(2, Q(1), prec)) != 1 ||
      ref::GolombParameter(ref::GaussianAcceptance(3, Q(1), prec)) != 1)
    s.Violation("Golomb parameter ≠ 1 for n = 2, 3");
  if (ref::LaplaceAcceptance(Q(1)) != 1 || ref::LaplaceAcceptance(Q(3)) != Q(1, 3)) s.Violation("Laplace p_acc ≠ 1/c");
  return s.AsVerdict("p_acc = V_n/(2c)^n (reference) = π^{n/2}/(Γ(n/2+1)(2c)^n) (independent), ≤ 1 and decreasing in n; "
                     "E[h] = 1/p, Var = (1−p)/p²; spec §3.5 and §7.2 values; H(Geom) and m_G = 1 for n = 2, 3; Laplace 1/c");
}

// ---- Theorem 7: p_s and the amplified ε; the reported ε = 1.45 and 29995 -------------------------
Verdict CheckThm7(const CheckOptions& o) {
  Search s;
  const int prec = Prec(o);
  // Flip: p_s with τ − 1 = 14 local steps (an exponent off by one).
  const Rational ps = ref::SubsamplingProbability(1666, o.flip ? 14 : 15);
  s.Count();
  if (!Printed("0.00896586940349937788899198").Contains(ps)) s.Violation("p_s(1666, 15) = " + ref::ToDecimalString(ps, 27));
  struct Row { std::string et, eps; };
  for (const Row& r : {Row{"5.9", "1.450187141357255945198921"}, Row{"30000", "29995.2856698008965769916"}}) {
    s.Count();
    const Enclosure e = ref::AmplifiedEpsilon(ref::ParseRational(r.et, "et"), ps, prec);
    if (Disjoint(e, Printed(r.eps))) s.Violation("ε(ε̃=" + r.et + ") = " + Dec(e, 25) + " vs spec " + r.eps);
  }
  // The paper's rounded values ε = 1.45 and 29995 (reported to 3 significant digits / the integer).
  s.Count();
  if (Disjoint(ref::AmplifiedEpsilon(Q(59, 10), ps, prec), Printed("1.45")) ||
      Disjoint(ref::AmplifiedEpsilon(Q(30000), ps, prec), Printed("29995")))
    s.Violation("the paper's ε = 1.45 / 29995 are not reproduced");
  const std::vector<std::string> base = {"5.26085941466", "6.57031907425", "7.663731", "8.696012", "9.70763026917",
                                         "10.711871", "11.713426", "12.713998", "13.714208", "14.7142852052"};
  for (long e = 1; e <= 10; ++e) {
    s.Count();
    const Enclosure et = ref::BaseEpsilon(Q(e), ps, prec);
    if (Disjoint(et, Printed(base[e - 1]))) s.Violation("ε̃(ε=" + std::to_string(e) + ") = " + Dec(et) + " vs " + base[e - 1]);
    // Round trip ε(ε̃(ε)) = ε, on the exact rational ends of the enclosure (ε is increasing in ε̃).
    const Interval iv = ref::ToInterval(et);
    if (Above(ref::AmplifiedEpsilon(iv.lo(), ps, prec), Q(e)) ||
        ref::ToInterval(ref::AmplifiedEpsilon(iv.hi(), ps, prec)).hi() < Q(e))
      s.Violation("round trip fails at ε=" + std::to_string(e));
  }
  // n_k = 2000 (60 000/30) does not give 1.45.
  s.Count();
  const Enclosure e2000 = ref::AmplifiedEpsilon(Q(59, 10), ref::SubsamplingProbability(2000, 15), prec);
  if (!Disjoint(e2000, Printed("1.45"))) s.Violation("n_k = 2000 also reproduces 1.45");
  return s.AsVerdict("p_s = 1 − (1 − 1/n_k)^τ (exact); ε(5.9) = 1.4501871… and ε(30000) = 29995.2856… reproduce the paper's "
                     "1.45 and 29995 with n_k = 1666 (n_k = 2000 gives " + Dec(e2000, 5) + "); ε̃(ε) table and round trip");
}

// ---- Theorems 8 and 10, Lemma 9: the building blocks' test vectors --------------------------------
Verdict CheckProfiles(const CheckOptions& o) {
  Search s;
  const int prec = Prec(o);
  struct G { Rational eps, sens, sigma; std::string v; };
  for (const G& g : {G{Q(1), Q(1), Q(1), "0.1269367375066439458"}, G{Q(1, 2), Q(1), Q(2), "0.052440323287669661712"}}) {
    s.Count();
    const Enclosure d = ref::CepamAnalyticGaussianDelta(g.eps, g.sens, g.sigma, prec);
    const Interval other = ref::AnalyticGaussianDelta(g.eps, g.sigma, g.sens, prec);  // gaussian.hpp, separate code
    if (Disjoint(d, Printed(g.v)) || Disjoint(d, other)) s.Violation("δ_G(" + S(g.eps) + ") = " + Dec(d) + " vs " + g.v);
  }
  // Theorem 10: [1 − e^{(ε−Δ/b)/2}]_+ = P(S) − e^ε Q(S) at S = {y < t}, t = (Δ − εb)/2, P = Lap(0,b), Q = Lap(Δ,b);
  // any other threshold gives less (the sup over half-lines is at t).
  for (const Rational& eps : {Q(1, 4), Q(1, 2), Q(9, 10)})
    for (const Rational& b : {Q(1), Q(1, 2)}) {
      s.Count();
      const Rational D(1);
      const Enclosure prof = ref::CepamLaplaceProfile(eps, D, b, prec);
      auto at = [&](const Rational& t) {  // P(Y < t) − e^ε P(Y' < t), 0 < t < Δ
        const Enclosure P = Rational(1) - ref::Exp(Enclosure(prec, Rational(-t / b))) / Rational(2);
        const Enclosure Qv = ref::Exp(Enclosure(prec, Rational((t - D) / b))) / Rational(2);
        return P - ref::Exp(Enclosure(prec, eps)) * Qv;
      };
      // Flip: the threshold (Δ − εb)/3 for the optimal (Δ − εb)/2.
      const Rational t = (D - eps * b) / (o.flip ? 3 : 2);
      if (t > 0) {
        if (Disjoint(prof, at(t))) s.Violation("Thm 10 ε=" + S(eps) + " b=" + S(b) + ": " + Dec(prof) + " vs " + Dec(at(t)));
        for (const Rational& h : {Q(1, 100), Q(1, 10)})
          if (t + h < D && ref::CertainlyLess(prof, at(Rational(t + h)))) s.Violation("threshold not optimal");
      }
    }
  s.Count();
  if (Disjoint(ref::CepamLaplaceProfile(Q(1, 2), Q(1), Q(1), prec), Printed("0.22119921692859513175")) ||
      !ref::Contains(ref::CepamLaplaceProfile(Q(1), Q(1), Q(1), prec), Q(0)))
    s.Violation("spec §7.2 Laplace profile");
  // Lemma 9 (14) vector: ε̃ = 1, τ = 5, n = 100, Δ = 1, σ̃ = 2.
  s.Count();
  const Enclosure d14 = ref::SubsampledGaussianDelta(Q(1), 5, 100, Q(1), Q(2), false, prec);
  const Enclosure d14c = ref::SubsampledGaussianDelta(Q(1), 5, 100, Q(1), Q(2), true, prec);
  const Enclosure e14 = ref::AmplifiedEpsilon(Q(1), ref::SubsamplingProbability(100, 5), prec);
  if (Disjoint(d14, Printed("4.6656602231748159514e-4")) || Disjoint(d14c, Printed("4.6656602231748159514e-4")) ||
      Disjoint(e14, Printed("0.080854292099489586875")))
    s.Violation("spec §7.2 (14): " + Dec(d14) + " / ε " + Dec(e14));
  return s.AsVerdict("Theorem 8 δ_G (CEPAM code) = gaussian.hpp's analytic Gaussian = spec vectors; Theorem 10 = the "
                     "hockey-stick value of the optimal half-line; Lemma 9 (14) spec vector");
}

// ---- Lemma 9's "iff" (E-P1) -------------------------------------------------------------------------
Verdict CheckLemma9Iff(const CheckOptions& o) {
  Search s;
  const int prec = Prec(o);
  for (long tau : {2L, 5L, 15L})
    for (long n : {10L, 100L, 1666L})
      for (const Rational& sig : {Q(1), Q(1, 10), Q(1, 100)})
        for (const Rational& et : {Q(1), Q(59, 10)}) {
          s.Count();
          // Under ≃_s the outputs differ only if the changed point is sampled: TV ≤ p_s, so the mechanism
          // is (ε, p_s)-DP for every ε; "(14) ≤ δ iff (ε, δ)-DP" fails wherever (14) > p_s.
          const Rational ps = ref::SubsamplingProbability(n, tau);
          // Flip: the capped (14) (E-P2: each summand w_κ·min{1, ·}, so the sum is ≤ Σ w_κ = p_s).
          const Enclosure d = ref::SubsampledGaussianDelta(et, tau, n, Q(1), sig, o.flip, prec);
          if (Above(d, ps))
            s.Violation("τ=" + std::to_string(tau) + " n=" + std::to_string(n) + " Δ=1 σ̃=" + S(sig) + " ε̃=" + S(et) +
                        ": (14) = " + Dec(d, 10) + " > p_s = " + ref::ToDecimalString(ps, 10) +
                        ", yet the mechanism is (ε, p_s)-DP (TV ≤ p_s), so (14) ≤ δ is not necessary");
        }
  return s.AsVerdict("necessity of (14): compared with the trivial bound δ = p_s (TV of the subsampled mechanism)");
}

// ---- Theorem 12: (16) is (14) with Δ2 = 2τγ/K, σ̃ = σ/√K; spec vectors -------------------------
// `wrong_a`: the first argument τγ/(√Kσ) replaced by τγ/(Kσ) (the eq16 claim's flip).
Enclosure Eq16Literal(const Rational& sigma, const Rational& et, long tau, long K, const Rational& gamma, long nk, mpfr_prec_t w,
                      bool wrong_a = false) {
  const Enclosure sqrtK = ref::Sqrt(Enclosure(w, K));
  const Enclosure A = wrong_a ? Enclosure(w, Rational(tau * gamma / (K * sigma))) : Rational(tau * gamma) / (sqrtK * sigma);
  const Enclosure ete(w, et);
  Enclosure sum(w, 0L);
  for (long kappa = 1; kappa <= tau; ++kappa) {
    Rational wk = Binom(tau, kappa);
    for (long i = 0; i < kappa; ++i) wk /= nk;
    for (long i = kappa; i < tau; ++i) wk *= Rational(1) - Q(1, nk);
    const Enclosure Bk = sqrtK * Rational(et * sigma / (2 * kappa * tau * gamma));
    const Enclosure ek = ete / Rational(kappa);
    sum += wk * ref::Expm1(ete) / ref::Expm1(ek) * (ref::NormalCdf(A - Bk) - ref::Exp(ek) * ref::NormalCdf(-A - Bk));
  }
  return sum;
}
Verdict CheckThm12Eq16(const CheckOptions& o) {
  Search s;
  const int prec = Prec(o);
  for (long tau : {1L, 3L, 15L})
    for (long K : {1L, 4L, 30L})
      for (const Rational& sigma : {Q(1, 1000), Q(1, 2), Q(1), Q(3)})
        for (const Rational& et : {Q(1, 2), Q(59, 10)}) {
          s.Count();
          const ref::Thm12Result r = ref::Theorem12({sigma, et, tau, K, Q(1), 1666}, ref::Thm12Variant::kAsPrinted, prec);
          const Enclosure mine = Eq16Literal(sigma, et, tau, K, Q(1), 1666, prec + 64, o.flip);
          // Substitution identities, exact in squares: (Δ2/(2σ̃))² = τ²γ²/(Kσ²), (σ̃/Δ2)² = K σ²/(4τ²γ²).
          const Rational d2 = r.sensitivity, st2 = r.sigma_tilde_squared;
          if (d2 * d2 / (4 * st2) != Rational(tau * tau) / (K * sigma * sigma) ||
              st2 / (d2 * d2) != K * sigma * sigma / (4 * tau * tau) || Disjoint(mine, r.delta))
            s.Violation("τ=" + std::to_string(tau) + " K=" + std::to_string(K) + " σ=" + S(sigma) + " ε̃=" + S(et) +
                        ": (16) literal " + Dec(mine) + " vs (14) with Δ2, σ̃ " + Dec(r.delta));
        }
  struct Row { Rational sigma; std::string d, dc; };
  for (const Row& r : {Row{Q(1, 1000), "0.00968873971152297", "0.00896586940349938"},
                       Row{Q(1, 2), "0.00968873314449917", "0.00896586297487222"},
                       Row{Q(1), "0.00901803744417388", "0.00831330880777338"},
                       Row{Q(2), "0.00160041826728238", "0.00127444003092534"},
                       Row{Q(5), "3.67419030090893e-6", "3.55208627229607e-6"}}) {
    s.Count();
    const ref::Thm12Result t = ref::Theorem12({r.sigma, Q(59, 10), 15, 30, Q(1), 1666}, ref::Thm12Variant::kAsPrinted, prec);
    if (Disjoint(t.delta, Printed(r.d)) || Disjoint(t.delta_capped, Printed(r.dc)))
      s.Violation("spec §7.2 (16) σ=" + S(r.sigma) + ": " + Dec(t.delta) + " (capped " + Dec(t.delta_capped) + ")");
  }
  return s.AsVerdict("(16) evaluated literally (arguments τγ/(√Kσ), √Kε̃σ/(2κτγ)) = (14) with Δ2 = 2τγ/K, σ̃ = σ/√K "
                     "(reference); substitution identities exact; spec §7.2 (16) vectors, uncapped and capped");
}

// ---- Exact hockey-stick divergences of explicit neighbouring instances (spec §2.2, §4.7) -----------
// One round of CEPAM-Gaussian releases (1/K)Σ_k clip(X_k) + N(0, σ̃²I), σ̃ = σ/√K (eq. 15). Only the
// client holding the substituted point changes; with linear losses the update's direction does not
// depend on W, so a one-dimensional instance realises the following pairs exactly (a = γ/K):
//  * instance A: the other points push the clipped update to −γe, the substituted point (with a
//    gradient dominating the rest) to +γe whenever it is sampled, its replacement behaves like the
//    others: P = (1 − p)N(−a) + pN(+a), Q = N(−a), p = P(sampled) = p_s;
//  * instance B: the other points have zero gradient, the point and its replacement push to ±γe:
//    P = (1 − p)N(0) + pN(+a), Q = (1 − p)N(0) + pN(−a).
// In both, the likelihood ratio dP/dQ is increasing in y, so D_{e^ε}(P‖Q) = sup_t P(Y > t) − e^ε Q(Y > t)
// is attained where dP/dQ = e^ε, which has a closed form: a rigorous enclosure of the exact value.
Enclosure DeltaG(const Enclosure& eps, const Enclosure& D, const Enclosure& st) {
  // Theorem 8 (13) evaluated here (not the reference's): Φ(Δ/(2σ̃) − εσ̃/Δ) − e^ε Φ(−Δ/(2σ̃) − εσ̃/Δ).
  const Enclosure u = D / (Rational(2) * st), v = eps * st / D;
  return ref::NormalCdf(u - v) - ref::Exp(eps) * ref::NormalCdf(-u - v);
}
// Instance A at e^ε = E: y* = σ̃²/(2a)·ln((E − 1 + p)/p); D = pΦ((a − y*)/σ̃) − (E − 1 + p)Φ(−(y* + a)/σ̃).
Enclosure InstanceADelta(const Rational& p, const Enclosure& E, const Rational& a, const Enclosure& st) {
  const Enclosure c = E - Rational(1 - p);
  const Enclosure y = st * st / Rational(2 * a) * ref::Log(c / p);
  return p * ref::NormalCdf((Rational(a) - y) / st) - c * ref::NormalCdf(-(y + a) / st);
}
// Instance B at e^ε = E: with z = e^{ay/σ̃²} and c = p e^{−a²/(2σ̃²)}, dP/dQ = E ⇔ cz² + (1−p)(1−E)z − Ec = 0.
Enclosure InstanceBDelta(const Rational& p, const Enclosure& E, const Rational& a, const Enclosure& st) {
  const Enclosure st2 = st * st;
  const Enclosure c = p * ref::Exp(Rational(-a * a / 2) / st2);
  const Enclosure bq = Rational(1 - p) * (Rational(1) - E);  // < 0
  const Enclosure z = (-bq + ref::Sqrt(bq * bq + Rational(4) * c * c * E)) / (Rational(2) * c);
  const Enclosure y = st2 / a * ref::Log(z);
  return Rational(1 - p) * (Rational(1) - E) * ref::NormalCdf(-y / st) +
         p * (ref::NormalCdf((Rational(a) - y) / st) - E * ref::NormalCdf(-(y + a) / st));
}
// p_s = 1 − (1 − 1/n)^τ and the binomial weights w_κ of (12), computed here (exact).
Rational BinomialWeight(long tau, long kappa, long n) {
  Rational w = Binom(tau, kappa);
  for (long i = 0; i < kappa; ++i) w /= n;
  for (long i = kappa; i < tau; ++i) w *= Rational(1) - Q(1, n);
  return w;
}

// ---- E-P2 / E-P3 / E-P4: "δ = (16)" against the exact privacy profile ------------------------------
Verdict CheckThm12Capped(const CheckOptions& o) {
  // Theorem 12 says the average is (ε, δ)-DP with δ = (16). Checked against the privacy profile
  // computed from the definitions: a lower bound δ_inst = max(instance A, instance B) (real
  // neighbouring inputs, exact divergence) and the upper bound of Theorem 7's (12) with the group
  // profile of the whole-update-clipped base mechanism, δ_{F,κ}(ε̃) ≤ δ_G(ε̃; 2γ/K, σ/√K) for every κ
  // (E-P4), i.e. δ_up = Σ_κ w_κ δ_G(ε̃; 2γ/K, σ/√K). (16) and the capped form (E-P2) are valid if no
  // instance exceeds them; (16) is loose where it is certainly above δ_up. Instance A attains δ_up
  // (y* = σ̃²ε̃/(2a) there), so δ_up is the exact profile at ε = ε(ε̃).
  // Flip: the substituted point's shift counted τ-fold (a = τγ/K, the paper's footnote-12 accounting)
  // in the instances, which are then not neighbouring inputs of the clipped mechanism: δ_inst > δ_up.
  Search valid, loose;
  const int prec = Prec(o);
  const mpfr_prec_t w = prec + 64;
  std::string tight_report, e_p3;
  for (const Rational& sigma : {Q(1, 1000), Q(1, 2), Q(1), Q(2), Q(5)})
    for (const Rational& et : {Q(1), Q(59, 10), Q(12)})
      for (long tau : {2L, 15L}) {
        const long K = 30, nk = 1666;
        const Rational gamma(1);
        const ref::Thm12Result r = ref::Theorem12({sigma, et, tau, K, gamma, nk}, ref::Thm12Variant::kAsPrinted, prec);
        Rational ps(0);
        for (long kappa = 1; kappa <= tau; ++kappa) ps += BinomialWeight(tau, kappa, nk);
        const Enclosure E = Rational(1) + ps * ref::Expm1(Enclosure(w, et));  // e^ε, ε = ln(1 + p_s(e^ε̃ − 1))
        const Enclosure st = ref::Sqrt(Enclosure(w, Rational(sigma * sigma / K)));
        const Rational a = (o.flip ? tau : 1) * gamma / K;
        const Enclosure dA = InstanceADelta(ps, E, a, st), dB = InstanceBDelta(ps, E, a, st);
        const Enclosure dG = DeltaG(Enclosure(w, et), Enclosure(w, Rational(2 * gamma / K)), st);
        Enclosure up(w, 0L);
        for (long kappa = 1; kappa <= tau; ++kappa) up += BinomialWeight(tau, kappa, nk) * dG;
        const std::string where = "σ=" + S(sigma) + " ε̃=" + S(et) + " τ=" + std::to_string(tau) + " K=30 γ=1 n_k=1666";
        valid.Count();
        for (const auto& [name, d] : {std::pair{"A", dA}, std::pair{"B", dB}}) {
          if (ref::CertainlyLess(r.delta, d) || ref::CertainlyLess(r.delta_capped, d) || ref::CertainlyLess(up, d))
            valid.Violation(where + ": instance " + name + " has D_{e^ε} = " + Dec(d, 10) + " > one of (16) = " +
                            Dec(r.delta, 10) + ", capped " + Dec(r.delta_capped, 10) + ", Σw_κ·δ_G(ε̃; 2γ/K) = " + Dec(up, 10));
        }
        loose.Count();
        if (ref::CertainlyLess(up, r.delta)) {
          loose.Violation(where + ": (16) = " + Dec(r.delta, 8) + " > exact δ(ε) = " + Dec(up, 8));
          if (tight_report.empty())
            tight_report = where + ": exact δ(ε = " + Dec(ref::Log(E), 8) + ") ∈ [" + Dec(dA, 8) + ", " + Dec(up, 8) +
                           "] (instance A, Thm 7 + E-P4), capped (16) = " + Dec(r.delta_capped, 8);
        }
        if (sigma == Q(1, 1000) && et == Q(59, 10) && tau == 15)
          e_p3 = "; at the paper's σ = 0.001, ε̃ = 5.9: exact δ(1.45) = " + Dec(up, 10) + " vs p_s = " +
                 ref::ToDecimalString(ps, 10) + " (E-P3: the noise certifies nothing beyond the trivial p_s)";
      }
  Verdict v = valid.AsVerdict("Theorem 12's δ = (16) and the capped form (E-P2) against the exact profile: instances A and B "
                              "(mixtures of N(±γ/K, σ²/K) at the closed-form optimal threshold) ≤ δ ≤ Σ_κ w_κ δ_G(ε̃; 2γ/K, σ/√K) "
                              "(Thm 7 with E-P4's group profile), which instance A attains" + e_p3);
  v.instances_checked += loose.instances();
  if (!valid.Violated() && loose.Violated()) {
    v.status = Status::kPassLoose;
    v.counterexample = "loose: " + loose.counterexample() + " (tight: " + tight_report + ")";
    v.note += " (" + std::to_string(loose.violations()) + " of " + std::to_string(loose.instances()) + " instances strictly loose)";
  }
  return v;
}

// ---- E-P4 / E-P6: the sensitivity 2τγ/K vs the max over neighbouring inputs -----------------------
// Δ2 = sup over neighbouring inputs of ‖q(X) − q(X')‖ for the base mechanism's query q (the average of
// the clipped updates, given the sampled index sequence, §2.4). Computed literally: client 1 holds
// n_k = 3 points of ℝ² (ξ1 is substituted by ξ1'), local SGD (3) on ℓ(W; ξ) = ½‖W − ξ‖² from W_0 = 0
// with η = 1/2 runs every index sequence in {1, 2, 3}^τ, the update is clipped (Alg. 1 step 4) and
// the other K − 1 clients' updates cancel; ‖Δ avg‖² = ‖clip(X) − clip(X')‖²/K² as an enclosure (the
// clip factor γ/‖X‖ is irrational in general). Points come from a grid with small and large norms.
struct V2 {
  Rational x, y;
};
struct ClippedUpdate {
  Enclosure x, y;
};
ClippedUpdate LocalClippedUpdate(const std::vector<V2>& data, const std::vector<int>& seq, const Rational& gamma, bool clip,
                                 mpfr_prec_t w) {
  V2 W{Q(0), Q(0)};
  for (int j : seq) {  // W ← W − η∇ℓ(W; ξ_j), η = 1/2
    W.x -= (W.x - data[j].x) / 2;
    W.y -= (W.y - data[j].y) / 2;
  }
  const Rational n2 = W.x * W.x + W.y * W.y;
  if (!clip || n2 <= gamma * gamma) return {Enclosure(w, W.x), Enclosure(w, W.y)};
  const Enclosure f = Rational(gamma) / ref::Sqrt(Enclosure(w, n2));  // X / max{1, ‖X‖/γ}
  return {W.x * f, W.y * f};
}

Verdict CheckThm12Sensitivity(const CheckOptions& o) {
  // Footnote 12 sets Δ2 = 2τγ/K. E-P4: the whole update is clipped, so the average moves by at most
  // the diameter 2γ/K of the clipping ball over K, however often the point is sampled. The max over
  // the enumerated neighbouring inputs attains 2γ/K for every τ, so 2τγ/K is valid but loose for
  // τ ≥ 2 (PASS_LOOSE), and (16) with it is certainly ≥ (16) with 2γ/K. E-P6: a curious client removes
  // its own noise, leaving variance (K − 1)σ²/K² per coordinate; δ is larger with it.
  // Flip: the clip step omitted (raw local updates): the max over neighbouring inputs then grows with
  // the data and exceeds 2τγ/K.
  Search valid, loose;
  const int prec = Prec(o);
  const mpfr_prec_t w = prec;
  const Rational gamma(1);
  std::vector<V2> grid = {{Q(0), Q(0)}, {Q(1, 2), Q(1, 3)}, {Q(3), Q(4)}, {Q(60), Q(0)}, {Q(-60), Q(0)}};
  if (!o.quick)
    for (const V2& p : {V2{Q(1), Q(0)}, V2{Q(-30), Q(40)}, V2{Q(0), Q(-50)}}) grid.push_back(p);
  const long max_tau = o.quick ? 2 : 3;
  std::string tight_report;
  std::vector<Enclosure> best_by_tau;  // max ‖clip(X) − clip(X')‖² per τ (before the 1/K²)
  for (long tau = 1; tau <= max_tau; ++tau) {
    std::vector<std::vector<int>> seqs = {{}};
    for (long t = 0; t < tau; ++t) {
      std::vector<std::vector<int>> next;
      for (const auto& s : seqs)
        for (int j = 0; j < 3; ++j) {
          next.push_back(s);
          next.back().push_back(j);
        }
      seqs = next;
    }
    Enclosure best(w, 0L);
    std::string best_where;
    for (const V2& x2 : grid)
      for (const V2& x3 : grid) {
        // clip(X) for every choice of ξ1 and sequence, then every ordered pair ξ1 ≠ ξ1'.
        std::vector<std::vector<ClippedUpdate>> upd(grid.size());
        for (std::size_t i = 0; i < grid.size(); ++i)
          for (const auto& s : seqs) upd[i].push_back(LocalClippedUpdate({grid[i], x2, x3}, s, gamma, !o.flip, w));
        for (std::size_t i = 0; i < grid.size(); ++i)
          for (std::size_t k = 0; k < grid.size(); ++k) {
            if (i == k) continue;
            for (std::size_t q = 0; q < seqs.size(); ++q) {
              const Enclosure dx = upd[i][q].x - upd[k][q].x, dy = upd[i][q].y - upd[k][q].y;
              const Enclosure d2 = dx * dx + dy * dy;
              if (ref::ToInterval(d2).lo() > ref::ToInterval(best).lo()) {
                best = d2;
                best_where = "ξ1=(" + S(grid[i].x) + "," + S(grid[i].y) + ") ξ1'=(" + S(grid[k].x) + "," + S(grid[k].y) +
                             ") ξ2=(" + S(x2.x) + "," + S(x2.y) + ") ξ3=(" + S(x3.x) + "," + S(x3.y) + ")";
              }
            }
          }
      }
    best_by_tau.push_back(best);
    for (long K : {2L, 30L}) {
      const Enclosure sens2 = best / Rational(K * K);
      const Rational printed2 = Rational(2 * tau * gamma / K) * Rational(2 * tau * gamma / K);
      const Rational diam2 = Rational(2 * gamma / K) * Rational(2 * gamma / K);
      const std::string where = "τ=" + std::to_string(tau) + " K=" + std::to_string(K) + " γ=1 (n_k = 3 points in ℝ², η = 1/2)";
      valid.Count();
      if (ref::ToInterval(sens2).lo() > printed2 || ref::ToInterval(sens2).lo() > diam2)
        valid.Violation(where + ": max over neighbouring inputs ‖Δ avg‖² ≥ " + Dec(sens2, 8) + " > printed (2τγ/K)² = " +
                        S(printed2) + " or the clipping diameter (2γ/K)² = " + S(diam2) + " at " + best_where);
      loose.Count();
      if (ref::ToInterval(sens2).hi() < printed2) {
        loose.Violation(where + ": printed Δ2² = (2τγ/K)² = " + S(printed2) + " > max over neighbouring inputs " +
                        Dec(sens2, 8) + " (attained at " + best_where + ")");
        if (tight_report.empty()) tight_report = "Δ2 = 2γ/K = " + S(Rational(2 * gamma / K)) + " (the max, " + where + ")";
      }
    }
  }
  // δ_(16) with the printed Δ2 and with the computed one (the reference's E-P4 variant, whose Δ2 must be the
  // enumerated max), at the paper's ε̃ = 59/10 and n_k = 1666; E-P6's own-noise variance derived here.
  const Enclosure tight2 = best_by_tau.back();
  std::string delta_report;
  for (long tau : {2L, 15L})
    for (long K : {2L, 30L})
      for (const Rational& sigma : {Q(1, 2), Q(2), Q(5)}) {
        const ref::Thm12Params p{sigma, Q(59, 10), tau, K, gamma, 1666};
        const ref::Thm12Result pr = ref::Theorem12(p, ref::Thm12Variant::kAsPrinted, prec);
        const ref::Thm12Result co = ref::Theorem12(p, ref::Thm12Variant::kSensitivityCorrected, prec);
        const ref::Thm12Result own = ref::Theorem12(p, ref::Thm12Variant::kOwnNoiseSubtracted, prec);
        Rational own_var(0);  // Var of (1/K)Σ_{k≠k'} Z_k per coordinate: K − 1 terms of σ²/K²
        for (long k = 1; k < K; ++k) own_var += sigma * sigma / (K * K);
        const std::string where = "τ=" + std::to_string(tau) + " K=" + std::to_string(K) + " σ=" + S(sigma) +
                                  " γ=1 ε̃=59/10 n_k=1666";
        valid.Count();
        if (!ref::Contains(tight2 / Rational(K * K), co.sensitivity * co.sensitivity) ||
            own.sigma_tilde_squared != own_var || ref::CertainlyLess(pr.delta, co.delta) ||
            ref::CertainlyLess(own.delta, co.delta))
          valid.Violation(where + ": Δ2 (E-P4) = " + S(co.sensitivity) + " vs enumerated √" + Dec(tight2 / Rational(K * K), 8) +
                          "; own-noise σ̃² " + S(own.sigma_tilde_squared) + " vs " + S(own_var) + "; δ_(16) printed " +
                          Dec(pr.delta, 8) + ", with 2γ/K " + Dec(co.delta, 8) + ", own-noise " + Dec(own.delta, 8));
        if (delta_report.empty() && tau == 15 && K == 30 && sigma == Q(2))
          delta_report = "; " + where + ": δ_(16) with Δ2 = 2τγ/K " + Dec(pr.delta, 8) + ", with 2γ/K " + Dec(co.delta, 8) +
                         ", own-noise σ̃ = σ√(K−1)/K " + Dec(own.delta, 8);
      }
  Verdict v = valid.AsVerdict("footnote 12's Δ2 = 2τγ/K vs the sensitivity computed as a max over neighbouring inputs "
                              "(literal local SGD + clipping, every index sequence, τ ≤ " + std::to_string(max_tau) +
                              "; the max is 2γ/K for every τ, E-P4); E-P6 own-noise variance (K−1)σ²/K²" + delta_report);
  v.instances_checked += loose.instances();
  if (!valid.Violated() && loose.Violated()) {
    v.status = Status::kPassLoose;
    // The sensitivity does not depend on ε̃ or n_k (a sup over data sets); its consequence for δ does,
    // so the counterexample states both (issue 20).
    v.counterexample = "loose: " + loose.counterexample() + " (tight: " + tight_report + ")" + delta_report;
    v.note += " (" + std::to_string(loose.violations()) + " of " + std::to_string(loose.instances()) +
              " instances strictly loose: every τ ≥ 2)";
  }
  return v;
}

// ---- E-X1: the reported δ = 2.48e-2 ------------------------------------------------------------------
Verdict CheckReportedDelta(const CheckOptions& o) {
  Search s;
  const int prec = Prec(o);
  s.Count();
  const ref::Thm12Result r = ref::Theorem12({Q(1, 1000), Q(59, 10), 15, 30, Q(1), 1666}, ref::Thm12Variant::kAsPrinted, prec);
  // Flip: the comparison's other side perturbed — the paper's 2.48e-2 replaced by the spec's own
  // recomputation of (16) at these settings (§7.2: 0.00968873971152297), which the checker must accept.
  const std::string reported = o.flip ? "0.00968873971152297" : "2.48e-2";
  if (Disjoint(r.delta, Printed(reported)))
    s.Violation("σ=0.001 ε̃=5.9 τ=15 K=30 γ=1 n_k=1666: (16) = " + Dec(r.delta, 17) + " (capped " + Dec(r.delta_capped, 12) +
                " = p_s), not 2.48e-2 (interval [0.02475, 0.02485] disjoint)");
  // The spec's [EXTERNAL] explanation: (16) with σ ↔ ε̃ and K ↔ n_k swapped.
  const Enclosure swapped = Eq16Literal(Q(59, 10), Q(1, 1000), 15, 1666, Q(1), 30, prec);
  Verdict v = s.AsVerdict("Theorem 12 at the paper's settings (n_k = 1666 reproduces ε = 1.45); the argument-swapped "
                          "evaluation of (16) gives " + Dec(swapped, 6) + " (spec [EXTERNAL]: 0.024647)");
  return v;
}

// ---- E-X1 / E-P3: the §VI-C σ lists and the calibration ------------------------------------------
Verdict CheckSigmaLists(const CheckOptions& o) {
  Search s;
  const int prec = Prec(o);
  const Rational ps = ref::SubsamplingProbability(1666, 15);
  const std::vector<std::string> list01 = {"0.1375", "0.0864", "0.0602", "0.0431", "0.0307", "0.0231", "0.0141", "0.0083", "0.00364", "0.000159"};
  const std::vector<std::string> list015 = {"0.0857", "0.0445", "0.0236", "0.0101", "0.0005"};
  for (const auto& [delta, list] : std::vector<std::pair<Rational, std::vector<std::string>>>{{Q(1, 100), list01}, {Q(3, 200), list015}})
    for (std::size_t i = 0; i < list.size(); ++i) {
      s.Count();
      const long eps = static_cast<long>(i) + 1;
      // ε̃ = ε̃(ε) (the paper's §3.11 calibration), certified from the lower end of its enclosure.
      const Rational et = ref::ToInterval(ref::BaseEpsilon(Q(eps), ps, prec)).lo();
      const Rational sigma = ref::ParseRational(list[i], "sigma");
      const ref::Thm12Result r = ref::Theorem12({sigma, et, 15, 30, Q(1), 1666}, ref::Thm12Variant::kAsPrinted, prec);
      // Flip: the capped (16) (E-P2) for the printed one; its floor is p_s < 0.01, so every listed σ qualifies.
      if (Above(o.flip ? r.delta_capped : r.delta, delta))
        s.Violation("δ=" + S(delta) + " ε=" + std::to_string(eps) + ": listed σ = " + list[i] + " gives δ_(16) = " +
                    Dec(r.delta, 8) + " > δ (floor; σ_min from (16) is far larger)");
    }
  return s.AsVerdict("§VI-C σ lists \"computed according to Theorem 12\": δ_(16)(σ, ε̃(ε)) ≤ δ for each listed σ; every "
                     "target δ ≥ p_s = 0.008966 is met by the trivial bound with no noise (E-P3)");
}

Verdict CheckCalibration(const CheckOptions& o) {
  Search s;
  const int prec = Prec(o);
  const std::vector<std::pair<long, std::string>> rows = {{3, "0.934539"}, {4, "1.02268"}, {5, "1.10409"}, {6, "1.20340"},
                                                          {7, "1.33825"}, {8, "1.49552"}, {9, "1.62910"}, {10, "1.72742"}};
  // Flip: the target δ = 0.01 perturbed to 0.0099 (ε ≤ 3 only): the ε = 2 floor 0.009977 then exceeds it
  // and the ε = 3 σ_min moves away from the spec's value.
  const Rational target = o.flip ? Q(99, 10000) : Q(1, 100);
  for (long eps = 1; eps <= (o.flip ? 3 : o.quick ? 5 : 10); ++eps) {
    s.Count();
    const auto cal = ref::CalibrateTheorem12Sigma(Q(eps), target, 15, 30, Q(1), 1666, ref::Thm12Variant::kAsPrinted, false,
                                                  24, prec);
    if (eps <= 2) {
      if (cal) s.Violation("δ=0.01 ε=" + std::to_string(eps) + ": floor < δ, expected every σ ≥ 0 to qualify");
      continue;
    }
    const std::string v = rows[eps - 3].second;
    if (!cal) {
      s.Violation("δ=0.01 ε=" + std::to_string(eps) + ": no calibration");
      continue;
    }
    const Interval pi = Printed(v);
    if (cal->hi() < pi.lo() || pi.hi() < cal->lo())
      s.Violation("δ=0.01 ε=" + std::to_string(eps) + ": σ_min ∈ [" + Dec(Interval(cal->lo()), 8) + ", " +
                  Dec(Interval(cal->hi()), 8) + "] vs spec " + v);
  }
  for (long eps = 1; eps <= 5; ++eps) {
    s.Count();
    if (ref::CalibrateTheorem12Sigma(Q(eps), Q(3, 200), 15, 30, Q(1), 1666, ref::Thm12Variant::kAsPrinted, false, 24, prec))
      s.Violation("δ=0.015 ε=" + std::to_string(eps) + ": expected every σ ≥ 0 to qualify");
  }
  return s.AsVerdict("[DERIVED] spec §5.5 σ_min from (16) as printed (γ = 1, n_k = 1666, τ = 15, K = 30): any σ for "
                     "δ = 0.01, ε ≤ 2 and δ = 0.015, ε ≤ 5; the listed σ_min for ε = 3..10 at δ = 0.01");
}

// ---- Theorem 13 (E-P5): ε̃ ≥ 2τγ/b vs 2τγ√m/b ----------------------------------------------------
Verdict CheckThm13(const CheckOptions& o) {
  Search printed, corrected;
  const int prec = Prec(o);
  // Unit vectors v (rational coordinates) in ℝ^m: the substitution X̃ = τγv, X̃' = −τγv (ℓ2 shift 2τγ, the
  // paper's accounting) moves the Laplace mean by 2τγ‖v‖1 in ℓ1.
  struct Dir { long m; std::vector<Rational> v; };
  std::vector<Dir> dirs = {{1, {Q(1)}}, {2, {Q(3, 5), Q(4, 5)}}, {4, {Q(1, 2), Q(1, 2), Q(1, 2), Q(1, 2)}},
                           {3, {Q(1, 3), Q(2, 3), Q(2, 3)}}, {9, std::vector<Rational>(9, Q(1, 3))}};
  for (const Dir& d : dirs)
    for (long tau : {1L, 15L})
      for (const Rational& gamma : {Q(1), Q(1, 2)})
        for (const Rational& b : {Q(1, 1000), Q(1)}) {
          Rational norm2(0), norm1(0);
          for (const Rational& c : d.v) {
            norm2 += c * c;
            norm1 += ref::Abs(c);
          }
          if (norm2 != 1) throw std::logic_error("direction is not a unit vector");
          // Privacy loss at the output y = X̃ + 1·sign(v) (beyond both means in every coordinate):
          // Σ (|y − X̃'| − |y − X̃|)/b, exact; it is the sup over y (triangle inequality).
          Rational loss(0);
          for (const Rational& c : d.v) {
            const Rational x = tau * gamma * c, xp = -tau * gamma * c, y = x + (c > 0 ? 1 : -1);
            loss += (ref::Abs(Rational(y - xp)) - ref::Abs(Rational(y - x))) / b;
          }
          const std::string where = "m=" + std::to_string(d.m) + " τ=" + std::to_string(tau) + " γ=" + S(gamma) + " b=" + S(b);
          printed.Count();
          const Rational eps_printed = 2 * tau * gamma / b;  // the smallest ε̃ Theorem 13 allows
          if (loss > eps_printed)
            printed.Violation(where + " v=(" + S(d.v[0]) + ", " + S(d.v[1 % d.v.size()]) + ", …): at ε̃ = 2τγ/b = " + S(eps_printed) +
                              " the base Laplace mechanism's privacy loss at a rational output is " + S(loss) + " > ε̃");
          corrected.Count();
          // The computed loss against the corrected threshold: loss ≤ 2τγ√m/b ⇔ loss² ≤ (2τγ/b)²·m (exact,
          // loss ≥ 0). Flip: the threshold without √m (the printed one put in the corrected form).
          const Rational thr2 = (2 * tau * gamma / b) * (2 * tau * gamma / b) * (o.flip ? 1 : d.m);
          if (loss * loss > thr2)
            corrected.Violation(where + ": privacy loss " + S(loss) + " exceeds 2τγ√m/b (‖v‖1 = " + S(norm1) + ")");
          if (Disjoint(Enclosure(prec, Rational(2 * tau * gamma / b)) * ref::Sqrt(Enclosure(prec, d.m)),
                       ref::Theorem13(Q(1), tau, gamma, b, d.m, 1666, prec).required_corrected_l2))
            corrected.Violation(where + ": reference's corrected threshold");
        }
  // The paper's setting: ε̃ = 30000, τ = 15, γ = 1, b = 0.001, CNN m = 6422.
  const ref::Thm13Result t = ref::Theorem13(Q(30000), 15, Q(1), Q(1, 1000), 6422, 1666, prec);
  corrected.Count();
  if (!t.holds_as_printed || t.holds_corrected) corrected.Violation("paper setting: printed/corrected conditions");
  return CompareVariants(printed, corrected,
                         "Theorem 13's condition ε̃ ≥ 2τγ/b (as printed; ℓ1 sensitivity 2τγ) vs ε̃ ≥ 2τγ√m/b (E-P5, ℓ2 "
                         "clipping); paper setting (ε̃ = 30000, m = 6422) meets the printed condition only, the corrected "
                         "one needs ε̃ ≥ " + Dec(t.required_corrected_l2, 7));
}

// ---- §4.8 / §5.6 [DERIVED] index bits for n = 1 -------------------------------------------------------
Verdict CheckIndexBits(const CheckOptions& o) {
  Search s;
  const int prec = Prec(o);
  s.Count();
  // Flip: the scaling slack c = 2 for c = 1 (β twice as large: the candidate count C_1 halves, one bit less).
  const Rational c = o.flip ? Q(2) : Q(1);
  const Enclosure g = ref::ExpectedIndexBitsN1(ref::LrsuqTarget::kGaussian, Q(1, 1000), Q(1), c, prec);
  const Enclosure l = ref::ExpectedIndexBitsN1(ref::LrsuqTarget::kLaplace, Q(1, 1000), Q(1), c, prec);
  // The spec quotes quadrature results "accurate to about ±0.02 bits".
  const Interval gi(Q(9921, 1000), Q(9961, 1000)), li(Q(9841, 1000), Q(9881, 1000));
  if (Disjoint(g, gi)) s.Violation("Gaussian σ=0.001 n=1: E⌈log2|M|⌉ = " + Dec(g, 8) + " vs spec ≈ 9.941 ± 0.02");
  if (Disjoint(l, li)) s.Violation("Laplace b=0.001 n=1: E⌈log2|M|⌉ = " + Dec(l, 8) + " vs spec ≈ 9.861 ± 0.02");
  // Sanity of the count C_1(s) = 2⌊s + 1/2⌋ + 1 ≥ 1: more noise (larger scale) never needs more bits.
  s.Count();
  const Enclosure g2 = ref::ExpectedIndexBitsN1(ref::LrsuqTarget::kGaussian, Q(1, 100), Q(1), c, prec);
  if (ref::CertainlyLess(g, g2)) s.Violation("bits increase with σ");
  return s.AsVerdict("[DERIVED] E_U⌈log2 |M(U)|⌉ for n = 1, X = γB¹, γ = 1, c = 1: Gaussian σ = 0.001 → " + Dec(g, 6) +
                     ", Laplace b = 0.001 → " + Dec(l, 6) + " (spec §5.6: ≈ 9.941, 9.861 ± 0.02)");
}

// ---- Theorem 7 (12) and the group-privacy step of Lemma 9 on an exact instance ---------------------
// The counting base mechanism F(M) = (copies of ξ in M)·Δ + N(0, σ̃²) on multisets, ξ substituted by
// a point contributing 0: its group profile at distance κ is exactly δ_G(ε̃; κΔ, σ̃) (13), and
// F∘s_τ gives P = Σ_{κ=0}^{τ} w_κ N(κΔ, σ̃²) against Q = N(0, σ̃²). dP/dQ = Σ w_κ e^{(κΔy − κ²Δ²/2)/σ̃²}
// is increasing, so D_{e^ε}(P‖Q) is f(y*) for f(t) = P(Y > t) − e^ε Q(Y > t) at the crossing y* > 0,
// bracketed [t_lo, t_hi] by bisection with certified signs; f(t_lo) ≤ f(y*) ≤ f(t_lo) +
// (t_hi − t_lo)·e^ε·φ(t_lo/σ̃)/σ̃ (f' ≤ e^ε q and q decreases on t ≥ 0).
Verdict CheckThm7Instance(const CheckOptions& o) {
  // Checked: the exact profile ≤ (12) with the exact group profiles (Theorem 7) ≤ (14) (Vadhan's group
  // bound, Lemma 9's proof), and δ_G(ε̃; κΔ) ≤ (e^ε̃ − 1)/(e^{ε̃/κ} − 1)·δ_G(ε̃/κ; Δ) for each κ.
  // Flip: (12)'s weights with inclusion probability 1/(2n) for 1/n (an under-stated sampling rate).
  Search s;
  const int prec = Prec(o);
  const mpfr_prec_t w = prec + 64;
  const Rational D(1);
  double worst_ratio = 0;
  std::string worst_where;
  for (long tau : {2L, 5L})
    for (long n : o.quick ? std::vector<long>{10} : std::vector<long>{10, 100})
      for (const Rational& st : o.quick ? std::vector<Rational>{Q(1, 2), Q(2)} : std::vector<Rational>{Q(1, 2), Q(1), Q(2)})
        for (const Rational& et : o.quick ? std::vector<Rational>{Q(1), Q(59, 10)} : std::vector<Rational>{Q(1, 2), Q(1), Q(59, 10)}) {
          s.Count();
          std::vector<Rational> wk(tau + 1);
          Rational ps(0);
          for (long k = 0; k <= tau; ++k) {
            wk[k] = BinomialWeight(tau, k, n);
            if (k > 0) ps += wk[k];
          }
          const Enclosure ete(w, et);
          const Enclosure E = Rational(1) + ps * ref::Expm1(ete);  // e^ε
          const Enclosure ste(w, st);
          auto ratio_minus_E = [&](const Rational& t) {
            Enclosure L(w, 0L);
            for (long k = 0; k <= tau; ++k) L += wk[k] * ref::Exp(Enclosure(w, Rational((k * D * t - k * k * D * D / 2) / (st * st))));
            return L - E;
          };
          auto f = [&](const Rational& t) {
            Enclosure P(w, 0L);
            for (long k = 0; k <= tau; ++k) P += wk[k] * ref::NormalCdf(Enclosure(w, Rational((k * D - t) / st)));
            return P - E * ref::NormalCdf(Enclosure(w, Rational(-t / st)));
          };
          Rational lo(0), hi(1);
          while (!ref::CertainlyPositive(ratio_minus_E(hi))) hi *= 2;
          for (int it = 0; it < 80; ++it) {
            const Rational mid = (lo + hi) / 2;
            const Enclosure g = ratio_minus_E(mid);
            if (ref::CertainlyPositive(g)) hi = mid;
            else if (ref::CertainlyNegative(g)) lo = mid;
            else break;
          }
          const Enclosure f_lo = f(lo);
          const Enclosure slack = Rational(hi - lo) * E * ref::NormalPdf(Enclosure(w, Rational(lo / st))) / st;
          const Interval fi = ref::ToInterval(f_lo), si = ref::ToInterval(slack);
          const Enclosure exact(w, Interval(fi.lo(), Rational(fi.hi() + si.hi())).Mid());  // display only
          // (12) with the exact group profiles; the flip halves the inclusion probability in the weights.
          Enclosure rhs12(w, 0L);
          for (long k = 1; k <= tau; ++k)
            rhs12 += (o.flip ? BinomialWeight(tau, k, 2 * n) : wk[k]) * ref::CepamAnalyticGaussianDelta(et, k * D, st, prec);
          const Enclosure rhs14 = ref::SubsampledGaussianDelta(et, tau, n, D, st, false, prec);
          const std::string where = "τ=" + std::to_string(tau) + " n=" + std::to_string(n) + " Δ=1 σ̃=" + S(st) + " ε̃=" + S(et);
          const Rational exact_lo = fi.lo();
          if (ref::ToInterval(rhs12).hi() < exact_lo || ref::CertainlyLess(rhs14, rhs12))
            s.Violation(where + ": exact D_{e^ε}(F∘s_τ) ∈ [" + ref::ToDecimalString(exact_lo, 10) + ", " +
                        ref::ToDecimalString(Rational(fi.hi() + si.hi()), 10) + "], (12) = " + Dec(rhs12, 10) +
                        ", (14) = " + Dec(rhs14, 10));
          for (long k = 2; k <= tau; ++k) {
            const Enclosure group = ref::CepamAnalyticGaussianDelta(et, k * D, st, prec);
            const Enclosure vadhan = ref::Expm1(ete) / ref::Expm1(ete / Rational(k)) *
                                     ref::CepamAnalyticGaussianDelta(Rational(et / k), D, st, prec);
            if (ref::CertainlyLess(vadhan, group))
              s.Violation(where + " κ=" + std::to_string(k) + ": δ_G(ε̃; κΔ) = " + Dec(group, 10) + " > group bound " + Dec(vadhan, 10));
          }
          const double ratio = rhs14.MidDouble() / std::max(exact.MidDouble(), 1e-300);
          if (ratio > worst_ratio) {
            worst_ratio = ratio;
            worst_where = where + ": exact " + Dec(exact, 6) + ", (12) " + Dec(rhs12, 6) + ", (14) " + Dec(rhs14, 6);
          }
        }
  return s.AsVerdict("F∘s_τ for the counting query (group profile δ_G(ε̃; κΔ, σ̃) exact): exact hockey-stick divergence "
                     "(certified threshold bracket) ≤ Theorem 7's (12) ≤ Lemma 9's (14); Vadhan's group bound per κ. "
                     "Largest (14)/exact: " + worst_where);
}

// ---- E-P7: the per-round guarantee and the final model -----------------------------------------------
Verdict CheckFinalModelComposition(const CheckOptions& o) {
  // The paper reports (1.45, 2.48e-2) for one round; the stated goal includes the released final model
  // W_T = W_0 + Σ_r avg_r. Instance A in every round (linear losses: the updates do not depend on W;
  // fresh subsampling and noise per round), so W_T − W_0 ~ Σ_M Bin(R, p_s)(M)·N((2M − R)a, Rσ̃²) against
  // N(−Ra, Rσ̃²), a = γ/K. With S = {y > (1 − R)a}: P(S) − e^ε Q(S) is a lower bound on the divergence.
  // ε = ln(1 + p_s(e^{5.9} − 1)) ≈ 1.4502 (≥ the printed 1.45); δ compared with the upper end of 2.48e-2.
  // Flip: R ≤ 1 only (the single round Theorem 12 covers).
  Search s;
  const int prec = Prec(o);
  const mpfr_prec_t w = prec + 64;
  const long K = 30, tau = 15, nk = 1666;
  const Rational sigma(Q(1, 1000)), gamma(1), a = gamma / K;
  const Rational ps = ref::SubsamplingProbability(nk, tau);
  const Enclosure E = Rational(1) + ps * ref::Expm1(Enclosure(w, Q(59, 10)));
  const Rational delta_hi = Printed("2.48e-2").hi();
  const ref::Thm12Result t12 = ref::Theorem12({sigma, Q(59, 10), tau, K, gamma, nk}, ref::Thm12Variant::kAsPrinted, prec);
  std::string first_16;
  for (long R = 1; R <= (o.flip ? 1 : o.quick ? 4 : 8); ++R) {
    s.Count();
    const Enclosure sd = ref::Sqrt(Enclosure(w, Rational(R * sigma * sigma / K)));
    const Rational t = (1 - R) * a;
    Enclosure P(w, 0L);
    for (long M = 0; M <= R; ++M) {
      Rational wm = Binom(R, M);
      for (long i = 0; i < M; ++i) wm *= ps;
      for (long i = M; i < R; ++i) wm *= 1 - ps;
      P += wm * ref::NormalCdf(Enclosure(w, Rational((2 * M - R) * a - t)) / sd);
    }
    const Enclosure lower = P - E * ref::NormalCdf(Enclosure(w, Rational(-R * a - t)) / sd);
    const std::string where = "R=" + std::to_string(R) + " rounds (σ=1/1000 ε̃=59/10 τ=15 K=30 γ=1 n_k=1666)";
    if (first_16.empty() && ref::CertainlyLess(t12.delta, lower))
      first_16 = where + ": exceeds Theorem 12's own δ_(16) = " + Dec(t12.delta, 8);
    if (ref::ToInterval(lower).lo() > delta_hi)
      s.Violation(where + ": D_{e^ε}(W_T‖W_T') ≥ P(S) − e^ε Q(S) = " + Dec(lower, 10) + " > 2.48e-2 at ε = " +
                  Dec(ref::Log(E), 8) + " (S = {W_T − W_0 > (1 − R)γ/K}, worst-case substitution)");
  }
  return s.AsVerdict("the per-round (1.45, 2.48e-2) for the final model after R rounds (E-P7: no composition): exact lower "
                     "bound from instance A composed over R rounds" + (first_16.empty() ? "" : "; first " + first_16));
}

// ---- E-P8: datasets of unequal size --------------------------------------------------------------------
Verdict CheckUnequalNk(const CheckOptions& o) {
  // As printed: Theorem 12 evaluated with one |D^(k)| (the paper's 1666) is the guarantee of every
  // client. A client with n points has p = p_s(n), and its exact divergence at the claimed ε is at least
  // instance A's. Corrected (E-P8): evaluate with min_k n_k; checked for every client at ε(min n_k).
  // Flip: the corrected form evaluated with max_k n_k instead of min_k n_k.
  Search printed, corrected;
  const int prec = Prec(o);
  const mpfr_prec_t w = prec + 64;
  const long K = 30, tau = 15;
  const Rational gamma(1);
  const std::vector<long> sizes = {1000, 1666, 2000, 5000};
  const long n_min = *std::min_element(sizes.begin(), sizes.end()), n_max = *std::max_element(sizes.begin(), sizes.end());
  for (const Rational& sigma : o.quick ? std::vector<Rational>{Q(1, 1000), Q(1)} : std::vector<Rational>{Q(1, 1000), Q(1, 2), Q(1), Q(2), Q(5)})
    for (const Rational& et : {Q(1), Q(59, 10)}) {
      const Enclosure st = ref::Sqrt(Enclosure(w, Rational(sigma * sigma / K)));
      auto e_of = [&](long n) { return Rational(1) + ref::SubsamplingProbability(n, tau) * ref::Expm1(Enclosure(w, et)); };
      const ref::Thm12Result single = ref::Theorem12({sigma, et, tau, K, gamma, 1666}, ref::Thm12Variant::kAsPrinted, prec);
      const long n_used = o.flip ? n_max : n_min;
      const ref::Thm12Result worst = ref::Theorem12({sigma, et, tau, K, gamma, n_used}, ref::Thm12Variant::kAsPrinted, prec);
      for (long n : sizes) {
        const Rational p = ref::SubsamplingProbability(n, tau);
        const std::string where = "client n_k=" + std::to_string(n) + " σ=" + S(sigma) + " ε̃=" + S(et) + " τ=15 K=30 γ=1";
        printed.Count();
        const Enclosure d1 = InstanceADelta(p, e_of(1666), gamma / K, st);
        if (ref::CertainlyLess(single.delta, d1))
          printed.Violation(where + ": at the claimed ε = ε(ε̃; |D| = 1666) = " + Dec(single.epsilon, 8) +
                            " its exact divergence (instance A) is " + Dec(d1, 8) + " > δ_(16)(|D| = 1666) = " + Dec(single.delta, 8));
        corrected.Count();
        const Enclosure d2 = InstanceADelta(p, e_of(n_used), gamma / K, st);
        if (ref::CertainlyLess(worst.delta, d2) || p > ref::SubsamplingProbability(n_used, tau))
          corrected.Violation(where + ": with |D| = " + std::to_string(n_used) + ", instance A " + Dec(d2, 8) + " > δ_(16) " +
                              Dec(worst.delta, 8) + " (p_s(n_k) = " + ref::ToDecimalString(p, 8) + ")");
      }
    }
  return CompareVariants(printed, corrected,
                         "client sizes {1000, 1666, 2000, 5000}: each client's exact divergence (instance A, p = p_s(n_k)) at "
                         "the claimed ε vs Theorem 12 with |D| = 1666 (as printed) and with min_k n_k (E-P8)");
}

// ---- E-X5: momentum with a buffer that persists across rounds ------------------------------------------
// One client holds n_k = 3 scalar points: ξ1 = G (substituted by −G) and two zero-gradient points;
// losses ℓ(W; ξ) = ξW, momentum SGD buf ← βbuf + ∇ℓ, W ← W − η·buf, τ = 2 steps per round, clipping
// at γ (1-D: the clip is exact). Every index sequence of rounds 1 and 2 (3^4) is enumerated; the
// round-2 release is clip(X_2)/K + N(0, σ²/K) (the other clients contribute 0). With the buffer kept,
// the round-2 update is nonzero when ξ1 was sampled in round 1 or 2.
struct Mixture {
  std::vector<std::pair<Rational, Rational>> comps;  // (mean, weight)
  void Add(const Rational& mean, const Rational& weight) {
    for (auto& c : comps)
      if (c.first == mean) {
        c.second += weight;
        return;
      }
    comps.emplace_back(mean, weight);
  }
  Enclosure Below(const Rational& t, const Enclosure& st) const {  // P(Y < t)
    Enclosure r(st.prec(), 0L);
    for (const auto& [m, wt] : comps) r += wt * ref::NormalCdf(Enclosure(st.prec(), Rational(t - m)) / st);
    return r;
  }
};
Mixture RoundTwoRelease(const Rational& xi, bool persist, long K, const Rational& gamma, std::string* structure_error) {
  const Rational eta(Q(1, 10)), beta(Q(9, 10));
  const std::vector<Rational> data = {xi, Q(0), Q(0)};
  Mixture m;
  for (int code = 0; code < 81; ++code) {
    int idx[4] = {code % 3, (code / 3) % 3, (code / 9) % 3, (code / 27) % 3};
    Rational buf(0), x2(0);
    for (int t = 0; t < 4; ++t) {
      if (t == 2 && !persist) buf = 0;  // round boundary
      buf = beta * buf + data[idx[t]];
      if (t >= 2) x2 -= eta * buf;
    }
    const Rational clipped = ref::Max(Rational(-gamma), ref::Min(gamma, x2));
    const bool sampled = persist ? (idx[0] == 0 || idx[1] == 0 || idx[2] == 0 || idx[3] == 0) : (idx[2] == 0 || idx[3] == 0);
    if (structure_error && (clipped != 0) != sampled) *structure_error = "round-2 update " + S(clipped) + " for sequence " + std::to_string(code);
    m.Add(clipped / K, Q(1, 81));
  }
  return m;
}
Verdict CheckMomentumCarryover(const CheckOptions& o) {
  // As printed: Theorem 12's per-round (ε, δ_(16)) covers round 2 with the paper's momentum 0.9 and the
  // buffer persisting across rounds; corrected: the buffer is reset at every round. Lower bound of the
  // exact divergence: P(Y < t) − e^ε Q(Y < t) at t = −γ/(2K) and P(Y > t') − e^ε Q(Y > t') at t' = γ/(2K).
  // The enumeration confirms the two-point structure, which gives the paper's setting (n_k = 1666, τ = 15,
  // σ = 0.001, ε̃ = 5.9) with q = 1 − (1 − 1/n_k)^{2τ} in place of p_s.
  // Flip: the buffer reset at the round boundary in the as-printed run too (the erratum's fix).
  Search printed, corrected;
  const int prec = Prec(o);
  const mpfr_prec_t w = prec + 64;
  const long K = 30;
  const Rational gamma(1), G(1000);
  std::string structure;
  for (const Rational& sigma : {Q(1, 1000), Q(1, 10)})
    for (const Rational& et : {Q(1, 2), Q(1)}) {
      const Enclosure st = ref::Sqrt(Enclosure(w, Rational(sigma * sigma / K)));
      const ref::Thm12Result t12 = ref::Theorem12({sigma, et, 2, K, gamma, 3}, ref::Thm12Variant::kAsPrinted, prec);
      const Enclosure E = ref::Exp(t12.epsilon);
      for (bool persist : {true, false}) {
        const bool run_persist = persist && !o.flip;
        const Mixture P = RoundTwoRelease(G, run_persist, K, gamma, &structure), Qm = RoundTwoRelease(-G, run_persist, K, gamma, &structure);
        const Rational t = -gamma / (2 * K);
        const Enclosure lb = P.Below(t, st) - E * Qm.Below(t, st);
        const Enclosure lb2 = (Rational(1) - P.Below(-t, st)) - E * (Rational(1) - Qm.Below(-t, st));
        const Enclosure best = ref::ToInterval(lb).lo() > ref::ToInterval(lb2).lo() ? lb : lb2;
        const std::string where = "σ=" + S(sigma) + " ε̃=" + S(et) + " τ=2 n_k=3 K=30 γ=1 β=9/10 η=1/10 ξ1=±1000";
        Search& srch = persist ? printed : corrected;
        srch.Count();
        if (ref::CertainlyLess(t12.delta, best))
          srch.Violation(where + (run_persist ? ", buffer kept" : ", buffer reset") + ": round-2 release has D_{e^ε} ≥ " +
                         Dec(best, 8) + " > Theorem 12's δ_(16) = " + Dec(t12.delta, 8) + " at ε = " + Dec(t12.epsilon, 8));
      }
    }
  if (!structure.empty()) corrected.Violation("two-point structure fails: " + structure);
  // The paper's setting through the verified structure (instance B with q for p_s).
  std::string paper;
  {
    const long nk = 1666, tau = 15;
    const Rational sigma(Q(1, 1000));
    const ref::Thm12Result t12 = ref::Theorem12({sigma, Q(59, 10), tau, K, gamma, nk}, ref::Thm12Variant::kAsPrinted, prec);
    const Enclosure st = ref::Sqrt(Enclosure(w, Rational(sigma * sigma / K)));
    for (bool persist : {true, false}) {
      const Rational q = ref::SubsamplingProbability(nk, (persist && !o.flip) ? 2 * tau : tau);
      const Enclosure d = InstanceBDelta(q, ref::Exp(t12.epsilon), gamma / K, st);
      Search& srch = persist ? printed : corrected;
      srch.Count();
      if (ref::CertainlyLess(t12.delta, d))
        srch.Violation("paper setting σ=1/1000 ε̃=59/10 τ=15 n_k=1666 K=30, buffer " + std::string(persist ? "kept" : "reset") +
                       ": round 2's divergence " + Dec(d, 8) + " > δ_(16) = " + Dec(t12.delta, 8));
      paper += std::string(persist ? "kept " : ", reset ") + Dec(d, 6);
    }
  }
  return CompareVariants(printed, corrected,
                         "round-2 release of momentum SGD (E-X5), literal enumeration of both rounds' index sequences; "
                         "paper setting: round-2 divergence with the buffer " + paper + " vs δ_(16) = 0.0096887");
}

}  // namespace

void AddSeed002Claims(Catalog& c) {
  const std::string seed = "002";
  c.push_back({"002/Prop3/rsuq-uniform", seed, "the RSUQ error Q_{A,P}(x, S) − x is U(A) for every x",
               "spec 002 §3.3, §4.1", {}, Status::kPass, CheckProp3,
               "the quantizer's offset 1/2 dropped (Q(y) = ⌊y⌋, cell (−1, 0] ≠ P): the error pieces no longer tile P"});
  c.push_back({"002/Prop5/lemma14-gaussian", seed,
               "LRSUQ with Ũ ~ χ²_{n+2}, Z | Ũ ~ U(σ√Ũ Bⁿ) has error N(0, σ²Iₙ) (Prop. 5, Lemma 14)",
               "spec 002 §4.2, §4.3, §4.5, §7.1 item 2", {"E-Q2"}, Status::kPass, CheckLemma14,
               "the layer Ũ ~ χ²_{n+4} (degrees of freedom off by two) in the independent mixture cdf and the moments"});
  c.push_back({"002/Prop5/lemma15-laplace", seed, "Ũ ~ Gamma(2,1), Z | Ũ ~ U(−bŨ, bŨ) gives Z ~ Lap(0, b) (Lemma 15)",
               "spec 002 §4.5", {"E-Q2"}, Status::kPass, CheckLemma15,
               "the layer Gamma(3, 1) for Gamma(2, 1) in the independent layered cdf"});
  c.push_back({"002/3.5/acceptance", seed, "[DERIVED] p_acc = V_n/(2c)^n, E[h] = 1/p_acc, h ~ Geom(p_acc)",
               "spec 002 §3.4–3.6, §3.10, §4.9", {"E-Q1"}, Status::kPass, CheckAcceptance,
               "the independent V_n with Γ((n+1)/2 + 1) for Γ(n/2 + 1)"});
  c.push_back({"002/Thm7/amplification", seed, "ε = ln(1 + p_s(e^ε̃ − 1)); the paper's ε = 1.45 (ε̃ = 5.9) and 29995",
               "spec 002 §4.6, §5.5", {"E-X4"}, Status::kPass, CheckThm7, "p_s with τ − 1 = 14 steps (exponent off by one)"});
  c.push_back({"002/Thm8-10/profiles", seed, "analytic Gaussian profile (13), Laplace profile (Thm 10), (14) vectors",
               "spec 002 §4.6, §7.2", {}, Status::kPass, CheckProfiles,
               "Theorem 10's half-line threshold (Δ − εb)/3 for the optimal (Δ − εb)/2"});
  c.push_back({"002/Lemma9/iff", seed, "the subsampled Gaussian is (ε, δ)-DP if and only if (14) ≤ δ", "spec 002 §4.6",
               {"E-P1"}, Status::kFail, CheckLemma9Iff,
               "the capped (14) (E-P2: summands w_κ·min{1, ·}, sum ≤ p_s) for the printed one: no instance exceeds the trivial p_s"});
  c.push_back({"002/Thm12/eq16", seed, "(16) is (14) with Δ2 = 2τγ/K and σ̃ = σ/√K", "spec 002 §4.7, §7.2", {},
               Status::kPass, CheckThm12Eq16, "the literal (16)'s first argument τγ/(Kσ) for τγ/(√Kσ)"});
  c.push_back({"002/Thm12/delta-capped", seed, "the average is (ε, δ)-DP with δ = (16)", "spec 002 §4.7",
               {"E-P2", "E-P3", "E-P4"}, Status::kPassLoose, CheckThm12Capped,
               "the substituted point's shift counted τ-fold (a = τγ/K) in the instances: they then exceed the exact profile"});
  c.push_back({"002/Thm12/sensitivity", seed, "footnote 12: the ℓ2 sensitivity of the average is Δ2 = 2τγ/K",
               "spec 002 §4.7, §6", {"E-P4", "E-P6"}, Status::kPassLoose, CheckThm12Sensitivity,
               "the clip step omitted (raw local updates): the max over neighbouring inputs exceeds 2τγ/K"});
  c.push_back({"002/VI/reported-delta", seed, "CEPAM-Gaussian (σ = 0.001, ε̃ = 5.9) is (1.45, 2.48e-2)-DP by Theorem 12",
               "spec 002 §5.3, §5.5", {"E-X1", "E-P3"}, Status::kFail, CheckReportedDelta,
               "the reported 2.48e-2 replaced by the spec's recomputation 0.00968873971152297 (§7.2)"});
  c.push_back({"002/VI-C/sigma-lists", seed, "the §VI-C σ for δ ∈ {0.01, 0.015}, ε = 1..10 are computed by Theorem 12",
               "spec 002 §5.4, §5.5", {"E-X1", "E-P3"}, Status::kFail, CheckSigmaLists,
               "the capped (16) (E-P2, floor p_s < 0.01) for the printed (16): every listed σ qualifies"});
  c.push_back({"002/Thm12/calibration", seed, "[DERIVED] σ_min from (16) as printed for the §VI-C targets",
               "spec 002 §3.11, §5.5", {"E-P3"}, Status::kPass, CheckCalibration, "the target δ = 0.01 perturbed to 0.0099 (ε ≤ 3)"});
  c.push_back({"002/Thm13/laplace", seed, "CEPAM-Laplace is ε-DP (amplified) provided ε̃ ≥ 2τγ/b", "spec 002 §4.8",
               {"E-P5"}, Status::kPassCorrected, CheckThm13, "the corrected threshold without √m (the printed 2τγ/b)"});
  c.push_back({"002/VB/index-bits", seed, "[DERIVED] expected index bits E⌈log2|M(U)|⌉ for n = 1 (§5.6)",
               "spec 002 §4.8, §5.6", {"E-C1", "E-C2"}, Status::kPass, CheckIndexBits,
               "the scaling slack c = 2 for c = 1 (β doubled: one bit fewer than the spec's values)"});
  c.push_back({"002/Thm7/eq12-instance", seed,
               "Theorem 7's (12) and the group-privacy bound of Lemma 9 bound the subsampled mechanism's profile",
               "spec 002 §4.6", {}, Status::kPass, CheckThm7Instance,
               "(12)'s binomial weights with inclusion probability 1/(2n) for 1/n"});
  c.push_back({"002/Thm12/final-model-composition", seed,
               "the final model W_T (R = T/τ rounds) is (1.45, 2.48e-2)-DP as claimed per round", "spec 002 §2.8, §4.7, §6",
               {"E-P7"}, Status::kFail, CheckFinalModelComposition, "R ≤ 1 round only (what Theorem 12 covers)"});
  c.push_back({"002/Thm12/unequal-nk", seed, "Theorem 12 with a single |D^(k)| (= 1666) covers every client",
               "spec 002 §4.7, §6", {"E-P8"}, Status::kPassCorrected, CheckUnequalNk,
               "the corrected form evaluated with max_k n_k instead of min_k n_k"});
  c.push_back({"002/Thm12/momentum-carryover", seed,
               "Theorem 12's per-round (ε, δ) holds for the paper's momentum-0.9 optimizer (buffer kept across rounds)",
               "spec 002 §5.2, §6", {"E-X5"}, Status::kPassCorrected, CheckMomentumCarryover,
               "the buffer reset at the round boundary in the as-printed run too (the erratum's fix)"});
}

}  // namespace dpfl::proofs
