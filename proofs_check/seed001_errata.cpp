// dpfl-proofs — seed 001 (CoQ-FL / LDP-FedCR draft): claims for errata that no other claim
// evaluates (the errata registry's pending list, errata_registry.cpp), each evaluating the printed
// and the corrected form from Eq. (2)'s law, exactly.
#include <algorithm>
#include <string>
#include <vector>

#include "claims.hpp"
#include "dpfl/ref/ldpq.hpp"
#include "instances.hpp"

namespace dpfl::proofs {
namespace {

// E12: Eq. (2) / Alg. 1–2 as printed do not clip the input. For |w − c| = ρr with ρ > 1 the
// probability P(w) = 1/2 + (w − c)/(2rα) either leaves [0, 1] (ρ > α) or gives the worst ratio
// (α + ρ)/(α − ρ) > e^ε between inputs c ± ρr; clipped to [c − r, c + r] first, the worst ratio is
// exactly e^ε. Both outputs' ratios are computed from the probabilities. Flip: the printed side's
// inputs kept inside the range (ρ ∈ (0, 1]), where the unclipped mechanism is ε-LDP.
Verdict CheckNoClipping(const CheckOptions& o) {
  Search printed, corrected;
  const int steps = o.quick ? 8 : 32;
  for (const Rational& E : {Q(3, 2), Q(2), Q(3), Q(5)})
    for (const Rational& c : {Q(0), Q(1, 3)})
      for (const Rational& r : {Q(1), Q(3, 4)}) {
        const Rational alpha = ref::AlphaFromE(E);
        for (int k = 1; k <= steps; ++k) {
          const Rational rho = o.flip ? Q(k, steps) : Rational(1 + (alpha + 1) * Q(k, steps));  // (1, α + 2]
          auto worst = [&](const Rational& hi_w, const Rational& lo_w, std::string& why) {
            const Rational p_hi = ref::LdpqProbPlus(alpha, c, r, hi_w), p_lo = ref::LdpqProbPlus(alpha, c, r, lo_w);
            if (p_hi < 0 || p_hi > 1 || p_lo < 0 || p_lo > 1) {
              why = "P(+) = " + S(p_hi) + " or " + S(p_lo) + " outside [0, 1]";
              return false;
            }
            // Both outputs: "+" (p_hi/p_lo) and "−" ((1 − p_lo)/(1 − p_hi)); a zero denominator is +∞.
            if (p_lo == 0 || p_hi == 1) {
              why = "an output possible under one input has probability 0 under the other";
              return false;
            }
            const Rational ratio = std::max(Rational(p_hi / p_lo), Rational((1 - p_lo) / (1 - p_hi)));
            why = "worst ratio " + S(ratio) + " against e^ε = " + S(E);
            return ratio <= E;
          };
          const std::string where = "E=" + S(E) + " c=" + S(c) + " r=" + S(r) + " |w − c| = " + S(rho) + "·r: ";
          std::string why;
          printed.Count();
          if (!worst(c + rho * r, c - rho * r, why)) printed.Violation(where + why);
          corrected.Count();  // clipped to c ± r: the ratio must be exactly e^ε
          const bool ok = worst(c + r, c - r, why);
          const Rational p_hi = ref::LdpqProbPlus(alpha, c, r, c + r), p_lo = ref::LdpqProbPlus(alpha, c, r, c - r);
          if (!ok || p_hi / p_lo != E) corrected.Violation(where + "after clipping, " + why);
        }
      }
  return CompareVariants(printed, corrected, "Eq. (2)'s worst likelihood ratio between inputs c ± ρr, ρ ∈ (1, α + 2]: "
                                             "unclipped (printed) against clipped to [c − r, c + r] (corrected: "
                                             "exactly e^ε)");
}

// E19: §1 claims user-level ε-DP from applying Eq. (2) to every parameter. A client's k
// parameters over T rounds are k·T independent releases; the exact worst likelihood ratio over
// inputs on the grid {c − r, c, c + r}^{kT} and every output vector (enumerated) is e^{kTε}: the
// printed ε fails for kT ≥ 2, basic composition kTε is exact. Flip: the composed bound with the
// exponent kT − 1.
Verdict CheckUserLevel(const CheckOptions& o) {
  Search printed, corrected;
  const int kt_max = o.quick ? 3 : 4;
  for (const Rational& E : {Q(3, 2), Q(2), Q(3), Q(5)})
    for (int kt = 1; kt <= kt_max; ++kt) {
      const Rational c(0), r(1);
      const std::vector<Rational> grid = {c - r, c, c + r};
      long inputs = 1;
      for (int i = 0; i < kt; ++i) inputs *= 3;
      std::vector<Rational> q_plus;  // P(+) at each grid input, from Eq. (2)'s law
      for (const Rational& w : grid) q_plus.push_back(ref::Ldpq(E, c, r, w).q_plus);
      auto law = [&](long code, int i) {  // P(+) of release i under input vector `code`
        for (int j = 0; j < i; ++j) code /= 3;
        return q_plus[static_cast<std::size_t>(code % 3)];
      };
      Rational worst = 0;
      for (long a = 0; a < inputs; ++a)
        for (long b = 0; b < inputs; ++b)
          for (long out = 0; out < (1L << kt); ++out) {
            Rational ratio = 1;
            for (int i = 0; i < kt; ++i) {
              const Rational pa = law(a, i), pb = law(b, i);
              ratio *= (out >> i & 1) ? pa / pb : (1 - pa) / (1 - pb);
            }
            worst = std::max(worst, ratio);
          }
      Rational composed = 1;
      for (int i = 0; i < (o.flip ? kt - 1 : kt); ++i) composed *= E;
      const std::string where = "E=" + S(E) + " k·T=" + std::to_string(kt) + ": worst ratio " + S(worst);
      printed.Count();
      if (worst > E) printed.Violation(where + " > e^ε = " + S(E));
      corrected.Count();
      if (worst != composed) corrected.Violation(where + " ≠ e^{kTε} = " + S(composed));
    }
  return CompareVariants(printed, corrected, "exact worst likelihood ratio of one client's k·T releases (inputs on "
                                             "{c − r, c, c + r}, every output vector): e^ε (printed user-level ε-DP) "
                                             "against e^{kTε} (corrected: basic composition, exact here)");
}

}  // namespace

void AddSeed001ErrataClaims(Catalog& c) {
  const std::string seed = "001";
  c.push_back({"001/Alg2/no-clipping", seed, "Eq. (2) (Alg. 1–2, no clipping) is ε-LDP for any input weight",
               "spec 001 §3.1, §4.2", {"E12"}, Status::kPassCorrected, CheckNoClipping,
               "the printed side's inputs kept inside [c − r, c + r] (ρ ∈ (0, 1])"});
  c.push_back({"001/LDP-FL/user-level-dp", seed, "Eq. (2) applied to a client's parameters gives user-level ε-DP",
               "spec 001 §1, §4.2", {"E19"}, Status::kPassCorrected, CheckUserLevel,
               "basic composition e^{kTε} replaced by e^{(kT−1)ε}"});
}

}  // namespace dpfl::proofs
