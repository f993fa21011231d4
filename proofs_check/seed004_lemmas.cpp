// dpfl-proofs — seed 004 (DPFL-BNN): the paper's Definition 1 and Lemmas 1–2 (which the privacy
// proof of Theorem 1 rests on), the neighbouring notion of §II-C (E7), the aggregate law of
// spec §4.8 and the promised — absent — convergence guarantee (E18). Every law below is computed
// from the coins of the literal mechanism (enumerated), as exact rationals; an e^ε that is not
// rational is an MPFI enclosure and an inequality counts as violated only when it is certain.
#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "claims.hpp"
#include "printed_values.hpp"
#include "dpfl/ref/bnn_laws.hpp"
#include "dpfl/ref/enclosure.hpp"
#include "dpfl/ref/randomized_response.hpp"
#include "instances.hpp"
#include "seed004_shared.hpp"

namespace dpfl::proofs {
namespace {

using ref::Enclosure;
using ref::Interval;

// Prec, HockeyStick, SumLaw: seed004_shared.hpp; PowQ: instances.hpp.
using seed004::HockeyStick;
using seed004::Prec;
using seed004::SumLaw;

// Σ_y P(y)^α Q(y)^{1−α} for an integer α ≥ 2 (Definition 2 with the expectation under Q, E1):
// exact; every Q(y) > 0 where P(y) > 0 is required (else the divergence is infinite).
Rational RenyiSum(const std::vector<Rational>& P, const std::vector<Rational>& Qv, long alpha) {
  Rational sum(0);
  for (std::size_t y = 0; y < P.size(); ++y) {
    if (P[y] == 0) continue;
    if (Qv[y] == 0) throw std::runtime_error("Rényi sum: P not absolutely continuous w.r.t. Q");
    sum += PowQ(P[y], alpha) / PowQ(Qv[y], alpha - 1);
  }
  return sum;
}

// The law of RR_γ^⊗k (Def. 3, independent per coordinate) of the input bit vector `bits`
// (bit i of the mask: +1 if set), on outputs y ∈ {0..2^k − 1} (bit i set: output +1).
std::vector<Rational> RrProductLaw(const Rational& gamma, int k, unsigned bits) {
  const Rational p = Q(1, 2) + gamma, q = Q(1, 2) - gamma;
  std::vector<Rational> law(std::size_t{1} << k);
  for (unsigned y = 0; y < law.size(); ++y) {
    Rational pr(1);
    for (int i = 0; i < k; ++i) pr *= (((y >> i) & 1u) == ((bits >> i) & 1u)) ? p : q;
    law[y] = pr;
  }
  return law;
}

// ---- Definition 1: (ε, δ)-DP over all events ⇔ δ ≥ Σ_y [P(y) − e^ε Q(y)]_+ -------------------
// Every exact profile of this seed (§4.6) uses the right-hand side; Definition 1 quantifies over all
// measurable T. Both sides from the definitions: the supremum over every subset T of the output
// space (enumerated), and the positive-part sum, at rational e^ε so both are exact rationals.
Verdict CheckDef1HockeyStick(const CheckOptions& o) {
  Search s;
  auto compare = [&](const std::vector<Rational>& P, const std::vector<Rational>& Qv, const Rational& E,
                     const std::string& where) {
    s.Count();
    Rational sup(0);  // T = ∅ gives 0
    for (unsigned long T = 0; T < (1UL << P.size()); ++T) {
      Rational v(0);
      for (std::size_t y = 0; y < P.size(); ++y)
        if ((T >> y) & 1UL) v += P[y] - E * Qv[y];
      sup = ref::Max(sup, v);
    }
    Rational hockey(0);
    for (std::size_t y = 0; y < P.size(); ++y) {
      const Rational t = P[y] - E * Qv[y];
      // Flip: the positive part dropped (Σ_y P − e^ε Q = 1 − e^ε).
      hockey += o.flip ? t : ref::Max(Rational(0), t);
    }
    if (sup != hockey)
      s.Violation(where + ": sup_T [P(T) − e^ε Q(T)] = " + S(sup) + " ≠ Σ_y [P(y) − e^ε Q(y)]_+ = " + S(hockey));
  };
  // RR^⊗k for inputs at Hamming distance h (all 2^(2^k) events for k ≤ 3).
  for (const Rational& g : {Q(1, 10), Q(1, 4), Q(2, 5)})
    for (int k = 1; k <= 3; ++k)
      for (int h = 1; h <= k; ++h)
        for (const Rational& E : {Q(1), Q(3, 2), Q(2), Q(3), Q(5)})
          compare(RrProductLaw(g, k, (1u << k) - 1), RrProductLaw(g, k, (1u << k) - 1 - ((1u << h) - 1)), E,
                  "RR^⊗" + std::to_string(k) + " γ=" + S(g) + " h=" + std::to_string(h) + " e^ε=" + S(E));
  // Arbitrary pairs on 4 outcomes (seeded, positive rational weights).
  std::mt19937_64 rng(o.seed);
  auto uniform = [&](long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(rng); };
  for (int t = 0; t < (o.quick ? 50 : 400); ++t) {
    std::vector<Rational> P(4), Qv(4);
    Rational sp(0), sq(0);
    for (int y = 0; y < 4; ++y) {
      P[y] = Q(uniform(0, 9));
      Qv[y] = Q(uniform(1, 9));
      sp += P[y];
      sq += Qv[y];
    }
    if (sp == 0) continue;
    for (int y = 0; y < 4; ++y) {
      P[y] /= sp;
      Qv[y] /= sq;
    }
    compare(P, Qv, 1 + Q(uniform(0, 20), uniform(1, 10)), "random pair #" + std::to_string(t));
  }
  return s.AsVerdict("Definition 1's sup over every event T of P(T) − e^ε Q(T) (all subsets enumerated) equals the "
                     "hockey-stick sum Σ_y [P(y) − e^ε Q(y)]_+ used by every exact profile here; RR^⊗k (k ≤ 3, all "
                     "Hamming distances) and seeded random pairs on 4 outcomes, rational e^ε, exact");
}

// ---- Lemma 1: (α, ρ)-RDP ⇒ (ρ + ln(1/δ)/(α − 1), δ)-DP ----------------------------------------
// Judged by the exact hockey-stick δ at the converted ε: (a) for k RR bits (the dominating pair of
// §4.6, whose D_α is k ln S(α)/(α − 1), §4.4) with the exact binomial profile; (b) for seeded
// random pairs on 3 outcomes with D_α from its definition. Since δ(ε) is non-increasing, the
// exact δ at the upper end of the ε enclosure certainly above δ is a certain violation.
Verdict CheckLemma1(const CheckOptions& o) {
  Search s;
  const int prec = Prec(o);
  Rational worst_ratio(0);  // max over instances of δ_exact(ε_L)/δ (how tight Lemma 1 is)
  std::string worst_where;
  const std::vector<long> ks = o.quick ? std::vector<long>{1, 10} : std::vector<long>{1, 10, 100};
  for (const Rational& g : {Q(1, 100), Q(1, 10), Q(1, 4), Q(2, 5)})
    for (long k : ks)
      for (long a : {2L, 3L, 5L, 10L, 30L})
        for (const Rational& delta : {Q(1, 10), Q(1, 1000), Q(1, 100000)}) {
          s.Count();
          const Enclosure lambda = ref::LogQ(prec, Rational(1 / delta));
          const Enclosure d_alpha = Rational(k) * ref::LogQ(prec, ref::RrSInteger(Q(1, 2) + g, static_cast<unsigned long>(a))) /
                                    Rational(a - 1);
          // Flip: ε = D_α alone (RDP read as pure DP, the ln(1/δ)/(α − 1) term dropped).
          const Enclosure eps = o.flip ? d_alpha : d_alpha + lambda / Rational(a - 1);
          const Rational eps_hi = ref::ToInterval(eps).hi();
          if (eps_hi > 1000000) continue;  // beyond the exact profile's domain; δ(ε) = 0 there anyway
          const Interval d = ref::BnnExactDelta(eps_hi, g, Q(k), prec);
          const std::string where = "RR^⊗" + std::to_string(k) + " γ=" + S(g) + " α=" + std::to_string(a) + " δ=" + S(delta);
          if (d.lo() > delta)
            s.Violation(where + ": converted ε = " + Dec(eps, 8) + ", exact δ(ε) = " + Dec(d, 6) + " > δ");
          if (d.hi() / delta > worst_ratio) {
            worst_ratio = d.hi() / delta;
            worst_where = where;
          }
        }
  std::mt19937_64 rng(o.seed + 1);
  auto uniform = [&](long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(rng); };
  for (int t = 0; t < (o.quick ? 60 : 400); ++t) {
    std::vector<Rational> P(3), Qv(3);
    Rational sp(0), sq(0);
    for (int y = 0; y < 3; ++y) {
      P[y] = Q(uniform(1, 12));
      Qv[y] = Q(uniform(1, 12));
      sp += P[y];
      sq += Qv[y];
    }
    for (int y = 0; y < 3; ++y) {
      P[y] /= sp;
      Qv[y] /= sq;
    }
    const long a = uniform(2, 6);
    const Rational delta = uniform(0, 1) ? Q(1, 10) : Q(1, 1000);
    s.Count();
    const Enclosure lambda = ref::LogQ(prec, Rational(1 / delta));
    const Enclosure d_alpha = ref::LogQ(prec, RenyiSum(P, Qv, a)) / Rational(a - 1);
    const Enclosure E = ref::Exp(o.flip ? d_alpha : d_alpha + lambda / Rational(a - 1));
    Enclosure d(prec, 0L);
    for (int y = 0; y < 3; ++y) d += ref::Max(Enclosure(prec, 0L), P[y] - E * Qv[y]);
    if (ref::CertainlyLess(Enclosure(prec, delta), d))
      s.Violation("P=(" + S(P[0]) + "," + S(P[1]) + "," + S(P[2]) + ") Q=(" + S(Qv[0]) + "," + S(Qv[1]) + "," + S(Qv[2]) +
                  ") α=" + std::to_string(a) + " δ=" + S(delta) + ": exact δ(ε_Lemma1) = " + Dec(d, 6) + " > δ");
  }
  return s.AsVerdict("Lemma 1's ε = D_α + ln(1/δ)/(α−1), judged by the exact hockey-stick δ(ε): RR^⊗k (k = T·h bits, the "
                     "dominating pair), integer α ∈ {2, 3, 5, 10, 30}, δ ∈ {1e-1, 1e-3, 1e-5}, and seeded random pairs on 3 "
                     "outcomes; tightest instance δ_exact(ε)/δ ≤ " + ref::ToDecimalString(worst_ratio, 4) + " (" + worst_where +
                     "): valid, not tight");
}

// ---- Lemma 2 (E30): releasing both outputs is (α, ρ1 + ρ2)-RDP, adaptively ------------------------
// The joint law of (y1, y2) with y1 = M1(b) and y2 = M2(b; y1) — the second mechanism chosen from
// the first output — is enumerated, its Rényi sum computed from Definition 2 (exact, integer α),
// and compared with e^{(α−1)(ρ1+ρ2)} = S1 · max_{y1} S2(y1) (M2's RDP is the sup over its inputs,
// the history y1 included). E30's other reading, function composition M1(M2(b)), is computed too
// (the composed pmf, enumerated): it satisfies the bound as well but is not the joint release.
Verdict CheckLemma2(const CheckOptions& o) {
  Search s;
  const std::vector<Rational> gammas = {Q(0), Q(1, 10), Q(1, 4), Q(2, 5)};
  Rational closest_composition(0);  // max over instances of (S_composition − 1)/(S1·S2 − 1)
  auto bound = [&](const Rational& s1, const std::vector<Rational>& s2) {
    // Flip: the second mechanism's cost taken at the most favourable history (min instead of sup).
    return s1 * (o.flip ? *std::min_element(s2.begin(), s2.end()) : *std::max_element(s2.begin(), s2.end()));
  };
  for (long a = 2; a <= (o.quick ? 4 : 6); ++a)
    for (const Rational& g1 : gammas)
      for (const Rational& g2p : gammas)      // γ2 after y1 = +1
        for (const Rational& g2m : gammas) {  // γ2 after y1 = −1
          s.Count();
          // Inputs b = +1 (P) and b' = −1 (Q); outputs (y1, y2) ∈ {±1}², index 2·[y1=+1] + [y2=+1].
          std::vector<Rational> P(4), Qv(4);
          for (int y1 = 0; y1 < 2; ++y1)
            for (int y2 = 0; y2 < 2; ++y2) {
              const Rational& g2 = y1 ? g2p : g2m;
              auto pr = [&](int b) {
                const Rational p1 = ref::RrPlusProbability(g1, b), p2 = ref::RrPlusProbability(g2, b);
                return (y1 ? p1 : 1 - p1) * (y2 ? p2 : 1 - p2);
              };
              P[2 * y1 + y2] = pr(+1);
              Qv[2 * y1 + y2] = pr(-1);
            }
          const Rational joint = RenyiSum(P, Qv, a);
          auto bit_sum = [&](const Rational& g) {
            return RenyiSum({ref::RrPlusProbability(g, 1), 1 - ref::RrPlusProbability(g, 1)},
                            {ref::RrPlusProbability(g, -1), 1 - ref::RrPlusProbability(g, -1)}, a);
          };
          const Rational s1 = bit_sum(g1);
          const std::vector<Rational> s2 = {bit_sum(g2p), bit_sum(g2m)};
          const std::string where = "α=" + std::to_string(a) + " γ1=" + S(g1) + " γ2(y1=+1)=" + S(g2p) + " γ2(y1=−1)=" + S(g2m);
          if (joint > bound(s1, s2))
            s.Violation(where + ": Σ P^α Q^(1−α) of the joint release = " + S(joint) + " > e^((α−1)(ρ1+ρ2)) = " +
                        S(bound(s1, s2)));
          if (g2p == g2m && joint != s1 * s2[0])
            s.Violation(where + ": non-adaptive joint release " + S(joint) + " ≠ S1·S2 = " + S(s1 * s2[0]) + " (not tight)");
          // Function composition RR_γ1(RR_γ2(b)), γ2 = γ2(+1): both coins enumerated.
          if (g2p == g2m) {
            auto composed_plus = [&](int b) {
              const Rational inner = ref::RrPlusProbability(g2p, b);
              return inner * ref::RrPlusProbability(g1, 1) + (1 - inner) * ref::RrPlusProbability(g1, -1);
            };
            const Rational comp = RenyiSum({composed_plus(1), 1 - composed_plus(1)}, {composed_plus(-1), 1 - composed_plus(-1)}, a);
            if (comp > bound(s1, s2)) s.Violation(where + ": function composition exceeds S1·S2");
            if (s1 * s2[0] > 1) closest_composition = ref::Max(closest_composition, Rational((comp - 1) / (s1 * s2[0] - 1)));
          }
        }
  // Arbitrary first mechanisms on 3 outcomes, second mechanisms (2 outcomes) chosen per y1.
  std::mt19937_64 rng(o.seed + 2);
  auto uniform = [&](long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(rng); };
  auto random_law = [&](int m) {
    std::vector<Rational> v(static_cast<std::size_t>(m));
    Rational t(0);
    for (auto& x : v) t += (x = Q(uniform(1, 9)));
    for (auto& x : v) x /= t;
    return v;
  };
  for (int t = 0; t < (o.quick ? 40 : 300); ++t) {
    const long a = uniform(2, 5);
    const std::vector<Rational> P1 = random_law(3), Q1 = random_law(3);
    std::vector<std::vector<Rational>> P2, Q2;
    std::vector<Rational> s2;
    for (int y1 = 0; y1 < 3; ++y1) {
      P2.push_back(random_law(2));
      Q2.push_back(random_law(2));
      s2.push_back(RenyiSum(P2.back(), Q2.back(), a));
    }
    std::vector<Rational> P, Qv;
    for (int y1 = 0; y1 < 3; ++y1)
      for (int y2 = 0; y2 < 2; ++y2) {
        P.push_back(P1[y1] * P2[y1][y2]);
        Qv.push_back(Q1[y1] * Q2[y1][y2]);
      }
    s.Count();
    const Rational joint = RenyiSum(P, Qv, a), b = bound(RenyiSum(P1, Q1, a), s2);
    if (joint > b) s.Violation("random adaptive pair #" + std::to_string(t) + " α=" + std::to_string(a) + ": " + S(joint) + " > " + S(b));
  }
  return s.AsVerdict("Lemma 2 as the joint (adaptive) release of both outputs (E30): the Rényi sum of the enumerated joint "
                     "law ≤ S1 · sup_history S2 for RR with γ2 chosen from y1 and seeded random mechanisms, with equality "
                     "when not adaptive; the function-composition reading RR_γ1∘RR_γ2 = RR_2γ1γ2 also obeys the bound, "
                     "but loosely (its S − 1 reaches at most " + ref::ToDecimalString(closest_composition, 3) +
                     "·(S1·S2 − 1)) and is not what T rounds release");
}

// ---- §II-C neighbours (E7): add/remove-one-client with the sum revealed vs replace-one ------------
// The server learns Σ_i b̃_i over the participating clients. Under add/remove (§II-C) the two
// datasets have n and n + 1 participants; under replace-one (what the proof bounds) client c's
// bit changes. Laws of the sum from the literal reports (Poisson-binomial by convolution of each
// reporter's ±1 law), hockey-stick δ at e^ε = p/q (ε = ℓ, the pure-DP level of one RR bit that
// Lemma 3 gives at α = ∞) and at e^ε = 1: exact rationals.
// Pads the law of a sum over m reporters (support −m..m) to the support −M..M.
std::vector<Rational> Pad(const std::vector<Rational>& law, std::size_t M) {
  const std::size_t m = (law.size() - 1) / 2;
  std::vector<Rational> out(2 * M + 1, Rational(0));
  for (std::size_t i = 0; i < law.size(); ++i) out[i + M - m] = law[i];
  return out;
}

Verdict CheckNeighbours(const CheckOptions& o) {
  Search printed, corrected;
  for (int n = 1; n <= (o.quick ? 4 : 7); ++n)
    for (const Rational& g : {Q(1, 10), Q(1, 4), Q(2, 5)}) {
      const Rational p = Q(1, 2) + g, q = Q(1, 2) - g;
      for (unsigned others = 0; others < (1u << n); ++others)  // the other n clients' bits
        for (int bc : {1, -1}) {                                 // client c's bit
          std::vector<Rational> base;
          for (int i = 0; i < n; ++i) base.push_back(ref::RrPlusProbability(g, ((others >> i) & 1u) ? 1 : -1));
          std::vector<Rational> with_c = base;
          with_c.push_back(ref::RrPlusProbability(g, bc));
          const std::string where = "n=" + std::to_string(n) + " γ=" + S(g) + " others=" + std::to_string(others) +
                                    " b_c=" + std::to_string(bc);
          // Printed (§II-C add/remove): D without client c (n reports) vs D ∪ {c} (n + 1 reports).
          // Flip: E7's remedy — a public n, the absent client sending a dummy fair coin (RR_0).
          std::vector<Rational> without_c = base;
          if (o.flip) without_c.push_back(Q(1, 2));
          const std::vector<Rational> P = SumLaw(with_c), Qv = Pad(SumLaw(without_c), static_cast<std::size_t>(n + 1));
          printed.Count();
          for (const auto& [P1, Q1] : {std::pair{P, Qv}, std::pair{Qv, P}}) {
            const Rational d = HockeyStick(P1, Q1, p / q);
            if (d > 0) {
              printed.Violation(where + ": add/remove of client c with Σ b̃ revealed (n not public): δ(ε = ℓ) = " + S(d) +
                                " > 0" + (d == 1 ? " (the supports have different parities: δ = 1 at every ε)" : ""));
              break;
            }
          }
          // Corrected (replace-one): client c's bit b_c vs −b_c, everything else equal.
          std::vector<Rational> replaced = base;
          replaced.push_back(ref::RrPlusProbability(g, -bc));
          const std::vector<Rational> Q2 = SumLaw(replaced);
          corrected.Count();
          const Rational d_pure = HockeyStick(P, Q2, p / q), d_tv = HockeyStick(P, Q2, Q(1));
          if (d_pure > 0) corrected.Violation(where + ": replace-one δ(ℓ) = " + S(d_pure) + " > 0");
          if (d_tv > 2 * g) corrected.Violation(where + ": replace-one TV = " + S(d_tv) + " > 2γ (one RR bit's)");
        }
    }
  return CompareVariants(printed, corrected,
                         "law of the revealed Σ b̃ (exact convolution of the literal reports): add/remove-one-client "
                         "(§II-C, n not public) vs replace-one (E7), hockey-stick δ at e^ε = p/q (Lemma 3's α = ∞ level) "
                         "and at ε = 0 (≤ 2γ, data processing)");
}

// ---- §4.8 aggregate law (and E19's confound E[W̃] = 2γθ̄) ---------------------------------------
// One coordinate, n clients with latents θ_i: each client's StoSign coin (P(+1) = clip((θ+1)/2,
// 0, 1)) and RR coin (keep 1/2 + γ) are enumerated (4^n outcomes), giving the law of K = #(+1).
// It must equal the Poisson-binomial(1/2 + γθ_i) law of ref::PoissonBinomialPmf, the average
// W̃ = (2K − n)/n must have mean 2γθ̄ and variance (1/n²)Σ(1 − 4γ²θ_i²), W̃/(2γ) is unbiased for θ̄
// (γ > 0), and at γ = 0 the law is Binomial(n, 1/2) whatever the θ_i (§7.3 item 18).
std::vector<Rational> EnumeratedCountLaw(const std::vector<Rational>& thetas, const Rational& keep) {
  const std::size_t n = thetas.size();
  std::vector<Rational> law(n + 1, Rational(0));
  for (unsigned coins = 0; coins < (1u << (2 * n)); ++coins) {
    Rational pr(1);
    std::size_t k = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const Rational sigma = ref::Min(Rational(1), ref::Max(Rational(0), Rational((thetas[i] + 1) / 2)));
      const bool sto_plus = (coins >> (2 * i)) & 1u, kept = (coins >> (2 * i + 1)) & 1u;
      pr *= (sto_plus ? sigma : 1 - sigma) * (kept ? keep : 1 - keep);
      k += (sto_plus == kept) ? 1 : 0;  // kept +1 or flipped −1 gives +1
    }
    law[k] += pr;
  }
  return law;
}

Verdict CheckAggregateLaw(const CheckOptions& o) {
  Search s;
  const std::vector<Rational> grid = {Q(-1), Q(-1, 2), Q(0), Q(1, 3), Q(1)};
  for (int n = 1; n <= (o.quick ? 3 : 4); ++n) {
    std::vector<int> idx(static_cast<std::size_t>(n), 0);  // non-decreasing index tuples (multisets)
    while (true) {
      std::vector<Rational> thetas;
      Rational mean_theta(0);
      for (int i : idx) {
        thetas.push_back(grid[static_cast<std::size_t>(i)]);
        mean_theta += grid[static_cast<std::size_t>(i)] / n;
      }
      for (const Rational& g : {Q(0), Q(1, 10), Q(1, 4), Q(1, 2)}) {
        s.Count();
        std::string where = "n=" + std::to_string(n) + " γ=" + S(g) + " θ=(";
        for (const Rational& t : thetas) where += S(t) + ",";
        where.back() = ')';
        const std::vector<Rational> law = EnumeratedCountLaw(thetas, Q(1, 2) + g);
        std::vector<Rational> probs;
        for (const Rational& t : thetas) probs.push_back(Q(1, 2) + g * t);
        if (law != ref::PoissonBinomialPmf(probs)) s.Violation(where + ": enumerated law ≠ Poisson-binomial(1/2 + γθ_i)");
        Rational mean(0), second(0);
        for (int k = 0; k <= n; ++k) {
          const Rational w = Rational(2 * k - n, n);
          mean += law[static_cast<std::size_t>(k)] * w;
          second += law[static_cast<std::size_t>(k)] * w * w;
        }
        const Rational var = second - mean * mean;
        Rational var_formula(0);
        // Flip: the variance formula with 4γθ² (γ not squared).
        for (const Rational& t : thetas) var_formula += (1 - 4 * (o.flip ? g : Rational(g * g)) * t * t) / (n * n);
        if (mean != 2 * g * mean_theta) s.Violation(where + ": E[W̃] = " + S(mean) + " ≠ 2γθ̄ = " + S(2 * g * mean_theta));
        if (var != var_formula) s.Violation(where + ": Var[W̃] = " + S(var) + " ≠ (1/n²)Σ(1 − 4γ²θ²) = " + S(var_formula));
        if (g > 0 && mean / (2 * g) != mean_theta) s.Violation(where + ": W̃/(2γ) biased");
        if (g == 0) {
          std::vector<Rational> fair(static_cast<std::size_t>(n), Q(1, 2));
          if (law != ref::PoissonBinomialPmf(fair)) s.Violation(where + ": γ = 0 law depends on the data");
        }
      }
      int i = n - 1;
      while (i >= 0 && idx[static_cast<std::size_t>(i)] == static_cast<int>(grid.size()) - 1) --i;
      if (i < 0) break;
      const int v = ++idx[static_cast<std::size_t>(i)];
      for (int j = i + 1; j < n; ++j) idx[static_cast<std::size_t>(j)] = v;
    }
  }
  return s.AsVerdict("law of the per-coordinate count K from every StoSign and RR coin (enumerated) = Poisson-binomial("
                     "1/2 + γθ_i); E[W̃] = 2γθ̄ (E19: the server term shrinks with γ), Var[W̃] = (1/n²)Σ(1 − 4γ²θ_i²), "
                     "W̃/(2γ) unbiased; γ = 0 gives Binomial(n, 1/2) independent of the data; n ≤ " + std::to_string(o.quick ? 3 : 4) + ", θ on a grid, exact");
}

// ---- the promised convergence / performance guarantee (abstract, §III; absent: E18) --------------
// The paper states no theorem, assumption or bound, so there is no inequality to evaluate and no
// PASS or FAIL is possible: the verdict is INCONCLUSIVE unless the one computable ingredient fails.
// That ingredient (spec §4.8/§4.9: "nothing about convergence can be tested beyond the aggregate
// statistics") is the exact one-round law of a client's mixed latent W^i = β·W̃ + (1 − β)·W̄^i of
// Alg. E, from every StoSign and RR coin of n ≤ 3 clients: its mean must be 2γβθ̄ + (1 − β)W̄^i and
// its variance β²(1/n²)Σ(1 − 4γ²θ_j²); so the client-average latent contracts, in expectation and
// without gradient steps, by 1 − β(1 − 2γ) per round — the one noise dependence that is derivable.
Verdict CheckConvergence(const CheckOptions& o) {
  Search s;
  const std::vector<Rational> grid = {Q(-1), Q(-1, 3), Q(1, 2), Q(1)};
  const Rational beta = Q(3, 10);  // the paper's β
  for (int n = 1; n <= (o.quick ? 2 : 3); ++n) {
    std::size_t combos = 1;
    for (int i = 0; i < n; ++i) combos *= grid.size();
    for (std::size_t c = 0; c < combos; ++c) {
      std::vector<Rational> thetas;
      Rational mean_theta(0);
      for (std::size_t i = 0, r = c; i < static_cast<std::size_t>(n); ++i, r /= grid.size()) {
        thetas.push_back(grid[r % grid.size()]);
        mean_theta += thetas.back() / n;
      }
      for (const Rational& g : {Q(0), Q(1, 10), Q(1, 4), Q(2, 5)}) {
        s.Count();
        // Flip: the keep probability 1/2 + γ/2 in the enumeration (a misread RR bias).
        const std::vector<Rational> law = EnumeratedCountLaw(thetas, Q(1, 2) + (o.flip ? Rational(g / 2) : g));
        Rational mean(0), second(0);
        for (int k = 0; k <= n; ++k) {
          const Rational w = beta * Rational(2 * k - n, n) + (1 - beta) * thetas[0];  // client 1's mixed latent
          mean += law[static_cast<std::size_t>(k)] * w;
          second += law[static_cast<std::size_t>(k)] * w * w;
        }
        Rational var_formula(0);
        for (const Rational& t : thetas) var_formula += beta * beta * (1 - 4 * g * g * t * t) / (n * n);
        std::string where = "n=" + std::to_string(n) + " γ=" + S(g) + " β=3/10 θ=(";
        for (const Rational& t : thetas) where += S(t) + ",";
        where.back() = ')';
        if (mean != 2 * g * beta * mean_theta + (1 - beta) * thetas[0])
          s.Violation(where + ": E[W^1] = " + S(mean) + " ≠ 2γβθ̄ + (1−β)W̄^1");
        if (second - mean * mean != var_formula) s.Violation(where + ": Var[W^1] ≠ β²(1/n²)Σ(1 − 4γ²θ²)");
      }
    }
  }
  Verdict v = s.AsVerdict("");
  if (v.status == Status::kPass) v.status = Status::kInconclusive;
  v.note = "ABSENT (E18): the abstract says a performance guarantee depending on the noise level is rigorously proved, and "
           "§III promises a convergence analysis; the paper contains no theorem, assumption or bound, so nothing can be "
           "PASS or FAIL. Computed instead (the only derivable noise dependence, spec §4.8–4.9): one round of Alg. 1' from "
           "every StoSign and RR coin (n ≤ " + std::to_string(o.quick ? 2 : 3) + ", β = 3/10, exact), E[W^i] = 2γβθ̄ + (1−β)W̄^i and Var[W^i] = "
           "β²(1/n²)Σ(1 − 4γ²θ_j²). Trend: the expected pull to consensus 2γβ vanishes as γ → 0 (at γ = 0 the server term "
           "is pure noise) and the client-average latent contracts by 1 − β(1 − 2γ) per round without gradient steps" +
           (v.counterexample.empty() ? std::string() : "; the computed ingredient fails");
  return v;
}

}  // namespace

