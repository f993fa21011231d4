// dpfl-proofs — seed 004 (DPFL-BNN): claims for errata that no other claim evaluates (the errata
// registry's pending list, errata_registry.cpp), each evaluating the printed and the corrected
// form where the erratum has one: exact enumeration of the aggregate and of the upload laws from
// their coins, the exact δ(ε) of k randomized-response bits, shapes propagated through the layers.
#include <algorithm>
#include <string>
#include <vector>

#include "claims.hpp"
#include "printed_values.hpp"
#include "dpfl/ref/bnn_laws.hpp"
#include "dpfl/ref/randomized_response.hpp"
#include "instances.hpp"
#include "seed004_shared.hpp"

namespace dpfl::proofs {
namespace {

using ref::Interval;

// E9: Alg. 1 mixes the latent weights as β·(aggregate) + (1 − β)·W̄ with W̄ ∈ [−1, 1] and the
// aggregate of the n clients' ±1 reports; the spec needs the result in [−1, 1] (§7.3 item 17).
// Printed: the aggregate is the sum Σ W̃ ∈ [−n, n]; corrected: the average (1/n)Σ W̃. Every
// report vector's sum is enumerated (its support), with W̄ at both ends.
Verdict CheckMixingRange(const CheckOptions& o) {
  Search printed, corrected;
  const int n_max = o.quick ? 6 : 12;
  for (int n = 1; n <= n_max; ++n)
    for (const Rational& beta : {Q(1, 5), Q(3, 10), Q(1, 2), Q(9, 10)})
      for (long reports = 0; reports < (1L << n); ++reports) {
        long sum = 0;
        for (int i = 0; i < n; ++i) sum += (reports >> i & 1) ? 1 : -1;
        // Flip: the latent taken before the clip of §II-D (W̄ = ±11/10), not in [−1, 1].
        for (const Rational& wbar : {o.flip ? Q(-11, 10) : Q(-1), o.flip ? Q(11, 10) : Q(1)}) {
          const Rational as_printed = beta * sum + (1 - beta) * wbar;
          const Rational averaged = beta * Rational(sum, n) + (1 - beta) * wbar;
          const std::string where = "n=" + std::to_string(n) + " β=" + S(beta) + " Σ W̃=" + std::to_string(sum) +
                                    " W̄=" + S(wbar);
          printed.Count();
          if (as_printed < -1 || as_printed > 1) printed.Violation(where + ": β·Σ + (1 − β)W̄ = " + S(as_printed));
          corrected.Count();
          if (averaged < -1 || averaged > 1) corrected.Violation(where + ": β·mean + (1 − β)W̄ = " + S(averaged));
        }
      }
  return CompareVariants(printed, corrected, "the mixed latent in [−1, 1] for every report vector (n ≤ 12), with the "
                                             "sum (printed) and the average (corrected)");
}

// E11: Alg. 1's loop t = 0, …, T runs T + 1 rounds, so a client releases T + 1 RR bits per
// coordinate, while Theorem 1 calibrates γ for T. At γ = γ_max(ε, δ, T) (corrected Theorem 1,
// its certified lower end) the exact δ(ε) of k RR bits (binomial tail form) must be ≤ δ: with
// k = T it is (Theorem 1 is a valid bound), with k = T + 1 it need not be.
Verdict CheckRoundCount(const CheckOptions& o) {
  Search printed, corrected;
  const Rational delta(1, 100000);
  std::vector<long> Ts = {1, 2, 5, 10};
  if (!o.quick) Ts.push_back(100);
  for (const Rational& eps : {Q(1), Q(4)})
    for (long T : Ts) {
      // Flip: γ_max calibrated for T + 1 rounds, the count the printed loop really runs.
      const Rational gamma = ref::BnnGammaMax(eps, delta, Rational(o.flip ? T + 1 : T), Rational(1), false).lo();
      const std::string where = "ε=" + S(eps) + " δ=1e-5 T=" + std::to_string(T) + " γ=γ_max(T)";
      printed.Count();
      const ref::Interval d_printed = ref::BnnExactDelta(eps, gamma, Rational(T + 1));
      if (d_printed.lo() > delta)
        printed.Violation(where + ": T + 1 = " + std::to_string(T + 1) + " releases have exact δ(ε) ≥ " +
                          ref::ToDecimalString(d_printed.lo(), 6) + " > δ");
      corrected.Count();
      const ref::Interval d_corrected = ref::BnnExactDelta(eps, gamma, Rational(T));
      if (!(d_corrected.hi() <= delta))
        corrected.Violation(where + ": T releases have exact δ(ε) up to " + ref::ToDecimalString(d_corrected.hi(), 6));
    }
  return CompareVariants(printed, corrected, "exact δ(ε) of the RR bits a client releases at γ = γ_max(ε, δ, T): "
                                             "T + 1 of them (loop t = 0..T, printed) or T (t = 1..T, corrected)");
}

// E24: "all communication is 1 bit per coordinate". The upload is ±1 (1 bit); the aggregate a
// client downloads (or a secure-aggregation modulus must hold) is Σ of n reports, whose support —
// enumerated — has n + 1 values, so it needs ⌈log2(n + 1)⌉ bits.
Verdict CheckCommunication(const CheckOptions& o) {
  Search printed, corrected;
  const int n_max = o.quick ? 10 : 16;
  for (int n = 1; n <= n_max; ++n) {
    std::vector<bool> seen(static_cast<std::size_t>(2 * n + 1), false);
    for (long reports = 0; reports < (1L << n); ++reports) {
      long sum = 0;
      for (int i = 0; i < n; ++i) sum += (reports >> i & 1) ? 1 : -1;
      // Flip: a server that re-binarizes, broadcasting Sign(Σ) (Sign(0) = +1): a majority vote,
      // which Alg. 1 does not do.
      if (o.flip) sum = sum >= 0 ? 1 : -1;
      seen[static_cast<std::size_t>(sum + n)] = true;
    }
    long values = 0;
    for (bool b : seen) values += b;
    int bits = 0;
    while ((1L << bits) < values) ++bits;
    printed.Count();
    if (bits > 1)
      printed.Violation("n=" + std::to_string(n) + ": the aggregate takes " + std::to_string(values) +
                        " values, " + std::to_string(bits) + " bits per coordinate");
    corrected.Count();
    int want = 0;
    while ((1L << want) < n + 1) ++want;
    if (values != n + 1 || bits != want)
      corrected.Violation("n=" + std::to_string(n) + ": " + std::to_string(values) + " values");
  }
  int bits_100 = 0;  // the paper's n = 100, by the corrected formula
  while ((1L << bits_100) < 101) ++bits_100;
  return CompareVariants(printed, corrected, "bits per coordinate of the aggregate of n ±1 uploads, from its enumerated "
                                             "support: 1 (printed) or ⌈log2(n + 1)⌉ (corrected; the upload itself is 1 "
                                             "bit; the paper's n = 100 needs " + std::to_string(bits_100) + ")");
}

// ---- helpers for the claims below (exact rationals) ----------------------------------------------
Rational Clip(const Rational& x, const Rational& lo, const Rational& hi) { return ref::Min(hi, ref::Max(lo, x)); }
using seed004::HockeyStick;  // Σ_y [P(y) − E·Q(y)]_+ (seed004_shared.hpp)
// Lemma 3's Rényi sum as printed: p^α q^{1−α} + q^α p^{1−α} (integer α).
Rational Lemma3Sum(const Rational& gamma, long alpha) {
  const Rational p = Q(1, 2) + gamma, q = Q(1, 2) - gamma;
  return PowQ(p, alpha) / PowQ(q, alpha - 1) + PowQ(q, alpha) / PowQ(p, alpha - 1);
}
// Exact δ at rational e^ε of h RR bits (the dominating pair Bern(p)^⊗h vs Bern(q)^⊗h, §4.6):
// Σ_j C(h, j) [p^j q^{h−j} − E q^j p^{h−j}]_+.
Rational RrBitsDelta(const Rational& gamma, int h, const Rational& E) {
  const Rational p = Q(1, 2) + gamma, q = Q(1, 2) - gamma;
  Rational d(0), binom(1);
  for (int j = 0; j <= h; ++j) {
    d += binom * ref::Max(Rational(0), PowQ(p, j) * PowQ(q, h - j) - E * PowQ(q, j) * PowQ(p, h - j));
    binom = binom * (h - j) / (j + 1);
  }
  return d;
}
using seed004::SumLaw;  // law of Σ_i b̃_i over m reporters (seed004_shared.hpp)
int Popcount(unsigned x) {
  int c = 0;
  for (; x; x &= x - 1) ++c;
  return c;
}

// ---- E1: Definition 2's expectation, under which law? ----------------------------------------------
// Def. 2 as printed, (1/(α−1)) log E[(M(X)/M(X'))^α], leaves the measure open; read literally as the
// expectation under the mechanism's output M(X) = P it is Σ P (P/Q)^α; the corrected reading (E1,
// Mironov) is E_{y∼Q}[(P/Q)^α]. Each is computed from the RR output laws of inputs +1 and −1
// (ref::RrPlusProbability) and compared, as an exact rational before the log (ln is injective),
// with Lemma 3's printed sum p^α q^{1−α} + q^α p^{1−α}, which Lemma 3 says is e^{(α−1)ρ_γ(α)}.
Verdict CheckDef2Measure(const CheckOptions& o) {
  Search printed, corrected;
  const int prec = 64;
  for (const Rational& g : {Q(1, 20), Q(1, 10), Q(1, 4), Q(2, 5)})
    for (long a = 2; a <= 6; ++a) {
      const std::vector<Rational> P = {ref::RrPlusProbability(g, 1), 1 - ref::RrPlusProbability(g, 1)};
      const std::vector<Rational> Qv = {ref::RrPlusProbability(g, -1), 1 - ref::RrPlusProbability(g, -1)};
      Rational under_p(0), under_q(0);
      for (int y = 0; y < 2; ++y) {
        const Rational ratio_pow = PowQ(P[y] / Qv[y], a);
        under_p += P[y] * ratio_pow;
        // Flip: the "expectation" over the counting measure (the mechanisms treated as densities
        // with no reference law), Σ_y (P/Q)^α.
        under_q += (o.flip ? Rational(1) : Qv[y]) * ratio_pow;
      }
      const Rational lemma3 = Lemma3Sum(g, a);
      const std::string where = "γ=" + S(g) + " α=" + std::to_string(a);
      auto rho = [&](const Rational& x) { return Dec(ref::LogQ(prec, x) / Rational(a - 1), 8); };
      printed.Count();
      if (under_p != lemma3)
        printed.Violation(where + ": with E over M(X), (1/(α−1)) ln " + S(under_p) + " = " + rho(under_p) +
                          " ≠ Lemma 3's ρ = (1/(α−1)) ln " + S(lemma3) + " = " + rho(lemma3));
      corrected.Count();
      if (under_q != lemma3)
        corrected.Violation(where + ": E_{y∼Q}[(P/Q)^α] = " + S(under_q) + " ≠ Lemma 3's " + S(lemma3));
    }
  return CompareVariants(printed, corrected, "Definition 2 with the expectation under M(X) (the literal reading) vs under "
                                             "M(X') (E1), from RR's output laws, against Lemma 3's ρ_γ(α) (exact rationals "
                                             "before the log; γ ∈ {1/20, 1/10, 1/4, 2/5}, α = 2..6)");
}

// ---- E8: Alg. 1 line 12 aggregates the un-noised bits --------------------------------------------
// The released aggregate for neighbouring datasets in which client 1's d bits change (b vs b′, all
// pairs, h = Hamming distance) and the other clients' bits are anything (enumerated), T = 1. Printed:
// Σ_i W^{b,i} (line 12), a deterministic function of the bits, so two different sums give δ = 1.
// Corrected: Σ_i W̃^{b,i}, whose law per coordinate is the convolution of the reports and is a
// product over coordinates; by post-processing its δ(ε) must be ≤ the exact δ(ε) of the h RR bits
// client 1 releases (Theorem 1's accounting with h = d, E6). e^ε ∈ {1, 3/2, 3}: exact rationals.
Verdict CheckLine12Aggregate(const CheckOptions& o) {
  Search printed, corrected;
  for (int n = 2; n <= (o.quick ? 3 : 4); ++n)
    for (int d = 1; d <= 2; ++d)
      for (const Rational& g : {Q(1, 10), Q(1, 4)})
        for (unsigned b = 0; b < (1u << d); ++b)
          for (unsigned b2 = 0; b2 < (1u << d); ++b2) {
            if (b == b2) continue;
            const int h = Popcount(b ^ b2);
            for (unsigned others = 0; others < (1u << ((n - 1) * d)); ++others) {
              // Joint law over the d coordinates' sums (product of per-coordinate laws).
              auto aggregate_law = [&](unsigned bits1, bool noise_client1) {
                std::vector<Rational> law = {Rational(1)};
                for (int j = 0; j < d; ++j) {
                  std::vector<Rational> probs;
                  const int b1 = ((bits1 >> j) & 1u) ? 1 : -1;
                  probs.push_back(noise_client1 ? ref::RrPlusProbability(g, b1) : Q(b1 > 0 ? 1 : 0));
                  for (int i = 1; i < n; ++i)
                    probs.push_back(ref::RrPlusProbability(g, ((others >> ((i - 1) * d + j)) & 1u) ? 1 : -1));
                  const std::vector<Rational> coord = SumLaw(probs);
                  std::vector<Rational> next;
                  for (const Rational& x : law)
                    for (const Rational& y : coord) next.push_back(x * y);
                  law = std::move(next);
                }
                return law;
              };
              auto plain_sum = [&](unsigned bits1) {  // line 12: Σ_i W^{b,i}, per coordinate
                std::vector<long> s;
                for (int j = 0; j < d; ++j) {
                  long t = ((bits1 >> j) & 1u) ? 1 : -1;
                  for (int i = 1; i < n; ++i) t += ((others >> ((i - 1) * d + j)) & 1u) ? 1 : -1;
                  s.push_back(t);
                }
                return s;
              };
              // Flip: client 1's own report left un-noised inside the otherwise noised sum.
              const std::vector<Rational> P = aggregate_law(b, !o.flip), Qv = aggregate_law(b2, !o.flip);
              for (const Rational& E : {Q(1), Q(3, 2), Q(3)}) {
                const std::string where = "n=" + std::to_string(n) + " d=" + std::to_string(d) + " γ=" + S(g) +
                                          " client-1 bits " + std::to_string(b) + "→" + std::to_string(b2) + " (h=" +
                                          std::to_string(h) + ") others=" + std::to_string(others) + " e^ε=" + S(E);
                const Rational bound = RrBitsDelta(g, h, E);
                printed.Count();
                const Rational d_printed = plain_sum(b) == plain_sum(b2) ? Rational(0) : Rational(1);
                if (d_printed > bound)
                  printed.Violation(where + ": line 12's Σ W^{b,i} differs between the neighbours, δ(ε) = " + S(d_printed) +
                                    " > the exact δ(ε) = " + S(bound) + " of client 1's RR bits");
                corrected.Count();
                const Rational d_corrected = HockeyStick(P, Qv, E);
                if (d_corrected > bound)
                  corrected.Violation(where + ": δ(ε) of Σ W̃^{b,i} = " + S(d_corrected) + " > " + S(bound));
              }
            }
          }
  return CompareVariants(printed, corrected, "exact law of the released aggregate for neighbours that change client 1's "
                                             "bits (n ≤ 4, d ≤ 2, every other client's bits), un-noised Σ W^{b,i} (line "
                                             "12 as printed) vs noised Σ W̃^{b,i} (E8), against the exact δ(ε) of the h RR "
                                             "bits client 1 releases");
}

// ---- E13: StoSign (Alg. 1) or Sign (§II-D, §III-B): Theorem 1's per-coordinate bound either way -----
// The upload law P(RR_γ(bin(θ)) = +1) is built from its coins — StoSign's hard sigmoid
// clip((θ+1)/2, 0, 1) [RECOMMENDED, E13] or Sign with Sign(0) = +1 (E17), then the RR keep/flip
// coin — and cross-checked with ref::BnnUploadPlusProbability. For every pair of latents θ, θ′
// (pre-clip values in [−3/2, 3/2] included) the exact Rényi sum of the two Bernoulli upload laws
// must be ≤ Lemma 3's S(α, γ) (so each coordinate costs ≤ ρ_γ(α)); it is attained at θ = ±1 by
// both. StoSign's unbiasedness E[StoSign(x)] = x on [−1, 1] (§1.2 [DERIVED]) is checked too.
Verdict CheckBinarizer(const CheckOptions& o) {
  Search s;
  const int step = o.quick ? 4 : 10;
  std::vector<Rational> thetas;
  for (int j = -3 * step / 2; j <= 3 * step / 2; ++j) thetas.push_back(Q(j, step));
  int attained = 0;
  for (const Rational& g : {Q(1, 10), Q(1, 4), Q(2, 5)}) {
    const Rational p = Q(1, 2) + g, q = Q(1, 2) - g;
    for (bool stochastic : {true, false}) {
      std::vector<Rational> pi;
      for (const Rational& t : thetas) {
        const Rational sigma = stochastic ? Clip((t + 1) / 2, Q(0), Q(1)) : Rational(t >= 0 ? 1 : 0);
        pi.push_back(sigma * p + (1 - sigma) * q);  // + kept, or − flipped
        s.Count();
        if (pi.back() != ref::BnnUploadPlusProbability(g, t, stochastic))
          s.Violation("γ=" + S(g) + " θ=" + S(t) + ": upload law from the coins ≠ ref::BnnUploadPlusProbability");
        if (stochastic && t >= -1 && t <= 1 && 2 * sigma - 1 != t) s.Violation("E[StoSign(" + S(t) + ")] ≠ " + S(t));
      }
      for (long a = 2; a <= (o.quick ? 4 : 6); ++a) {
        // Flip: the bound S(α, 9γ/10) (a slightly smaller bias) in place of Lemma 3's S(α, γ).
        const Rational bound = Lemma3Sum(o.flip ? Rational(g * 9 / 10) : g, a);
        Rational worst(0);
        for (std::size_t i = 0; i < pi.size(); ++i)
          for (std::size_t j = 0; j < pi.size(); ++j) {
            s.Count();
            const Rational r = PowQ(pi[i], a) / PowQ(pi[j], a - 1) + PowQ(1 - pi[i], a) / PowQ(1 - pi[j], a - 1);
            worst = ref::Max(worst, r);
            if (r > bound)
              s.Violation(std::string(stochastic ? "StoSign" : "Sign") + " γ=" + S(g) + " α=" + std::to_string(a) + " θ=" +
                          S(thetas[i]) + " θ′=" + S(thetas[j]) + ": Rényi sum " + S(r) + " > S(α, γ) = " + S(bound));
          }
        if (worst == Lemma3Sum(g, a)) ++attained;
      }
    }
  }
  return s.AsVerdict("upload laws of RR∘StoSign and RR∘Sign from their coins (= the reference's), exact Rényi sums over "
                     "every latent pair on a grid of [−3/2, 3/2] ≤ Lemma 3's S(α, γ), attained (θ = ±1) in " +
                     std::to_string(attained) + " of the (γ, α, binarizer) cases: Theorem 1's per-coordinate bound holds "
                     "for either binarizer; StoSign unbiased on [−1, 1]");
}

// ---- E14: binarize-then-clip (Alg. 1 lines 7–8) vs clip-then-binarize (§II-D) -------------------------
// For a latent x after the gradient step (a grid of [−3, 3]): the upload law StoSign(x) (printed
// order) equals StoSign(clip(x, −1, 1)) (§II-D order) because the hard sigmoid saturates, and
// Sign(x) = Sign(clip(x)); the next round's latent is clip(x) in both orders. Not an identity of
// the code: it depends on the hard sigmoid (a logistic sigmoid would differ off [−1, 1]).
Verdict CheckClipOrder(const CheckOptions& o) {
  Search s;
  auto stosign = [&](const Rational& x) {  // P(StoSign(x) = +1)
    // Flip: the hard sigmoid without its clip to [0, 1] (no saturation).
    return o.flip ? Rational((x + 1) / 2) : Clip((x + 1) / 2, Q(0), Q(1));
  };
  for (int k = -24; k <= 24; ++k) {
    const Rational x = Q(k, 8), cx = Clip(x, Q(-1), Q(1));
    s.Count();
    if (stosign(x) != stosign(cx))
      s.Violation("x=" + S(x) + ": P(StoSign(x) = +1) = " + S(stosign(x)) + " ≠ P(StoSign(clip(x)) = +1) = " + S(stosign(cx)));
    if ((x >= 0) != (cx >= 0)) s.Violation("x=" + S(x) + ": Sign(x) ≠ Sign(clip(x))");
    if (stosign(cx) != ref::StoSignPlusProbability(x))
      s.Violation("x=" + S(x) + ": StoSign law ≠ ref::StoSignPlusProbability");
  }
  return s.AsVerdict("P(StoSign(x) = +1) = P(StoSign(clip(x)) = +1) and Sign(x) = Sign(clip(x)) for x = k/8 ∈ [−3, 3] "
                     "(exact): the upload does not depend on the order of binarization and clip");
}

// ---- E16: RR on ±1 and at γ = 0 -------------------------------------------------------------------
// Def. 3 is stated on {0, 1} with 0 < γ < 1/2; the algorithm uses ±1 and the experiments γ = 0.
// (a) Under b = 2h − 1 the law of Def. 3's output equals the ±1 RR of the reference
// (ref::RrPlusProbability) for γ ∈ {0, 1/10, 1/4, 2/5}; (b) at γ = 0 the outputs for h = 0 and
// h = 1 have TV 0 and Rényi sum 1 (ρ_0 = 0), the exact δ(ε) of k bits is 0 (ref::BnnExactDelta),
// and the aggregate of n ≤ 5 reports is Binomial(n, 1/2) whatever the inputs.
Verdict CheckDef3Pm1(const CheckOptions& o) {
  Search s;
  for (const Rational& g : {Q(0), Q(1, 10), Q(1, 4), Q(2, 5)}) {
    // Def. 3 on {0, 1}: keep w.p. 1/2 + γ. Flip: γ read as the flip probability (keep 1 − γ), the
    // reading under which γ = 0 would mean no noise (E19: γ = 0 means uniform bits).
    const Rational keep = o.flip ? Rational(1 - g) : Rational(Q(1, 2) + g);
    std::vector<std::vector<Rational>> law01(2);  // law01[h] = (P(out = 0), P(out = 1))
    for (int h = 0; h <= 1; ++h) {
      law01[h] = h == 1 ? std::vector<Rational>{1 - keep, keep} : std::vector<Rational>{keep, 1 - keep};
      s.Count();
      const int b = 2 * h - 1;
      if (law01[h][1] != ref::RrPlusProbability(g, b))
        s.Violation("γ=" + S(g) + " h=" + std::to_string(h) + ": Def. 3's P(out = 1) = " + S(law01[h][1]) +
                    " ≠ P(RR_γ(" + std::to_string(b) + ") = +1) = " + S(ref::RrPlusProbability(g, b)));
    }
    if (g != 0) continue;
    s.Count();
    if (HockeyStick(law01[1], law01[0], Q(1)) != 0) s.Violation("γ=0: the outputs for h = 0 and h = 1 differ (TV > 0)");
    for (const Rational& eps : {Q(0), Q(1)})
      for (long k : {1L, 10L}) {
        s.Count();
        if (ref::BnnExactDelta(eps, g, Q(k)).hi() != 0) s.Violation("γ=0: exact δ(" + S(eps) + ") of " + std::to_string(k) + " bits ≠ 0");
      }
    for (int n = 1; n <= 5; ++n)
      for (unsigned bits = 0; bits < (1u << n); ++bits) {
        s.Count();
        std::vector<Rational> probs, fair(static_cast<std::size_t>(n), Q(1, 2));
        for (int i = 0; i < n; ++i) probs.push_back(law01[((bits >> i) & 1u) ? 1 : 0][1]);
        if (ref::PoissonBinomialPmf(probs) != ref::PoissonBinomialPmf(fair))
          s.Violation("γ=0 n=" + std::to_string(n) + " inputs=" + std::to_string(bits) + ": aggregate law depends on the data");
      }
  }
  return s.AsVerdict("Def. 3 on {0, 1} mapped by b = 2h − 1 is the ±1 RR (exact pmfs, γ ∈ {0, 1/10, 1/4, 2/5}); at γ = 0 "
                     "the output is independent of the input: TV 0, exact δ(ε) = 0, aggregate Binomial(n, 1/2)");
}

// ---- E17: Sign(0) ---------------------------------------------------------------------------------
// The upload of a coordinate with latent θ, RR_γ(Sign(θ)), as a law on {−1, 0, +1}. As printed Sign
// is undefined at 0; the standard sgn(0) = 0 (also torch's sign) makes RR(0) = ±0 = 0 a point mass.
// Corrected (E17): Sign(0) = +1. Judged against Lemma 3 at α = ∞: one coordinate must be ℓ-DP,
// i.e. δ(ε = ℓ) = Σ [P − (p/q)Q]_+ = 0 between θ = 0 and any θ′ (exact rationals).
Verdict CheckSignZero(const CheckOptions& o) {
  Search printed, corrected;
  for (const Rational& g : {Q(1, 10), Q(1, 4), Q(2, 5)}) {
    const Rational p = Q(1, 2) + g, q = Q(1, 2) - g;
    auto upload = [&](const Rational& theta, int sign_at_zero, bool rr_on_ties) {  // (P(−1), P(0), P(+1))
      const int b = theta > 0 ? 1 : theta < 0 ? -1 : sign_at_zero;
      if (b == 0) return std::vector<Rational>{Q(0), Q(1), Q(0)};
      if (theta == 0 && !rr_on_ties) return std::vector<Rational>{Q(b < 0 ? 1 : 0), Q(0), Q(b > 0 ? 1 : 0)};
      const Rational plus = ref::RrPlusProbability(g, b);
      return std::vector<Rational>{1 - plus, Q(0), plus};
    };
    for (const Rational& t2 : {Q(-1), Q(-1, 2), Q(1, 2), Q(1)}) {
      const std::string where = "γ=" + S(g) + " θ=0 vs θ′=" + S(t2);
      printed.Count();
      const auto P0 = upload(Q(0), 0, true), P1 = upload(t2, 0, true);
      const Rational dp = ref::Max(HockeyStick(P0, P1, p / q), HockeyStick(P1, P0, p / q));
      if (dp > 0)
        printed.Violation(where + ": with sgn(0) = 0 the upload of θ = 0 is always 0, δ(ε = ℓ) = " + S(dp) +
                          (dp == 1 ? " (disjoint supports: δ = 1 at every ε)" : ""));
      // Flip: Sign(0) = +1 but the tie uploaded without its RR coin.
      corrected.Count();
      const auto C0 = upload(Q(0), 1, !o.flip), C1 = upload(t2, 1, !o.flip);
      const Rational dc = ref::Max(HockeyStick(C0, C1, p / q), HockeyStick(C1, C0, p / q));
      if (dc > 0) corrected.Violation(where + ": with Sign(0) = +1, δ(ε = ℓ) = " + S(dc) + " > 0");
    }
  }
  return CompareVariants(printed, corrected, "law of RR_γ(Sign(θ)) on {−1, 0, +1} for θ = 0 vs θ′ ≠ 0 with sgn(0) = 0 (the "
                                             "standard and torch convention; Sign(0) is undefined as printed) vs Sign(0) = "
                                             "+1 (E17), judged by δ(ε = ℓ) = 0 (one coordinate is ℓ-DP, Lemma 3 at α = ∞)");
}

// ---- E22 (and §5.4's sizes): the architecture's dimensions ---------------------------------------
// Shapes propagated literally: conv k×k, stride 1, padding P: H → H + 2P − k + 1; 2×2 max pool:
// H → ⌊H/2⌋; input 1×28×28, two conv layers of 16 filters each followed by a pool. The FC layer
// is printed as 784 wide, so the flatten 16·H² must be 784. As printed no padding is stated (the
// default 0); corrected, padding 1. Then d (interpretation A: 16·1·k² + 16·16·k² + 784·100 + 100·10)
// must be the spec's 81,848 (81,958 with the FC biases), interpretation B (784→784→100→10)
// 696,504, the float32 upload 32d = 2,619,136 bits, and a SecAgg field for n = 100 7 bits.
Verdict CheckArchitecture(const CheckOptions& o) {
  Search printed, corrected;
  auto flatten = [](long k, long pad) {
    long H = 28;
    for (int layer = 0; layer < 2; ++layer) H = (H + 2 * pad - k + 1) / 2;
    return 16 * H * H;
  };
  printed.Count();
  if (flatten(3, 0) != 784)
    printed.Violation("3×3 convolutions without padding (none is stated): 28 → 26 → 13 → 11 → 5, flatten 16·5·5 = " +
                      std::to_string(flatten(3, 0)) + " ≠ the printed 784");
  // Flip: 5×5 kernels for the printed 3×3.
  const long k = o.flip ? 5 : 3;
  const long f = flatten(k, 1);
  const long conv = 16 * 1 * k * k + 16 * 16 * k * k;
  const long dA = conv + f * 100 + 100 * 10, dA_bias = dA + 100 + 10, dB = conv + f * 784 + 784 * 100 + 100 * 10;
  int secagg_bits = 0;
  while ((1L << secagg_bits) < 101) ++secagg_bits;
  struct Want { const char* what; long got, want; };
  for (const Want& w : {Want{"flatten (padding 1)", f, 784}, Want{"d, interpretation A", dA, 81848},
                        Want{"d with FC biases", dA_bias, 81958}, Want{"d, interpretation B", dB, 696504},
                        Want{"float32 upload bits 32d", 32 * dA, 2619136}, Want{"SecAgg bits, n = 100", secagg_bits, 7}}) {
    corrected.Count();
    if (w.got != w.want)
      corrected.Violation(std::string(w.what) + " = " + std::to_string(w.got) + " ≠ spec " + std::to_string(w.want));
  }
  return CompareVariants(printed, corrected, "shapes propagated through the printed layer list: flatten 784 needs padding 1 "
                                             "(E22); then d = 81,848 (A), 81,958 with FC biases, 696,504 (B), 32d = "
                                             "2,619,136 bits, ⌈log2 101⌉ = 7 (§5.2, §5.4)");
}

// ---- E25: eq. (3)'s synchronisation vs objective (2) ---------------------------------------------
// Quadratic per-sample loss ℓ(w, x) = (w − x)²/2. Clients with D_i ∈ {1, 2, 3} samples valued in
// {0, 3} (all datasets enumerated), n = 2 (3 in the full run), all local models at w ∈ {0, 1/2},
// full-batch gradients, η = 1/10. Objective (2) is computed from the union of all samples. Printed:
// eq. (3)'s sync (1/n)Σ_j [w − η∇L_j(w)] must be a gradient step w − η∇L(w) on (2); corrected (E25):
// the D_i-weighted average. Also eq. (3)'s condition as printed, "t | τ" (t divides τ), against
// τ | t: the sync rounds in 1..100 must be every τ steps.
Verdict CheckFedAvgWeights(const CheckOptions& o) {
  Search printed, corrected;
  const Rational eta = Q(1, 10);
  for (int n = 2; n <= (o.quick ? 2 : 3); ++n) {
    std::vector<int> sizes(static_cast<std::size_t>(n), 1);
    while (true) {
      int total = 0;
      for (int D : sizes) total += D;
      for (unsigned values = 0; values < (1u << total); ++values)
        for (const Rational& w : {Q(0), Q(1, 2)}) {
          std::vector<Rational> grad_i;  // ∇L_i(w) = w − mean of client i's samples
          Rational grad_global(0);       // ∇L(w) from the union of all samples, eq. (2)
          int at = 0;
          for (int D : sizes) {
            Rational sum(0);
            for (int j = 0; j < D; ++j, ++at) {
              const Rational x = ((values >> at) & 1u) ? Q(3) : Q(0);
              sum += x;
              grad_global += (w - x) / total;
            }
            grad_i.push_back(w - sum / D);
          }
          const Rational target = w - eta * grad_global;
          Rational uniform(0), weighted(0), norm(0);
          for (int i = 0; i < n; ++i) norm += o.flip ? sizes[i] * sizes[i] : sizes[i];
          for (int i = 0; i < n; ++i) {
            uniform += (w - eta * grad_i[i]) / n;
            // Flip: weights D_i²/Σ D_j² for D_i/Σ D_j.
            weighted += Rational(o.flip ? sizes[i] * sizes[i] : sizes[i]) / norm * (w - eta * grad_i[i]);
          }
          std::string where = "D=(";
          for (int D : sizes) where += std::to_string(D) + ",";
          where.back() = ')';
          where += " samples=" + std::to_string(values) + " (bit j: sample j = 3, else 0) w=" + S(w) + " η=1/10";
          printed.Count();
          if (uniform != target)
            printed.Violation(where + ": the 1/n sync gives " + S(uniform) + ", a gradient step on (2) gives " + S(target));
          corrected.Count();
          if (weighted != target) corrected.Violation(where + ": the D_i-weighted sync gives " + S(weighted) + " ≠ " + S(target));
        }
      int i = n - 1;
      while (i >= 0 && sizes[static_cast<std::size_t>(i)] == 3) sizes[static_cast<std::size_t>(i--)] = 1;
      if (i < 0) break;
      ++sizes[static_cast<std::size_t>(i)];
    }
  }
  for (int tau : {2, 5, 10}) {
    auto every_tau = [&](bool literal) {  // sync rounds t ∈ 1..100 with (literal) t | τ or τ | t
      int last = 0;
      for (int t = 1; t <= 100; ++t)
        if (literal ? tau % t == 0 : t % tau == 0) {
          if (t - last != tau) return "sync at t=" + std::to_string(t) + " after t=" + std::to_string(last);
          last = t;
        }
      return 100 - last >= tau ? "no sync after t=" + std::to_string(last) : std::string();
    };
    printed.Count();
    if (const std::string e = every_tau(true); !e.empty())
      printed.Violation("τ=" + std::to_string(tau) + ", eq. (3)'s \"t | τ\" read literally: " + e + ", not every τ steps");
    corrected.Count();
    if (const std::string e = every_tau(false); !e.empty()) corrected.Violation("τ=" + std::to_string(tau) + ": " + e);
  }
  return CompareVariants(printed, corrected, "eq. (3)'s uniform 1/n synchronisation vs a gradient step on objective (2) "
                                             "(computed from the union of the samples), D_i-weighted (E25) as corrected; "
                                             "and eq. (3)'s t | τ read literally vs τ | t (sync every τ steps)");
}

// ---- E27: γ is a bias; the code's dp_flip is the flip probability 1/2 − γ --------------------------
// For the code's sweep dp_flip ∈ {0.05, …, 0.5}: the flip probability of RR_γ (from the reference's
// pmf) at γ = 1/2 − dp_flip must be dp_flip, and the per-bit exact ε (T = 100, δ = 1e-5) at that γ
// must be the spec §5.5 value printed for that γ (dp_flip = 0.4 ↔ γ = 0.1 ↔ ε = 23.654…), 0 at
// dp_flip = 1/2; ε decreases along the sweep.
Verdict CheckFlipParameter(const CheckOptions& o) {
  Search s;
  const std::vector<std::pair<Rational, std::string>> sweep =
      o.quick ? std::vector<std::pair<Rational, std::string>>{{Q(1, 10), "219.2500734"}, {Q(2, 5), "23.65423514"}, {Q(1, 2), "0"}}
              : std::vector<std::pair<Rational, std::string>>{
                    {Q(1, 20), ""}, {Q(1, 10), "219.2500734"}, {Q(3, 20), ""}, {Q(1, 5), "124.2079428"}, {Q(1, 4), ""},
                    {Q(3, 10), "63.93091499"}, {Q(7, 20), ""}, {Q(2, 5), "23.65423514"}, {Q(9, 20), "9.789940984"},
                    {Q(1, 2), "0"}};
  Interval prev;
  bool first = true;
  std::string listing;
  for (const auto& [f, spec] : sweep) {
    // Flip: dp_flip read as γ itself (the confusion E27 warns about).
    const Rational g = o.flip ? f : Rational(Q(1, 2) - f);
    if (g >= Q(1, 2)) continue;
    s.Count();
    const std::string where = "dp_flip=" + S(f) + " → γ=" + S(g);
    if (1 - ref::RrPlusProbability(g, 1) != (o.flip ? Rational(Q(1, 2) - f) : f))
      s.Violation(where + ": RR_γ's flip probability ≠ dp_flip");
    ref::BnnSetting st;
    st.gamma = g;
    st.rounds = Q(100);
    st.delta = Q(1, 100000);
    st.precision_bits = 160;
    const Interval e = ref::BnnEpsilonExact(st);
    listing += " " + S(f) + ":" + Dec(e, 6);
    if (spec == "0" ? !(e.lo() == 0 && e.hi() == 0) : (!spec.empty() && Disjoint(e, Printed(spec))))
      s.Violation(where + ": per-bit ε_exact(T=100, δ=1e-5) = " + Dec(e, 10) + ", spec §5.5 for γ = 1/2 − dp_flip: " + spec);
    if (!first && !(e.hi() < prev.lo())) s.Violation(where + ": ε not decreasing along the dp_flip sweep");
    prev = e;
    first = false;
  }
  return s.AsVerdict("dp_flip = 1/2 − γ from RR's pmf; per-bit ε_exact (T = 100, δ = 1e-5) along the code's sweep against "
                     "spec §5.5 (dp_flip:ε)" + listing);
}

// ---- E28: parameters uploaded without RR (the code's BatchNorm) --------------------------------------
// Interpretation A with the code's BatchNorm after each of the four layers (16, 16, 100, 10 channels):
// its affine scalars (scale and shift per channel) are uploaded in full precision without RR. A
// scalar released as is and differing between neighbouring clients has point-mass laws: δ(ε) = 1 at
// every ε, outside Theorem 1. Corrected (every uploaded scalar through Alg. B + C): the same scalar
// binarized by Sign and RR'd, whose law (from its coins) has δ(ε = ℓ) = 0 — at the price of h = d +
// 284 in the accounting. Neighbouring values v ≠ v′ on a grid, exact rationals.
Verdict CheckUnnoisedParams(const CheckOptions& o) {
  Search printed, corrected;
  // Flip: the model without BatchNorm (the paper's literal layer list): nothing outside RR.
  const std::vector<long> bn_channels = o.flip ? std::vector<long>{} : std::vector<long>{16, 16, 100, 10};
  long unnoised = 0;
  for (long ch : bn_channels) unnoised += 2 * ch;
  const std::vector<Rational> values = {Q(-1), Q(-1, 2), Q(1, 2), Q(1)};
  for (long scalar = 0; scalar < std::min(unnoised, 1L); ++scalar)  // every BN scalar behaves alike: one is judged
    for (const Rational& g : {Q(1, 10), Q(2, 5)})
      for (std::size_t i = 0; i < values.size(); ++i)
        for (std::size_t j = 0; j < values.size(); ++j) {
          if (i == j) continue;
          const Rational p = Q(1, 2) + g, q = Q(1, 2) - g;
          const std::string where = "γ=" + S(g) + " BN scalar " + S(values[i]) + " vs " + S(values[j]);
          // As uploaded by the code: the value itself (support {v, v′}, index 0 = v, 1 = v′).
          printed.Count();
          const Rational dp = HockeyStick({Q(1), Q(0)}, {Q(0), Q(1)}, p / q);
          if (dp > 0)
            printed.Violation("the code's model uploads " + std::to_string(unnoised) + " BatchNorm affine scalars "
                              "(2·(16+16+100+10)) without RR; " + where + " released as is: δ(ε = ℓ) = " + S(dp) +
                              " (point masses: δ = 1 at every ε)");
          // Corrected: Sign then RR (law on {−1, +1} from the coins).
          corrected.Count();
          auto law = [&](const Rational& v) {
            const Rational plus = ref::RrPlusProbability(g, v >= 0 ? 1 : -1);
            return std::vector<Rational>{1 - plus, plus};
          };
          const Rational dc = ref::Max(HockeyStick(law(values[i]), law(values[j]), p / q),
                                       HockeyStick(law(values[j]), law(values[i]), p / q));
          if (dc > 0) corrected.Violation(where + " binarized and RR'd: δ(ε = ℓ) = " + S(dc));
        }
  return CompareVariants(printed, corrected, "uploaded scalars outside RR in the code's interpretation-A model (BatchNorm "
                                             "affine: " + std::to_string(unnoised) + "), each released as is (δ = 1), vs "
                                             "binarized and RR'd (δ(ε = ℓ) = 0; the accounting then needs h = " +
                                             std::to_string(81848 + unnoised) + ")");
}

// ---- E29: the code negates the whole tensor with one coin -------------------------------------------
// d-bit tensors b, b′ (all pairs; h = Hamming distance). Per-tensor (code): the output is b w.p.
// 1 − dp_flip and −b w.p. dp_flip. Per-coordinate (Def. 3): RR_γ^⊗d. Judged against the pure
// bound of h RR bits (Lemma 3 at α = ∞, composed over h coordinates): δ(ε = hℓ) = Σ [P − (p/q)^h Q]_+
// must be 0. Exact rationals.
Verdict CheckPerCoordinate(const CheckOptions& o) {
  Search printed, corrected;
  for (int d = 2; d <= (o.quick ? 2 : 3); ++d)
    for (const Rational& g : {Q(1, 10), Q(1, 4), Q(2, 5)}) {
      const Rational p = Q(1, 2) + g, q = Q(1, 2) - g, flip_prob = Q(1, 2) - g;  // dp_flip = q (E27)
      const unsigned all = (1u << d) - 1;
      auto per_tensor = [&](unsigned b) {
        std::vector<Rational> law(std::size_t{1} << d, Rational(0));
        law[b] += 1 - flip_prob;
        law[all ^ b] += flip_prob;
        return law;
      };
      auto per_coordinate = [&](unsigned b) {
        std::vector<Rational> law(std::size_t{1} << d);
        for (unsigned y = 0; y <= all; ++y) {
          Rational pr(1);
          for (int i = 0; i < d; ++i) pr *= (((y >> i) & 1u) == ((b >> i) & 1u)) ? p : q;
          law[y] = pr;
        }
        return law;
      };
      for (unsigned b = 0; b <= all; ++b)
        for (unsigned b2 = 0; b2 <= all; ++b2) {
          if (b == b2) continue;
          // Flip: only neighbours differing in every coordinate (b′ = −b): the pairs with 0 < h < d removed.
          if (o.flip && b2 != (all ^ b)) continue;
          const int h = Popcount(b ^ b2);
          const Rational E = PowQ(p / q, h);
          const std::string where = "d=" + std::to_string(d) + " γ=" + S(g) + " (dp_flip=" + S(flip_prob) + ") b=" +
                                    std::to_string(b) + " b′=" + std::to_string(b2) + " (bit i set: +1; h=" + std::to_string(h) + ")";
          printed.Count();
          const Rational dp = HockeyStick(per_tensor(b), per_tensor(b2), E);
          if (dp > 0)
            printed.Violation(where + ": one coin per tensor gives δ(ε = hℓ) = " + S(dp) +
                              (dp == 1 ? " (outputs ±b and ±b′ never meet: δ = 1 at every ε)" : ""));
          corrected.Count();
          const Rational dc = HockeyStick(per_coordinate(b), per_coordinate(b2), E);
          if (dc > 0) corrected.Violation(where + ": per-coordinate RR gives δ(ε = hℓ) = " + S(dc));
        }
    }
  return CompareVariants(printed, corrected, "output laws of d-bit tensors (d ≤ 3, all pairs) under the code's single coin "
                                             "per tensor vs per-coordinate RR (E29, Def. 3), judged by δ(ε = hℓ) = 0 (h RR "
                                             "bits' pure bound)");
}

}  // namespace

void AddSeed004ErrataClaims(Catalog& c) {
  const std::string seed = "004";
  c.push_back({"004/Alg1/mixing-range", seed, "the mixed latent β·Σ W̃ + (1 − β)W̄ stays in [−1, 1]", "spec 004 §3, §7.3 item 17",
               {"E9"}, Status::kPassCorrected, CheckMixingRange,
               "the latent W̄ taken before the clip (±11/10) instead of in [−1, 1]"});
  c.push_back({"004/Alg1/round-count", seed, "Alg. 1 (t = 0..T) is (ε, δ)-DP at γ ≤ γ_max(ε, δ, T)", "spec 004 §3, §4.5",
               {"E11"}, Status::kPassCorrected, CheckRoundCount,
               "γ_max calibrated for T + 1 rounds (the printed loop's count), so the T + 1 releases are covered"});
  c.push_back({"004/5.4/communication", seed, "all communication is 1 bit per coordinate", "spec 004 §5.4", {"E24"},
               Status::kPassCorrected, CheckCommunication,
               "the server broadcasts Sign(Σ W̃) (a majority vote) instead of the sum"});
  c.push_back({"004/Def2/expectation-measure", seed, "D_α = (1/(α−1)) log E[(M(X)/M(X′))^α] gives Lemma 3's ρ_γ(α)",
               "spec 004 §2 Definition 2, §4.3", {"E1"}, Status::kPassCorrected, CheckDef2Measure,
               "the corrected expectation taken over the counting measure (Σ_y (P/Q)^α) instead of under Q"});
  c.push_back({"004/Alg1/line12-aggregate", seed, "the aggregate Σ_i W^{b,i} released at line 12 is (ε, δ)-DP under Theorem 1",
               "spec 004 §3.1, §4.4, §7.3 item 9", {"E8"}, Status::kPassCorrected, CheckLine12Aggregate,
               "client 1's report left un-noised inside the otherwise noised aggregate"});
  c.push_back({"004/Alg1/binarizer", seed, "Theorem 1's per-coordinate bound holds whether the upload uses StoSign or Sign",
               "spec 004 §1.2, §3.2 Alg. B, §4.3", {"E13"}, Status::kPass, CheckBinarizer,
               "the bound S(α, 9γ/10) in place of Lemma 3's S(α, γ)"});
  c.push_back({"004/AlgB/clip-order", seed, "binarizing before the clip (Alg. 1 lines 7–8) uploads the same law as after it",
               "spec 004 §3.2 Alg. B, §7.3 item 4", {"E14"}, Status::kPass, CheckClipOrder,
               "StoSign's hard sigmoid without its clip to [0, 1]"});
  c.push_back({"004/Def3/pm1-gamma0", seed, "RR on ±1 weights and at γ = 0 is Definition 3 extended (γ = 0: uniform bits)",
               "spec 004 §2 Definition 3, §7.3 item 18", {"E16"}, Status::kPass, CheckDef3Pm1,
               "γ read as the flip probability (keep 1 − γ)"});
  c.push_back({"004/Alg1/sign-zero", seed, "RR_γ(Sign(θ)) is ℓ-DP per coordinate for every latent θ, θ = 0 included",
               "spec 004 §1.2, §3.2 Alg. B", {"E17"}, Status::kPassCorrected, CheckSignZero,
               "Sign(0) = +1 but a tie uploaded without its RR coin"});
  c.push_back({"004/5.2/architecture-dims", seed, "the model (two 3×3 convs of 16, FC 784 and 100) has d = 81,848 binary weights",
               "spec 004 §5.2, §5.4", {"E22"}, Status::kPassCorrected, CheckArchitecture,
               "5×5 kernels for the printed 3×3"});
  c.push_back({"004/eq3/fedavg-weights", seed, "eq. (3)'s synchronisation every τ steps is a gradient step on objective (2)",
               "spec 004 §1.1 eqs. (2)–(3)", {"E25"}, Status::kPassCorrected, CheckFedAvgWeights,
               "the corrected weights D_i²/Σ D_j² instead of D_i/Σ D_j"});
  c.push_back({"004/AlgC/flip-parameter", seed, "RR_γ flips with probability 1/2 − γ: the code's dp_flip = 0.4 is γ = 0.1",
               "spec 004 §3.2 Alg. C, §5.5", {"E27"}, Status::kPass, CheckFlipParameter,
               "dp_flip read as γ itself"});
  c.push_back({"004/Alg1/unnoised-params", seed, "every uploaded scalar passes through RR (all weights binary)",
               "spec 004 §1.2, §7.3 item 19", {"E28"}, Status::kPassCorrected, CheckUnnoisedParams,
               "the model without BatchNorm (the paper's layer list), so nothing is uploaded outside RR"});
  c.push_back({"004/AlgC/per-coordinate", seed, "the RR of a weight tensor is per coordinate (Definition 3)",
               "spec 004 §2 Definition 3, §3.2 Alg. C", {"E29"}, Status::kPassCorrected, CheckPerCoordinate,
               "only neighbours that differ in every coordinate (the pairs with 0 < h < d removed)"});
}

}  // namespace dpfl::proofs
