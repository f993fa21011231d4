// dpfl-proofs — seed 000 (CorBin-FL): claims for errata that no other claim evaluates (the
// errata registry's pending list, errata_registry.cpp). Each check evaluates the printed form and
// the corrected one from the definitions (LDPQ's law enumerated, Alg. 1's levels, C2's ratio), so
// either side could fail.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "claims.hpp"
#include "dpfl/ref/corbin_fl.hpp"
#include "dpfl/ref/corbinq.hpp"
#include "dpfl/ref/enclosure.hpp"
#include "dpfl/ref/ldpq.hpp"
#include "instances.hpp"

namespace dpfl::proofs {
namespace {

const std::vector<Rational>& Es() {
  static const std::vector<Rational> e = {Q(11, 10), Q(3, 2), Q(2), Q(3), Q(5), Q(20), Q(1000000)};
  return e;
}

// E1: §II-C prints α(ε) = (1 + e^ε)/(1 − e^ε). Alg. 1 needs α > 1: its levels c ± rα must enclose
// [c − r, c + r] (else P(+) = 1/2 + (w − c)/(2rα) leaves [0, 1] or the "+" level is the lower one)
// and Thm 2's bound r²(α² + 2α − 1)/(2n) must be a positive MSE. Both forms are evaluated.
Verdict CheckAlphaSign(const CheckOptions& o) {
  Search printed, corrected;
  for (const Rational& E : Es())
    for (bool as_printed : {true, false}) {
      Search& s = as_printed ? printed : corrected;
      s.Count();
      // Flip: the corrected side also uses the printed sign.
      const Rational a = as_printed || o.flip ? ref::AlphaFromEAsPrinted(E) : ref::AlphaFromE(E);
      const Rational r(1), c(0), n(10);
      const Rational bound = r * r * (a * a + 2 * a - 1) / (2 * n);
      // q at the top of the range: the "+" level's probability there must be in [0, 1] and the
      // "+" level above c + r.
      const Rational q_top = Rational(1, 2) + r / (2 * r * a);
      if (!(a > 1) || c + r * a <= c + r || q_top < 0 || q_top > 1 || !(bound > 0))
        s.Violation("E=" + S(E) + ": α = " + S(a) + ", level c + rα = " + S(Rational(c + r * a)) + " (c = 0, r = 1), " +
                    "Thm 2's r²(α²+2α−1)/(2n) at n = 10: " + S(bound));
    }
  return CompareVariants(printed, corrected, "α > 1, the \"+\" level above c + r with P(+) ∈ [0, 1], and Thm 2's bound "
                                             "positive, for E ∈ {11/10, …, 10^6}");
}

// E2: Alg. 1 draws U = ±1 with P(U = 1) = q(w) = 1/2 + (w − c)/(2rα); the paper states
// E U = w/(2rα), the law gives 2q − 1 = (w − c)/(rα) (and then c + rα·E U = w, unbiasedness).
Verdict CheckMeanOfU(const CheckOptions& o) {
  Search printed, corrected;
  const int K = o.quick ? 4 : 12;
  for (const Rational& E : {Q(3, 2), Q(2), Q(3), Q(5)})
    for (const Rational& c : {Q(-1, 3), Q(0), Q(1, 3)})
      for (const Rational& r : {Q(1), Q(3, 4)})
        for (int i = 0; i <= K; ++i) {
          const Rational w = c - r + 2 * r * Q(i, K);
          const ref::LdpqLaw<Rational> law = ref::Ldpq(E, c, r, w);
          const Rational eu = law.q_plus - law.q_minus;  // E U from the law
          const Rational ra = r * law.alpha;
          printed.Count();
          if (eu != w / (2 * ra))
            printed.Violation("E=" + S(E) + " c=" + S(c) + " r=" + S(r) + " w=" + S(w) + ": E U = " + S(eu) +
                              ", printed w/(2rα) = " + S(Rational(w / (2 * ra))));
          corrected.Count();
          // Flip: the corrected mean (w − c)/(rα) replaced by the printed w/(2rα).
          const Rational eu_formula = o.flip ? Rational(w / (2 * ra)) : Rational((w - c) / ra);
          if (eu != eu_formula || c + ra * eu != w)
            corrected.Violation("E=" + S(E) + " c=" + S(c) + " w=" + S(w) + ": E U = " + S(eu));
        }
  return CompareVariants(printed, corrected, "E U from Alg. 1's law against w/(2rα) (printed) and (w − c)/(rα) with "
                                             "c + rα·E U = w (corrected)");
}

// E5: eq. (13) derives C2's constraint on the upper level γ2 from (γ2 − c − r)/(γ2 − c + r) ≤ e^ε
// (inverted: always < 1) and concludes γ2 ≥ c + r − 2rE/(E − 1) (= c − rα). The worst-case ratio
// of C2 is (γ2 − c + r)/(γ2 − c − r) ≤ E, i.e. γ2 ≥ c + rα. For γ2 on a grid above c + r: the
// printed condition must reject every γ2 whose true ratio exceeds E, and the corrected threshold
// must be exactly where the true ratio crosses E.
Verdict CheckEq13(const CheckOptions& o) {
  Search printed, corrected;
  bool threshold_is_lower_level = true;  // c + r − 2rE/(E − 1) = c − rα on every instance
  const int K = o.quick ? 8 : 40;
  for (const Rational& E : {Q(3, 2), Q(2), Q(3), Q(5)})
    for (const Rational& c : {Q(0), Q(1, 3)})
      for (const Rational& r : {Q(1), Q(3, 4)}) {
        const Rational alpha = ref::AlphaFromE(E);
        const Rational printed_threshold = c + r - 2 * r * E / (E - 1);
        threshold_is_lower_level = threshold_is_lower_level && printed_threshold == c - r * alpha;
        for (int i = 1; i <= K; ++i) {
          const Rational g2 = c + r + 4 * r * alpha * Q(i, K);  // (c + r, c + r + 4rα]
          const Rational ratio = (g2 - c + r) / (g2 - c - r);
          const bool c2_holds = ratio <= E;
          printed.Count();
          const bool printed_accepts = (g2 - c - r) / (g2 - c + r) <= E && g2 >= printed_threshold;
          if (printed_accepts != c2_holds)
            printed.Violation("E=" + S(E) + " c=" + S(c) + " r=" + S(r) + " γ2=" + S(g2) +
                              ": printed (13) accepts it, but C2's ratio (γ2−c+r)/(γ2−c−r) = " + S(ratio) + " > E");
          corrected.Count();
          // Flip: the corrected threshold c + rα replaced by the printed c + r − 2rE/(E − 1).
          if ((g2 >= (o.flip ? printed_threshold : Rational(c + r * alpha))) != c2_holds)
            corrected.Violation("E=" + S(E) + " γ2=" + S(g2) + ": γ2 ≥ c + rα disagrees with C2");
        }
      }
  return CompareVariants(printed, corrected,
                         std::string("C2's upper-level constraint from the true worst-case ratio against printed (13) "
                                     "and γ2 ≥ c + rα; the printed threshold equals c − rα (the lower level) on every "
                                     "instance: ") + (threshold_is_lower_level ? "yes" : "no"));
}

// E45: §II-C measures LDP-FL's error against the broadcast w_g and states ≈ r²α²/n. With n clients
// each sending LDPQ(w_i), the product law enumerated exactly gives
// E(W̄ − (1/n)Σ w_i)² = (1/n²)Σ (r²α² − (w_i − c)²) ≤ r²α²/n; against w_g = c the error adds
// ((1/n)Σ w_i − c)², which exceeds r²α²/n for populations far from the centre.
Verdict CheckLdpFlMse(const CheckOptions& o) {
  Search printed, corrected;
  const int n_max = o.quick ? 4 : 6;
  for (const Rational& E : {Q(3, 2), Q(3), Q(20)})
    for (int n = 1; n <= n_max; ++n)
      for (int shape = 0; shape < 4; ++shape) {
        const Rational c(0), r(1);
        std::vector<Rational> w(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i)  // all at the top, spread, alternating, one outlier
          w[static_cast<std::size_t>(i)] = shape == 0 ? r : shape == 1 ? c - r + 2 * r * Q(i, std::max(1, n - 1))
                                          : shape == 2 ? (i % 2 ? r : -r / 2) : (i == 0 ? -r : Q(1, 5));
        const Rational alpha = ref::AlphaFromE(E), ra = r * alpha;
        Rational mean_w = 0, formula = 0;
        for (const Rational& x : w) {
          mean_w += x / n;
          // Flip: the sign of the (w_i − c)² term reversed.
          formula += (ra * ra + (o.flip ? 1 : -1) * (x - c) * (x - c)) / (Rational(n) * n);
        }
        Rational mse_mean = 0, mse_wg = 0;
        for (long bits = 0; bits < (1L << n); ++bits) {  // every outcome of the n quantizers
          Rational p = 1, avg = 0;
          for (int i = 0; i < n; ++i) {
            const ref::LdpqLaw<Rational> law = ref::Ldpq(E, c, r, w[static_cast<std::size_t>(i)]);
            const bool plus = bits >> i & 1;
            p *= plus ? law.q_plus : law.q_minus;
            avg += (plus ? law.level_plus : law.level_minus) / n;
          }
          mse_mean += p * (avg - mean_w) * (avg - mean_w);
          mse_wg += p * (avg - c) * (avg - c);
        }
        const Rational target = ra * ra / n;
        const std::string where = "E=" + S(E) + " n=" + std::to_string(n) + " shape " + std::to_string(shape);
        printed.Count();
        if (mse_wg > target)
          printed.Violation(where + ": E(W̄ − w_g)² = " + S(mse_wg) + " > r²α²/n = " + S(target));
        corrected.Count();
        if (mse_mean != formula || mse_mean > target)
          corrected.Violation(where + ": E(W̄ − mean)² = " + S(mse_mean) + ", formula " + S(formula));
      }
  return CompareVariants(printed, corrected, "LDP-FL's exact MSE from the enumerated product law, against the broadcast "
                                             "w_g = c (printed) and against the clients' mean (corrected: equals "
                                             "(1/n²)Σ(r²α² − (w_i − c)²) ≤ r²α²/n)");
}

// E4: Theorem 1 states C4–C5 "for all w, w' ∈ [r − c, r + c]" (spec 000 §4.2); the quantizers
// need w ∈ [c − r, c + r] (footnote 2: inputs are clipped there). On each domain (c ≥ 0, so it is
// an interval), Alg. 1/2's q(w) = 1/2 + (w − c)/(2rα) must be a probability at every grid point and
// C5's worst ratio over the domain, max q/min q and max (1−q)/min (1−q), at most E.
Verdict CheckThm1Domain(const CheckOptions& o) {
  Search printed, corrected;
  const int K = o.quick ? 8 : 32;
  for (const Rational& E : {Q(3, 2), Q(2), Q(3), Q(5)})
    for (const Rational& c : {Q(1, 2), Q(3, 2), Q(2), Q(5)})
      for (const Rational& r : {Q(1), Q(1, 2)})
        for (bool as_printed : {true, false}) {
          Search& s = as_printed ? printed : corrected;
          s.Count();
          const Rational alpha = ref::AlphaFromE(E);
          // Flip: the corrected side also uses the printed domain.
          const bool printed_domain = as_printed || o.flip;
          const Rational lo = printed_domain ? Rational(r - c) : Rational(c - r);
          const Rational hi = printed_domain ? Rational(r + c) : Rational(c + r);
          const std::string where = "E=" + S(E) + " c=" + S(c) + " r=" + S(r) + " domain [" + S(lo) + ", " + S(hi) + "]";
          Rational q_min(2), q_max(-1);
          std::string bad;
          for (int k = 0; k <= K; ++k) {
            const Rational w = lo + (hi - lo) * Q(k, K);
            const Rational q = Q(1, 2) + (w - c) / (2 * r * alpha);
            if ((q < 0 || q > 1) && bad.empty()) bad = "q(" + S(w) + ") = " + S(q) + " is not a probability";
            q_min = std::min(q_min, q);
            q_max = std::max(q_max, q);
          }
          if (!bad.empty()) {
            s.Violation(where + ": " + bad + " (Alg. 1/2 undefined)");
          } else if (q_min == 0 || q_max == 1 || q_max > E * q_min || 1 - q_min > E * (1 - q_max)) {
            s.Violation(where + ": C5's worst ratio exceeds E (q ∈ [" + S(q_min) + ", " + S(q_max) + "])");
          }
        }
  return CompareVariants(printed, corrected, "q(w) ∈ [0, 1] and C5's worst ratio ≤ E over the printed domain [r − c, "
                                             "r + c] and over [c − r, c + r], c ∈ {1/2, 3/2, 2, 5}");
}

// Joints on a common alphabet {γ1 < γ2} with P(Q1 = γ1) = a, P(Q2 = γ1) = b: P[i][j] =
// P(Q1 = γ_i, Q2 = γ_j), index 0 for γ1, 1 for γ2 (spec 000 §4.2, P*_{1,1} … P*_{2,2}).
struct Joint {
  Rational P[2][2];
};
std::vector<Joint> JointsWithMarginals(const Rational& a, const Rational& b) {
  std::vector<Joint> out;
  for (const Rational& p11 : {std::max(Rational(0), Rational(a + b - 1)), std::min(a, b), Rational(a * b)}) {
    Joint j;
    j.P[0][0] = p11;           // countermonotone (Fréchet lower), comonotone, independent
    j.P[0][1] = a - p11;
    j.P[1][0] = b - p11;
    j.P[1][1] = 1 - a - b + p11;
    out.push_back(j);
  }
  return out;
}

// Pairs in Q for the proof of Thm 1: for each (E, c, r, w, w') the symmetric alphabet {c ± rα}
// and E12's asymmetric one (γ̃1 = −rα + min(S, 0), γ̃2 = rα + max(S, 0): C4–C5 hold, spec 000
// E12), each with the three joints above; plus CorBinQ's own joints (d ∈ {0, 2, 5}).
template <class Fn>
void ForEachQPair(const CheckOptions& o, Fn&& fn) {
  const int K = o.quick ? 4 : 8;
  for (const Rational& E : {Q(3, 2), Q(2), Q(3), Q(5)})
    for (const Rational& c : {Q(0), Q(1, 3)})
      for (const Rational& r : {Q(1), Q(3, 4)})
        for (int i = 0; i <= K; ++i)
          for (int k = 0; k <= K; ++k) {
            const Rational w = c - r + 2 * r * Q(i, K), w2 = c - r + 2 * r * Q(k, K);
            const Rational alpha = ref::AlphaFromE(E);
            const ref::E12Construction e12 = ref::BuildE12(E, c, r, w, w2);
            for (bool asym : {false, true}) {
              const Rational g1 = asym ? e12.gamma1 : Rational(c - r * alpha);
              const Rational g2 = asym ? e12.gamma2 : Rational(c + r * alpha);
              const Rational a = (g2 - w) / (g2 - g1), b = (g2 - w2) / (g2 - g1);
              for (const Joint& j : JointsWithMarginals(a, b)) fn(E, c, r, g1, g2, j);
            }
            for (int d : {0, 2, 5}) {
              const auto res = ref::EvaluateCorBinQ(E, c, r, w, w2, d, ref::Line14::kCorrected);
              Joint j;
              j.P[0][0] = res.joint.mm;
              j.P[0][1] = res.joint.mp;
              j.P[1][0] = res.joint.pm;
              j.P[1][1] = res.joint.pp;
              fn(E, c, r, Rational(c - r * alpha), Rational(c + r * alpha), j);
            }
          }
}

// E7: eqs. (15)–(16) write E[(Q1* − c)²] = (P11 + P21)γ̃1² + (P12 + P22)γ̃2² (the marginal of
// Q2); the second moment of Q1* enumerated over the joint needs (P11 + P12)γ̃1² + (P21 + P22)γ̃2².
// The error is invisible when γ̃1² = γ̃2² (the alphabet {c ± rα}); E12's asymmetric pairs show it.
Verdict CheckEq1516(const CheckOptions& o) {
  Search printed, corrected;
  ForEachQPair(o, [&](const Rational& E, const Rational& c, const Rational& r, const Rational& g1, const Rational& g2,
                      const Joint& j) {
    const Rational t[2] = {g1 - c, g2 - c};
    Rational second(0);  // E[(Q1* − c)²] over the four cells
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b) second += j.P[a][b] * t[a] * t[a];
    const Rational as_printed = (j.P[0][0] + j.P[1][0]) * t[0] * t[0] + (j.P[0][1] + j.P[1][1]) * t[1] * t[1];
    // Flip: the corrected formula replaced by the printed one.
    const Rational fixed = o.flip ? as_printed
                                  : Rational((j.P[0][0] + j.P[0][1]) * t[0] * t[0] + (j.P[1][0] + j.P[1][1]) * t[1] * t[1]);
    const std::string where = "E=" + S(E) + " c=" + S(c) + " r=" + S(r) + " alphabet {" + S(g1) + ", " + S(g2) +
                              "} joint (P11, P12, P21, P22) = (" + S(j.P[0][0]) + ", " + S(j.P[0][1]) + ", " +
                              S(j.P[1][0]) + ", " + S(j.P[1][1]) + ")";
    printed.Count();
    if (as_printed != second) printed.Violation(where + ": printed (15) = " + S(as_printed) + " vs E[(Q1*−c)²] = " + S(second));
    corrected.Count();
    if (fixed != second) corrected.Violation(where + ": " + S(fixed) + " vs " + S(second));
  });
  return CompareVariants(printed, corrected, "E[(Q1* − c)²] enumerated over the joint vs printed (15) and the marginal "
                                             "of Q1*, on symmetric and E12 alphabets with three joints each and "
                                             "CorBinQ's joints");
}

// E8: eq. (17) writes the objective E[(Q1* + Q2* − 2c)²] as 4γ̃1²P11 + 4γ̃2²P22 +
// (γ̃1γ̃2)²(P12 + P21); the enumerated second moment needs (γ̃1 + γ̃2)² on the mixed cells.
Verdict CheckEq17(const CheckOptions& o) {
  Search printed, corrected;
  ForEachQPair(o, [&](const Rational& E, const Rational& c, const Rational& r, const Rational& g1, const Rational& g2,
                      const Joint& j) {
    const Rational t[2] = {g1 - c, g2 - c};
    Rational second(0);
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b) second += j.P[a][b] * (t[a] + t[b]) * (t[a] + t[b]);
    const Rational mixed = j.P[0][1] + j.P[1][0];
    const Rational ends = 4 * t[0] * t[0] * j.P[0][0] + 4 * t[1] * t[1] * j.P[1][1];
    const Rational as_printed = ends + t[0] * t[1] * t[0] * t[1] * mixed;
    // Flip: the mixed cells' (γ̃1 + γ̃2)² replaced by (γ̃1 − γ̃2)².
    const Rational mix = o.flip ? Rational(t[0] - t[1]) : Rational(t[0] + t[1]);
    const Rational fixed = ends + mix * mix * mixed;
    const std::string where = "E=" + S(E) + " c=" + S(c) + " r=" + S(r) + " alphabet {" + S(g1) + ", " + S(g2) +
                              "} joint (P11, P12, P21, P22) = (" + S(j.P[0][0]) + ", " + S(j.P[0][1]) + ", " +
                              S(j.P[1][0]) + ", " + S(j.P[1][1]) + ")";
    printed.Count();
    if (as_printed != second) printed.Violation(where + ": printed (17) = " + S(as_printed) + " vs E[(Q1*+Q2*−2c)²] = " + S(second));
    corrected.Count();
    if (fixed != second) corrected.Violation(where + ": " + S(fixed) + " vs " + S(second));
  });
  return CompareVariants(printed, corrected, "E[(Q1* + Q2* − 2c)²] enumerated over the joint vs printed (17) and the "
                                             "form with (γ̃1 + γ̃2)² (E8)");
}

