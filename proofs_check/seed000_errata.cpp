// dpfl-proofs — seed 000 (CorBin-FL): claims for errata that no other claim evaluates (the
// errata registry's pending list, errata_registry.cpp). Each check evaluates the printed form and
// the corrected one from the definitions (LDPQ's law enumerated, Alg. 1's levels, C2's ratio), so
// either side could fail.
#include <string>
#include <vector>

#include "claims.hpp"
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
}

}  // namespace dpfl::proofs
