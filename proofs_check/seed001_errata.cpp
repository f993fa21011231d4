// dpfl-proofs — seed 001 (CoQ-FL / LDP-FedCR draft): claims for errata that no other claim
// evaluates (the errata registry's pending list, errata_registry.cpp), each evaluating the printed
// and the corrected form from Eq. (2)'s law, exactly.
#include <algorithm>
#include <bit>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "claims.hpp"
#include "dpfl/ref/coq.hpp"
#include "dpfl/ref/ldpq.hpp"
#include "instances.hpp"
#include "seed001_shared.hpp"

namespace dpfl::proofs {

namespace {

// The Seed001* prototypes (seed001_coq_fl.cpp) and Law, Pairs, Expect, SumOf, List: seed001_shared.hpp.
using seed001::Expect;
using seed001::Law;
using seed001::List;
using seed001::Pairs;
using seed001::SumOf;

// Random populations for E3/E4: n ∈ 1..6 clients, consecutive pairs (0,1), (2,3), … (odd n: the
// last client alone, §3.6 choice 1), E = 1 + a/b, c = k/8, r = a/b, w on a grid of [c − r, c + r],
// d ∈ 0..6, p_x ∈ {1/2, 1/3}.
struct Population {
  Rational E, c, r, px;
  int d = 0;
  std::vector<Rational> w;
  Pairs pairs;
  std::string Describe() const {
    return "n=" + std::to_string(w.size()) + " E=" + S(E) + " c=" + S(c) + " r=" + S(r) + " d=" + std::to_string(d) +
           " p_x=" + S(px) + " w=" + List(w) + " (pairs (0,1),(2,3),…)";
  }
};
template <class Fn>
void ForEachPopulation(const CheckOptions& o, std::uint64_t salt, Fn&& fn) {
  std::mt19937_64 rng(o.seed + salt);
  auto uniform = [&](long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(rng); };
  for (int t = 0; t < (o.quick ? 40 : 200); ++t) {
    Population x;
    const long n = uniform(1, 6);
    x.E = 1 + Q(uniform(1, 30), uniform(1, 30));
    x.c = Q(uniform(-8, 8), 8);
    x.r = Q(uniform(1, 12), uniform(1, 6));
    x.d = static_cast<int>(uniform(0, 6));
    x.px = t % 2 ? Q(1, 3) : Q(1, 2);
    const long den = uniform(1, 12);
    for (long i = 0; i < n; ++i) x.w.push_back(x.c - x.r + 2 * x.r * Q(uniform(0, den), den));
    for (std::size_t i = 0; i + 1 < x.w.size(); i += 2) x.pairs.emplace_back(i, i + 1);
    fn(x);
  }
}

// Eq. (4)'s right side from the spec's formulas, not from the enumeration: Var_i = α²r² − (w_i − c)²
// (Eq. 3), Cov of a pair 4r²α²(π++ − P_A P_B) (D4) with the D3 closed form, 0 across groups.
Rational Eq4FromFormulas(const Population& x) {
  const Rational alpha = ref::AlphaFromE(x.E), n(static_cast<long>(x.w.size()));
  Rational var(0), cov(0);
  for (const Rational& wi : x.w) var += alpha * alpha * x.r * x.r - (wi - x.c) * (wi - x.c);
  const ref::CoqCodebook book(x.px, x.d);
  for (const auto& [a, b] : x.pairs) {
    const Rational PA = ref::LdpqProbPlus(alpha, x.c, x.r, x.w[a]), PB = ref::LdpqProbPlus(alpha, x.c, x.r, x.w[b]);
    cov += ref::CoqCovariance(alpha, x.r, ref::CoqJointClosedForm(book, PA, PB).pp, PA, PB);
  }
  return var / (n * n) + 2 * cov / (n * n);
}

// E3 (spec 001 §6): the Problem Formulation calls the aggregate Σ_i M(w_i) "the mean value", with
// E = w̄ (Lemma 1) and variance Eq. (4). From the enumerated law of all outputs: as printed, the
// sum Σ w_i* has E = Σ w_i, not the mean (1/n)Σ w_i, and its variance is n² times Eq. (4)'s; the
// normative mean (1/n)Σ w_i* (§3.6) has E = w̄ and variance = Eq. (4) (formulas above).
// Flip: the corrected aggregate normalised by 1/(n + 1).
Verdict CheckAggregateMean(const CheckOptions& o) {
  Search printed, corrected;
  ForEachPopulation(o, 31, [&](const Population& x) {
    const Law law = Seed001OutputLaw(x.E, x.c, x.r, x.w, x.pairs, x.d, x.px);
    const Rational n(static_cast<long>(x.w.size())), mean_w = SumOf(x.w) / n, eq4 = Eq4FromFormulas(x);
    auto check = [&](Search& s, const Rational& scale, const std::string& name) {
      s.Count();
      const Rational e1 = Expect(law, [&](const std::vector<Rational>& out) { return scale * SumOf(out); });
      const Rational e2 = Expect(law, [&](const std::vector<Rational>& out) { return Rational(scale * SumOf(out) * scale * SumOf(out)); });
      const Rational var = e2 - e1 * e1;
      if (e1 != mean_w || var != eq4)
        s.Violation(x.Describe() + ": " + name + " has E = " + S(e1) + " (mean of the w_i: " + S(mean_w) + "), Var = " + S(var) +
                    " (Eq. (4): " + S(eq4) + ")");
    };
    check(printed, Q(1), "Σ_i w_i*");
    check(corrected, o.flip ? Rational(1 / (n + 1)) : Rational(1 / n), o.flip ? "(1/(n+1)) Σ_i w_i*" : "(1/n) Σ_i w_i*");
  });
  return CompareVariants(printed, corrected,
                         "E and Var of the aggregate from the enumerated law of all n outputs (literal CoQ pairs, Eq. (2) "
                         "for the odd one): the sum Σ M(w_i) (printed) vs the mean (1/n)Σ w_i* (E3), against the mean "
                         "of the inputs and Eq. (4) from Eq. (3) and D3/D4");
}

// E4 (spec 001 §6): "Var(w̄) = E[M²(w)] − w̄²". Read literally (M(w) one client's output w_1*,
// w̄ the mean of the inputs): E[(w_1*)²] − w̄². Corrected: Var(w̄*) = E[(w̄*)²] − w̄², w̄* the
// mean output. Both sides from the enumerated law: the left side as the central moment
// E[(w̄* − E w̄*)²], the right side as the raw moment minus w̄² of the inputs (they agree because
// the scheme is unbiased). Flip: w̄ taken as the sum Σ w_i (the draft's other definition, E3).
Verdict CheckVarianceIdentity(const CheckOptions& o) {
  Search printed, corrected;
  ForEachPopulation(o, 37, [&](const Population& x) {
    const Law law = Seed001OutputLaw(x.E, x.c, x.r, x.w, x.pairs, x.d, x.px);
    const Rational n(static_cast<long>(x.w.size()));
    auto mean_out = [&](const std::vector<Rational>& out) { return Rational(SumOf(out) / n); };
    const Rational m1 = Expect(law, mean_out);
    const Rational central = Expect(law, [&](const std::vector<Rational>& out) {
      const Rational dm = mean_out(out) - m1;
      return Rational(dm * dm);
    });
    const Rational wbar = o.flip ? SumOf(x.w) : Rational(SumOf(x.w) / n);
    printed.Count();
    const Rational lit = Expect(law, [&](const std::vector<Rational>& out) { return Rational(out[0] * out[0]); }) -
                         SumOf(x.w) / n * (SumOf(x.w) / n);
    if (lit != central) printed.Violation(x.Describe() + ": Var(w̄*) = " + S(central) + " ≠ E[(w_1*)²] − w̄² = " + S(lit));
    corrected.Count();
    const Rational raw = Expect(law, [&](const std::vector<Rational>& out) { return Rational(mean_out(out) * mean_out(out)); }) -
                         wbar * wbar;
    if (raw != central) corrected.Violation(x.Describe() + ": Var(w̄*) = " + S(central) + " ≠ E[(w̄*)²] − w̄² = " + S(raw));
  });
  return CompareVariants(printed, corrected,
                         "Var(w̄*) as the central moment of the enumerated law vs E[(w_1*)²] − w̄² (printed, read "
                         "literally) and E[(w̄*)²] − w̄² (E4)");
}

// E17 / §4.6(e): "for n pairs … the gain is magnified by n/2". Gain of a pair: g = Var_ind(w_A* +
// w_B*) − Var_cor(w_A* + w_B*), both from enumerated laws (d = 0 is LDP-FL, D3). With m clients in
// m/2 pairs all given the same (w_A, w_B), the gain of the sum G_m = Var_ind(Σ) − Var_cor(Σ) from
// the enumerated law of all m outputs. As printed (n pairs, 2n clients): G_2n = (n/2) g. Corrected
// (n clients, n/2 pairs): G_n = (n/2) g, and Var(mean) = (1/n²)Σ_pairs Var(pair) ≤ sup_pair/(2n)
// with sup_pair §4.6(d)'s ideal sup for d ≥ 1 (D7: = the finite-d sup at p_x = 1/2) and LDP-FL's
// 2r²α² at d = 0; independent clients have α²r²/n. Flip: the corrected multiplier n/2 replaced by n.
Verdict CheckNPairsGain(const CheckOptions& o) {
  Search printed, corrected;
  std::vector<Rational> grid = {Q(-1), Q(0), Q(1, 3), Q(1)}, Es = {Q(3, 2), Q(3)};
  std::vector<int> ds = {1, 3};
  if (!o.quick) {
    grid = {Q(-1), Q(-1, 2), Q(0), Q(1, 3), Q(3, 4), Q(1)};
    Es = {Q(3, 2), Q(2), Q(3), Q(5)};
    ds = {0, 1, 2, 3, 4, 6};
  }
  for (const Rational& E : Es)
    for (int d : ds)
      for (const Rational& wa : grid)
        for (const Rational& wb : grid) {
          const Rational c(0), r(1), alpha = ref::AlphaFromE(E), px(1, 2);
          // Var(Σ outputs) for m clients in m/2 pairs at (w_A, w_B), d bits; m ∈ {2, 4, 6, 8}.
          std::map<std::pair<int, int>, Rational> memo;
          auto var_sum = [&](int clients, int dd) {
            auto it = memo.find({clients, dd});
            if (it != memo.end()) return it->second;
            std::vector<Rational> w;
            Pairs pairs;
            for (int k = 0; k < clients / 2; ++k) {
              pairs.emplace_back(w.size(), w.size() + 1);
              w.push_back(wa);
              w.push_back(wb);
            }
            const Law law = Seed001OutputLaw(E, c, r, w, pairs, dd, px);
            const Rational e1 = Expect(law, [](const std::vector<Rational>& out) { return SumOf(out); });
            const Rational v = Expect(law, [](const std::vector<Rational>& out) { return Rational(SumOf(out) * SumOf(out)); }) - e1 * e1;
            memo.emplace(std::make_pair(clients, dd), v);
            return v;
          };
          const Rational g = var_sum(2, 0) - var_sum(2, d);
          const std::string where = "E=" + S(E) + " c=0 r=1 d=" + std::to_string(d) + " p_x=1/2 every pair (w_A, w_B) = (" +
                                    S(wa) + ", " + S(wb) + "), pair gain g = " + S(g);
          for (int n : {2, 4, 6}) {
            if (2 * n <= 8) {  // n pairs = 2n clients
              printed.Count();
              const Rational G = var_sum(2 * n, 0) - var_sum(2 * n, d);
              if (G != Q(n, 2) * g)
                printed.Violation(where + ": " + std::to_string(n) + " pairs (" + std::to_string(2 * n) + " clients) gain " +
                                  S(G) + " ≠ (n/2)·g = " + S(Rational(Q(n, 2) * g)));
            }
            corrected.Count();  // n clients = n/2 pairs
            const Rational vcor = var_sum(n, d), G = var_sum(n, 0) - vcor;
            const Rational multiplier = o.flip ? Q(n) : Q(n, 2);
            // sup_pair of the mechanism in use: LDP-FL's 2r²α² at d = 0, else the ideal sup (D7, p_x = 1/2).
            const Rational sup_pair = d == 0 ? ref::IndependentPairSumVarianceSup(alpha, r) : ref::IdealPairSumVarianceSup(alpha, r);
            const Rational var_mean = vcor / (n * n), bound = sup_pair / (2 * n);
            if (G != multiplier * g || var_mean > bound)
              corrected.Violation(where + ": " + std::to_string(n) + " clients gain " + S(G) + " vs " + S(multiplier) +
                                  "·g, Var(mean) = " + S(var_mean) + " vs sup_pair/(2n) = " + S(bound));
          }
        }
  return CompareVariants(printed, corrected,
                         "variance gain of the sum (independent minus correlated, enumerated laws) with every pair at the "
                         "same weights: printed n pairs ↦ (n/2)·g vs n clients ↦ (n/2)·g and Var(mean) ≤ sup_pair/(2n) "
                         "(E17, §4.6(e))");
}

// E20 / §3.6: "ConvertToInteger: any fixed bijection {0,1}^d → {0..2^d−1} that preserves the
// Hamming weight works; both clients must use the same map." For d ≤ 3 every weight-preserving
// bijection σ (36 at d = 3) is applied by both clients to the same CR bit vector (enumerated with
// its Bernoulli weight): the marginals must be exactly P_A, P_B and the joint the one with the
// MSB-first map. Necessity, also computed: at d = 2 every bijection that does not preserve the
// weight biases some marginal when p_x ≠ 1/2, and a different weight-preserving map for Bob
// changes the joint. P_A, 1 − P_B on the cell boundaries F(k) and midpoints. Flip: in the
// "same map" part Bob uses the LSB-first (bit-reversed) map while Alice uses σ.
Verdict CheckBitOrder(const CheckOptions& o) {
  Search s;
  std::uint64_t maps_checked = 0, biased_maps = 0, mixed_changes = 0;
  for (int d = 1; d <= 3; ++d) {
    const std::size_t N = std::size_t{1} << d;
    auto reverse_bits = [&](std::size_t i) {
      std::size_t out = 0;
      for (int k = 0; k < d; ++k) out |= ((i >> k) & 1U) << (d - 1 - k);
      return out;
    };
    std::vector<std::size_t> perm(N);
    for (std::size_t i = 0; i < N; ++i) perm[i] = i;
    std::vector<std::vector<std::size_t>> all;
    do all.push_back(perm);
    while (std::next_permutation(perm.begin(), perm.end()));
    for (const Rational& px : {Q(1, 2), Q(1, 3), Q(3, 4)}) {
      const std::vector<Rational>& list = Seed001List(px, d, ref::CoqList::kCorrected);
      const std::vector<Rational>& G = Seed001CrCdf(px, d);  // P(I < i) with I the MSB-first value of b
      std::vector<Rational> P;
      for (std::size_t k = 0; k < N; ++k) {
        P.push_back(list[k]);
        if (!o.quick || d < 3 || k % 3 == 0) P.push_back((list[k] + list[k + 1]) / 2);  // quick, d = 3: fewer midpoints
      }
      P.push_back(Q(1));
      // Joint when Alice applies sigma_a and Bob sigma_b to the bit vector whose MSB-first value is i.
      auto joint = [&](const std::vector<std::size_t>& sa, const std::vector<std::size_t>& sb, const Rational& PA,
                       const Rational& PB) {
        std::size_t ia = 0, ib = 0;
        Seed001FindIndex(list, PA, ref::CoqList::kCorrected, &ia);
        Seed001FindIndex(list, Rational(1 - PB), ref::CoqList::kCorrected, &ib);
        const Rational ta = (PA - list[ia]) / (list[ia + 1] - list[ia]), tb = (1 - PB - list[ib]) / (list[ib + 1] - list[ib]);
        ref::CoqJoint<Rational> j{Rational(0), Rational(0), Rational(0), Rational(0)};
        for (std::size_t i = 0; i < N; ++i) {
          const Rational mass = G[i + 1] - G[i];
          const std::size_t I = sa[i], J = sb[i];
          const Rational a = I < ia ? Rational(1) : I > ia ? Rational(0) : ta;             // UP = +1
          const Rational b = J < ib ? Rational(0) : J > ib ? Rational(1) : Rational(1 - tb);  // UP = −1
          j.pp += mass * a * b;
          j.pm += mass * a * (1 - b);
          j.mp += mass * (1 - a) * b;
          j.mm += mass * (1 - a) * (1 - b);
        }
        return j;
      };
      std::vector<std::size_t> msb(N), lsb(N);
      for (std::size_t i = 0; i < N; ++i) {
        msb[i] = i;
        lsb[i] = reverse_bits(i);
      }
      std::vector<ref::CoqJoint<Rational>> reference;  // the MSB-first joint on the P grid
      for (const Rational& PA : P)
        for (const Rational& PB : P) reference.push_back(joint(msb, msb, PA, PB));
      for (const auto& sigma : all) {
        bool preserving = true;
        for (std::size_t i = 0; i < N; ++i) preserving = preserving && std::popcount(sigma[i]) == std::popcount(i);
        if (!preserving && d != 2) continue;
        bool biased = false;
        for (std::size_t a = 0; a < P.size(); ++a)
          for (std::size_t b = 0; b < P.size(); ++b) {
            const Rational& PA = P[a];
            const Rational& PB = P[b];
            const auto j = joint(sigma, sigma, PA, PB);
            if (preserving) {
              s.Count();
              const auto jm = o.flip ? joint(sigma, lsb, PA, PB) : j;
              const auto& ref_j = reference[a * P.size() + b];
              if (j.APlus() != PA || j.BPlus() != PB || jm.pp != ref_j.pp || jm.pm != ref_j.pm || jm.mp != ref_j.mp)
                s.Violation("d=" + std::to_string(d) + " p_x=" + S(px) + " P_A=" + S(PA) + " P_B=" + S(PB) +
                            ", a weight-preserving map: marginals (" + S(j.APlus()) + ", " + S(j.BPlus()) + "), π++ = " +
                            S(jm.pp) + " vs MSB-first " + S(ref_j.pp) + (o.flip ? " (Bob LSB-first)" : ""));
            } else if (j.APlus() != PA || j.BPlus() != PB) {
              biased = true;
            }
          }
        if (preserving) ++maps_checked;
        if (!preserving && px != Q(1, 2)) {
          s.Count();
          if (biased) ++biased_maps;
          else s.Violation("d=2 p_x=" + S(px) + ": a bijection that does not preserve the weight leaves every marginal exact");
        }
      }
      if (d >= 2) {  // different maps for the two clients (Alice MSB-first, Bob LSB-first)
        s.Count();
        bool changed = false;
        for (std::size_t a = 0; a < P.size(); ++a)
          for (std::size_t b = 0; b < P.size(); ++b)
            changed = changed || joint(msb, lsb, P[a], P[b]).pp != reference[a * P.size() + b].pp;
        if (changed) ++mixed_changes;
        else s.Violation("d=" + std::to_string(d) + " p_x=" + S(px) + ": Bob's LSB-first map leaves the joint unchanged");
      }
    }
  }
  return s.AsVerdict("ConvertToInteger: " + std::to_string(maps_checked) + " (map, p_x) cases of weight-preserving maps "
                     "used by both clients give exact marginals and the MSB-first joint; " + std::to_string(biased_maps) +
                     " non-weight-preserving maps at d = 2, p_x ≠ 1/2 bias a marginal; different maps for the two "
                     "clients change the joint in " + std::to_string(mixed_changes) + " (d, p_x) cases (E20)");
}

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
  c.push_back({"001/ProbForm/aggregate-mean", seed,
               "the aggregate Σ_i M(w_i) is the mean value, with E = w̄ (Lemma 1) and variance Eq. (4)",
               "spec 001 §3.6, §4.1, §4.4", {"E3"}, Status::kPassCorrected, CheckAggregateMean,
               "the corrected aggregate normalised by 1/(n + 1)"});
  c.push_back({"001/Eq4/variance-identity", seed, "Var(w̄) = E[M²(w)] − w̄²", "spec 001 §4.4", {"E4"},
               Status::kPassCorrected, CheckVarianceIdentity, "w̄ taken as the sum Σ w_i (E3's other reading)"});
  c.push_back({"001/4.6e/n-pairs-gain", seed, "for n pairs the variance gain is magnified by n/2", "spec 001 §4.6(e)",
               {"E17"}, Status::kPassCorrected, CheckNPairsGain, "the corrected multiplier n/2 replaced by n"});
  c.push_back({"001/Alg2/bit-order", seed,
               "[DERIVED] any Hamming-weight-preserving ConvertToInteger works if both clients use the same one",
               "spec 001 §3.6", {"E20"}, Status::kPass, CheckBitOrder,
               "Bob uses the LSB-first map while Alice uses σ"});
}

}  // namespace dpfl::proofs