// E19: Thm 3's proof displays M_b = f(D1) + (Z − Np)s as (W̄1 + B)/(rα) − nγ(1 − 1/α) + 1 −
// 3c/(2rα), with f(D1) = (W̄1 − c)/(rα), Z = 1/2 + (B − c)/(2rα), N = nγ − 1, p = 1/2 − 1/(2α),
// s = 2 (spec 000 §4.4). The expansion gives −(nγ − 1)(1 − 1/α) + 1 − 2c/(rα). Evaluated on every
// output of client 1 and of the N_b other LDP-FL clients (W̄_i ∈ {c ± rα}).
Verdict CheckMbConstants(const CheckOptions& o) {
  Search printed, corrected;
  for (const Rational& E : {Q(3, 2), Q(2), Q(3), Q(5)})
    for (const Rational& c : {Q(0), Q(1, 3), Q(-2)})
      for (const Rational& r : {Q(1), Q(1, 2)})
        for (long n_gamma : {2L, 3L, 5L}) {  // nγ (n = 10)
          const Rational alpha = ref::AlphaFromE(E), ra = r * alpha;
          const long nb = n_gamma - 1;
          // Flip: the expansion with N = nγ (the printed display's count) instead of nγ − 1.
          const Rational N = o.flip ? Rational(n_gamma) : Rational(nb), p = Q(1, 2) - 1 / (2 * alpha);
          for (long bits = 0; bits < (1L << (nb + 1)); ++bits) {
            const Rational w1 = (bits & 1) ? Rational(c + ra) : Rational(c - ra);
            Rational B(0);
            for (long i = 1; i <= nb; ++i) B += ((bits >> i) & 1) ? Rational(c + ra) : Rational(c - ra);
            const Rational f = (w1 - c) / ra, Z = Q(1, 2) + (B - c) / (2 * ra);
            const Rational literal = f + (Z - N * p) * 2;
            const Rational as_printed = (w1 + B) / ra - n_gamma * (1 - 1 / alpha) + 1 - 3 * c / (2 * ra);
            const Rational fixed = (w1 + B) / ra - nb * (1 - 1 / alpha) + 1 - 2 * c / ra;
            const std::string where = "E=" + S(E) + " c=" + S(c) + " r=" + S(r) + " nγ=" + std::to_string(n_gamma) +
                                      " W̄1=" + S(w1) + " B=" + S(B);
            printed.Count();
            if (as_printed != literal) printed.Violation(where + ": printed display " + S(as_printed) + " ≠ f + (Z − Np)s = " + S(literal));
            corrected.Count();
            if (fixed != literal) corrected.Violation(where + ": " + S(fixed) + " ≠ " + S(literal));
          }
        }
  return CompareVariants(printed, corrected, "M_b = f(D1) + (Z − Np)s expanded literally vs the printed display and "
                                             "−(nγ−1)(1−1/α) + 1 − 2c/(rα) (E19; affine post-processing, irrelevant to DP)");
}

