// dpfl-proofs — seed 000 (CorBin-FL), Theorem 4 (client dropout, spec 000 §3.5, §4.5, §7 R11):
// its UCDP conclusion against the exact central privacy loss, its MSE bound against the exact
// worst-case MSE over inputs and drop-out patterns, and the errata of its proof (E29, E30, E31).
// Exact rationals (binomial laws by their integer numerators), MPFI enclosures for Theorem 4's
// irrational γ, γ', θ (ref::Theorem4), the certified PLD enclosure of pld_central.hpp.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "claims.hpp"
#include "dpfl/ref/corbin_fl_privacy.hpp"
#include "dpfl/ref/enclosure.hpp"
#include "dpfl/ref/ldpq.hpp"
#include "dpfl/ref/pld_central.hpp"
#include "instances.hpp"
#include "seed000_shared.hpp"
#include "printed_values.hpp"

namespace dpfl::proofs {
namespace {

namespace pld = ref::pld;
using ref::Interval;

using seed000::BinomialPmf;  // exact pmf of Binomial(trials, q) (seed000_shared.hpp)

// Sums over N' ~ Binomial(M, (v − u)/v) by its integer numerators num_k = C(M, k)(v − u)^k u^(M−k)
// (P(N' = k) = num_k/v^M), streamed by exact divisions (num_{k+1} = num_k·(M − k)(v − u)/((k + 1)u)),
// so M in the tens of thousands costs neither memory nor rational sums with distinct denominators:
//  * E[1/(a + N')²] for a = 1, 2, enclosed: each num_k·2^64/(a + k)² rounded down and up to an
//    integer (error ≤ 1 per term, in units of 2^−64·v^−M);
//  * E[(N' − M)²; N' ≥ 1], exact.
struct BinomialSums {
  Interval inv_sq[3];  // index a = 1, 2
  Rational bias_sq;    // E[(N' − M)² 1{N' ≥ 1}]
};
BinomialSums StreamBinomial(long M, long u, long v) {
  Int x = 1, vm = 1;
  for (long k = 0; k < M; ++k) {
    x *= u;
    vm *= v;
  }
  const Int scale = Int(1) << 64;
  Int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, bias = 0;
  for (long k = 0; k <= M; ++k) {
    const Int t = x * scale;
    for (long a = 1; a <= 2; ++a) {
      const Int d = Int(k + a) * (k + a);
      const Int q = t / d;
      lo[a] += q;
      hi[a] += (q * d == t) ? q : Int(q + 1);
    }
    if (k >= 1) bias += x * Int(k - M) * Int(k - M);
    if (k == M) break;
    x /= u;  // exact: x carries u^(M−k)
    x *= Int(M - k) * (v - u);
    x /= (k + 1);  // exact: C(M, k)(M − k)/(k + 1) = C(M, k + 1)
  }
  BinomialSums out;
  const Rational den = Rational(scale) * Rational(vm);
  for (long a = 1; a <= 2; ++a) out.inv_sq[a] = Interval(Rational(Rational(lo[a]) / den), Rational(Rational(hi[a]) / den));
  out.bias_sq = Rational(bias) / Rational(vm);
  return out;
}

std::optional<ref::Thm4Result> Theorem4At(const Rational& E, const Rational& p, long n, const Rational& delta,
                                          const Rational& delta1, const Rational& r, long m) {
  ref::Thm4Params t;
  t.budget = ref::PrivacyBudget::FromE(E);
  t.p = p;
  t.n = Rational(n);
  t.delta = delta;
  t.delta1 = delta1;
  t.r = r;
  t.m = Rational(m);
  t.precision_bits = 128;
  try {
    return ref::Theorem4(t);
  } catch (const InvalidArgument&) {
    return std::nullopt;  // γ ≤ 0, θ ≤ 0 or nγ ≤ 1: n too small for these p, δ, δ1 (E31)
  }
}

// ---- E29: the MSE tail term ------------------------------------------------------------------
// The proof bounds the MSE outside 𝓔 ∩ 𝓕 by (2rα)²(P(𝓔ᶜ) + P(𝓕ᶜ)) and writes ≤ 8r²α²δ1; Chebyshev
// gives P(𝓔ᶜ), P(𝓕ᶜ) ≤ δ − δ1, so 8r²α²(δ − δ1). The tails are summed exactly: Σ E_i ~
// Bin(n/2, 2p(1−p)) outside np(1−p) ± √(np(1−p)(1−2p(1−p))/(δ−δ1)) and N ~ Bin(n, 1−p) outside
// n(1−p) ± √(np(1−p)/(δ−δ1)) (the corrected radii, so only the δ1 of E29 is at stake); x is
// outside iff (x − mean)² > radius² (rationals). (2rα)² cancels: the step holds iff P(𝓔ᶜ) + P(𝓕ᶜ)
// ≤ 2δ1 (printed), ≤ 2(δ − δ1) (corrected).
Verdict CheckTailTerm(const CheckOptions& o) {
  Search printed, corrected;
  const std::vector<long> sizes = o.quick ? std::vector<long>{100, 1000} : std::vector<long>{100, 1000, 2000};
  struct Deltas { Rational delta, delta1; };
  const std::vector<Deltas> deltas = {{Q(1, 5), Q(1, 10)}, {Q(1001, 10000), Q(1, 10000)}, {Q(1, 100), Q(1, 200)}};
  for (long pn : {1L, 5L, 9L})
    for (long n : sizes) {
      const Rational p = Q(pn, 10), pq = p * (1 - p);
      const std::vector<Rational> e_pmf = BinomialPmf(n / 2, 2 * pq), f_pmf = BinomialPmf(n, 1 - p);
      for (const Deltas& dl : deltas) {
        const Rational dd = dl.delta - dl.delta1;
        const Rational e_mean = n * pq, e_r2 = n * pq * (1 - 2 * pq) / dd;
        const Rational f_mean = n * (1 - p), f_r2 = n * pq / dd;
        Rational tails(0);
        for (long x = 0; x <= n / 2; ++x)
          if ((x - e_mean) * (x - e_mean) > e_r2) tails += e_pmf[static_cast<std::size_t>(x)];
        for (long x = 0; x <= n; ++x)
          if ((x - f_mean) * (x - f_mean) > f_r2) tails += f_pmf[static_cast<std::size_t>(x)];
        const std::string where = "p=" + S(p) + " n=" + std::to_string(n) + " δ=" + S(dl.delta) + " δ1=" + S(dl.delta1);
        printed.Count();
        if (tails > 2 * dl.delta1)
          printed.Violation(where + ": exact P(𝓔ᶜ) + P(𝓕ᶜ) = " + ref::ToDecimalString(tails, 6) +
                            " > 2δ1, so (2rα)²(P(𝓔ᶜ)+P(𝓕ᶜ)) > 8r²α²δ1");
        corrected.Count();
        // Flip: the corrected bound with δ1 in place of δ − δ1.
        const Rational allowed = 2 * (o.flip ? dl.delta1 : dd);
        if (tails > allowed)
          corrected.Violation(where + ": exact P(𝓔ᶜ) + P(𝓕ᶜ) = " + ref::ToDecimalString(tails, 6) + " > " + S(allowed));
      }
    }
  return CompareVariants(printed, corrected, "exact binomial tails of Σ E_i and N outside the corrected Chebyshev radii "
                                             "against 2δ1 (printed 8r²α²δ1) and 2(δ − δ1) (E29)");
}

// ---- E30: the solo-client term -----------------------------------------------------------------
// On 𝓔 ∩ 𝓕 at most γ'n clients are solo and N ≥ θn survive, so the solo clients contribute at most
// γ'n·r²α²/(θn)² = γ'r²α²/(θ²n); the paper writes γ'r²α²/(nθ). A realisable configuration: k = ⌊γ'n⌋
// solo survivors at w = c (LDPQ variance r²α² each), N = ⌈θn⌉ survivors (one more if N − k is odd),
// the other N − k in intact pairs at S = 0 (m* = 0, d → ∞): its MSE given the pattern is exactly
// k r²α²/N². γ', θ are the corrected ones (E26–E28), enclosed; E = 3 (α = 2), r = 1, δ = 1/10, δ1 = 1/20.
Verdict CheckSoloTerm(const CheckOptions& o) {
  Search printed, corrected;
  long undecided = 0;
  const Rational E(3), r(1), alpha = ref::AlphaFromE(E), delta(1, 10), delta1(1, 20);
  for (long pn : {1L, 5L, 9L})
    for (long n : {1000L, 10000L, 100000L}) {
      const Rational p = Q(pn, 10);
      const std::optional<ref::Thm4Result> thm = Theorem4At(E, p, n, delta, delta1, r, 1);
      if (!thm) continue;  // γ or θ not positive at this n
      const ref::Thm4Variant& v = thm->corrected;
      Int k, N;
      try {  // γ'n or θn may be an integer (a rational radius), which no enclosure decides: skip
        k = ref::FloorInt(v.gamma_prime * Interval(Rational(n)));
        N = -ref::FloorInt(Interval(Rational(-n)) * v.theta);
      } catch (const Undecidable&) {
        continue;
      }
      if ((N - k) % 2 != 0) N += 1;
      if (k > N || Int(k + (N - k) / 2) > Int(n / 2)) continue;  // not a realisable pattern
      const Rational mse = Rational(k) * r * r * alpha * alpha / (Rational(N) * Rational(N));
      const Interval nn{Rational(n)};
      const Interval r2a2(r * r * alpha * alpha);
      const Interval as_printed = v.gamma_prime * r2a2 / (nn * v.theta);
      // Flip: the corrected term with θ in place of θ².
      const Interval fixed = v.gamma_prime * r2a2 / (nn * v.theta * (o.flip ? Interval(1) : v.theta));
      const std::string where = "E=3 r=1 p=" + S(p) + " n=" + std::to_string(n) + " δ=1/10 δ1=1/20: k=" +
                                ref::ToExactString(Rational(k)) + " solo of N=" + ref::ToExactString(Rational(N)) +
                                " survivors, conditional MSE k r²α²/N² = " + ref::ToDecimalString(mse, 6);
      printed.Count();
      if (mse > as_printed.hi())
        printed.Violation(where + " > γ'r²α²/(nθ) ≈ " + Dec(as_printed, 6));
      else if (!(mse <= as_printed.lo()))
        ++undecided;
      corrected.Count();
      if (mse > fixed.hi())
        corrected.Violation(where + " > " + Dec(fixed, 6));
      else if (!(mse <= fixed.lo()))
        ++undecided;
    }
  Verdict out = CompareVariants(printed, corrected, "a realisable pattern on 𝓔 ∩ 𝓕 (⌊γ'n⌋ solo survivors at w = c, "
                                                    "⌈θn⌉ survivors) against γ'r²α²/(nθ) (printed) and γ'r²α²/(θ²n) (E30)");
  if (undecided > 0) {
    out.status = Status::kInconclusive;
    out.note += "; " + std::to_string(undecided) + " comparison(s) undecided";
  }
  return out;
}

// ---- E31: "a lower bound on the dropout probability suffices" (§IV-4) ---------------------------
// Theorem 4 assumes dropout exactly p. If p is only a lower bound, its hypotheses at p must hold at
// every p' ≥ p for its guarantee to carry over. They do not: the lone survivors' rate 2p'(1 − p')
// falls beyond p' = 1/2, and with it γ. The corrected hypotheses (spec 000 §4.5 [PAPER-CORRECTED]:
// γ = p(1−p) − √(p(1−p)(1−2p(1−p))/((δ−δ1)n)) > 0, θ = (1−p) − √(p(1−p)/((δ−δ1)n)) > 0, nγ > 1 and
// (nγ − 1)(1/4)(1 − α⁻²) ≥ max(23 log(10m/δ1), 2)) are evaluated here with MPFI at 128 bits (the
// library's Theorem4 also refuses an n where the *printed* γ or θ is not positive, so it is only
// cross-checked where it answers). E = 3, m = 1, δ = 1e-5, δ1 = δ/2, n = 10^6, p = 1/3, p' ≥ p.
struct Hypotheses {
  bool positive = false, precondition = false;
  Interval gamma;
};
Hypotheses CorrectedHypotheses(const Rational& E, const Rational& p, long n, const Rational& delta,
                               const Rational& delta1, long m) {
  const mpfr_prec_t prec = 128;
  const Rational pq = p * (1 - p), dn = (delta - delta1) * n, alpha = ref::AlphaFromE(E);
  const ref::Enclosure gamma = ref::FromQ(prec, pq) - ref::SqrtQ(prec, Rational(pq * (1 - 2 * pq) / dn));
  const ref::Enclosure theta = ref::FromQ(prec, Rational(1 - p)) - ref::SqrtQ(prec, Rational(pq / dn));
  const ref::Enclosure nb = Rational(n) * gamma - Rational(1);
  Hypotheses h;
  h.gamma = ref::ToInterval(gamma);
  h.positive = ref::CertainlyPositive(gamma) && ref::CertainlyPositive(theta) && ref::CertainlyPositive(nb);
  if (h.positive) {
    const ref::Enclosure lhs = nb * Rational(Rational(1, 4) * (1 - 1 / (alpha * alpha)));
    const ref::Enclosure rhs = ref::Max(Rational(23) * ref::LogQ(prec, Rational(10 * m / delta1)), ref::FromQ(prec, Rational(2)));
    h.precondition = ref::DecideGreaterEqual(lhs, rhs);
  }
  return h;
}

Verdict CheckDropoutLowerBound(const CheckOptions& o) {
  Search s;
  const Rational E(3), delta(1, 100000), p(1, 3);
  const long n = 1000000;
  std::string trail;
  for (const Rational& q : {Q(1, 3), Q(1, 2), Q(3, 5), Q(2, 3), Q(3, 4), Q(9, 10), Q(99, 100)}) {
    // Flip: p' restricted to [p, 1 − p], where 2p'(1 − p') ≥ 2p(1 − p).
    if (o.flip && q > 1 - p) continue;
    s.Count();
    const Hypotheses h = CorrectedHypotheses(E, q, n, delta, delta / 2, 1);
    const bool applies = h.positive && h.precondition;
    const std::optional<ref::Thm4Result> lib = Theorem4At(E, q, n, delta, delta / 2, Rational(1), 1);
    if (lib && (lib->corrected.precondition.holds != applies || Disjoint(lib->corrected.gamma, h.gamma)))
      s.Violation("p'=" + S(q) + ": the library's corrected Theorem 4 disagrees with the hypotheses computed here");
    trail += (trail.empty() ? "" : ", ") + std::string("p'=") + S(q) + ": γ ≈ " + Dec(h.gamma, 4) +
             (applies ? " (applies)" : h.positive ? " (precondition fails)" : " (γ, θ or nγ − 1 not positive)");
    if (!applies)
      s.Violation("E=3 m=1 δ=1e-5 δ1=δ/2 n=10^6: Theorem 4 (corrected) applies at the lower bound p = 1/3 but not at "
                  "dropout p' = " + S(q) + " ≥ p (γ ≈ " + Dec(h.gamma, 4) + (h.positive ? ", its precondition fails)" : ")"));
  }
  return s.AsVerdict("Theorem 4's corrected hypotheses at dropout p' ≥ p = 1/3 (" + trail + ")");
}

// ---- Theorem 4's UCDP conclusion -----------------------------------------------------------------
// "CorBin-FL achieves (ε_u, δ)-UCDP with ε_u given by (5)" (evaluated with δ1 and Theorem 4's γ,
// E31), against the exact central privacy loss of the aggregate under dropout (pld_central.hpp
// "Dropout": replace-one adjacency, E25; worst case over the other clients' inputs; the observer
// also sees who took part, so its upper end bounds Theorem 4's observer; its lower end is for that
// observer — the server under secure aggregation, which knows who sent and divides by N, E31 — and
// the proof's conditioning on 𝓔 treats the pattern as known too). E = 3, p = 1/2,
// δ = 1e-3, δ1 = δ/2, m = 1, d = 5, at the smallest even n where the corrected theorem applies
// (found by doubling and bisection). The truth is r-independent; r ∈ {1/100, 1, 10}. As printed,
// (5) with its rα factor, the printed γ (E26) and 23 log(m/δ1) (E24) is a real violation below the
// truth's certified lower end; corrected, ε_u^corr must be at least the certified upper end.
Verdict CheckThm4Ucdp(const CheckOptions& o) {
  const Rational E(3), p(1, 2), delta(1, 1000), delta1(1, 2000);
  auto applies = [&](long n) {
    const std::optional<ref::Thm4Result> t = Theorem4At(E, p, n, delta, delta1, Rational(1), 1);
    return t && t->corrected.precondition.holds;
  };
  Verdict v;
  const std::optional<seed000::EvenBracket> bracket = seed000::SmallestEvenNWhereTheorem4Applies(applies, v);
  if (!bracket) return v;
  const long hi = bracket->hi;
  const long n = hi;
  pld::CentralBinarySetting s;
  s.clients = n;
  s.solo = 0;
  s.q_lo = 1 / (1 + E);
  s.q_hi = E / (1 + E);
  s.shared_bits = 5;
  s.dropout = p;
  pld::AccountOptions opt;
  opt.relative_width = Rational(1, 10);
  const pld::CentralResult truth = pld::CentralBinaryEpsilon(s, delta, opt, true);
  if (!truth.epsilon.lo || !truth.epsilon.hi) {
    v.status = Status::kInconclusive;
    v.note = "the central ε at n = " + std::to_string(n) + " is not finite, so no comparison";
    return v;
  }
  const Rational t_lo = *truth.epsilon.lo, t_hi = *truth.epsilon.hi;
  Search printed, corrected;
  long undecided = 0;
  std::string loose;
  for (const Rational& r : {Q(1, 100), Q(1), Q(10)}) {
    const ref::Thm4Result thm = *Theorem4At(E, p, n, delta, delta1, r, 1);
    const std::string where = "E=3 p=1/2 δ=1e-3 δ1=δ/2 m=1 d=5 n=" + std::to_string(n) + " r=" + S(r);
    if (thm.as_printed.precondition.holds) {
      printed.Count();
      if (thm.as_printed.eps_u.hi() < t_lo)
        printed.Violation(where + ": the printed hypotheses hold (γ ≈ " + Dec(thm.as_printed.gamma, 5) + ", " +
                          Dec(thm.as_printed.precondition.lhs, 5) + " ≥ " + Dec(thm.as_printed.precondition.rhs, 5) +
                          ") and (5) gives ε_u ≈ " + Dec(thm.as_printed.eps_u, 6) + ", below the certified lower end " +
                          ref::ToDecimalString(t_lo, 6) + " of the aggregate's ε(δ) for an observer who knows who took part "
                          "(the server, which divides by N)");
      else if (!(thm.as_printed.eps_u.lo() >= t_hi))
        ++undecided;
    }
    corrected.Count();
    // Flip: the corrected ε_u replaced by the printed (5).
    const Interval eps = o.flip ? thm.as_printed.eps_u : thm.corrected.eps_u;
    if (eps.hi() < t_lo)
      corrected.Violation(where + ": ε_u ≈ " + Dec(eps, 6) + " below the certified lower end " + ref::ToDecimalString(t_lo, 6));
    else if (!(eps.lo() >= t_hi))
      ++undecided;
    else
      loose = "ε_u^corr ≈ " + Dec(eps, 6) + " is " + ref::ToDecimalString(Rational(eps.lo() / t_hi), 4) + "× the upper end";
  }
  Verdict out = CompareVariants(printed, corrected,
                                "Theorem 4's (5) (printed γ, rα factor) and ε_u^corr against the certified central ε(δ) ∈ [" +
                                    ref::ToDecimalString(t_lo, 4) + ", " + ref::ToDecimalString(t_hi, 4) +
                                    "] of the aggregate under dropout at n = " + std::to_string(n) +
                                    " (the smallest even n where the corrected theorem applies)");
  out.instances_checked += v.instances_checked;
  if (!loose.empty()) out.note += "; " + loose;
  if (undecided > 0 && out.status != Status::kFail) {
    out.status = Status::kInconclusive;
    out.note += "; " + std::to_string(undecided) + " comparison(s) undecided";
  }
  return out;
}

// ---- Theorem 4's MSE bound ----------------------------------------------------------------------
// lim_d E[(W̄_g − (1/N)Σ_{F_i=1} w_i)²] ≤ γ'r²α²/(nθ) + 8r²α²δ1 + (1−γ)r²(α²+2α−1)/(2nθ).
// As printed the aggregate is Alg. 3 line 23's (1/n)Σ (E31): given the pattern its mean is
// (N/n)·(mean of the survivors' w), so with every client at w = c + r the error is at least
// (N/n − 1)²(c + r)²: a lower bound summed exactly over N ~ Bin(n, 1 − p) (N ≥ 1), at c = 100.
// Corrected (E31: divide by N), d → ∞: given the pattern the error is (1/N²)·Σ (intact pairs'
// m*(S), lone survivors' r²α² − w̃²); by linearity over pairs, with N' ~ Bin(n − 2, 1 − p) the other
// survivors, a pair with inputs (w, w') contributes (1−p)² m*(S) E[1/(2+N')²] + p(1−p)(2r²α² − w̃² −
// w̃'²) E[1/(1+N')²], the same function for every pair, so the worst case over inputs puts every pair
// at the maximiser: w̃ = w̃' = s/2 with s ∈ [0, 2r] maximising (n/2)[A s(2rα − s) + C(2r²α² − s²/2)]
// (concave; A, C the two coefficients, enclosed from the exact binomial numerators). That worst case
// must be below the corrected bound (E29, E30); the printed bound is compared and reported beside it.
// E = 3 (α = 2), r = 1, δ = 1/10, δ1 = 10^−9 (so the tail term 8r²α²δ1 does not swamp the printed
// bound), m = 1, p ∈ {1/4, 1/2, 3/4} (quick: 1/2), n = 16384 (both the printed and the corrected hypotheses hold).
Verdict CheckThm4Mse(const CheckOptions& o) {
  Search printed, corrected;
  const Rational E(3), r(1), alpha = ref::AlphaFromE(E), delta(1, 10), delta1(1, 1000000000), c(100);
  const long n = 16384;
  long undecided = 0;
  std::string report;
  Rational printed_loosest(0);
  // Quick runs (and the flip): p = 1/2 only (dyadic numerators, cheap).
  for (long pn : o.quick ? std::vector<long>{2} : std::vector<long>{1, 2, 3}) {
    const Rational p = Q(pn, 4);
    const std::optional<ref::Thm4Result> thm = Theorem4At(E, p, n, delta, delta1, r, 1);
    const std::string where = "E=3 r=1 p=" + S(p) + " δ=1/10 δ1=1e-9 m=1 n=" + std::to_string(n);
    if (!thm || !thm->as_printed.precondition.holds || !thm->corrected.precondition.holds) {
      ++undecided;
      report += (report.empty() ? "" : "; ") + where + ": hypotheses do not hold";
      continue;
    }
    // Alg. 3's (1/n)Σ: the bias lower bound, exact (N ~ Bin(n, 1 − p)).
    const BinomialSums all = StreamBinomial(n, pn, 4);
    const Rational by_n = all.bias_sq / (Rational(n) * n) * (c + r) * (c + r);
    printed.Count();
    if (by_n > thm->as_printed.mse_bound.hi())
      printed.Violation(where + " c=100, every client at w = c + r, Alg. 3's aggregate (1/n)Σ: MSE ≥ E[(N/n − 1)²](c+r)² = " +
                        ref::ToDecimalString(by_n, 6) + " > the bound ≈ " + Dec(thm->as_printed.mse_bound, 6));
    // Divided by N: the exact worst case over inputs, enclosed.
    const BinomialSums others = StreamBinomial(n - 2, pn, 4);
    const Interval A = Interval(Rational((1 - p) * (1 - p))) * others.inv_sq[2];
    const Interval C = Interval(Rational(p * (1 - p))) * others.inv_sq[1];
    auto g = [&](const Rational& a, const Rational& cc, const Rational& s) {
      return Rational(Rational(n / 2) * (a * s * (2 * r * alpha - s) + cc * (2 * r * r * alpha * alpha - s * s / 2)));
    };
    const Rational s_star = std::min(Rational(2 * r), Rational(2 * A.hi() * r * alpha / (2 * A.hi() + C.hi())));
    const Rational worst_hi = g(A.hi(), C.hi(), s_star), worst_lo = g(A.lo(), C.lo(), s_star);
    // Flip: the corrected side uses Alg. 3's (1/n)Σ again.
    const Rational mse_lo = o.flip ? by_n : worst_lo, mse_hi = o.flip ? by_n : worst_hi;
    const Interval& bound = thm->corrected.mse_bound;
    corrected.Count();
    if (mse_lo > bound.hi())
      corrected.Violation(where + ": worst-case MSE ≥ " + ref::ToDecimalString(mse_lo, 6) + " > the corrected bound ≈ " +
                          Dec(bound, 6));
    else if (!(mse_hi <= bound.lo()))
      ++undecided;
    const Interval& pb = thm->as_printed.mse_bound;
    const std::string printed_verdict = worst_hi <= pb.lo() ? "holds" : worst_lo > pb.hi() ? "FAILS" : "undecided";
    if (worst_hi <= pb.lo()) printed_loosest = std::max(printed_loosest, Rational(pb.lo() / worst_hi));
    report += (report.empty() ? "" : "; ") + std::string("p=") + S(p) + ": worst MSE ÷N ≈ " +
              ref::ToDecimalString(worst_hi, 5) + " (s* = " + ref::ToDecimalString(s_star, 4) + "), printed bound ≈ " +
              Dec(pb, 5) + " (" + printed_verdict + "), corrected bound ≈ " + Dec(bound, 5) +
              " (its 8r²α²(δ−δ1) term alone is " + ref::ToDecimalString(Rational(32 * (delta - delta1)), 4) + ")";
  }
  Verdict out = CompareVariants(printed, corrected,
                                "Theorem 4's MSE bound against Alg. 3's (1/n)Σ (a bias lower bound, exact) and against the "
                                "exact worst case over inputs with the survivors' mean (E31), d → ∞: " + report +
                                (printed_loosest > 0 ? "; with ÷N the printed bound holds, up to " +
                                                           ref::ToDecimalString(printed_loosest, 4) + "× the worst case"
                                                     : std::string()));
  if (undecided > 0 && out.status != Status::kFail) {
    out.status = Status::kInconclusive;
    out.note += "; " + std::to_string(undecided) + " comparison(s) undecided";
  }
  return out;
}

}  // namespace

void AddSeed000DropoutClaims(Catalog& c) {
  const std::string seed = "000";
  c.push_back({"000/Thm4/tail-term", seed, "(2rα)²(P(𝓔ᶜ) + P(𝓕ᶜ)) ≤ 8r²α²δ1 (proof of Thm 4)", "spec 000 §4.5",
               {"E29"}, Status::kPassCorrected, CheckTailTerm, "the corrected bound with δ1 in place of δ − δ1"});
  c.push_back({"000/Thm4/solo-term", seed, "the solo clients contribute at most γ'r²α²/(nθ) to the MSE (Thm 4)",
               "spec 000 §4.5", {"E30"}, Status::kPassCorrected, CheckSoloTerm,
               "the corrected term γ'r²α²/(θ²n) with θ in place of θ²"});
  c.push_back({"000/Thm4/dropout-lower-bound", seed,
               "a lower bound p on the dropout probability suffices for Theorem 4 (§IV-4)", "spec 000 §4.5, §3.5",
               {"E31"}, Status::kFail, CheckDropoutLowerBound, "p' restricted to [p, 1 − p] = [1/3, 2/3]"});
  c.push_back({"000/Thm4/ucdp", seed,
               "with dropout p, CorBin-FL achieves (ε_u, δ)-UCDP with ε_u given by (5) (Theorem 4)",
               "spec 000 §4.5, §4.4, §7 R10–R11; pld_central.hpp (Dropout)",
               {"E20", "E21", "E22", "E23", "E24", "E26", "E31"}, Status::kPassCorrected, CheckThm4Ucdp,
               "the corrected ε_u replaced by the printed (5)"});
  c.push_back({"000/Thm4/mse", seed,
               "lim_d E[(W̄_g − (1/N)Σ_{F_i=1} w_i)²] ≤ γ'r²α²/(nθ) + 8r²α²δ1 + (1−γ)r²(α²+2α−1)/(2nθ) (Theorem 4)",
               "spec 000 §4.5, §3.5, §7 R11", {"E29", "E30", "E31"}, Status::kPassCorrected, CheckThm4Mse,
               "the corrected side divides by n (Alg. 3 line 23) instead of N"});
}

}  // namespace dpfl::proofs