void AddSeed004LemmasClaims(Catalog& c) {
  const std::string seed = "004";
  c.push_back({"004/Def1/hockey-stick", seed,
               "(ε, δ)-DP over all measurable T ⇔ δ ≥ Σ_y [P(y) − e^ε Q(y)]_+ (the form every exact profile uses)",
               "spec 004 §2 Definition 1, §4.6", {}, Status::kPass, CheckDef1HockeyStick,
               "the hockey-stick sum without its positive part"});
  c.push_back({"004/Lemma1/rdp-to-dp", seed, "(α, ρ)-RDP implies (ρ + ln(1/δ)/(α − 1), δ)-DP for every δ ∈ (0, 1)",
               "spec 004 §4.1", {}, Status::kPass, CheckLemma1,
               "the converted ε without its ln(1/δ)/(α − 1) term (RDP read as pure DP)"});
  c.push_back({"004/Lemma2/composition", seed, "M1 ∘ M2 is (α, ρ1(α) + ρ2(α))-RDP (the release of both outputs, adaptively)",
               "spec 004 §4.2", {"E30"}, Status::kPass, CheckLemma2,
               "M2's cost taken at the most favourable history (min over y1 instead of the sup)"});
  c.push_back({"004/II-C/neighbours", seed,
               "client-level DP under add/remove-one-client neighbours (§II-C) with the aggregate sum revealed",
               "spec 004 §2 (client-level neighbouring), §6 E7", {"E7"}, Status::kPassCorrected, CheckNeighbours,
               "the absent client replaced by a dummy fair-coin report (a public n, E7's remedy)"});
  c.push_back({"004/4.8/aggregate-law", seed,
               "[DERIVED] the aggregate count is Poisson-binomial(1/2 + γθ_i); E[W̃] = 2γθ̄, Var = (1/n²)Σ(1 − 4γ²θ_i²)",
               "spec 004 §4.8, §7.3 item 18", {"E19"}, Status::kPass, CheckAggregateLaw,
               "the variance formula with 4γθ² (γ not squared)"});
  c.push_back({"004/Abstract/convergence", seed,
               "the achieved performance (convergence) guarantee is rigorously proved and depends on the noise level",
               "spec 004 §4.9 (absent), §4.8, §6 E18", {}, Status::kInconclusive, CheckConvergence,
               "the enumerated round with keep probability 1/2 + γ/2 instead of 1/2 + γ"});
}

}  // namespace dpfl::proofs