// E43: Alg. 3 line 2 draws a uniform pairing of [n] (p_{p_i} = i, p_i ≠ i) for the n clients; the
// paper never requires n even. Pairings enumerated by brute force (fixed-point-free involutions of
// [n], n ≤ 10): none exists for odd n; for even n the count must be (n − 1)!!, computed as a product.
long CountPairings(int n, bool allow_self) {
  std::vector<int> partner(static_cast<std::size_t>(n), -1);
  long count = 0;
  std::function<void()> rec = [&] {
    int i = 0;
    while (i < n && partner[static_cast<std::size_t>(i)] >= 0) ++i;
    if (i == n) {
      ++count;
      return;
    }
    for (int j = allow_self ? i : i + 1; j < n; ++j) {
      if (partner[static_cast<std::size_t>(j)] >= 0) continue;
      partner[static_cast<std::size_t>(i)] = j;
      partner[static_cast<std::size_t>(j)] = i;
      rec();
      partner[static_cast<std::size_t>(i)] = -1;
      partner[static_cast<std::size_t>(j)] = -1;
    }
  };
  rec();
  return count;
}

Verdict CheckPairingExists(const CheckOptions& o) {
  Search printed, corrected;
  for (int n = 1; n <= (o.quick ? 8 : 10); ++n) {
    // Flip: the enumeration also admits a client paired with itself (p_i = i).
    const long count = CountPairings(n, o.flip);
    printed.Count();
    if (count == 0) printed.Violation("n=" + std::to_string(n) + ": no pairing of [n] exists (enumerated), so Alg. 3 line 2 "
                                      "cannot run");
    if (n % 2 == 0) {
      long double_factorial = 1;
      for (int k = n - 1; k > 1; k -= 2) double_factorial *= k;
      corrected.Count();
      if (count != double_factorial)
        corrected.Violation("n=" + std::to_string(n) + ": " + std::to_string(count) + " pairings, (n−1)!! = " +
                            std::to_string(double_factorial));
    }
  }
  // AugCorBin-FL's integrality at the paper's settings (§5: n = 50, γ = 0.2): γn ∈ ℕ, (1 − γ)n even, nγ > 1.
  const Rational gn = Q(50) * Q(1, 5);
  corrected.Count();
  if (!(ref::IsInteger(gn) && gn > 1 && ref::IsInteger(Rational((50 - gn) / 2))))
    corrected.Violation("n=50 γ=1/5: AugCorBin-FL's integrality fails");
  return CompareVariants(printed, corrected, "pairings of [n] enumerated (n ≤ 10) for Alg. 3 as printed (every n) and "
                                             "corrected (n even: (n−1)!! pairings; E43); Exp. 1's n = 50, γ = 1/5 "
                                             "satisfy γn ∈ ℕ, (1−γ)n even, nγ > 1");
}

}  // namespace

void AddSeed000ErrataClaims(Catalog& c) {
  const std::string seed = "000";
  c.push_back({"000/R1/alpha-sign", seed, "α(ε) = (1 + e^ε)/(1 − e^ε) is LDPQ's scale (§II-C)", "spec 000 §2, R1",
               {"E1"}, Status::kPassCorrected, CheckAlphaSign,
               "the corrected side uses the printed α = (1 + e^ε)/(1 − e^ε)"});
  c.push_back({"000/Alg1/mean-of-U", seed, "E U = w/(2rα) for Alg. 1's U (Line 4)", "spec 000 §3.1", {"E2"},
               Status::kPassCorrected, CheckMeanOfU,
               "the corrected mean (w − c)/(rα) replaced by the printed w/(2rα)"});
  c.push_back({"000/Thm1/eq13", seed, "(γ2 − c − r)/(γ2 − c + r) ≤ e^ε ⇒ γ2 ≥ c + r − 2rE/(E − 1) is C2's constraint",
               "spec 000 §4.2 (proof of Thm 1)", {"E5"}, Status::kPassCorrected, CheckEq13,
               "the corrected threshold c + rα replaced by the printed c + r − 2rE/(E − 1)"});
  c.push_back({"000/LDPFL/exact-mse", seed, "LDP-FL's aggregate error E(W̄_g − w_g)² ≈ r²α²/n (§II-C)",
               "spec 000 §2, R2", {"E45"}, Status::kPassCorrected, CheckLdpFlMse,
               "the exact formula's −(w_i − c)² replaced by +(w_i − c)²"});
  c.push_back({"000/Thm1/domain", seed, "C4–C5 hold for all w, w' ∈ [r − c, r + c] (Thm 1)", "spec 000 §4.2", {"E4"},
               Status::kPassCorrected, CheckThm1Domain, "the corrected side also uses the printed domain [r − c, r + c]"});
  c.push_back({"000/Thm1/eq15-16", seed, "E[(Q1* − c)²] = (P11 + P21)γ̃1² + (P12 + P22)γ̃2² (eqs. 15–16)",
               "spec 000 §4.2 (proof of Thm 1)", {"E7"}, Status::kPassCorrected, CheckEq1516,
               "the corrected formula replaced by the printed one"});
  c.push_back({"000/Thm1/eq17", seed, "E[(Q1* + Q2* − 2c)²] = 4γ̃1²P11 + 4γ̃2²P22 + (γ̃1γ̃2)²(P12 + P21) (eq. 17)",
               "spec 000 §4.2 (proof of Thm 1)", {"E8"}, Status::kPassCorrected, CheckEq17,
               "the mixed cells' (γ̃1 + γ̃2)² replaced by (γ̃1 − γ̃2)²"});
  c.push_back({"000/Thm3/Mb-constants", seed,
               "M_b = (W̄1 + B)/(rα) − nγ(1 − 1/α) + 1 − 3c/(2rα) (proof of Thm 3)", "spec 000 §4.4", {"E19"},
               Status::kPassCorrected, CheckMbConstants, "the literal expansion with N = nγ instead of nγ − 1"});
  c.push_back({"000/Alg3/pairing-exists", seed,
               "Alg. 3 line 2 draws a uniform pairing (p_{p_i} = i) of the n clients", "spec 000 §3.3", {"E43"},
               Status::kPassCorrected, CheckPairingExists, "the enumeration also admits a client paired with itself"});
}

}  // namespace dpfl::proofs
